import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// What every `--smart` test checks, whatever encoded its clips: a stitch
/// with `--smart` shows the same frames and carries the same sound as one
/// without it, its timeline is clean, and it decodes cleanly in FFmpeg and
/// GStreamer. Subclasses hold the tests; this class holds none.
class SmartTestCase: XCTestCase {
    let store = FixtureStore.shared

    struct Run {
        var plan: Plan
        var report: StitchReport
        var path: String
        var output: DecodedOutput
    }

    func stitch(_ paths: [String], smart: Bool, _ configure: (inout StitchSettings) -> Void = { _ in }) throws -> Run {
        try stitch(paths.map { ClipEntry(path: $0) }, smart: smart, configure)
    }

    func stitch(_ entries: [ClipEntry], smart: Bool, _ configure: (inout StitchSettings) -> Void = { _ in }) throws -> Run {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 12
        settings.smart = smart
        configure(&settings)
        let (plan, report, path) = try store.stitch(entries, settings: settings)
        return Run(plan: plan, report: report, path: path, output: try DecodedOutput(path: path))
    }

    /// Stitches with and without `--smart` and checks that both show the same
    /// markers on every frame and carry the same sound; returns the smart run.
    @discardableResult
    func assertSameAsWithoutSmart(_ paths: [String], _ configure: @escaping (inout StitchSettings) -> Void = { _ in },
                                  file: StaticString = #filePath, line: UInt = #line) throws -> (smart: Run, plain: Run) {
        try assertSameAsWithoutSmart(paths.map { ClipEntry(path: $0) }, configure, file: file, line: line)
    }

    @discardableResult
    func assertSameAsWithoutSmart(_ entries: [ClipEntry], _ configure: @escaping (inout StitchSettings) -> Void = { _ in },
                                  file: StaticString = #filePath, line: UInt = #line) throws -> (smart: Run, plain: Run) {
        let plain = try stitch(entries, smart: false, configure)
        let smart = try stitch(entries, smart: true, configure)
        XCTAssertEqual(smart.output.pictures.count, plain.output.pictures.count, "frame count", file: file, line: line)
        XCTAssertEqual(smart.report.frames, plain.plan.totalFrames, file: file, line: line)
        for (index, (mine, theirs)) in zip(smart.output.pictures, plain.output.pictures).enumerated() {
            if let expected = Marker.read(theirs), let read = Marker.read(mine) {
                XCTAssertTrue(read == expected, "frame \(index): without --smart clip \(expected.clip) frame \(expected.frame), with it \(read)",
                              file: file, line: line)
            } else {
                // A blend, whose blocks may sit on a reading threshold: the same
                // picture within coding noise (a frame off by one is under 25 dB).
                XCTAssertGreaterThan(Self.psnr(mine, theirs), 38, "frame \(index): drawn differently", file: file, line: line)
            }
        }
        if smart.report.audioFramesCopied == 0 {
            // The same samples went to the same encoder: sync is exactly what it is without --smart.
            XCTAssertEqual(smart.output.audio.count, plain.output.audio.count, "audio length", file: file, line: line)
            let difference = zip(smart.output.audio, plain.output.audio).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThan(difference, 1e-5, "audio differs from the run without --smart", file: file, line: line)
        } else {
            try assertSoundFollowsThePlainStitch(smart, plain, file: file, line: line)
        }
        try assertCleanTimeline(smart, file: file, line: line)
        try assertDecodesCleanly(smart.path, file: file, line: line)
        return (smart, plain)
    }

