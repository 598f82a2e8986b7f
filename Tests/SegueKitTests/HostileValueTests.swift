import Foundation
import XCTest
@testable import SegueBitstream
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Values a stranger's request or file may carry: each is refused with exit 2
/// and words that name the option or key and what is allowed, or read as
/// damage; none may trap.
final class HostileValueTests: XCTestCase {
    let store = FixtureStore.shared

    func clip() throws -> String {
        try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
    }

    /// Option, value, and a phrase the refusal must contain.
    static let hostileOptions: [(option: String, value: String, says: String)] = [
        ("--fps", "1/3000000000", "from 0.001 to 240"),
        ("--fps", "99999999999999999999", "from 0.001 to 240"),
        ("--fps", "1e308", "from 0.001 to 240"),
        ("--fps", "2147483648/2147483647", "terms up to 2147483647"),
        ("--fps", "nan", "--fps"),
        ("--fps", "1/0", "--fps"),
        ("--audio-bitrate", "99999999999999999k", "8k to 512k"),
        ("--audio-bitrate", "9223372036854775807", "8k to 512k"),
        ("--cache-max", "infk", "4 EiB"),
        ("--cache-max", "1e30k", "4 EiB"),
        ("--cache-max", "99999999999G", "4 EiB"),
        ("--cache-max", "1e300M", "4 EiB"),
        ("--cache-max", "99999999999999999k", "4 EiB"),
        ("--cache-max", "nank", "4 EiB"),
        ("--size", "99999999999999999999x2", "--size"),
        ("--transition-duration", "nan", "--transition-duration"),
        ("--transition-duration", "1e308", "--transition-duration"),
        ("--still-duration", "inf", "--still-duration"),
        ("--timeout", "nan", "--timeout"),
        ("--retries", "99999999999999999999", "--retries"),
        ("--segment-duration", "1e308", "--segment-duration"),
    ]

