import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--export-timeline` as a whole: the format from the name, the checks
/// before rendering, what an export holds beyond the cut (facts, titles,
/// music), paths absolute or relative.
final class TimelineExportTests: XCTestCase {
    let store = FixtureStore.shared

    func testTheSceneStitchesAndItsOTIOExportNamesEveryClip() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let exported = scene.folder + "/cut.otio"
        let (output, warnings) = try scene.stitch { $0.exportTimeline = exported }
        XCTAssertEqual(warnings, [])
        let decoded = try DecodedOutput(path: output)
        // 48 + 40 frames at 29.97 (33 at 25) + 24 + 25 + 12 frames, less two 10-frame fades.
        XCTAssertEqual(decoded.pictures.count, 48 + 33 + 24 + 25 + 12 - 20, accuracy: 1)
        let text = try String(contentsOfFile: exported, encoding: .utf8).replacingOccurrences(of: "\\/", with: "/")
        for path in [scene.a, scene.b, scene.c, scene.photo] { XCTAssertTrue(text.contains(path), path) }
    }
}
