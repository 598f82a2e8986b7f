import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// A list read from its file (`ClipList.expand`, SegueInput); parsing a list's text is in SegueModelTests.
final class ClipListFileTests: XCTestCase {
    func testUnreadableListIsABadInput() {
        let contents = ClipList.expand(["/nonexistent/list.txt"])
        XCTAssertEqual(contents.entries, [])
        XCTAssertEqual(contents.bad.first?.path, "/nonexistent/list.txt")
        XCTAssertTrue(contents.bad.first?.reason.contains("no such file") ?? false, "\(contents.bad)")
    }
}
