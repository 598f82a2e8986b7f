import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Values a stranger's file may carry, in-process: times saturate instead of
/// overflowing, and only reading and decoding failures are read as damage;
/// none may trap (options, manifests and plans through the built `segue`:
/// SegueKitTests' HostileValueCommandLineTests).
final class HostileValueTests: XCTestCase {
    // MARK: Timestamps

    func testRescalingSaturatesInsteadOfOverflowing() {
        let nanoseconds = Rational(1, 1_000_000_000), hours = Rational(3600, 1)
        XCTAssertEqual(hours.rescale(Int64.max / 2, to: nanoseconds), Timestamp.limit)
        XCTAssertEqual(hours.rescale(-(Int64.max / 2), to: nanoseconds), -Timestamp.limit)
        XCTAssertEqual(Rational(1, 90_000).rescale(90_000, to: Rational(1, 48_000)), 48_000, "exact when it fits")
        XCTAssertEqual(Rational(1, 3).rescale(1, to: Rational(1, 2)), 1, "rounds half away from zero: 0.667")
        XCTAssertEqual(Rational(1, 1000).ticks(seconds: .infinity), Timestamp.limit)
        XCTAssertEqual(Rational(1, 1000).ticks(seconds: -.infinity), -Timestamp.limit)
        XCTAssertEqual(Rational(1, 1000).ticks(seconds: .nan), 0)
        XCTAssertEqual(Rational(1, 1000).ticks(seconds: 1e300), Timestamp.limit)
    }

    func testTimestampArithmeticSaturates() {
        let base = Rational(1, 90_000)
        XCTAssertEqual(Int64.max.saturatingAdd(1), Timestamp.limit)
        XCTAssertEqual(Int64.min.saturatingAdd(-1), -Timestamp.limit)
        XCTAssertEqual(Int64(5).saturatingAdd(-7), -2)
        let late = Timestamp(Timestamp.limit, base), early = Timestamp(-Timestamp.limit, base)
        XCTAssertEqual((late + late).ticks, Timestamp.limit)
        XCTAssertEqual((early - late).ticks, -Timestamp.limit)
        XCTAssertEqual((Timestamp(90_000, base) + Timestamp(1, Rational(1, 1))).ticks, 180_000, "rescaled, then added")
        XCTAssertTrue(Timestamp(1, Rational(1, 1)) > Timestamp(89_999, base))
        XCTAssertEqual(Int64(saturatingSeconds: 1e30), Timestamp.limit)
    }

    func testAPacketTimeNoFileMeansReadsAsMissing() {
        let packet = Packet()
        packet.pts = Int64.max - 1
        packet.dts = Timestamp.limit + 1
        packet.duration = Int64.max
        XCTAssertNil(packet.pts)
        XCTAssertNil(packet.dts)
        XCTAssertEqual(packet.duration, 0)
        packet.pts = -Timestamp.limit
        XCTAssertEqual(packet.pts, -Timestamp.limit, "the limit itself is a time")
    }

    // MARK: Damage is damage

    func testOnlyReadingAndDecodingFailuresAreConcealedAsDamage() throws {
        let policy = DamagePolicy(strict: false, subject: "clip.mp4")
        let invalid = FFmpegError.posix(EINVAL).code
        for call in ["av_read_frame", "avcodec_send_packet", "avcodec_receive_frame"] {
            XCTAssertFalse(try policy.survives { throw FFmpegError(code: FFmpegError.invalidData.code, call: call) }, call)
            XCTAssertFalse(try policy.survives { throw FFmpegError(code: invalid, call: call) }, call)
        }
        for call in ["av_buffersrc_add_frame_flags", "av_buffersink_get_frame", "avfilter_graph_config(scale)", "avcodec_send_frame"] {
            XCTAssertThrowsError(try policy.survives { throw FFmpegError(code: invalid, call: call) }, call) { error in
                let failure = error as? SegueError
                XCTAssertEqual(failure?.reason, .processingFailed)
                XCTAssertEqual(failure?.exitCode, 1)
                XCTAssertTrue(failure?.description.contains("clip.mp4: processing failed (\(call)") ?? false, "\(error)")
            }
        }
        XCTAssertThrowsError(try policy.survives { throw FFmpegError(code: FFmpegError.posix(ENOMEM).code, call: "avcodec_send_packet") },
                             "memory running out is not damage")
        XCTAssertThrowsError(try policy.survives { throw FFmpegError.inputOutput }, "a lost disk is not damage") { error in
            XCTAssertEqual(error as? FFmpegError, .inputOutput, "passed on as it is")
        }
    }
}
