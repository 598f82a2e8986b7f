import Foundation
import XCTest

/// What a newcomer holds in their head at once stays small: no source file
/// over 450 lines, no folder over 12 files, no function over 60 lines, in
/// Sources/ and in Scripts/'s Python (counted by Scripts/sizes, which says where).
final class SourceSizeTests: XCTestCase {
    func testNoFileFolderOrFunctionIsOverItsLimit() throws {
        let repository = SegueTool.repository
        let result = try Tool.run("python3", [repository.appendingPathComponent("Scripts/sizes").path, "--check", repository.path])
        XCTAssertEqual(result.status, 0, result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains(" 0 over a limit"), result.standardOutput)
    }
}
