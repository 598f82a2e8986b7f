import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// `InputLocation` is the one answer to "is this remote?" and "which file is
/// this?": lists and chapter titles ask it, as the opener and the plan file do
/// (those tests are in SegueKitTests).
final class InputLocationTests: XCTestCase {
    func testAnEntryNamingAProtocolStaysAsWrittenUnlessAFileOfThatNameIsBesideTheList() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-location-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
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
                                       sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1),
                                       pixelFormat: "yuv420p", duration: 1, audio: nil))
        }
        XCTAssertEqual(title("/clips/beach.mp4"), "beach")
        XCTAssertEqual(title("https://host/clips/beach.mp4?token=1"), "beach")
        XCTAssertEqual(title("file:///clips/sunny%20beach.mp4"), "sunny beach")
        XCTAssertEqual(title("file:beach.mp4"), "beach")
    }
}
