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

extension TimelineExportTests {
    /// Debian's `melt` renders the MLT export to the frames Segue rendered:
    /// each whole frame the same clip's same frame (B, at another rate, one
    /// source frame apart at most: melt rounds a frame's time its own way),
    /// each dissolve's frame the same mix of the two clips' greys (within 3).
    func testMeltRendersTheMLTExportToTheSameFrames() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001), Rational(24000, 1001)] {
            let scene = try ExportScene.make(rate: rate)
            let exported = scene.folder + "/cut.mlt"
            let (output, _) = try scene.stitch { $0.exportTimeline = exported }
            let rendered = scene.folder + "/melt.mkv"
            let melt = try Tool.run("melt", ["-quiet", exported, "-consumer", "avformat:" + rendered, "vcodec=ffv1", "acodec=aac"])
            XCTAssertEqual(melt.status, 0, melt.standardError)
            let mine = try DecodedOutput(path: output), theirs = try DecodedOutput(path: rendered)
            XCTAssertEqual(mine.pictures.count, theirs.pictures.count, "frames at \(rate)")
            let reads = mine.pictures.map(Marker.read)
            for (index, (a, b)) in zip(mine.pictures, theirs.pictures).enumerated() {
                let nearB = reads[max(0, index - 12)..<min(reads.count, index + 13)].contains { $0?.clip == 2 }
                if let shown = reads[index], let drawn = Marker.read(b) {
                    XCTAssertTrue(shown.clip == drawn.clip && abs(shown.frame - drawn.frame) <= (shown.clip == 2 ? 1 : 0),
                                  "frame \(index) at \(rate): Segue shows \(shown), melt \(drawn)")
                } else {
                    XCTAssertLessThan(abs(Marker.grey(a) - Marker.grey(b)), 3, "frame \(index) at \(rate): another mix")
                    if !nearB {
                        XCTAssertNil(ExportScene.firstDifference(a, b), "frame \(index) at \(rate)")
                    }
                }
            }
        }
    }
}
