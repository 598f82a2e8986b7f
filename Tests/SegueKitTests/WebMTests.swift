import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// `-o reel.webm` writes WebM (VP9 or AV1, Opus, WebVTT, chapters), judged
/// by decoding it (marker frames and tones), by ffprobe, and by a real
/// browser; an extension Segue doesn't write is refused.
final class WebMTests: XCTestCase {
    let store = FixtureStore.shared
    static let quick = ["--preset", "ultrafast", "--crf", "12", "--quiet"]

    /// Marker clips 0, 1, 2 of 30, 45 and 30 frames (1 to 1.5 s at 30 fps, each with its tone).
    func clips() throws -> [String] {
        try [(0, 30), (1, 45), (2, 30)].map { clip, frames in
            try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
        }
    }

    func output(_ name: String, _ suffix: String = "webm") -> String {
        let path = store.folder.appendingPathComponent("out-\(name)-\(UUID().uuidString.prefix(6)).\(suffix)").path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    /// The plan `segue stitch` makes of `paths` with `configure`'s settings: what each output frame should show.
    func expectedFrames(_ paths: [String], _ configure: (inout StitchSettings) -> Void) throws -> [(clip: Int, frame: Int)?] {
        var settings = StitchSettings()
        configure(&settings)
        let plan = try Plan(clips: Prober.probeEach(paths.map { ClipEntry(path: $0) }).map { try $0.get() }, settings: settings)
        var expected: [(clip: Int, frame: Int)?] = []
        for clip in plan.clips {
            let head = clip.index > 0 ? plan.joins[clip.index - 1].frameCount : 0
            let tail = clip.index < plan.joins.count ? plan.joins[clip.index].frameCount : 0
            expected += (head..<(clip.frameCount - tail)).map { (clip.index, $0) }
            expected += Array(repeating: nil, count: tail)
        }
        return expected
    }

    func testAWebMHoldsVP9AndOpusWithEveryFrameExactAndEachClipHeard() throws {
        let paths = try clips(), out = output("vp9"), report = output("vp9-report", "json")
        let result = try SegueTool.run(["stitch"] + paths + ["-o", out, "--transition", "fade", "--transition-duration", "0.5",
                                                             "--report", report] + Self.quick)
        XCTAssertEqual(result.status, 0, result.standardError)
        let format = try FFprobe.run(["-show_entries", "format=format_name", out])["format"] as? [String: Any]
        XCTAssertEqual(format?["format_name"] as? String, "matroska,webm")
        let streams = try FFprobe.streams(out)
        XCTAssertEqual(streams.map { $0["codec_name"] as? String }, ["vp9", "opus"])
        XCTAssertEqual(streams.last?["sample_rate"] as? String, "48000")

        let expected = try expectedFrames(paths) { $0.transition = .fade; $0.transitionDuration = 0.5 }
        let decoded = try DecodedOutput(path: out)
        XCTAssertEqual(decoded.pictures.count, expected.count, "frames")
        for (index, want) in expected.enumerated() {
            guard let want, index < decoded.pictures.count else { continue }
            let read = Marker.read(decoded.pictures[index])
            XCTAssertTrue(read.map { $0 == want } ?? false, "frame \(index): expected \(want), read \(String(describing: read))")
        }
        // The sound: as long as the picture within one Opus frame, each clip's tone where it plays alone.
        XCTAssertEqual(decoded.sampleRate, 48_000)
        XCTAssertLessThanOrEqual(abs(decoded.audio.count - expected.count * 1600), 960, "samples \(decoded.audio.count)")
        for (index, want) in expected.enumerated() where want != nil {
            let neighbours = [index - 2, index + 2].filter { expected.indices.contains($0) }
            guard neighbours.allSatisfy({ expected[$0]?.clip == want?.clip }) else { continue }
            let chunk = decoded.audioChunk(frame: index, frameRate: 30)
            XCTAssertEqual(Tone.dominantClip(chunk, sampleRate: 48_000), want?.clip, "frame \(index): heard the wrong clip")
        }
        try assertGStreamerDecodes(out)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let written = json?["output"] as? [String: Any]
        XCTAssertEqual(written?["container"] as? String, "webm")
        XCTAssertEqual(written?["codec"] as? String, "vp9")
        XCTAssertEqual((written?["audio"] as? [String: Any])?["codec"] as? String, "opus")
        let bytes = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        XCTAssertEqual(written?["bytes"] as? Int, bytes)
        XCTAssertEqual(written?["mimeType"] as? String, "video/webm; codecs=\"vp09.00.11.08, opus\"")
        XCTAssertEqual((written?["audio"] as? [String: Any])?["codecString"] as? String, "opus")
    }

    func testTheSoundStartsWhereTheMP4sDoesAsTheFFmpegCLIDecodesIt() throws {
        // Silent for its first second, then its tone: the tone starts at the same time in both files.
        let late = try store.path("marker-late-sound.mp4", MarkerClip(clip: 1, frames: 60, audioDelay: 1.0))
        var onsets: [Double] = []
        for suffix in ["webm", "mp4"] {
            let out = output("sync", suffix)
            let result = try SegueTool.run(["stitch", late, "-o", out] + Self.quick)
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertEqual(try SubtitleTrack.video(out, "start_time"), 0, "\(suffix): the first picture at 0")
            onsets.append(try soundOnset(out))
        }
        // Within a millisecond (FFmpeg 5.1's muxer alone would put WebM's sound 6.5 ms early).
        XCTAssertEqual(onsets[0], onsets[1], accuracy: 0.001, "WebM's tone at \(onsets[0]) s, MP4's at \(onsets[1]) s")
        XCTAssertEqual(onsets[1], 1.0, accuracy: 0.01)
    }

    /// GStreamer, a player of its own (matroskademux, its VP9, AV1 and Opus
    /// decoders), decodes the file's picture and sound to their end without an error.
    func assertGStreamerDecodes(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0") else {
            throw unavailable("gst-launch-1.0 is not installed (Scripts/setup installs gstreamer1.0-tools)")
        }
        let pipeline = ["-q", "filesrc", "location=\(path)", "!", "decodebin", "name=d",
                        "d.", "!", "queue", "!", "video/x-raw", "!", "fakesink", "sync=false",
                        "d.", "!", "queue", "!", "audio/x-raw", "!", "fakesink", "sync=false"]
        let result = try Tool.run("timeout", ["120", "gst-launch-1.0"] + pipeline)
        XCTAssertEqual(result.status, 0, "GStreamer on \(path): \(result.standardOutput)\(result.standardError)", file: file, line: line)
    }

