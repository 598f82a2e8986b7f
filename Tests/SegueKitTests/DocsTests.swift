import Foundation
import XCTest

/// The docs' flag tables are made from `--help` (so from the option table),
/// the performance page from the bench's results, the README stays short and
/// every link in it and in docs/ leads somewhere: Scripts/docs --check.
final class DocsTests: XCTestCase {
    func testTheDocsAgreeWithHelpAndTheBenchAndTheirLinksResolve() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("Scripts/docs").path, "--check",
                             "--segue", SegueTool.executable.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
    }
}