    func testHostileOptionValuesExit2NamingTheOptionAndItsRange() throws {
        let clip = try clip()
        let cache = store.folder.appendingPathComponent("hostile-cache").path
        for (option, value, says) in Self.hostileOptions {
            let output = store.outputPath("hostile-option")
            var arguments = ["stitch", clip, "-o", output, option, value]
            if option == "--cache-max" { arguments += ["--cache", cache] }
            if option == "--segment-duration" { arguments += ["--jobs", "1"] }
            let result = try SegueTool.run(arguments)
            XCTAssertEqual(result.status, 2, "\(option) \(value): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(says), "\(option) \(value): \(result.standardError)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(option) \(value) wrote a file")
        }
        // plan reads the same flags through the same table.
        let plan = try SegueTool.run(["plan", clip, "-o", store.outputPath(), "--work", store.outputPath("w"), "--fps", "1/3000000000"])
        XCTAssertEqual(plan.status, 2, plan.standardError)
    }

    /// Output key, JSON value, and a phrase the refusal must contain.
    static let hostileManifestValues: [(key: String, json: String, says: String)] = [
        ("fps", "1e308", "output.fps"),
        ("fps", "9223372036854775808", "output.fps"),
        ("fps", "\"1/3000000000\"", "from 0.001 to 240"),
        ("fps", "-30", "output.fps"),
        ("audioBitrate", "\"99999999999999999k\"", "output.audioBitrate"),
        ("audioBitrate", "1e300", "output.audioBitrate"),
        ("crf", "9223372036854775808", "output.crf"),
        ("transitionDuration", "1e308", "output.transitionDuration"),
        ("stillDuration", "-1e308", "output.stillDuration"),
        ("size", "\"99999999999999999999x99999999999999999999\"", "output.size"),
        ("musicVolume", "\"loud\"", "output.musicVolume"),
    ]

    func testHostileManifestValuesExit2NamingTheKey() throws {
        let clip = try clip()
        for (key, json, says) in Self.hostileManifestValues {
            let manifest = store.folder.appendingPathComponent("hostile-\(UUID().uuidString.prefix(6)).json").path
            try "{\"clips\": [\(String(reflecting: clip))], \"output\": {\"\(key)\": \(json)}}"
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let output = store.outputPath("hostile-manifest")
            let result = try SegueTool.run(["stitch", manifest, "-o", output])
            XCTAssertEqual(result.status, 2, "\(key): \(json): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(says), "\(key): \(json): \(result.standardError)")
        }
        // Trim points far past any clip's end are refused as such, not trapped on.
        for (key, json) in [("in", "1e308"), ("out", "1e308"), ("duration", "1e308")] {
            let manifest = store.folder.appendingPathComponent("hostile-clip-\(key).json").path
            try "{\"clips\": [{\"path\": \(String(reflecting: clip)), \"\(key)\": \(json)}]}"
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let result = try SegueTool.run(["stitch", manifest, "-o", store.outputPath("hostile-clip")])
            XCTAssertTrue([0, 2].contains(result.status), "\(key): \(json): \(result.status) \(result.standardError)")
        }
    }

    // MARK: plan.json

    func testAPlanWithFieldsOutOfRangeIsRefusedByRenderAndJoin() throws {
        let clip = try clip()
        let work = store.outputPath("hostile-plan-work")
        let planned = try SegueTool.run(["plan", clip, clip, "-o", store.outputPath("hostile-plan"), "--work", work,
                                         "--segment-duration", "0.5", "--transition", "fade", "--transition-duration", "0.3"])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let planPath = SegmentPlan.path(work: work)
        let original = try Data(contentsOf: URL(fileURLWithPath: planPath))
        let fields: [(path: [Any], value: Any)] = [
            (["settings", "frameRate"], ["numerator": 1, "denominator": 3_000_000_000]),
            (["settings", "crf"], 9_223_372_036_854_775_807),
            (["settings", "fit"], "sideways"),
            (["settings", "audioBitRate"], -1),
            (["canvas", "frameRate", "denominator"], 0),
            (["canvas", "width"], 1_000_000),
            (["clips", 0, "duration"], 1e308),
            (["clips", 0, "frameRate", "numerator"], Int64.max),
            (["clips", 1, "inPoint"], -5),
            (["network", "timeout"], 0),
            (["totalFrames"], Int64.max),
            (["segments", 0, "endFrame"], -3),
            (["segments", 1, "startFrame"], 1_000_000),
        ]
        for (path, value) in fields {
            var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            root = Self.replacing(root, at: path[...], with: value) as! [String: Any]
            try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: planPath))
            for command in [["render", work, "--segment", "0"], ["join", work]] {
                let result = try SegueTool.run(command)
                XCTAssertEqual(result.status, 2, "\(path) = \(value), \(command[0]): \(result.standardError)")
                XCTAssertTrue(result.standardError.contains("not a plan segue can read"), "\(path): \(result.standardError)")
            }
        }
    }

    /// `object` with the value at `path` (keys and indices) replaced.
    static func replacing(_ object: Any, at path: ArraySlice<Any>, with value: Any) -> Any {
        guard let step = path.first else { return value }
        if let key = step as? String, var dictionary = object as? [String: Any] {
            dictionary[key] = replacing(dictionary[key] as Any, at: path.dropFirst(), with: value)
            return dictionary
        }
        if let index = step as? Int, var array = object as? [Any] {
            array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            return array
        }
        return object
    }

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

    // MARK: Bitstream records

    func testARecordWhoseParameterSetsDontFitSaysSoAndWritesWithoutTrapping() {
        let huge = [UInt8(0x67)] + [UInt8](repeating: 0xAA, count: 70_000)
        let picture = [UInt8(0x68), 0xCE, 0x3C, 0x80]
        var record = AVCRecord(profile: 100, compatibility: 0, level: 40, sequenceParameterSets: [huge],
                               pictureParameterSets: [picture])
        XCTAssertFalse(record.isWritable)
        XCTAssertGreaterThan(record.bytes.count, 0xFFFF, "written cut to its field, not trapped on")
        record.sequenceParameterSets = [Array(huge.prefix(20))]
        XCTAssertTrue(record.isWritable)
        record.pictureParameterSets = Array(repeating: picture, count: 300)
        XCTAssertFalse(record.isWritable, "300 PPS don't fit the count's 8 bits")
        let hevc = HEVCRecord(header: [UInt8](repeating: 0, count: 22), units: [[0x40, 0x01] + [UInt8](repeating: 1, count: 70_000)])
        XCTAssertFalse(hevc.isWritable)
        XCTAssertGreaterThan(hevc.bytes.count, 22)
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
