import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore
import SegueRuntime

/// The output's time: each picture numbered, each frame exactly its share of
/// the sound (no drift however long), a segment's warm-up heard but not shown,
/// and a stop request honoured at the next frame.
final class FrameClockTests: XCTestCase {
    /// A plan of one clip of `seconds` at `rate`, with `sampleRate` sound.
    func plan(seconds: Double = 2, rate: Rational = Rational(24, 1), sampleRate: Int = 48_000) throws -> Plan {
        var settings = StitchSettings()
        settings.sampleRate = sampleRate
        return try Plan(clips: [plannedInfo(seconds: seconds, rate: rate, audio: true)], settings: settings)
    }

    struct Rig {
        let clock: FrameClock
        let writer: OutputWriter
        let sink: RecordingSink
        let sound: RecordingSoundOutput

        /// The sink's pictures' pts, once the writer is finished.
        var picturePts: [Int64?] {
            sink.events.compactMap { if case .picture(let pts, _, _) = $0 { return pts } else { return nil } }
        }
    }

    func rig(_ plan: Plan, sound: Bool = true, window: SegmentWindow? = nil, stop: StopRequest = StopRequest()) throws -> Rig {
        let sink = RecordingSink()
        let writer = try OutputWriter(sink: sink, canvas: plan.canvas)
        let output = RecordingSoundOutput()
        let chain = sound ? SoundChain(stages: [], output: output) : nil
        let clock = FrameClock(plan: plan, writer: writer, sound: chain, outputPath: "/unused/out.mp4", stop: stop, started: 0,
                               window: window, progress: { _ in })
        return Rig(clock: clock, writer: writer, sink: sink, sound: output)
    }

    /// Emits `count` frames, each with its own share of sound.
    func emit(_ count: Int, through clock: FrameClock) throws {
        for _ in 0..<count {
            try clock.emit(try Made.picture(luma: 100, pts: 999), Made.block(clock.samplesForNextFrame, 0.1), clipIndex: 0)
        }
    }

    func testPicturesAreNumberedFromTheOutputsFirstFrame() throws {
        let rig = try rig(try plan())
        try emit(5, through: rig.clock)
        try rig.writer.finish()
        XCTAssertEqual(rig.picturePts, [0, 1, 2, 3, 4], "the picture's own pts is replaced")
        XCTAssertEqual(rig.clock.frame, 5)
    }

    func testEachFramesSoundStartsWhereTheLastOneEnded() throws {
        let plan = try plan(rate: Rational(30_000, 1001))
        let rig = try rig(plan)
        try emit(40, through: rig.clock)
        let starts = rig.sound.blocks.map(\.start)
        let ends = rig.sound.blocks.map { $0.start + $0.samples.count }
        XCTAssertEqual(starts.first, 0)
        XCTAssertEqual(Array(starts.dropFirst()), Array(ends.dropLast()))
        XCTAssertEqual(ends.last, plan.sampleIndex(atFrame: 40))
        try rig.writer.finish()
    }

    func testAFramesShareIsNeverMoreThanASampleFromTheExactRate() throws {
        let rig = try rig(try plan(seconds: 100, rate: Rational(30_000, 1001)))
        let shares = Set((0..<3000).map(rig.clock.samples(forFrame:)))
        XCTAssertEqual(shares, [1601, 1602], "48000 / 29.97 = 1601.6")
        try rig.writer.finish()
    }

    func testSamplesNeverDriftOverManyFramesAt2997And48kHz() throws {
        let plan = try plan(seconds: 1100, rate: Rational(30_000, 1001))
        // 30 000 frames of 1001/30000 s: exactly 1001 seconds.
        XCTAssertEqual(plan.sampleIndex(atFrame: 30_000), 1001 * 48_000)
        let rig = try rig(plan)
        XCTAssertEqual((0..<30_000).reduce(0) { $0 + rig.clock.samples(forFrame: $1) }, 1001 * 48_000)
        try rig.writer.finish()
    }

    func testSamplesNeverDriftOverManyFramesAt2997And44kHz() throws {
        let plan = try plan(seconds: 1100, rate: Rational(30_000, 1001), sampleRate: 44_100)
        XCTAssertEqual(plan.sampleIndex(atFrame: 30_000), 1001 * 44_100)
        let rig = try rig(plan)
        XCTAssertEqual(rig.clock.samples(forFrames: 30_000), 1001 * 44_100)
        XCTAssertEqual(Set((0..<300).map(rig.clock.samples(forFrame:))), [1471, 1472], "44100 / 29.97 = 1471.47")
        try rig.writer.finish()
    }

    func testTheNextFramesSoundIsCountedFromTheFramesEmitted() throws {
        let plan = try plan(rate: Rational(30_000, 1001))
        let rig = try rig(plan)
        try emit(7, through: rig.clock)
        XCTAssertEqual(rig.clock.nextSampleIndex, plan.sampleIndex(atFrame: 7))
        XCTAssertEqual(rig.clock.samplesForNextFrame, plan.sampleIndex(atFrame: 8) - plan.sampleIndex(atFrame: 7))
        try rig.writer.finish()
    }

    func testWithoutAudioAFramesSoundIsNotWritten() throws {
        let rig = try rig(try plan(), sound: false)
        XCTAssertFalse(rig.clock.includeAudio)
        try emit(3, through: rig.clock)
        try rig.clock.finish()
        try rig.writer.finish()
        XCTAssertEqual(rig.picturePts, [0, 1, 2])
        XCTAssertTrue(rig.sound.blocks.isEmpty)
        XCTAssertEqual(rig.sound.finished, 0)
    }

