import SegueCore
import XCTest
@testable import SegueModel

/// How a probed clip stands upright: each EXIF orientation and display
/// matrix gives the rotation, mirror and displayed size it gave before
/// orientation was one value.
final class ClipOrientationTests: XCTestCase {
    static let one: Int32 = 1 << 16

    /// A display matrix with the first two columns `a b / c d` (16.16) and no translation.
    static func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> [Int32] {
        [a, b, 0, c, d, 0, 0, 0, 1 << 30]
    }

    static func facts(_ orientation: ClipOrientation, width: Int = 400, height: Int = 300,
                      aspect: Rational = Rational(1, 1)) -> ClipFacts {
        ClipFacts(container: "mp4", videoCodec: "h264", codedWidth: width, codedHeight: height, orientation: orientation,
                  sampleAspectRatio: aspect, frameRate: Rational(30, 1), pixelFormat: "yuv420p", duration: 1, audio: nil)
    }

    func testEveryEXIFOrientationTurnsAndMirrorsAsTheEXIFTableSays() {
        // EXIF: (clockwise turn after the mirror, mirrored left to right first).
        let table: [Int: (turn: Int, mirrored: Bool)] = [
            1: (0, false), 2: (0, true), 3: (180, false), 4: (180, true),
            5: (270, true), 6: (90, false), 7: (90, true), 8: (270, false),
        ]
        for (exif, expected) in table {
            let orientation = ClipOrientation(exif: exif)
            XCTAssertEqual(orientation.rotation, expected.turn, "EXIF \(exif): the rotation probe reports")
            XCTAssertEqual(orientation.mirrorsPhoto, expected.mirrored, "EXIF \(exif): flipped before the turn")
            XCTAssertEqual(orientation.filterTurn, DisplayOrientation(rotation: expected.turn, mirrored: false), "EXIF \(exif)")
            XCTAssertEqual(orientation.exif, exif, "EXIF \(exif) as probe reports it")
            XCTAssertEqual(orientation.trackOrientation, .upright, "EXIF \(exif): a photo states no display matrix")
        }
    }

    func testEXIFOrientationsThatTurnAQuarterSwapTheDisplayedSides() {
        for exif in 1...8 {
            let facts = Self.facts(ClipOrientation(exif: exif))
            let sideways = [5, 6, 7, 8].contains(exif)
            XCTAssertEqual([facts.displayWidth, facts.displayHeight], sideways ? [300, 400] : [400, 300], "EXIF \(exif)")
        }
    }

    func testAnEXIFValueOutsideOneToEightIsUpright() {
        for exif in [0, 9, -1] {
            XCTAssertEqual(ClipOrientation(exif: exif), ClipOrientation(exif: 1))
            XCTAssertEqual(ClipOrientation(exif: exif).exif, 1)
        }
    }

    func testAPhotoWithoutAnEXIFTurnTakesItsStreamsQuarterTurn() {
        // A JPEG's own matrix: its reading (mirror dropped) as EXIF 6, 3 or 8; an EXIF turn wins over it.
        XCTAssertEqual(ClipOrientation(exif: 1, streamRotation: 90), ClipOrientation(exif: 6))
        XCTAssertEqual(ClipOrientation(exif: 1, streamRotation: 180), ClipOrientation(exif: 3))
        XCTAssertEqual(ClipOrientation(exif: 1, streamRotation: 270), ClipOrientation(exif: 8))
        XCTAssertEqual(ClipOrientation(exif: 12, streamRotation: 90), ClipOrientation(exif: 6))
        XCTAssertEqual(ClipOrientation(exif: 1, streamRotation: 45), ClipOrientation(exif: 1))
        XCTAssertEqual(ClipOrientation(exif: 2, streamRotation: 90), ClipOrientation(exif: 2))
        XCTAssertEqual(ClipOrientation(exif: 8, streamRotation: 180), ClipOrientation(exif: 8))
    }

    func testNoDisplayMatrixIsUpright() {
        let orientation = ClipOrientation(matrix: nil, rotation: 0)
        XCTAssertEqual(orientation, .upright)
        XCTAssertEqual(orientation.rotation, 0)
        XCTAssertEqual(orientation.trackOrientation, .upright)
        XCTAssertEqual(orientation.filterTurn, .upright)
        XCTAssertEqual(orientation.exif, 1)
    }