    /// With copied sound (AAC packets, each clip moved at most 512 samples onto
    /// the output's grid): as long as the plain stitch's within a frame, the
    /// same clip heard in every frame away from a clip's edges, and every frame
    /// the report counts as copied byte for byte a source packet.
    func assertSoundFollowsThePlainStitch(_ smart: Run, _ plain: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertLessThanOrEqual(abs(smart.output.audio.count - plain.output.audio.count), 1024, "audio length",
                                 file: file, line: line)
        let rate = smart.plan.canvas.frameRate.value
        var edges = Set<Int>()
        for clip in smart.plan.clips {
            // A crossfade's frames hear both clips: which dominates is a matter of thresholds.
            let join = smart.plan.mode == .overlap ? smart.plan.joinFrames(before: clip.index) : 0
            edges.formUnion((clip.startFrame - 1)...(clip.startFrame + join + 1))
            edges.formUnion((clip.startFrame + clip.frameCount - 1)...(clip.startFrame + clip.frameCount + 1))
        }
        for frame in 0..<smart.plan.totalFrames where !edges.contains(frame) {
            let mine = Tone.dominantClip(smart.output.audioChunk(frame: frame, frameRate: rate), sampleRate: smart.output.sampleRate)
            let theirs = Tone.dominantClip(plain.output.audioChunk(frame: frame, frameRate: rate), sampleRate: plain.output.sampleRate)
            XCTAssertEqual(mine, theirs, "frame \(frame): another clip heard than without --smart", file: file, line: line)
        }
        let sources = Set(smart.plan.clips.map(\.info.path))
        XCTAssertGreaterThanOrEqual(try Self.identicalAudioPackets(smart.path, sources: Array(sources)), smart.report.audioFramesCopied,
                                    "copied sound frames are source packets, byte for byte", file: file, line: line)
    }

    /// Output AAC packets whose payload is byte for byte some source packet's.
    static func identicalAudioPackets(_ output: String, sources: [String]) throws -> Int {
        var known = Set<[UInt8]>()
        for source in sources { for packet in try audioPackets(source) { known.insert(packet.bytes) } }
        return try audioPackets(output).filter { known.contains($0.bytes) }.count
    }