    func testFinishingTheClockFinishesItsSound() throws {
        let rig = try rig(try plan())
        try emit(2, through: rig.clock)
        try rig.clock.finish()
        XCTAssertEqual(rig.sound.finished, 1)
        try rig.writer.finish()
    }

    func testAStopRequestEndsTheRenderAtTheNextFrame() throws {
        let stop = StopRequest()
        let rig = try rig(try plan(), stop: stop)
        try emit(2, through: rig.clock)
        stop.stop(signal: SIGINT)
        assertSegueError(.interrupted(signal: SIGINT), try self.emit(1, through: rig.clock))
        try rig.writer.finish()
        XCTAssertEqual(rig.picturePts, [0, 1], "nothing of the stopped frame is written")
        XCTAssertEqual(rig.sound.blocks.count, 2)
        XCTAssertEqual(rig.clock.frame, 2)
    }

    func testTheWholeOutputNeverReachesAWindowsEnd() throws {
        let rig = try rig(try plan(seconds: 1))
        try emit(24, through: rig.clock)
        XCTAssertFalse(rig.clock.reachedWindowEnd)
        try rig.writer.finish()
    }

    // MARK: A segment's window

    /// Frames 24..<36 of a two-second clip, its warm-up from the clip's start (never sought into).
    func window(_ plan: Plan, warmUp: Int = 0) -> SegmentWindow {
        SegmentWindow(frames: 24..<36, plan: plan, sound: nil, warmUpFrames: warmUp, seekable: { _ in false })
    }

    func testASegmentsClockStartsAtTheTurnOfItsFirstClip() throws {
        let plan = try plan()
        let rig = try rig(plan, window: window(plan))
        XCTAssertEqual(rig.clock.frame, 0)
        XCTAssertEqual(rig.clock.nextSampleIndex, 0)
        try rig.writer.finish()
    }

    func testASegmentsPicturesCountFromItsFirstFrame() throws {
        let plan = try plan()
        let rig = try rig(plan, window: window(plan))
        try emit(36, through: rig.clock)
        try rig.writer.finish()
        XCTAssertEqual(rig.picturePts, (0..<12).map { Int64($0) })
    }

    func testASegmentsWarmUpFramesWriteSoundButNoPicture() throws {
        let plan = try plan()
        let rig = try rig(plan, window: window(plan))
        try emit(24, through: rig.clock)
        try rig.writer.finish()
        XCTAssertEqual(rig.picturePts, [])
        XCTAssertEqual(rig.sound.blocks.map(\.start), (0..<24).map(plan.sampleIndex(atFrame:)))
    }

    func testASegmentsClockReachesItsWindowsEndAtItsLastFrame() throws {
        let plan = try plan()
        let rig = try rig(plan, window: window(plan))
        try emit(35, through: rig.clock)
        XCTAssertFalse(rig.clock.reachedWindowEnd)
        try emit(1, through: rig.clock)
        XCTAssertTrue(rig.clock.reachedWindowEnd)
        try rig.writer.finish()
    }

    func testAWindowsWarmUpStartsAtTheTurnOfTheClipItReachesBackInto() throws {
        let plan = try Plan(clips: [plannedInfo("a.mp4", seconds: 1), plannedInfo("b.mp4", seconds: 1), plannedInfo("c.mp4", seconds: 1)],
                            settings: StitchSettings())
        let inside = SegmentWindow(frames: 30..<40, plan: plan, sound: nil, seekable: { _ in false })
        XCTAssertEqual(inside.firstClip, 1)
        XCTAssertEqual(inside.warmUpFrame, 24)
        let reaching = SegmentWindow(frames: 30..<40, plan: plan, sound: nil, warmUpFrames: 12, seekable: { _ in false })
        XCTAssertEqual(reaching.firstClip, 0, "12 frames before frame 30 lie in clip a")
        XCTAssertEqual(reaching.warmUpFrame, 0)
    }

    func testAWindowNeedsTheClipsUpToTheOneHoldingItsLastFrame() throws {
        let plan = try Plan(clips: [plannedInfo("a.mp4", seconds: 1), plannedInfo("b.mp4", seconds: 1), plannedInfo("c.mp4", seconds: 1)],
                            settings: StitchSettings())
        XCTAssertEqual(SegmentWindow(frames: 30..<40, plan: plan, sound: nil).lastClip, 1)
        XCTAssertEqual(SegmentWindow(frames: 30..<50, plan: plan, sound: nil).lastClip, 2)
        XCTAssertEqual(SegmentWindow(frames: 30..<40, plan: plan, sound: nil).tailEnd, 40, "without sound, no post-roll")
    }

    func testALongPlainClipIsSoughtIntoAndAShortOneIsNot() throws {
        let long = try Plan(clips: [plannedInfo(seconds: 20)], settings: StitchSettings())
        let sought = SegmentWindow(frames: 240..<264, plan: long, sound: nil)
        XCTAssertEqual(sought.framesSkipped, 240 - SegmentWindow.seekMargin(long), "to the seek margin before the segment")
        XCTAssertEqual(sought.warmUpFrame, sought.framesSkipped)
        XCTAssertEqual(sought.opened?.startFrame, sought.framesSkipped)
        let short = try Plan(clips: [plannedInfo(seconds: 4)], settings: StitchSettings())
        XCTAssertEqual(SegmentWindow(frames: 72..<96, plan: short, sound: nil).framesSkipped, 0, "a second in, under the seek minimum: played from its start")
    }
}
