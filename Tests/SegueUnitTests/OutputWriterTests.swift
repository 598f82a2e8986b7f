import Foundation
import XCTest
@testable import SegueRender
@testable import SegueMedia
@testable import SegueModel
import SegueCore

/// The output writer: a bounded queue and an encoder thread feeding one sink,
/// which sees what was submitted, in order, and is finished once; a failure
/// on its thread stops it, and the stitcher's next submit says so.
final class OutputWriterTests: XCTestCase {
    let canvas = Canvas(width: 64, height: 36, frameRate: Rational(24, 1), sampleRate: 48_000)

    func writer(_ sink: RecordingSink) throws -> OutputWriter {
        try OutputWriter(sink: sink, canvas: canvas)
    }

    func testPicturesReachTheSinkInTheOrderSubmitted() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        for luma: UInt8 in [20, 90, 160, 230] { try writer.submit(picture: try Made.picture(luma: luma)) }
        try writer.finish()
        XCTAssertEqual(sink.events.compactMap { event -> UInt8? in
            if case .picture(_, _, let luma) = event { return luma }
            return nil
        }, [20, 90, 160, 230])
    }

    func testAPicturesPtsAndQualityReachTheSinkUnchanged() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        try writer.submit(picture: try Made.picture(luma: 50, pts: 7), crf: 18)
        try writer.submit(picture: try Made.picture(luma: 60, pts: 8))
        try writer.finish()
        XCTAssertEqual(sink.events, [.picture(pts: 7, crf: 18, luma: 50), .picture(pts: 8, crf: nil, luma: 60), .finish])
    }

    func testSoundAndPicturesKeepTheOrderTheyWereSubmittedIn() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        try writer.submit(sound: try Made.sound(samples: 1024, pts: 0))
        try writer.submit(picture: try Made.picture(luma: 40, pts: 0))
        try writer.submit(sound: try Made.sound(samples: 1024, pts: 1024))
        try writer.submit(sound: try Made.sound(samples: 300, pts: 2048))
        try writer.finish()
        XCTAssertEqual(sink.events, [.sound(pts: 0, samples: 1024), .picture(pts: 0, crf: nil, luma: 40),
                                     .sound(pts: 1024, samples: 1024), .sound(pts: 2048, samples: 300), .finish])
    }

    func testFinishFinishesTheSinkOnceAfterEverythingQueued() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        for index in 0..<20 { try writer.submit(picture: try Made.picture(luma: 30, pts: Int64(index))) }
        try writer.finish()
        XCTAssertEqual(sink.events.count, 21)
        XCTAssertEqual(sink.events.last, .finish)
        XCTAssertEqual(sink.events.filter { $0 == .finish }.count, 1)
    }

    func testTheWriterTakesItsSoundBlockSizeFromTheSink() throws {
        let writer = try writer(RecordingSink(audioFrameSize: 960))
        XCTAssertEqual(writer.audioFrameSize, 960)
        try writer.finish()
    }

    func testCopiedPacketsReachACopyingSinkAtTheirTimes() throws {
        let sink = RecordingCopyingSink()
        let writer = try writer(sink)
        try writer.submit(copied: Packet(), at: FrameTime(frame: 3), until: nil)
        try writer.submit(copied: Packet(), at: FrameTime(frame: 4), until: FrameTime(frame: 9))
        try writer.submit(picture: try Made.picture(luma: 70, pts: 9))
        try writer.finish()
        XCTAssertEqual(sink.events, [.copied(frame: 3, until: nil), .copied(frame: 4, until: 9), .picture(pts: 9, crf: nil, luma: 70), .finish])
    }

    func testCopiedSoundReachesACopyingSinkAsItsSlot() throws {
        let sink = RecordingCopyingSink()
        let writer = try writer(sink)
        try writer.submit(copiedSound: Packet(), slot: 5)
        try writer.submit(copiedSound: Packet(), slot: 6)
        try writer.finish()
        XCTAssertEqual(sink.events, [.copiedSound(slot: 5), .copiedSound(slot: 6), .finish])
    }

    func testACopiedPacketForASinkThatOnlyEncodesFailsTheWrite() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        try writer.submit(picture: try Made.picture(luma: 70, pts: 0))
        assertSegueError(.writeFailed, try {
            // The submit may still be queued when the encoder stops: the next one, or the finish, says why.
            try writer.submit(copied: Packet(), at: FrameTime(frame: 1), until: nil)
            try writer.finish()
        }())
        XCTAssertEqual(sink.events, [.picture(pts: 0, crf: nil, luma: 70)], "stopped at the copied packet, never finished")
    }

    func testCopiedSoundForASinkThatOnlyEncodesFailsTheWrite() throws {
        let sink = RecordingSink()
        let writer = try writer(sink)
        assertSegueError(.writeFailed, try {
            try writer.submit(copiedSound: Packet(), slot: 0)
            try writer.finish()
        }())
        XCTAssertEqual(sink.events, [])
    }

    func testASinkFailureIsThrownByALaterSubmit() throws {
        let sink = RecordingSink(failAt: 1)
        let writer = try writer(sink)
        var thrown: Error?
        // The queue holds a few hundred items: a submit soon finds the encoder stopped.
        for index in 0..<2_000 {
            do {
                try writer.submit(sound: try Made.sound(samples: 16, pts: Int64(index)))
            } catch {
                thrown = error
                break
            }
        }
        XCTAssertNotNil(thrown as? SinkFailure, "the sink's own failure, not \(String(describing: thrown))")
        XCTAssertThrowsError(try writer.finish()) { XCTAssertNotNil($0 as? SinkFailure) }
    }

    func testASinkThatFailedIsNeverFinished() throws {
        let sink = RecordingSink(failAt: 2)
        let writer = try writer(sink)
        for index in 0..<3 { try? writer.submit(picture: try Made.picture(luma: 10, pts: Int64(index))) }
        XCTAssertThrowsError(try writer.finish()) { XCTAssertNotNil($0 as? SinkFailure) }
        XCTAssertEqual(sink.events.count, 2)
        XCTAssertFalse(sink.events.contains(.finish))
    }

    func testAFailureToFinishIsThrownByFinish() throws {
        let sink = RecordingSink(failAt: 1)
        let writer = try writer(sink)
        try writer.submit(picture: try Made.picture(luma: 10, pts: 0))
        XCTAssertThrowsError(try writer.finish()) { XCTAssertNotNil($0 as? SinkFailure) }
    }

    func testAbandonDropsWhatIsQueuedAndNeverFinishes() throws {
        let gate = (entered: DispatchSemaphore(value: 0), release: DispatchSemaphore(value: 0))
        let sink = RecordingSink(gate: gate)
        let writer = try writer(sink)
        // The encoder holds the picture until the gate opens; the sound waits in the queue.
        try writer.submit(picture: try Made.picture(luma: 10, pts: 0))
        gate.entered.wait()
        for index in 0..<3 { try writer.submit(sound: try Made.sound(samples: 1024, pts: Int64(1024 * index))) }
        // Opened once abandon has dropped the queue (it then waits for the encoder to stop).
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { gate.release.signal() }
        writer.abandon()
        XCTAssertEqual(sink.events, [.picture(pts: 0, crf: nil, luma: 10)], "only the picture already taken")
    }

    func testASubmitAfterAbandonFails() throws {
        let writer = try writer(RecordingSink())
        writer.abandon()
        assertSegueError(.writeFailed, try writer.submit(picture: try Made.picture(luma: 10, pts: 0)))
    }

    /// A writer on a 160x90 canvas drawing a flat white 32x32 logo a quarter of the canvas wide at its top left.
    func overlaid(_ sink: RecordingSink) throws -> (OutputWriter, PictureOverlay.Box) {
        let canvas = Canvas(width: 160, height: 90, frameRate: Rational(24, 1), sampleRate: 48_000)
        let overlay = try PictureOverlay(picture: try Made.picture(luma: 235, width: 32, height: 32), canvas: canvas, position: .topLeft,
                                         widthFraction: 0.25, opacity: 1)
        return (try OutputWriter(sink: sink, canvas: canvas, overlay: overlay), overlay.box)
    }

    func testTheOverlayIsDrawnOnEachPictureBeforeTheSinkTakesIt() throws {
        let sink = RecordingSink()
        let (writer, box) = try overlaid(sink)
        for index in 0..<3 { try writer.submit(picture: try Made.picture(luma: 16, width: 160, height: 90, pts: Int64(index))) }
        try writer.finish()
        XCTAssertEqual(box, PictureOverlay.Box(x: 3, y: 3, width: 40, height: 40))
        XCTAssertEqual(sink.pictures.count, 3)
        for luma in sink.pictures {
            XCTAssertEqual(luma.mean(x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4), 235, accuracy: 2, "the logo")
            XCTAssertEqual(luma.mean(x: 60, y: 0, width: 100, height: 90), 16, accuracy: 1, "the picture beside it")
        }
    }

    func testTheOverlaidPicturesKeepTheirPts() throws {
        let sink = RecordingSink()
        let (writer, _) = try overlaid(sink)
        for index in [4, 5, 9] { try writer.submit(picture: try Made.picture(luma: 16, width: 160, height: 90, pts: Int64(index))) }
        try writer.finish()
        let pts: [Int64?] = sink.events.compactMap { if case .picture(let pts, _, _) = $0 { return pts } else { return nil } }
        XCTAssertEqual(pts, [4, 5, 9])
    }

    func testTheScoutSeesEachPictureAsItIsQueued() throws {
        let writer = try writer(RecordingSink())
        let scout = CoverScout()
        writer.scout = scout
        for index in 0..<6 {
            let picture = try Made.picture(luma: 16, pts: Int64(index))
            picture.fill(plane: 0, x: 4 * index, y: 4, width: 12, height: 20, with: 200) // a box that moves on
            try writer.submit(picture: picture)
        }
        try writer.finish()
        XCTAssertEqual(scout.change.count, 6, "one score per frame, by its pts")
        XCTAssertEqual(scout.change[0], 0, "the first picture has none before it")
        XCTAssertTrue(scout.change.dropFirst().allSatisfy { $0 > 0 }, "\(scout.change)")
    }
}
