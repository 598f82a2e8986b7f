import Foundation
import SegueCore
import XCTest
@testable import SegueModel

final class ClipListTests: XCTestCase {
    func testPlainListSkipsCommentsAndBlanksAndResolvesRelativePaths() throws {
        let clips = try ClipList.parse("# my reel\n\nintro.mp4\n  /abs/b.mov  \n# end\nsub/c.mp4\n", relativeTo: "/lists")
        XCTAssertEqual(clips.map(\.path), ["/lists/intro.mp4", "/abs/b.mov", "/lists/sub/c.mp4"])
    }

    func testFfconcatFileLinesAreReadWithTheirQuoting() throws {
        let text = "ffconcat version 1.0\nfile 'a b.mp4'\nfile c\\'s.mp4\n"
        XCTAssertEqual(try ClipList.parse(text, relativeTo: "/x").map(\.path), ["/x/a b.mp4", "/x/c's.mp4"])
    }
}


/// A manifest's `output.hls`: the HLS output asked for, with its ladder and segment time.
final class ManifestHLSTests: XCTestCase {
    func output(_ json: String) throws -> OutputOptions? {
        try Manifest.parse(Data(#"{"clips": ["a.mp4"], "output": \#(json)}"#.utf8), relativeTo: "/lists").output
    }

    func testTheHLSObjectSetsTheLadderAndTheSegmentTime() throws {
        let asked = try XCTUnwrap(output(#"{"hls": {"ladder": [360, 1080, 720], "time": 4}}"#))
        XCTAssertTrue(asked.asksForHLS)
        XCTAssertEqual(asked.ladder, [1080, 720, 360])
        XCTAssertEqual(asked.hlsSeconds, 4)
        XCTAssertEqual(try output(#"{"hls": {"hlsTime": 2}}"#)?.hlsSeconds, 2)
        let empty = try XCTUnwrap(output(#"{"hls": {}}"#))
        XCTAssertTrue(empty.asksForHLS)
        XCTAssertNil(empty.ladder)
        XCTAssertFalse(try XCTUnwrap(output(#"{"ladder": [720, 360]}"#)).asksForHLS, "the flat keys alone don't ask")
    }

    func testWhatTheHLSObjectCantSayIsRefusedNamingTheKey() {
        for (json, said) in [(#"{"hls": {"rungs": 3}}"#, "output.hls.rungs: unknown key"),
                             (#"{"hls": {"time": 2}, "hlsTime": 3}"#, "output.hls.time: given twice"),
                             (#"{"hls": {"time": 2, "hlsTime": 2}}"#, "output.hls.time: given twice"),
                             (#"{"hls": {"ladder": [721]}}"#, "output.hls.ladder:"),
                             (#"{"hls": {"time": 0.5}}"#, "output.hls.time:"),
                             (#"{"hls": true}"#, "output.hls: expected an object")] {
            XCTAssertThrowsError(try output(json), json) { error in
                XCTAssertTrue("\(error)".contains(said), "\(json): \(error)")
            }
        }
    }
}
