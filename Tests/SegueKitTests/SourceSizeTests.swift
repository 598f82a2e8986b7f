import Foundation
import XCTest

/// What a newcomer holds in their head at once stays small: no source file
/// over 450 lines, no folder over 12 files, no function over 60 lines
/// (counted by Scripts/sizes, which says where).
final class SourceSizeTests: XCTestCase {
    func testNoFileFolderOrFunctionIsOverItsLimit() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("Scripts/sizes").path, "--check", repository.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains(" 0 over a limit"), text)
    }
}
