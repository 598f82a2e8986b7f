import Foundation
import SegueCore
import XCTest
@testable import SegueModel

final class PlanTests: XCTestCase {
    func clip(_ name: String, seconds: Double, fps: Int = 30, width: Int = 1280, height: Int = 720, rotation: Int = 0) -> ClipInfo {
        ClipInfo(path: name, container: "mp4", videoCodec: "h264", codedWidth: width, codedHeight: height,
                 orientation: .track(DisplayOrientation(rotation: rotation, mirrored: false)), sampleAspectRatio: Rational(1, 1),
                 frameRate: Rational(fps, 1),
                 pixelFormat: "yuv420p", duration: seconds, audio: nil)
    }

    func testOverlapShortensTheOutputByOneTransitionPerJoin() throws {
        var settings = StitchSettings()
        settings.transition = .fade
        let plan = try Plan(clips: [clip("a", seconds: 4), clip("b", seconds: 4), clip("c", seconds: 4)], settings: settings)
        XCTAssertEqual(plan.joins.map(\.frameCount), [30, 30])
        XCTAssertEqual(plan.clips.map(\.startFrame), [0, 90, 180])
        XCTAssertEqual(plan.totalFrames, 360 - 60)
        XCTAssertTrue(plan.warnings.isEmpty)
    }

    func testCanvasComesFromTheFirstClipsDisplaySizeAndRate() throws {
        let plan = try Plan(clips: [clip("phone", seconds: 1, fps: 60, width: 1920, height: 1080, rotation: 90), clip("b", seconds: 1)],
                            settings: StitchSettings())
        XCTAssertEqual(plan.canvas.width, 1080)
        XCTAssertEqual(plan.canvas.height, 1920)
        XCTAssertEqual(plan.canvas.frameRate, Rational(60, 1))
        XCTAssertEqual(plan.clips.map(\.frameCount), [60, 60], "the second clip's 30 fps second becomes 60 canvas frames")
    }

    func testATooShortClipShortensItsJoinsWithAWarning() throws {
        var settings = StitchSettings()
        settings.transition = .fade
        let plan = try Plan(clips: [clip("a", seconds: 3), clip("short", seconds: 1), clip("c", seconds: 3)], settings: settings)
        XCTAssertEqual(plan.joins.map(\.frameCount), [15, 15], "a 30-frame clip gives at most half to each join")
        XCTAssertEqual(plan.warnings.count, 2)
        XCTAssertEqual(plan.notices.first, .transitionShortened(join: 1, from: "a", to: "short", asked: 1, given: 0.5))
    }

    func testAudioSampleBoundariesNeverDriftAtNTSCRates() throws {
        var settings = StitchSettings()
        settings.frameRate = Rational(30000, 1001)
        let plan = try Plan(clips: [clip("a", seconds: 1)], settings: settings)
        // After 30000 frames exactly 1001 seconds have passed.
        XCTAssertEqual(plan.sampleIndex(atFrame: 30000), 1001 * 48_000)
        let sizes = (0..<5).map { plan.sampleIndex(atFrame: $0 + 1) - plan.sampleIndex(atFrame: $0) }
        XCTAssertTrue(sizes.allSatisfy { $0 == 1601 || $0 == 1602 }, "\(sizes)")
    }

    func testContainPillarboxesAPortraitClipOnALandscapeCanvas() {
        let canvas = Canvas(width: 320, height: 180, frameRate: Rational(30, 1), sampleRate: 48_000)
        let placement = Placement.fit(displayWidth: 180, displayHeight: 320, into: canvas, mode: .contain)
        XCTAssertEqual(placement, Placement(scaledWidth: 102, scaledHeight: 180, x: 108, y: 0))
    }

    func testCoverFillsTheCanvasAndCropsTheOverflow() {
        let canvas = Canvas(width: 1280, height: 720, frameRate: Rational(30, 1), sampleRate: 48_000)
        let placement = Placement.fit(displayWidth: 1080, displayHeight: 1920, into: canvas, mode: .cover)
        XCTAssertEqual(placement.scaledWidth, 1280)
        XCTAssertEqual(placement.scaledHeight, 2276)
        XCTAssertEqual(placement.y, (2276 - 720) / 2)
    }

    func testAnamorphicClipsWidenToSquarePixels() {
        let info = ClipInfo(path: "dv", container: "mov", videoCodec: "dvvideo", codedWidth: 720, codedHeight: 480,
                            sampleAspectRatio: Rational(32, 27), frameRate: Rational(30000, 1001),
                            pixelFormat: "yuv411p", duration: 1, audio: nil)
        XCTAssertEqual(info.facts.displayWidth, 853)
        XCTAssertEqual(info.facts.displayHeight, 480)
    }

    func testSlideMeansSlideLeftAndHasTheSeedPlayersDuration() {
        XCTAssertEqual(TransitionKind(name: "slide"), .slideLeft)
        XCTAssertEqual(TransitionKind(name: "slide")?.defaultDuration, 0.3)
        XCTAssertEqual(TransitionKind(name: "fade")?.defaultDuration, 1.0)
        XCTAssertNil(TransitionKind(name: "wipe"))
    }
}
