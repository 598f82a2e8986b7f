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

