import XCTest
@testable import SegueRender
@testable import SegueCore
@testable import SegueModel

/// `--smart` copies of a variable-rate clip's GOPs at their pictures' own
/// times, in-process: where a copied picture shows, and what the plan counts
/// (end to end: SegueKitTests' SmartVariableRateTests).
final class TimedCopyTests: XCTestCase {
    func testAFrameTimeSplitsFramesIntoAWholeAndAFractionAndRoundsToTicks() {
        let before = FrameTime(frames: -3, over: 2)
        XCTAssertEqual(before.frame, -2)
        XCTAssertEqual(before.fraction, Rational(1, 2))
        XCTAssertEqual(before.ticks(1000), -1500)
        let after = FrameTime(frames: 7, over: 3)
        XCTAssertEqual(after.ticks(1000), 2333)
        XCTAssertEqual(after.ticks(2), 5, "2 1/3 frames is 4.67 ticks of half a frame: 5")
        XCTAssertEqual(after.shifted(by: 10).ticks(3), 37)
        XCTAssertEqual(FrameTime(frame: 4).ticks(1), 4)
    }

    /// At 10 fps from pts 0 (1/90000): a GOP on the grid (frames 0-9), then
    /// one whose keyframe at 1.0167 s rounds to frame 10, its 6 pictures up to 2 s.
    private func plan(leadingAfter: Bool = false) -> ClipCopyPlan {
        var gops = [ClipCopyPlan.GOP(frames: 0..<10, copied: true),
                    ClipCopyPlan.GOP(frames: 10..<20, copied: true, timed: .init(key: 91_500, end: 180_000, pictures: 6))]
        if leadingAfter {
            gops += [ClipCopyPlan.GOP(frames: 20..<22, copied: false, leading: true), ClipCopyPlan.GOP(frames: 22..<30, copied: true)]
        }
        return ClipCopyPlan(origin: 0, timeBase: Rational(1, 90_000), frameRate: Rational(10, 1), syntax: CopySyntax(.h264), gops: gops)
    }

    func testATimedGOPsPicturesShowFromItsFirstFrameAsFarApartAsInTheSource() {
        let plan = plan()
        XCTAssertEqual(plan.copiedTime(ofPTS: 91_500), FrameTime(frame: 10), "the keyframe moved onto its frame")
        XCTAssertEqual(plan.copiedTime(ofPTS: 91_500 + 4_500), FrameTime(frame: 10, fraction: Rational(1, 2)))
        XCTAssertEqual(plan.copiedTime(ofPTS: 91_500 + 27_000)?.frame, 13)
        XCTAssertEqual(plan.copiedTime(ofPTS: 18_000), FrameTime(frame: 2), "a picture on the grid keeps its frame")
        XCTAssertNil(plan.copiedTime(ofPTS: 180_000), "past the timed GOP: the next, not copied")
        XCTAssertEqual(plan.copiedFrames, 20)
        XCTAssertEqual(plan.copiedPictures, 16)
        XCTAssertEqual(plan.pictures(inFrames: 0..<25), 21)
        XCTAssertEqual(plan.pictures(inFrames: 0..<15), 15, "a timed GOP a window cuts is not counted as copied")
        XCTAssertNotNil(plan.copiedTimedGOP(showing: 19))
        XCTAssertNil(plan.copiedTimedGOP(showing: 9))
    }

    func testATimedGOPBesideLeadingPicturesIsReencoded() {
        let plan = plan(leadingAfter: true)
        XCTAssertNil(plan.copiedTime(ofPTS: 91_500), "leading pictures sit on the grid: the timed GOP before them is re-encoded")
        XCTAssertEqual(plan.copiedTime(ofPTS: 18_000), FrameTime(frame: 2))
    }
}
