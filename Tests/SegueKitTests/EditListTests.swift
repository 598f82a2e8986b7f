import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Clips shaped as phones write them: an MP4 on a 1/600 s clock at exactly
/// 30 fps whose edit list starts after a keyframe and ends inside its last
/// picture, which libavformat guesses is 29.97 fps. Every picture whose start
/// lies inside the edit is shown, as the ffmpeg CLI decodes them, and the
/// clip plays at the rate its timestamps keep.
final class EditListTests: XCTestCase {
    let store = FixtureStore.shared

    /// The marker clip the edit-listed ones are cut from: 4 s at 30 fps, 44.1 kHz stereo sound.
    func source() throws -> String {
        let marked = try store.path("editlist-marked.mp4", MarkerClip(clip: 1, frames: 120, sampleRate: 44_100, audioOverrun: 0.2))
        // On a phone's 1/600 s clock: each frame lasts 20 ticks.
        return try store.path("editlist-600.mp4") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", marked, "-c", "copy", "-video_track_timescale", "600", path])
        }
    }

    /// First picture shown: the source's frame 15 (0.5 s), after the keyframe at 0.
    static let firstShown = 15
    /// Pictures the edit shows: 0.5 s to 3.05 s, 77 of them.
    static let shown = 77

    /// Cut from 0.5 s for 2.55 s by stream copy (the mov muxer writes an edit
    /// list from 0.5 s, the keyframe before it decoded but not shown). Each
    /// picture is said to last `lastTicks` of the 20 it does, so the edit ends
    /// that far into the last one (8: 13 ms); the pictures before the edit
    /// come 21 ticks apart and the H.264 timing says 30000/1001, so
    /// libavformat guesses 29.97 where the shown pictures keep 30 exactly.
    func phoneClip(lastTicks: Int = 8) throws -> String {
        let source = try source()
        return try store.path("editlist-phone-\(lastTicks).mp4") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-ss", "0.5", "-i", source, "-t", "2.55", "-c", "copy",
                                     "-bsf:v", "setts=duration=\(lastTicks):ts=if(lt(TS\\,0)\\,TS*21/20\\,TS),h264_metadata=tick_rate=60000/1001",
                                     "-video_track_timescale", "600", path])
        }
    }

    /// Pictures the ffmpeg CLI decodes from `path`.
    func decodedFrames(_ path: String) throws -> Int {
        let video = try FFprobe.streams(path).first { $0["codec_type"] as? String == "video" }
        return Int(video?["nb_read_frames"] as? String ?? "") ?? -1
    }

    func videoStream(_ path: String) throws -> [String: Any] {
        let entries = "stream=codec_type,r_frame_rate,avg_frame_rate,duration,time_base,nb_read_frames"
        let streams = try FFprobe.run(["-count_frames", "-show_entries", entries, path])["streams"] as? [[String: Any]] ?? []
        return try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
    }

    func stitch(_ clip: String, _ flags: [String]) throws -> (path: String, report: [String: Any]) {
        let output = store.outputPath()
        let work = store.folder.appendingPathComponent("editlist-work-\(UUID().uuidString)").path
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--report", output + ".json", "--preset", "ultrafast",
                                        "--quiet", "-y"] + flags + (flags.contains("--jobs") ? ["--work", work] : []))
        XCTAssertEqual(result.status, 0, result.standardError)
        let data = try Data(contentsOf: URL(fileURLWithPath: output + ".json"))
        return (output, try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
    }

    /// Every output picture is the next source picture the edit shows, none twice, none left out.
    func assertEveryPictureShown(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, Self.shown, file: file, line: line)
        let frames = output.pictures.map { Marker.read($0)?.frame ?? -1 }
        XCTAssertEqual(frames, Array(Self.firstShown..<(Self.firstShown + Self.shown)), file: file, line: line)
    }

    // MARK: The fixture

    func testTheFixtureHasAPhonesShape() throws {
        let clip = try phoneClip()
        let video = try videoStream(clip)
        XCTAssertEqual(video["r_frame_rate"] as? String, "30000/1001", "libavformat's guess")
        XCTAssertEqual(video["time_base"] as? String, "1/600")
        XCTAssertEqual(video["duration"] as? String, "2.546667", "the edit ends 8 ticks into the 77th picture")
        XCTAssertEqual(video["nb_read_frames"] as? String, "\(Self.shown)")
        let json = try FFprobe.run(["-select_streams", "v", "-show_entries", "packet=pts,flags", clip])
        let packets = json["packets"] as? [[String: Any]] ?? []
        let shown = packets.filter { !($0["flags"] as? String ?? "").contains("D") }.compactMap { $0["pts"] as? Int }.sorted()
        XCTAssertGreaterThan(packets.count, shown.count, "pictures before the edit are decoded, not shown")
        XCTAssertEqual(shown, Array(stride(from: 0, to: Self.shown * 20, by: 20)), "every shown picture 20/600 s after the last")
        let sound = try FFprobe.streams(clip).first { $0["codec_type"] as? String == "audio" }
        XCTAssertEqual(sound?["sample_rate"] as? String, "44100")
        XCTAssertGreaterThan(Double(sound?["duration"] as? String ?? "") ?? 0, 2.5467, "the sound runs slightly past the picture")
    }

    // MARK: Probing and planning

    func testTheRateComesFromTheTimestampsWhenLibavformatsGuessDisagrees() throws {
        let info = try Prober.probe(ClipEntry(path: try phoneClip())).get()
        XCTAssertEqual(info.facts.frameRate, Rational(30, 1))
        XCTAssertFalse(info.facts.variableFrameRate)
    }

    func testThePlanCountsEveryPictureTheEditShows() throws {
        let info = try Prober.probe(ClipEntry(path: try phoneClip())).get()
        XCTAssertEqual(info.use.duration, Double(Self.shown) / 30, accuracy: 1e-6)
        let plan = try Plan(clips: [info], settings: StitchSettings())
        XCTAssertEqual(plan.canvas.frameRate, Rational(30, 1))
        XCTAssertEqual(plan.clips[0].frameCount, Self.shown)
    }

    func testAnEditEndingOnAFrameBoundaryAddsNoPicture() throws {
        let clip = try phoneClip(lastTicks: 20)
        XCTAssertEqual(try videoStream(clip)["duration"] as? String, "2.566667")
        let info = try Prober.probe(ClipEntry(path: clip)).get()
        XCTAssertEqual(try Plan(clips: [info], settings: StitchSettings()).clips[0].frameCount, Self.shown)
        let (path, _) = try stitch(clip, [])
        try assertEveryPictureShown(path)
    }

    // MARK: Every mode shows every picture

    func testThePlainStitchShowsEveryPictureAtThirtyFPS() throws {
        let clip = try phoneClip()
        let (path, _) = try stitch(clip, [])
        XCTAssertEqual(try decodedFrames(path), try decodedFrames(clip))
        XCTAssertEqual(try videoStream(path)["avg_frame_rate"] as? String, "30/1")
        try assertEveryPictureShown(path)
        let sound = try FFprobe.streams(path).first { $0["codec_type"] as? String == "audio" }
        XCTAssertEqual(Double(sound?["duration"] as? String ?? "") ?? 0, Double(Self.shown) / 30, accuracy: 0.025,
                       "the sound lasts as long as the picture")
    }

    func testSmartShowsEveryPictureAtThirtyFPS() throws {
        let clip = try phoneClip()
        let (path, report) = try stitch(clip, ["--smart"])
        XCTAssertEqual(try decodedFrames(path), try decodedFrames(clip))
        XCTAssertEqual(try videoStream(path)["avg_frame_rate"] as? String, "30/1")
        try assertEveryPictureShown(path)
        XCTAssertNotNil(report["smart"], "\(report.keys)")
    }

    func testSegmentsShowEveryPictureAtThirtyFPS() throws {
        let clip = try phoneClip()
        let (path, _) = try stitch(clip, ["--jobs", "2", "--segment-duration", "1"])
        XCTAssertEqual(try decodedFrames(path), try decodedFrames(clip))
        XCTAssertEqual(try videoStream(path)["avg_frame_rate"] as? String, "30/1")
        try assertEveryPictureShown(path)
    }

    func testTwoPhoneClipsShowEveryPictureOfEach() throws {
        let clip = try phoneClip()
        let (path, _) = try stitch(clip, [clip])
        XCTAssertEqual(try decodedFrames(path), 2 * (try decodedFrames(clip)))
    }

    // MARK: Real files with edit lists

    /// A file of the real-world corpus beside the repository (or SEGUE_REALWORLD).
    func realClip(_ name: String) throws -> String {
        let corpus = ProcessInfo.processInfo.environment["SEGUE_REALWORLD"]
            ?? SegueTool.repository.deletingLastPathComponent().appendingPathComponent("shared/realworld").path
        let path = URL(fileURLWithPath: corpus).appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw unavailable("\(path) is not on this machine") }
        return path
    }

    func testRealEditListedClipsGiveAsManyPicturesAsTheFFmpegCLIDecodes() throws {
        for name in ["iphone_720p30_vfr_editlists_aac.mp4", "edit_list_skips_only_sync_sample.mp4"] {
            let clip = try realClip(name)
            let (path, _) = try stitch(clip, [])
            XCTAssertEqual(try decodedFrames(path), try decodedFrames(clip), name)
        }
    }
}
