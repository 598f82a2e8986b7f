import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// `--smart` on clips shaped as phones write them: a landscape picture with a
/// display matrix (portrait 90 or 270, upside down 180, a front camera's
/// mirror), sound at 44.1 kHz mono or stereo, an edit list that starts after
/// a keyframe. Each is cut to itself, judged on what a player shows (frames
/// decoded by the ffmpeg CLI, which turns them by the matrix) against the
/// source, and beside other clips against the plain stitch.
final class SmartPhoneTests: SmartTestCase {
    /// A phone-shaped clip: `seconds` of a 320x180 stored picture that stands
    /// upright once turned as `rotateTag` says (ffmpeg 5.1's `rotate` tag, on a
    /// stream copy), closed GOPs of half a second, BT.709 (or HEVC Main 10
    /// HLG; `fullRange`: full range, as a Pixel records), and pink noise in
    /// AAC-LC at `rate` Hz (nil: no sound), `channels` channels, running
    /// 0.1 s past the picture; then cut one frame in (on the frame:
    /// 512 of the track's 15360 ticks) by a stream copy, so an edit list
    /// starts it after a keyframe, as an iPhone's does
    /// (HEVC is left whole: cut so, its output shows a picture more than the
    /// CLI decodes of it, and libde265 disagrees with FFmpeg; with or without a turn).
    func phoneClip(rotateTag: Int, profile: String = "high", rate: Int? = 44_100, channels: Int = 1, seconds: Double = 6,
                   hevcHLG: Bool = false, fullRange: Bool = false) throws -> String {
        let kind = hevcHLG ? "hlg" : fullRange ? "full" : "sdr"
        let name = "phone-\(rotateTag)-\(profile)-\(rate ?? 0)-\(channels)-\(seconds)-\(kind).mp4"
        return try store.path(name) { path in
            // The 5.1 CLI reads `rotate=N` as N degrees counter-clockwise: store the picture turned the other way.
            let upright = rotateTag % 180 == 0 ? "320x180" : "180x320"
            let store = ["0": "null", "90": "transpose=clock", "180": "hflip,vflip", "270": "transpose=cclock"]["\(rotateTag)"]!
            let video = hevcHLG
                ? ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                   "-x265-params", "keyint=15:min-keyint=15:scenecut=0:open-gop=0:info=0:log-level=error",
                   "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1"]
                : ["-c:v", "libx264", "-profile:v", profile, "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                   "-x264-params", "keyint=15:min-keyint=15:scenecut=0",
                   "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", fullRange ? "pc" : "tv"]
            let whole = path + ".whole.mp4", tagged = path + ".tagged.mp4"
            defer { for file in [whole, tagged] { try? FileManager.default.removeItem(atPath: file) } }
            let sound = rate.map { ["-f", "lavfi", "-i", "anoisesrc=c=pink:a=0.2:r=\($0):d=\(seconds + 0.1):seed=7"] } ?? []
            let soundCodec = rate == nil ? [] : ["-c:a", "aac", "-ac", "\(channels)", "-b:a", "96k"]
            var result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(upright):r=30:d=\(seconds)"]
                                      + sound + ["-vf", store + (fullRange ? ",scale=out_range=full" : "")] + video + soundCodec + [whole])
            XCTAssertEqual(result.status, 0, result.standardError)
            result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", whole, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotateTag)", tagged])
            XCTAssertEqual(result.status, 0, result.standardError)
            result = try Tool.run("ffmpeg", ["-v", "error", "-y"] + (hevcHLG ? [] : ["-ss", "0.033334"]) + ["-i", tagged, "-c", "copy", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    /// Cuts `source` to itself with `--smart` (`hdr`: HEVC HLG output) and
    /// checks what a phone user would: most frames and sound copied, copied
    /// packets the source's, the output shown as the source is, every picture the CLI decodes.
    func assertCopiedAsShown(_ source: String, hdr: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 12
        settings.smart = true
        if hdr {
            settings.codec = .hevc
            settings.hdr = .hlg
        }
        let (plan, report, path) = try store.stitch([ClipEntry(path: source)], settings: settings)
        let run = (plan: plan, report: report, path: path)
        let frames = run.report.frames
        XCTAssertGreaterThanOrEqual(Double(run.report.framesCopied), 0.9 * Double(frames), "\(run.report.smart?.map(\.reason) ?? [])",
                                    file: file, line: line)
        XCTAssertEqual(try identicalPackets(run.path, sources: [source]), run.report.framesCopied, "copied packets changed",
                       file: file, line: line)
        // Shown as the source is: its displayed size, its pictures, as many as the ffmpeg CLI decodes of it.
        let (mine, theirs) = (try Self.shown(run.path), try Self.shown(source))
        XCTAssertEqual(mine.size, theirs.size, "displayed size", file: file, line: line)
        XCTAssertEqual(mine.frames.count, theirs.frames.count, "frames", file: file, line: line)
        for index in stride(from: 0, to: min(mine.frames.count, theirs.frames.count), by: 7) {
            XCTAssertGreaterThan(Self.psnr(mine.frames[index], theirs.frames[index]), 34, "frame \(index)", file: file, line: line)
        }
        // Its sound at its own rate and layout, mostly copied.
        let probed = try FFprobe.streams(run.path, entries: "stream=codec_type,sample_rate,channels")
            .first { $0["codec_type"] as? String == "audio" }
        // A clip without sound gets silence, as without --smart.
        guard let sourceAudio = run.plan.clips.first?.info.facts.audio else { return try assertDecodesCleanly(run.path, file: file, line: line) }
        let audio = try XCTUnwrap(probed, file: file, line: line)
        XCTAssertEqual(Int(audio["sample_rate"] as? String ?? ""), sourceAudio.sampleRate, file: file, line: line)
        XCTAssertEqual(audio["channels"] as? Int, sourceAudio.channels, file: file, line: line)
        let sound = run.report.audioFramesCopied + run.report.audioFramesReencoded
        XCTAssertGreaterThanOrEqual(Double(run.report.audioFramesCopied), 0.8 * Double(sound), file: file, line: line)
        XCTAssertEqual(try Self.identicalAudioPackets(run.path, sources: [source]), run.report.audioFramesCopied, file: file, line: line)
        if hdr {
            // libde265 (the suite's second HEVC decoder) gives other pictures than FFmpeg for a 180-wide
            // stored picture even of x265's own file: only FFmpeg's decode is judged here.
            let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", run.path, "-f", "null", "-"])
            XCTAssertEqual(ffmpeg.standardError, "", "FFmpeg decode errors", file: file, line: line)
        } else {
            try assertDecodesCleanly(run.path, file: file, line: line)
        }
    }

    // MARK: Cut to itself

    func testPortraitClipsCopyTurnedWithTheirOwn44kHzSound() throws {
        try assertCopiedAsShown(try phoneClip(rotateTag: 90, profile: "baseline", channels: 1))
        try assertCopiedAsShown(try phoneClip(rotateTag: 270, channels: 2))
    }

    func testAnUpsideDownClipCopiesAt48kHzMono() throws {
        try assertCopiedAsShown(try phoneClip(rotateTag: 180, rate: 48_000, channels: 1))
    }

    /// A Pixel's clip: full range, held upside down, no sound.
    func testAFullRangeUpsideDownClipWithoutSoundCopiesIntoAFullRangeTrack() throws {
        let source = try phoneClip(rotateTag: 180, rate: nil, fullRange: true)
        XCTAssertEqual(try FFprobe.streams(source, entries: "stream=color_range").first?["color_range"] as? String, "pc")
        try assertCopiedAsShown(source)
    }

    func testAPortraitHLGClipCopiesIntoHEVCHLGOutput() throws {
        try assertCopiedAsShown(try phoneClip(rotateTag: 90, channels: 2, hevcHLG: true), hdr: true)
    }

    /// shared/realworld's portrait Android clip (a 90° matrix, 48 kHz stereo AAC).
    func testARealPortraitAndroidClipCopies() throws {
        try assertCopiedAsShown(try Self.realWorld("android_3gp5_720p30_rot90_aac.mp4"))
    }

    /// A transposing matrix (a turn and a mirror, as front cameras write):
    /// copied with its matrix, and shown as the plain stitch draws it upright.
    func testAMirroredClipCopiesWithItsMatrixAndShowsAsThePlainStitch() throws {
        let source = try Self.realWorld("transpose_matrix_rotate_and_reflect.mp4")
        let plain = try stitch([source], smart: false), smart = try stitch([source], smart: true)
        XCTAssertEqual(smart.plan.clips[0].info.facts.orientation.trackOrientation, DisplayOrientation(rotation: 270, mirrored: true))
        XCTAssertGreaterThanOrEqual(Double(smart.report.framesCopied), 0.9 * Double(smart.report.frames))
        let demuxer = try InputAccess().openDemuxer(smart.path)
        let matrix = try XCTUnwrap(demuxer.streams[try XCTUnwrap(demuxer.bestStream(.video))].displayMatrix)
        XCTAssertEqual(DisplayOrientation(matrix: matrix), DisplayOrientation(rotation: 270, mirrored: true))
        // ffmpeg 5.1 turns by the matrix but never mirrors: stand the output up by its matrix as ffmpeg 6 does.
        try assertShownAlike(smart, plain, filters: "transpose=cclock_flip")
    }

    // MARK: Beside other clips

    /// Two portrait clips and a landscape one, with fades: the track stores
    /// the portrait clips' way (most frames), the landscape clip and the fades
    /// are turned into it, and every frame shows as in the plain stitch.
    func testMixedOrientationsShowAsThePlainStitchWithFades() throws {
        let paths = try [phoneClip(rotateTag: 90, channels: 1), phoneClip(rotateTag: 90, profile: "baseline", channels: 1),
                         phoneClip(rotateTag: 0, channels: 1, seconds: 2)]
        let plain = try stitch(paths, smart: false, Self.fades), smart = try stitch(paths, smart: true, Self.fades)
        XCTAssertEqual(smart.plan.canvas.width, 180)
        let reasons = try XCTUnwrap(smart.report.smart).map(\.notCopied)
        XCTAssertEqual(reasons[2].first, .orientation(.upright, track: DisplayOrientation(rotation: 270, mirrored: false)))
        XCTAssertGreaterThan(smart.report.framesCopied, smart.report.frames / 2)
        try assertShownAlike(smart, plain)
        XCTAssertEqual(smart.plan.canvas.sampleRate, 44_100)
        XCTAssertEqual(smart.plan.canvas.soundChannels, 1)
        XCTAssertEqual(plain.plan.canvas.sampleRate, 48_000, "the plain stitch keeps 48 kHz stereo")
        XCTAssertEqual(plain.plan.canvas.soundChannels, 2)
    }

    /// A full-range clip between two limited-range ones, with fades: the
    /// track takes the limited range of most frames, the full-range clip is
    /// re-encoded with its reason, and every frame shows as in the plain stitch;
    /// with two full-range clips around a limited one, the track is full range.
    func testTheTrackTakesTheRangeOfMostFramesAndShowsAsThePlainStitch() throws {
        let limited = try phoneClip(rotateTag: 180, rate: nil), full = try phoneClip(rotateTag: 180, rate: nil, fullRange: true)
        for (paths, fullTrack) in [([limited, full, limited], false), ([full, limited, full], true)] {
            let plain = try stitch(paths, smart: false, Self.fades), smart = try stitch(paths, smart: true, Self.fades)
            XCTAssertEqual(smart.report.smartTrack?.fullRange, fullTrack)
            let range = try FFprobe.streams(smart.path, entries: "stream=color_range").first?["color_range"] as? String
            XCTAssertEqual(range, fullTrack ? "pc" : "tv")
            let reasons = try XCTUnwrap(smart.report.smart).map(\.notCopied)
            XCTAssertTrue(reasons[1].contains { if case .pixelFormat = $0 { return true } else { return false } }, "\(reasons[1])")
            XCTAssertGreaterThan(smart.report.framesCopied, smart.report.frames / 2)
            try assertShownAlike(smart, plain)
        }
    }

    // MARK: The output's sound

    func testTheOutputSoundTakesTheFormatOfMostOfTheSoundWhenItIsAAC() {
        func clip(_ seconds: Double, _ codec: String, _ rate: Int, _ channels: Int) -> ClipInfo {
            ClipInfo(path: "c", container: "mp4", videoCodec: "h264", codedWidth: 320, codedHeight: 180,
                     sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p", duration: seconds,
                     audio: .init(codec: codec, sampleRate: rate, channels: channels, timeBase: Rational(1, rate)))
        }
        func format(_ clips: [ClipInfo]) -> String { OutputAudio.copiedFormat(of: clips).map { "\($0.sampleRate)/\($0.channels)" } ?? "default" }
        XCTAssertEqual(format([clip(5, "aac", 44_100, 1), clip(3, "aac", 44_100, 1)]), "44100/1", "iPhone clips")
        XCTAssertEqual(format([clip(5, "aac", 44_100, 1), clip(6, "aac", 48_000, 2)]), "48000/2", "most of the sound")
        XCTAssertEqual(format([clip(5, "aac", 44_100, 2), clip(5, "aac", 48_000, 2)]), "48000/2", "a tie: the higher rate")
        XCTAssertEqual(format([clip(2, "aac", 44_100, 1), clip(9, "mp3", 48_000, 2)]), "default", "most is not AAC")
        XCTAssertEqual(format([clip(9, "aac", 8_000, 1)]), "default", "a camera's 8 kHz")
        XCTAssertEqual(format([clip(9, "aac", 48_000, 6)]), "default", "5.1")
    }

    // MARK: Helpers

    /// Half-second fades at every join.
    static func fades(_ settings: inout StitchSettings) {
        settings.transition = .fade
        settings.transitionDuration = 0.5
    }

    /// `smart` shows what `plain` shows, frame by frame, as the ffmpeg CLI
    /// decodes both (`smart` stood up by `filters` instead of its matrix when given).
    func assertShownAlike(_ smart: Run, _ plain: Run, filters: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let mine = try Self.shown(smart.path, filters: filters), theirs = try Self.shown(plain.path)
        XCTAssertEqual(mine.size, theirs.size, "displayed size", file: file, line: line)
        XCTAssertEqual(mine.frames.count, theirs.frames.count, "frames", file: file, line: line)
        for (index, (a, b)) in zip(mine.frames, theirs.frames).enumerated() {
            XCTAssertGreaterThan(Self.psnr(a, b), 30, "frame \(index)", file: file, line: line)
        }
    }

    /// What a player shows of `path`: its pictures decoded and turned by the
    /// ffmpeg CLI (or by `filters` with the matrix ignored), as grey planes.
    static func shown(_ path: String, filters: String? = nil) throws -> (size: String, frames: [PlaneImage]) {
        let first = path + ".shown.pgm", raw = path + ".shown.gray"
        defer { for file in [first, raw] { try? FileManager.default.removeItem(atPath: file) } }
        var arguments = ["-v", "error", "-y"] + (filters == nil ? [] : ["-noautorotate"]) + ["-i", path, "-map", "0:v:0",
                                                                                               "-fps_mode", "passthrough"]
        if let filters { arguments += ["-vf", filters] }
        for output in [["-frames:v", "1", first], ["-f", "rawvideo", "-pix_fmt", "gray", raw]] {
            let result = try Tool.run("ffmpeg", arguments + output)
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let header = try XCTUnwrap(FileManager.default.contents(atPath: first)).prefix(20)
        let fields = String(decoding: header, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        let width = try XCTUnwrap(Int(fields[1])), height = try XCTUnwrap(Int(fields[2]))
        let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: raw)))
        let size = width * height
        let frames = stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            PlaneImage(width: width, height: height, bytes: Array(bytes[start..<start + size]))
        }
        return ("\(width)x\(height)", frames)
    }

    /// A file of shared/realworld (the corpus CI carries beside the repository).
    static func realWorld(_ name: String) throws -> String {
        let corpus = ProcessInfo.processInfo.environment["SEGUE_REALWORLD"]
            ?? SegueTool.repository.deletingLastPathComponent().appendingPathComponent("shared/realworld").path
        let path = URL(fileURLWithPath: corpus).appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        return path
    }
}
