import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The continuous line MPEG-TS/PS packets are laid on before they are measured or decoded.
final class TimestampLineTests: XCTestCase {
    /// A 90 kHz video stream with a 33-bit clock, and its sound.
    let video = stream(index: 0)
    let audio = stream(index: 1)
    let frame: Int64 = 3600 // 25 fps at 90 kHz

    static func stream(index: Int) -> StreamInfo {
        var info = StreamInfo(index: index, kind: index == 0 ? .video : .audio, codecName: "", timeBase: Rational(1, 90_000))
        info.timestampBits = 33
        return info
    }

    /// Lays packets of `stream` with these (pts, dts) on `line`; returns their (pts, dts) on it.
    func place(_ stamps: [(Int64, Int64)], stream: Int = 0, on line: inout TimestampLine) -> [(Int64, Int64)] {
        stamps.map { pts, dts in
            let packet = Packet()
            packet.pointer.pointee.stream_index = Int32(stream)
            packet.pts = pts
            packet.dts = dts
            packet.duration = frame
            line.place(packet)
            return (packet.pts!, packet.dts!)
        }
    }

    func testLeadingBPicturesBeforeTheKeyframeStayBeforeIt() {
        // An open GOP cut at its I-picture: two B-pictures follow it in decode order but show before it.
        var line = TimestampLine(streams: [video])
        let keyframe: Int64 = 100_800
        let placed = place([(keyframe, keyframe - 2 * frame), (keyframe - 2 * frame, keyframe - frame),
                            (keyframe - frame, keyframe), (keyframe + 3 * frame, keyframe + frame)], on: &line)
        XCTAssertEqual(placed.map(\.0), [keyframe, keyframe - 2 * frame, keyframe - frame, keyframe + 3 * frame])
        XCTAssertEqual(line.jumps, 0)
    }

    func testAClockCrossing2To33CarriesOnPastIt() {
        var line = TimestampLine(streams: [video])
        let wrap = Int64(1) << 33
        let placed = place([(wrap - frame, wrap - frame), (0, 0), (frame, frame)], on: &line)
        XCTAssertEqual(placed.map(\.0), [wrap - frame, wrap, wrap + frame])
        XCTAssertEqual(line.jumps, 0, "a wrap is not a jump")
    }

    func testAJumpIsClosedUpForEveryStream() {
        // Two recordings joined end to end: the second's clock starts 26 hours on.
        var line = TimestampLine(streams: [video, audio])
        let later: Int64 = 26 * 3600 * 90_000
        _ = place([(0, 0), (frame, frame)], on: &line)
        _ = place([(0, 0)], stream: 1, on: &line)
        let video = place([(later, later), (later + frame, later + frame)], on: &line)
        let sound = place([(later + 1800, later + 1800)], stream: 1, on: &line)
        XCTAssertEqual(video.map(\.0), [2 * frame, 3 * frame], "the picture carries on right after the last one")
        XCTAssertEqual(sound.map(\.0), [2 * frame + 1800], "the sound moves with it, keeping sync")
        XCTAssertEqual(line.jumps, 1)
    }

    func testAGapOfAFewSecondsIsKeptAsAGap() {
        var line = TimestampLine(streams: [video])
        let placed = place([(0, 0), (5 * 90_000, 5 * 90_000)], on: &line)
        XCTAssertEqual(placed.map(\.0), [0, 5 * 90_000])
        XCTAssertEqual(line.jumps, 0)
    }

    func testAStepBackOfMinutesIsAJump() {
        var line = TimestampLine(streams: [video])
        let placed = place([(600 * 90_000, 600 * 90_000), (60 * 90_000, 60 * 90_000)], on: &line)
        XCTAssertEqual(placed.map(\.0), [600 * 90_000, 600 * 90_000 + frame])
        XCTAssertEqual(line.jumps, 1)
    }
}