    /// Every AAC packet of a file: pts (in its time base) and payload.
    static func audioPackets(_ path: String) throws -> [(pts: Int64, bytes: [UInt8])] {
        let demuxer = try InputAccess().openDemuxer(path)
        guard let index = demuxer.bestStream(.audio) else { return [] }
        let packet = Packet()
        var list: [(pts: Int64, bytes: [UInt8])] = []
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            list.append((packet.pts ?? .min, packet.bytes))
        }
        return list
    }

    /// pts exactly 0, 1, 2 … in frames; dts strictly increasing and never after pts; the first frame at 0.
    func assertCleanTimeline(_ run: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let packets = try Self.videoPackets(run.path)
        let rate = run.plan.canvas.frameRate
        let frames = packets.list.map { $0.pts * Int64(packets.timeBase.numerator * rate.numerator) }
        let tick = Int64(packets.timeBase.denominator * rate.denominator)
        XCTAssertTrue(frames.allSatisfy { $0 % tick == 0 }, "a pts off the frame grid", file: file, line: line)
        XCTAssertEqual(frames.map { $0 / tick }.sorted(), (0..<Int64(run.plan.totalFrames)).map { $0 }, "pts are not 0..<frames",
                       file: file, line: line)
        for (previous, next) in zip(packets.list, packets.list.dropFirst()) {
            XCTAssertLessThan(previous.dts, next.dts, "dts must strictly increase", file: file, line: line)
        }
        XCTAssertTrue(packets.list.allSatisfy { $0.dts <= $0.pts }, "a frame decodes after it shows", file: file, line: line)
        let stream = try FFprobe.streams(run.path).first { $0["codec_type"] as? String == "video" }
        XCTAssertEqual(stream?["nb_read_frames"] as? String, "\(run.plan.totalFrames)", file: file, line: line)
        let start = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=start_time",
                                             "-of", "csv=p=0", run.path]).standardOutput
        XCTAssertEqual(Double(start.trimmingCharacters(in: .whitespacesAndNewlines)), 0, "first frame not at 0", file: file, line: line)
    }

    /// No decoder complaint from FFmpeg, nor from GStreamer's qtdemux ! h264parse ! avdec_h264
    /// (for HEVC: h265parse, then both avdec_h265 and libde265dec, a decoder FFmpeg has no part in).
    func assertDecodesCleanly(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        // Each picture at its own time (the null muxer otherwise restamps a variable-rate track on a grid and complains).
        let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "null", "-"])
        XCTAssertEqual(ffmpeg.status, 0, file: file, line: line)
        XCTAssertEqual(ffmpeg.standardError, "", "FFmpeg decode errors", file: file, line: line)
        let codec = try FFprobe.streams(path).first { $0["codec_type"] as? String == "video" }?["codec_name"] as? String
        let chains = codec == "hevc" ? [["h265parse", "avdec_h265"], ["h265parse", "libde265dec"]] : [["h264parse", "avdec_h264"]]
        for chain in chains {
            let gstreamer = try Tool.run("gst-launch-1.0", ["filesrc", "location=\(path)", "!", "qtdemux", "!", chain[0], "!",
                                                            chain[1], "!", "fakesink"],
                                         environment: ["GST_DEBUG": "2", "GST_DEBUG_NO_COLOR": "1"])
            XCTAssertEqual(gstreamer.status, 0, "\(chain[1]): " + gstreamer.standardError, file: file, line: line)
            // What GStreamer says of every MP4 FFmpeg writes (boxes it doesn't know, no fragments) is not about the stream.
            // libde265dec says so of any hvcC (h265parse hands it the parameter sets anyway), and on some machines
            // that it decodes on one thread, as a stream without wavefront rows (WPP, optional in HEVC) asks.
            let benign = ["unknown QuickTime node type", "failed to find fragment defaults", "pad not activated yet",
                          "Unsupported extra data version 1", "stream does not support WPP"]
            let complaints = (gstreamer.standardError + gstreamer.standardOutput).split(separator: "\n")
                .filter { ($0.contains(" WARN ") || $0.contains(" ERROR ")) && !benign.contains(where: $0.contains) }
            XCTAssertEqual(complaints, [], "GStreamer (\(chain[1])) warnings or errors", file: file, line: line)
        }
        if codec == "hevc" {
            // An independent HEVC decoder gives every picture bit for bit as FFmpeg's does.
            let theirs = path + ".libde265.yuv", ours = path + ".ffmpeg.yuv"
            defer { try? FileManager.default.removeItem(atPath: theirs); try? FileManager.default.removeItem(atPath: ours) }
            _ = try Tool.run("gst-launch-1.0", ["-q", "filesrc", "location=\(path)", "!", "qtdemux", "!", "h265parse", "!",
                                                "libde265dec", "!", "videoconvert", "!", "video/x-raw,format=I420", "!",
                                                "filesink", "location=\(theirs)"])
            // Both as stored: libde265 doesn't turn pictures by the track's display matrix.
            _ = try Tool.run("ffmpeg", ["-v", "error", "-y", "-noautorotate", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", ours])
            let decoded = FileManager.default.contents(atPath: ours)
            XCTAssertGreaterThan(decoded?.count ?? 0, 0, file: file, line: line)
            XCTAssertTrue(FileManager.default.contents(atPath: theirs) == decoded, "libde265 decodes other pictures than FFmpeg",
                          file: file, line: line)
        }
    }

    /// Output video packets whose payload is byte for byte some source packet's.
    func identicalPackets(_ output: String, sources: [String]) throws -> Int {
        var known = Set<[UInt8]>()
        for source in sources { for packet in try Self.videoPackets(source).list { known.insert(packet.bytes) } }
        return try Self.videoPackets(output).list.filter { known.contains($0.bytes) }.count
    }

    // MARK: Helpers

    static func videoExtradata(_ path: String) throws -> [UInt8] {
        let demuxer = try InputAccess().openDemuxer(path)
        return demuxer.streams[try XCTUnwrap(demuxer.bestStream(.video))].extradata
    }

    struct VideoPackets {
        var timeBase: Rational
        var list: [(pts: Int64, dts: Int64, bytes: [UInt8])]
    }

    static func videoPackets(_ path: String) throws -> VideoPackets {
        let demuxer = try InputAccess().openDemuxer(path)
        let index = try XCTUnwrap(demuxer.bestStream(.video))
        let packet = Packet()
        var list: [(pts: Int64, dts: Int64, bytes: [UInt8])] = []
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            list.append((packet.pts ?? .min, packet.dts ?? .min, packet.bytes))
        }
        return VideoPackets(timeBase: demuxer.streams[index].timeBase, list: list)
    }

    /// Luma PSNR in dB (infinite for identical pictures).
    static func psnr(_ a: PlaneImage, _ b: PlaneImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var sum = 0.0
        for (x, y) in zip(a.bytes, b.bytes) { sum += Double((Int(x) - Int(y)) * (Int(x) - Int(y))) }
        let mse = sum / Double(a.bytes.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

/// Runs a command-line tool from PATH, capturing its output.
enum Tool {
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> SegueTool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try SegueTool.capture(process)
    }
}
