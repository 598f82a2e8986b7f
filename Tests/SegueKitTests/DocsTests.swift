import Foundation
import XCTest

/// The docs' flag tables are made from `--help` (so from the option table)
/// and the performance page from the bench's results (Scripts/docs --check);
/// the README stays short and every relative link in it and in docs/ leads somewhere.
final class DocsTests: XCTestCase {
    func testTheDocsAgreeWithHelpAndTheBench() throws {
        let script = SegueTool.repository.appendingPathComponent("Scripts/docs").path
        let result = try Tool.run("python3", [script, "--check", "--segue", SegueTool.executable.path])
        XCTAssertEqual(result.status, 0, result.standardOutput + result.standardError)
    }

    func testTheReadmeIsShortAndEveryRelativeLinkLeadsSomewhere() throws {
        let readme = SegueTool.repository.appendingPathComponent("README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).filter { $0 == "\n" }.count
        XCTAssertLessThanOrEqual(lines, 250, "README.md has \(lines) lines (at most 250)")
        let docs = SegueTool.repository.appendingPathComponent("docs")
        let pages = try [readme] + FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        let link = try NSRegularExpression(pattern: #"\]\(([^)#\s]+)(?:#[^)]*)?\)"#)
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                guard target.range(of: "^[a-z]+:", options: .regularExpression) == nil else { continue }   // a URL
                let path = page.deletingLastPathComponent().appendingPathComponent(target).standardized.path
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "broken link: \(page.lastPathComponent) -> \(target)")
            }
        }
    }
}