    func testEachTurnAndMirrorOfAMatrixKeepsItsRotationAndDisplayedSize() {
        let one = Self.one
        // (matrix, libavutil's clockwise reading as the demuxer gives it, the turn and mirror it makes).
        let cases: [([Int32], Int, DisplayOrientation)] = [
            (Self.matrix(one, 0, 0, one), 0, DisplayOrientation(rotation: 0, mirrored: false)),
            (Self.matrix(0, one, -one, 0), 90, DisplayOrientation(rotation: 90, mirrored: false)),
            (Self.matrix(-one, 0, 0, -one), 180, DisplayOrientation(rotation: 180, mirrored: false)),
            (Self.matrix(0, -one, one, 0), 270, DisplayOrientation(rotation: 270, mirrored: false)),
            (Self.matrix(-one, 0, 0, one), 180, DisplayOrientation(rotation: 0, mirrored: true)),
            (Self.matrix(0, -one, -one, 0), 270, DisplayOrientation(rotation: 90, mirrored: true)),
            (Self.matrix(one, 0, 0, -one), 0, DisplayOrientation(rotation: 180, mirrored: true)),
            (Self.matrix(0, one, one, 0), 90, DisplayOrientation(rotation: 270, mirrored: true)),
        ]
        for (matrix, reading, turn) in cases {
            let orientation = ClipOrientation(matrix: matrix, rotation: reading)
            XCTAssertEqual(orientation, .track(turn))
            XCTAssertEqual(orientation.rotation, reading, "\(turn): probe reports libavutil's reading")
            XCTAssertEqual(orientation.trackOrientation, turn, "\(turn): what --smart copies by")
            XCTAssertEqual(orientation.filterTurn, turn, "\(turn): the filters turn and mirror")
            XCTAssertFalse(orientation.mirrorsPhoto)
            XCTAssertEqual(orientation.exif, 1)
            let facts = Self.facts(orientation, width: 1920, height: 1080)
            XCTAssertEqual([facts.displayWidth, facts.displayHeight], turn.swapsSides ? [1080, 1920] : [1920, 1080], "\(turn)")
        }
    }

    func testAMatrixWithTranslationReadsAsItsTurn() {
        let stored = DisplayOrientation(rotation: 90, mirrored: true).matrix(storedWidth: 1920, storedHeight: 1080)
        XCTAssertEqual(ClipOrientation(matrix: stored, rotation: 270), .track(DisplayOrientation(rotation: 90, mirrored: true)))
    }

    func testAShearedOrScaledMatrixTurnsByItsRotationAloneAndIsNeverCopied() {
        let one = Self.one
        // (matrix, libavutil's reading, the turn the filters make, whether the sides swap).
        let cases: [([Int32], Int, DisplayOrientation, Bool)] = [
            (Self.matrix(one, one / 2, 0, one), 24, .upright, false),               // a shear
            (Self.matrix(2 * one, 0, 0, 2 * one), 0, .upright, false),              // a scale
            (Self.matrix(0, 2 * one, -2 * one, 0), 90, DisplayOrientation(rotation: 90, mirrored: false), true),
            (Self.matrix(-2 * one, 0, 0, -one), 180, DisplayOrientation(rotation: 180, mirrored: false), false),
            ([one, 0, 0, 0, one, 0, 0, 0, 1 << 29], 0, .upright, false),            // a projection
        ]
        for (matrix, reading, turn, swaps) in cases {
            let orientation = ClipOrientation(matrix: matrix, rotation: reading)
            XCTAssertEqual(orientation, .skewed(rotation: reading))
            XCTAssertEqual(orientation.rotation, reading)
            XCTAssertNil(orientation.trackOrientation, "\(matrix): no turn and mirror, never copied")
            XCTAssertEqual(orientation.filterTurn, turn, "\(matrix)")
            XCTAssertEqual(orientation.swapsSides, swaps, "\(matrix)")
            let facts = Self.facts(orientation, width: 1920, height: 1080)
            XCTAssertEqual([facts.displayWidth, facts.displayHeight], swaps ? [1080, 1920] : [1920, 1080], "\(matrix)")
        }
    }

    func testAnAnamorphicPictureWidensToSquarePixelsBeforeItTurns() {
        let upright = Self.facts(.upright, width: 720, height: 480, aspect: Rational(32, 27))
        XCTAssertEqual([upright.displayWidth, upright.displayHeight], [853, 480])
        let turned = Self.facts(.track(DisplayOrientation(rotation: 90, mirrored: false)), width: 720, height: 480,
                                aspect: Rational(32, 27))
        // A quarter turn shows the stored height across and the widened width down.
        XCTAssertEqual([turned.displayWidth, turned.displayHeight], [480, 853])
    }

    func testTheOrientationSurvivesAPlanFile() throws {
        for orientation in [ClipOrientation.upright, ClipOrientation(exif: 7), .skewed(rotation: 24),
                            .track(DisplayOrientation(rotation: 270, mirrored: true))] {
            let data = try JSONEncoder().encode(orientation)
            XCTAssertEqual(try JSONDecoder().decode(ClipOrientation.self, from: data), orientation)
        }
    }
}
