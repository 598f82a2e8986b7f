import Foundation
import XCTest

/// The docs' flag tables are made from `--help` (so from the option table),
/// the performance page from the bench's results, the README stays short and
/// every link in it and in docs/ leads somewhere: Scripts/docs --check.
final class DocsTests: XCTestCase {
    func testTheDocsAgreeWithHelpAndTheBenchAndTheirLinksResolve() throws {
        let script = SegueTool.repository.appendingPathComponent("Scripts/docs").path
        let result = try Tool.run("python3", [script, "--check", "--segue", SegueTool.executable.path])
        XCTAssertEqual(result.status, 0, result.standardOutput + result.standardError)
    }
}
