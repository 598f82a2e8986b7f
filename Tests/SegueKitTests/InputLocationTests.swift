import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// `InputLocation` is the one answer to "is this remote?" and "which file is
/// this?": lists, chapter titles and the plan file ask it, as the opener does.
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

    func testAnEntryNamingAProtocolStaysAsWrittenUnlessAFileOfThatNameIsBesideTheList() throws {
        // Kept as written, it is refused by name when opened ("names the 'pipe:' protocol").
        XCTAssertEqual(ClipList.resolve("pipe:0", relativeTo: folder), "pipe:0")
        XCTAssertEqual(InputLocation(ClipList.resolve("pipe:0", relativeTo: folder)), .refusedProtocol("pipe"))
        XCTAssertEqual(ClipList.resolve("ftp://host/a.mp4", relativeTo: folder), "ftp://host/a.mp4")
        // A file whose name starts like a protocol, in the list's folder, is that file.
        XCTAssertTrue(FileManager.default.createFile(atPath: (folder as NSString).appendingPathComponent("concat:a.mp4"), contents: Data()))
        XCTAssertEqual(ClipList.resolve("concat:a.mp4", relativeTo: folder), "\(folder)/concat:a.mp4")
    }

    func testAChapterIsTitledByTheFileNameOfWhatItPlays() {
        func title(_ path: String) -> String {
            Plan.chapterTitle(ClipInfo(path: path, container: "mp4", videoCodec: "h264", codedWidth: 64, codedHeight: 64,
                                       rotation: 0, sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1),
                                       pixelFormat: "yuv420p", duration: 1, audio: nil))
        }
        XCTAssertEqual(title("/clips/beach.mp4"), "beach")
        XCTAssertEqual(title("https://host/clips/beach.mp4?token=1"), "beach")
        XCTAssertEqual(title("file:///clips/sunny%20beach.mp4"), "sunny beach")
        XCTAssertEqual(title("file:beach.mp4"), "beach")
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