    /// Seconds from the file's zero to its first loud sample, as the ffmpeg CLI decodes and times it.
    func soundOnset(_ path: String) throws -> Double {
        let frames = try FFprobe.run(["-select_streams", "a", "-show_entries", "frame=pts_time", path])["frames"] as? [[String: Any]]
        let start = try XCTUnwrap((frames?.first?["pts_time"] as? String).flatMap(Double.init), "no sound in \(path)")
        let raw = path + ".f32"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decoded = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", path, "-map", "0:a", "-ac", "1", "-f", "f32le", raw])
        XCTAssertEqual(decoded.status, 0, decoded.standardError)
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let onset = try XCTUnwrap(samples.firstIndex { abs($0) > 0.1 }, "silent: \(path)")
        return start + Double(onset) / 48_000
    }

    func testABrowserPlaysTheWebMAndTheMP4ToTheEndAndTheirReportedTypes() throws {
        let paths = try clips()
        // VP9 WebM, the same as H.264 MP4, VP9 Profile 2 HLG, AV1 WebM and VP9 in MP4.
        let jobs: [(out: String, flags: [String])] = [(output("browser"), []), (output("browser", "mp4"), []),
                                                      (output("browser-hlg"), ["--hdr", "hlg"]),
                                                      (output("browser-av1"), ["--codec", "av1"]),
                                                      (output("browser-vp9", "mp4"), ["--codec", "vp9"])]
        var types: [String] = []
        for (out, flags) in jobs {
            let report = out + ".json"
            let result = try SegueTool.run(["stitch"] + paths + ["-o", out, "--transition", "fade", "--transition-duration", "0.5",
                                                                 "--report", report] + flags + Self.quick)
            XCTAssertEqual(result.status, 0, result.standardError)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            types.append(try XCTUnwrap((json?["output"] as? [String: Any])?["mimeType"] as? String))
        }
        XCTAssertEqual(types[0], "video/webm; codecs=\"vp09.00.11.08, opus\"")
        XCTAssertEqual(types[2], "video/webm; codecs=\"vp09.02.11.10, opus\"")
        let script = SegueTool.repository.appendingPathComponent("Scripts/browser-play").path
        let played = try Tool.run(script, ["--timeout", "150"] + types.flatMap { ["--type", $0] } + jobs.map(\.out))
        if played.status == 3, played.standardError.contains("not installed") { throw unavailable(played.standardError) }
        XCTAssertEqual(played.status, 0, played.standardError + played.standardOutput)
        let json = try JSONSerialization.jsonObject(with: Data(played.standardOutput.utf8)) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.count, jobs.count)
        let frames = 30 + 45 + 30 - 2 * 15
        for result in results {
            XCTAssertEqual(result["ended"] as? Bool, true, "\(result)")
            XCTAssertTrue(result["error"] is NSNull, "\(result)")
            XCTAssertEqual(result["totalVideoFrames"] as? Int, frames, "\(result)")
            XCTAssertGreaterThan(result["audioDecodedBytes"] as? Int ?? 0, 0, "sound decoded: \(result)")
        }
        // Each report's type, codecs and all, is one the browser says it plays.
        let answers = json?["types"] as? [[String: Any]] ?? []
        XCTAssertEqual(answers.map { $0["canPlayType"] as? String }, Array(repeating: "probably", count: jobs.count), "\(answers)")
        XCTAssertEqual(answers.map { $0["mediaSource"] as? Bool }, Array(repeating: true, count: jobs.count), "\(answers)")
    }

    func testAnExtensionSegueDoesntWriteIsExit2WithNothingWritten() throws {
        let paths = try clips()
        let avi = output("refused", "avi")
        let result = try SegueTool.run(["stitch"] + paths + ["-o", avi] + Self.quick)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("segue: error: \(avi): Segue writes .mp4, .m4v, .mov, .webm and .m3u8 files, not .avi"),
                      result.standardError)
        let jobsOutput = output("jobs"), codecOutput = output("codec")
        let jobs = try SegueTool.run(["stitch"] + paths + ["-o", jobsOutput, "--jobs", "2"] + Self.quick)
        XCTAssertEqual(jobs.status, 2, jobs.standardError)
        XCTAssertTrue(jobs.standardError.contains("segmented renders (plan, render and join; --jobs, --work) write MP4 or HLS, not WebM"),
                      jobs.standardError)
        let h264 = try SegueTool.run(["stitch"] + paths + ["-o", codecOutput, "--codec", "h264"] + Self.quick)
        XCTAssertEqual(h264.status, 2)
        XCTAssertTrue(h264.standardError.contains("WebM holds VP9 or AV1 video, not H.264"), h264.standardError)
        // Nothing under these outputs' names, nor their partial files (the store holds other tests' files too).
        let names = [avi, jobsOutput, codecOutput].map { ($0 as NSString).lastPathComponent }
        let left = try FileManager.default.contentsOfDirectory(atPath: store.folder.path)
            .filter { file in names.contains { file.hasPrefix($0) || file.hasPrefix("." + $0) } }
        XCTAssertEqual(left, [], "nothing written")
    }

    func testMOVAndM4VStillWriteMP4AndAWebMIsNotReplacedWithoutY() throws {
        let paths = try clips()
        for suffix in ["mov", "m4v"] {
            let out = output("iso", suffix)
            let result = try SegueTool.run(["stitch", paths[0], "-o", out] + Self.quick)
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertEqual(try FFprobe.streams(out).map { $0["codec_name"] as? String }, ["h264", "aac"])
        }
        let existing = output("existing")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
        let result = try SegueTool.run(["stitch", paths[0], "-o", existing] + Self.quick)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "keep")
    }

    func testAnInterruptedWebMLeavesNothingAndTheOldFileIntact() throws {
        let clip = try clips()[1]
        let list = store.folder.appendingPathComponent("webm-long.txt").path
        try Data(String(repeating: clip + "\n", count: 40).utf8).write(to: URL(fileURLWithPath: list))
        let out = output("interrupted")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let partial = OutputFile.temporaryPath(for: out)
        let result = try SegueTool.run(["stitch", list, "-o", out, "-y", "--preset", "medium", "--size", "640x360"]) { process in
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: partial) && Date() < deadline { usleep(10_000) }
            usleep(200_000)
            process.terminate()
            process.waitUntilExit()
        }
        XCTAssertEqual(result.status, 143, result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial), "temporary file removed")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious", "existing output untouched")
    }

    func testAWebMCarriesChaptersAndTheSubtitlesAsWebVTT() throws {
        let subtitled = try SubtitleFixture.movText(store), second = try clips()[2]
        let out = output("text")
        let result = try SegueTool.run(["stitch", subtitled, second, "-o", out, "--chapters"] + Self.quick)
        XCTAssertEqual(result.status, 0, result.standardError)
        let streams = try SubtitleTrack.streams(out)
        XCTAssertEqual(streams.map { $0["codec_name"] as? String }, ["webvtt"])
        XCTAssertEqual(streams.first.flatMap(SubtitleTrack.language), "fra")
        XCTAssertEqual(try SubtitleTrack.video(out, "start_time"), 0, "the first picture at 0")
        let expected = SubtitleFixture.bravo.map { Cue(start: $0.start, end: $0.end, text: $0.shown) }
        SubtitleTrack.assertCues(try SubtitleTrack.cues(out), expected)
        let chapters = try FFprobe.run(["-show_chapters", out])["chapters"] as? [[String: Any]] ?? []
        XCTAssertEqual(chapters.map { $0["start_time"] as? String }, ["0.000000", "1.500000"])
        XCTAssertEqual(chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String }, ["subs-movtext", "marker-2-30"])
    }

    func testSmartIsOffInWebMWithAWarningAndAV1HLGAndPQAreWritten() throws {
        let paths = try clips()
        let smart = try SegueTool.run(["stitch", paths[0], "-o", output("smart"), "--smart", "--preset", "ultrafast"])
        XCTAssertEqual(smart.status, 0, smart.standardError)
        XCTAssertTrue(smart.standardError.contains("--smart is off"), smart.standardError)

        let av1 = output("av1")
        XCTAssertEqual(try SegueTool.run(["stitch", paths[0], "-o", av1, "--codec", "av1"] + Self.quick).status, 0)
        XCTAssertEqual(try FFprobe.streams(av1).map { $0["codec_name"] as? String }, ["av1", "opus"])
        try assertGStreamerDecodes(av1)

        let hlg = output("hlg")
        XCTAssertEqual(try SegueTool.run(["stitch", paths[0], "-o", hlg, "--hdr", "hlg"] + Self.quick).status, 0)
        let video = try FFprobe.streams(hlg, entries: "stream=codec_name,profile,pix_fmt,color_transfer,color_primaries").first
        XCTAssertEqual(video?["profile"] as? String, "Profile 2")
        XCTAssertEqual(video?["pix_fmt"] as? String, "yuv420p10le")
        XCTAssertEqual(video?["color_transfer"] as? String, "arib-std-b67")
        XCTAssertEqual(video?["color_primaries"] as? String, "bt2020")
        try assertGStreamerDecodes(hlg)

        // PQ states HDR10 metadata (BT.2408's typical display when no clip states one) in WebM's colour element.
        let pq = output("pq")
        XCTAssertEqual(try SegueTool.run(["stitch", paths[0], "-o", pq, "--hdr", "pq"] + Self.quick).status, 0)
        let stated = try FFprobe.run(["-select_streams", "v", "-show_entries",
                                      "stream=color_transfer:stream_side_data=side_data_type,max_luminance,max_content,max_average", pq])
        let stream = (stated["streams"] as? [[String: Any]])?.first
        XCTAssertEqual(stream?["color_transfer"] as? String, "smpte2084")
        let sideData = stream?["side_data_list"] as? [[String: Any]] ?? []
        let display = sideData.first { $0["side_data_type"] as? String == "Mastering display metadata" }
        XCTAssertEqual(display?["max_luminance"] as? String, "1000/1", "1000 cd/m²: \(sideData)")
        let light = sideData.first { $0["side_data_type"] as? String == "Content light level metadata" }
        XCTAssertEqual(light?["max_content"] as? Int, 1000, "\(sideData)")
        XCTAssertEqual(light?["max_average"] as? Int, 400, "\(sideData)")
    }
}
