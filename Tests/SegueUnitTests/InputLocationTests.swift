import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// `InputLocation` is the one answer to "is this remote?" and "which file is
/// this?": the opener and the plan file ask it, as lists do (lists' and
/// chapter titles' tests are in SegueModelTests).
final class InputLocationTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-location-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testRemoteMeansAnHTTPOrHTTPSURLAndNothingElse() {
        for remote in ["http://host/a.mp4", "HTTPS://host/a.mp4"] { XCTAssertTrue(InputAccess.isRemote(remote), remote) }
        for local in ["/a/b.mp4", "b.mp4", "file:///a/b.mp4", "file:b.mp4", "ftp://host/a.mp4", "concat:a.mp4"] {
            XCTAssertFalse(InputAccess.isRemote(local), local)
        }
    }

    func testAFileURLNamesALocalClipList() throws {
        let list = (folder as NSString).appendingPathComponent("list.txt")
        try "a.mp4\nfile://\(folder)/b%20c.mp4\nfile:sub/d.mp4\nhttps://host/e.mp4\n".write(toFile: list, atomically: true, encoding: .utf8)
        XCTAssertTrue(ClipList.isClipList("file://\(list)"))
        XCTAssertFalse(ClipList.isClipList("https://host/list.txt"))
        let contents = ClipList.expand(["file://\(list)"])
        XCTAssertEqual(contents.bad, [])
        // Entries are the files they name, relative to the list's folder.
        XCTAssertEqual(contents.entries.map(\.path), ["\(folder)/a.mp4", "\(folder)/b c.mp4", "\(folder)/sub/d.mp4", "https://host/e.mp4"])
    }

    func testThePlanFileStoresAFileURLAsTheAbsolutePathOfItsFile() {
        let here = FileManager.default.currentDirectoryPath
        XCTAssertEqual(SegmentPlan.absolute("file:///clips/a%20b.mp4"), "/clips/a b.mp4")
        XCTAssertEqual(SegmentPlan.absolute("file:a.mp4"), URL(fileURLWithPath: "\(here)/a.mp4").standardizedFileURL.path)
        XCTAssertEqual(SegmentPlan.absolute("https://host/a.mp4"), "https://host/a.mp4")
        // An output named like a protocol is a file here, as it is when written.
        XCTAssertEqual(SegmentPlan.absolute("pipe:out.mp4"), URL(fileURLWithPath: "\(here)/pipe:out.mp4").standardizedFileURL.path)
    }
}
