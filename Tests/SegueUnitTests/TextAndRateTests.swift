import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueRuntime
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// A caption's text kept as data in its script, a font's name read from its
/// name table, and a probed rate snapped to the standard one near it.
final class TextAndRateTests: XCTestCase {
    func testTextIsEscapedAsDataInTheScript() {
        XCTAssertEqual(TextLayer.escaped(#"{\b1}x"#), "\\{\\\u{2060}b1\\}x")
        XCTAssertEqual(TextLayer.escaped("a\r\nb\nc\u{7}d"), "a\\Nb\\Nc d", "a line break breaks the line, no raw newline reaches the file")
        let script = TextLayer.script(caption: "x\nDialogue: 0,0:00:00.00,9:00:00.00,Caption,,0,0,0,,injected", card: nil,
                                      family: "DejaVu Sans", width: 640, height: 360)
        XCTAssertEqual(script.components(separatedBy: "\n").filter { $0.hasPrefix("Dialogue:") }.count, 1, script)
    }

    func testTheFontsNameIsReadFromItsNameTable() throws {
        XCTAssertEqual(try FontFile.open(nil, access: InputAccess()).family, "DejaVu Sans")
        let bold = try FontFile.open("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", access: InputAccess())
        XCTAssertEqual(bold.family, "DejaVu Sans Bold", "the full name picks this face, not the family's regular one")
        XCTAssertNil(FontFile.family(in: Array("not a font at all".utf8)))
    }

    func testRatesWithinATenthOfAPercentSnapToTheStandardOnes() {
        XCTAssertEqual(Rational(2997, 100).snappedToStandard, Rational(30000, 1001))
        XCTAssertEqual(Rational(2397, 100).snappedToStandard, Rational(24000, 1001))
        XCTAssertEqual(Rational(5994, 100).snappedToStandard, Rational(60000, 1001))
        XCTAssertEqual(Rational(25_001, 1000).snappedToStandard, Rational(25, 1))
        XCTAssertEqual(Rational(27, 1).snappedToStandard, Rational(27, 1), "no standard rate near: kept")
    }
}
