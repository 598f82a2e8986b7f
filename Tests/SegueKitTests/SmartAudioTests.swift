import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// `--smart` copies AAC-LC 48 kHz stereo sound packet for packet and
/// re-encodes only windows around its seams. Phone-like clips made by the
/// ffmpeg CLI (H.264, AAC tones of each clip's own frequency and phase) are
/// stitched with and without it: the copied packets must be the source's,
/// each clip heard within half an AAC frame of its place, the seams without
/// gap, click or repetition, and the output must decode cleanly in FFmpeg and
/// GStreamer.
final class SmartAudioTests: SmartTestCase {
    /// Clip `clip` as a phone might write it: `seconds` of 320x180 H.264 at 30
    /// fps (keyint 30, BT.709), and a tone of the clip's marker frequency
    /// over a low one of its own (another phase on each channel and clip) in
    /// AAC at `rate` Hz, `channels` channels.
    func phoneClip(_ clip: Int, seconds: Double = 2, rate: Int = 48_000, channels: Int = 2) throws -> String {
        let frequency = Marker.tones[clip % Marker.tones.count], phase = 0.3 + 0.7 * Double(clip)
        let name = "smart-audio-\(clip)-\(seconds)-\(rate)-\(channels).mp4"
        return try store.path(name) { path in
            // A low tone under the marker tone: their sum matches itself at no lag within a frame but 0.
            let low = 90 + 13 * clip
            func tone(_ phase: Double) -> String { "0.35*sin(2*PI*\(frequency)*t+\(phase))+0.35*sin(2*PI*\(low)*t+\(2 * phase))" }
            let sound = channels == 1 ? tone(phase) : "\(tone(phase))|\(tone(phase + 1))"
            let result = try Tool.run("ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=\(seconds)",
                "-f", "lavfi", "-i", "aevalsrc=\(sound):s=\(rate):d=\(seconds)",
                "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=30:min-keyint=30:scenecut=0",
                "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                "-c:a", "aac", "-b:a", "128k", "-f", "mp4", path,
            ])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    // MARK: What is copied

    func testCutsCopyTheSoundByteForByteWithEachClipWithinHalfAFrame() throws {
        let paths = try (0..<3).map { try phoneClip($0) }
        let (smart, plain) = try assertSameAsWithoutSmart(paths)
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        XCTAssertEqual(sounds.map(\.reason), [nil, nil, nil])
        XCTAssertTrue(sounds.allSatisfy { $0.framesCopied > 60 }, "\(sounds.map(\.framesCopied))")
        XCTAssertEqual(try Self.identicalAudioPackets(smart.path, sources: paths), smart.report.audioFramesCopied)
        try assertPlacedWithinHalfAFrame(smart, plain)
        try assertSeamless(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
        XCTAssertTrue(smart.report.summary.contains("\(smart.report.audioFramesCopied) of"), smart.report.summary)
    }

    func testClipsAt44100HzOrInMonoAreEncodedAndTheReportSaysWhy() throws {
        let paths = try [phoneClip(0), phoneClip(1, rate: 44_100), phoneClip(2), phoneClip(3, channels: 1)]
        let (smart, plain) = try assertSameAsWithoutSmart(paths)
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        XCTAssertEqual(sounds.map(\.reason), [nil, SoundNotCopied.sampleRate(44_100, output: 48_000).description, nil,
                                              SoundNotCopied.channels(1, output: 2).description])
        XCTAssertEqual(sounds.map { $0.framesCopied > 0 }, [true, false, true, false])
        try assertPlacedWithinHalfAFrame(smart, plain)
        try assertSeamless(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testAClipFromAnotherMuxerIsCopiedWhereverItsFramesFall() throws {
        // GStreamer's mp4mux writes no edit list: the encoder's priming is heard, and the frames fall elsewhere.
        let source = try phoneClip(1)
        let remuxed = try store.path("smart-audio-gst-remuxed.mp4") { path in
            let result = try Tool.run("gst-launch-1.0", ["-q", "filesrc", "location=\(source)", "!", "qtdemux", "name=d",
                                                         "d.video_0", "!", "queue", "!", "h264parse", "!", "mp4mux", "name=m", "!",
                                                         "filesink", "location=\(path)", "d.audio_0", "!", "queue", "!", "aacparse", "!", "m."])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let paths = try [phoneClip(0), remuxed, phoneClip(2)]
        let (smart, plain) = try assertSameAsWithoutSmart(paths)
        XCTAssertEqual(try XCTUnwrap(smart.report.smart).map { $0.sound?.framesCopied ?? 0 > 0 }, [true, true, true])
        try assertPlacedWithinHalfAFrame(smart, plain)
        try assertSeamless(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testAFadeCopiesOnlyTheSoundOutsideTheCrossfade() throws {
        let paths = try (0..<3).map { try phoneClip($0, seconds: 3) }
        let (smart, plain) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        XCTAssertTrue(sounds.allSatisfy { $0.framesCopied > 0 && $0.framesReencoded > 0 }, "\(sounds)")
        // No copied frame reaches into a crossfade: each clip's copied frames fit in its own frames, less the margins.
        for clip in smart.plan.clips {
            let own = smart.plan.ownFrames(of: clip)
            let samples = smart.plan.sampleIndex(atFrame: clip.startFrame + own.upperBound)
                - smart.plan.sampleIndex(atFrame: clip.startFrame + own.lowerBound)
            XCTAssertLessThanOrEqual(sounds[clip.index].framesCopied * 1024, samples - 2 * SoundCopyPlanner.margin * 1024 + 1024)
        }
        try assertPlacedWithinHalfAFrame(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testATrimmedClipIsCopiedFromNearItsInPointWithinHalfAFrame() throws {
        let paths = try [phoneClip(0), phoneClip(1, seconds: 3), phoneClip(2)]
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        let entries = [ClipEntry(path: paths[0]), ClipEntry(path: paths[1], inPoint: 0.41, outPoint: 2.63), ClipEntry(path: paths[2])]
        let runs = try [false, true].map { smart -> Run in
            settings.smart = smart
            let (plan, report, path) = try store.stitch(entries, settings: settings)
            return Run(plan: plan, report: report, path: path, output: try DecodedOutput(path: path))
        }
        let (plain, smart) = (runs[0], runs[1])
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        XCTAssertEqual(sounds.map(\.reason), [nil, nil, nil])
        XCTAssertGreaterThan(sounds[1].framesCopied, 50)
        try assertSoundFollowsThePlainStitch(smart, plain)
        try assertPlacedWithinHalfAFrame(smart, plain)
        try assertSeamless(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testALoudnessGainOrAMusicBedKeepsTheSoundEncodedAsWithoutSmart() throws {
        let paths = try [phoneClip(0), phoneClip(1)]
        let (smart, _) = try assertSameAsWithoutSmart(paths) { $0.loudness = -23 }
        XCTAssertEqual(smart.report.audioFramesCopied, 0)
        XCTAssertEqual(smart.report.smart?.compactMap(\.sound?.reason), [SoundNotCopied.loudnessGain.description, SoundNotCopied.loudnessGain.description])
        let music = try stitch(paths, smart: true) { $0.music = paths[0] }
        XCTAssertEqual(music.report.audioFramesCopied, 0)
        XCTAssertEqual(music.report.smart?.first?.sound?.reason, SoundNotCopied.musicBed.description)
    }

    func testStrictDecodesTheCopiedSoundToo() throws {
        // A copied AAC frame (1 s into the second clip) overwritten: the decoder refuses it.
        let good = try phoneClip(1)
        let damaged = store.outputPath("damaged-sound.mp4")
        try FileManager.default.copyItem(atPath: good, toPath: damaged)
        let listing = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=pts,pos,size",
                                               "-of", "json", damaged]).standardOutput
        let packets = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any])?["packets"] as? [[String: Any]])
        let target = try XCTUnwrap(packets.first { ($0["pts"] as? Int) == 48_128 })
        let position = try XCTUnwrap(Int(target["pos"] as? String ?? "")), size = try XCTUnwrap(Int(target["size"] as? String ?? ""))
        let file = try XCTUnwrap(FileHandle(forUpdatingAtPath: damaged))
        try file.seek(toOffset: UInt64(position + 2))
        file.write(Data(repeating: 0xFF, count: size - 4))
        try file.close()
        let paths = [try phoneClip(0), damaged]
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.smart = true
        // Without --strict the frame is copied as it is.
        let (_, report, path) = try store.stitch(paths.map { ClipEntry(path: $0) }, settings: settings)
        XCTAssertGreaterThan(report.smart?[1].sound?.framesCopied ?? 0, 0)
        let damagedBytes = try XCTUnwrap(try Self.audioPackets(damaged).first { $0.pts == 48_128 }).bytes
        XCTAssertTrue(try Self.audioPackets(path).contains { $0.bytes == damagedBytes }, "the damaged frame is copied as it is")
        let output = store.outputPath("smart-sound-strict")
        let strict = try SegueTool.run(["stitch"] + paths + ["-o", output, "--smart", "--strict", "--preset", "ultrafast"])
        XCTAssertEqual(strict.status, 1, strict.standardError)
        XCTAssertTrue(strict.standardError.contains(damaged) && strict.standardError.contains("--strict"), strict.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testWithoutSmartTheSoundIsEncodedWhole() throws {
        let paths = try [phoneClip(0), phoneClip(1)]
        let plain = try stitch(paths, smart: false)
        XCTAssertNil(plain.report.smart)
        XCTAssertEqual(try Self.identicalAudioPackets(plain.path, sources: paths), 0)
    }

    // MARK: Phone-shaped clips

    /// Clip `clip` shaped like a phone's: `seconds` of 320x180 H.264 High with
    /// B-frames (GOPs of 30, BT.709), and AAC-LC at 128-192 kb/s whose sound
    /// runs `extra` seconds past the last picture: pink noise under 3 kHz
    /// (each channel its own) with the clip's marker tone under it, at `rate`
    /// Hz in `channels` channels.
    func noisyPhoneClip(_ clip: Int, seconds: Double = 3, extra: Double = 0.03, rate: Int = 48_000,
                        channels: Int = 2) throws -> String {
        try store.path("smart-noisy-\(clip)-\(seconds)-\(extra)-\(rate)-\(channels).mp4") { path in
            let length = seconds + extra, frequency = Marker.tones[clip % Marker.tones.count]
            let graph = "anoisesrc=d=\(length):c=pink:r=\(rate):a=0.5:seed=\(7 + clip)[l];"
                + "anoisesrc=d=\(length):c=pink:r=\(rate):a=0.5:seed=\(70 + clip)[r];"
                + "[l][r]join=inputs=2:channel_layout=stereo,lowpass=f=3000,highpass=f=80[n];"
                + "aevalsrc=0.2*sin(2*PI*\(frequency)*t)|0.2*sin(2*PI*\(frequency)*t+1):s=\(rate):d=\(length)[t];"
                + "[n][t]amix=inputs=2:normalize=0[a]"
            let result = try Tool.run("ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=\(seconds)", "-filter_complex", graph,
                "-map", "0:v", "-map", "[a]", "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-bf", "3",
                "-x264-params", "keyint=30:min-keyint=30:scenecut=0", "-pix_fmt", "yuv420p", "-color_primaries", "bt709",
                "-color_trc", "bt709", "-colorspace", "bt709", "-c:a", "aac", "-b:a", "\([128, 160, 192][clip % 3])k",
                "-ar", "\(rate)", "-ac", "\(channels)", "-f", "mp4", path,
            ])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    /// Six phone-shaped clips, the third at 44.1 kHz and the fifth mono (their sound is encoded, not copied).
    func mixedPhoneClips(seconds: Double = 3) throws -> [String] {
        try (0..<6).map { clip in
            try noisyPhoneClip(clip, seconds: seconds, rate: clip == 2 ? 44_100 : 48_000, channels: clip == 4 ? 1 : 2)
        }
    }

    /// The phone-shaped clips stitched with and without `--smart`, as `assertSameAsWithoutSmart` does, the
    /// sound at 192 kb/s: at 128 the plain stitch's encoder, the oracle, mis-codes the odd frame of a crossfade.
    func assertSameAsWithoutSmart(phoneShaped paths: [String], _ configure: @escaping (inout StitchSettings) -> Void = { _ in },
                                  file: StaticString = #filePath, line: UInt = #line) throws -> (smart: Run, plain: Run) {
        try assertSameAsWithoutSmart(paths, {
            $0.audioBitRate = 192_000
            configure(&$0)
        }, file: file, line: line)
    }

    func testPhoneShapedClipsMeetAtCutsWithNothingRepeatedOrDropped() throws {
        let (smart, plain) = try assertSameAsWithoutSmart(phoneShaped: try mixedPhoneClips())
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        XCTAssertEqual(sounds.map { $0.framesCopied > 0 }, [true, true, false, true, false, true])
        try assertEachClipAtItsOffset(smart, plain)
        try assertSoundAsExpected(smart, plain)
        try assertSeamless(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testPhoneShapedClipsWhoseSoundEndsBeforeThePictureCopyIt() throws {
        // Phones often stop the sound a little before the last picture: only what is missing is made up.
        let paths = try (0..<3).map { try noisyPhoneClip($0, extra: -0.12) }
        // Cut together, at least 80 % of each clip's AAC frames are copied; faded (a third of each 3 s clip in a crossfade), 60 %.
        for fade in [false, true] {
            let (smart, plain) = try assertSameAsWithoutSmart(phoneShaped: paths) {
                if fade { $0.transition = .fade; $0.transitionDuration = 0.5 }
            }
            let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
            for sound in sounds {
                XCTAssertNil(sound.reason)
                XCTAssertGreaterThanOrEqual(Double(sound.framesCopied) / Double(sound.framesCopied + sound.framesReencoded), fade ? 0.6 : 0.8,
                                            "fade \(fade): \(sounds.map(\.framesCopied)) copied, \(sounds.map(\.framesReencoded)) not")
            }
            try assertEachClipAtItsOffset(smart, plain)
            try assertSoundAsExpected(smart, plain)
            try assertSoundDecodesCleanly(smart.path)
        }
    }

    func testPhoneShapedClipsCrossfadeEachAtItsOwnOffset() throws {
        let (smart, plain) = try assertSameAsWithoutSmart(phoneShaped: try mixedPhoneClips()) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(try XCTUnwrap(smart.report.smart).map { $0.sound?.framesCopied ?? 0 > 0 }, [true, true, false, true, false, true])
        try assertEachClipAtItsOffset(smart, plain)
        try assertSoundAsExpected(smart, plain, threshold: 0.95)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testPhoneShapedClipsHeldInFreezeModeStandAtTheirOffsetsAroundTheSilence() throws {
        let (smart, plain) = try assertSameAsWithoutSmart(phoneShaped: try mixedPhoneClips()) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
            $0.mode = .freeze
        }
        try assertEachClipAtItsOffset(smart, plain)
        try assertSoundAsExpected(smart, plain)
        try assertSoundDecodesCleanly(smart.path)
    }

    func testTrimmedPhoneShapedClipsMeetAtCutsWithNothingRepeatedOrDropped() throws {
        let paths = try mixedPhoneClips()
        var entries = paths.map { ClipEntry(path: $0) }
        entries[1] = ClipEntry(path: paths[1], inPoint: 0.41, outPoint: 2.63)
        entries[3] = ClipEntry(path: paths[3], inPoint: 0.9)
        let runs = try [false, true].map { smart -> Run in
            var settings = StitchSettings()
            settings.preset = "ultrafast"
            settings.audioBitRate = 192_000
            settings.smart = smart
            let (plan, report, path) = try store.stitch(entries, settings: settings)
            return Run(plan: plan, report: report, path: path, output: try DecodedOutput(path: path))
        }
        let (plain, smart) = (runs[0], runs[1])
        XCTAssertGreaterThan(smart.report.smart?[1].sound?.framesCopied ?? 0, 30)
        XCTAssertGreaterThan(smart.report.smart?[3].sound?.framesCopied ?? 0, 30)
        try assertEachClipAtItsOffset(smart, plain)
        try assertSoundAsExpected(smart, plain)
        try assertSeamless(smart, plain)
    }

    /// A clip whose sound stops with its last picture and stands early has
    /// nothing of its own to play past it: its last stretch goes on, no gap.
    func testASoundThatStopsWithThePictureLeavesNoGapWhereItsClipMovedEarly() throws {
        let paths = try [0, 1, 3].map { try noisyPhoneClip($0, extra: 0) }
        let (smart, plain) = try assertSameAsWithoutSmart(phoneShaped: paths)
        let offsets = try XCTUnwrap(smart.report.smart).map { $0.sound?.shiftSamples ?? 0 }
        XCTAssertTrue(offsets.dropLast().contains { $0 < 0 } || offsets.dropFirst().contains { $0 > 0 }, "no clip moved: \(offsets)")
        try assertEachClipAtItsOffset(smart, plain)
        try assertSeamless(smart, plain)
    }

    // MARK: Parts

    func testASoundThatStopsIsContinuedByWholePeriodsWithoutAJump() {
        // A 480 Hz tone (a 100-sample period) that stops: its continuation goes on with the tone, no sample jumping.
        let tone = (0..<3200).map { Float(sin(2 * Double.pi * Double($0) / 100 + 0.3)) }
        let continued = SoundContinuation.continuing([tone, tone.map { -$0 }], count: 700)
        XCTAssertEqual(continued.map(\.count), [700, 700])
        for (index, sample) in continued[0].enumerated() {
            XCTAssertEqual(sample, Float(sin(2 * Double.pi * Double(3200 + index) / 100 + 0.3)), accuracy: 1e-3, "sample \(index)")
        }
        XCTAssertEqual(continued[1].first ?? 0, -(continued[0].first ?? 0), accuracy: 1e-6, "each channel its own")
        XCTAssertEqual(SoundContinuation.continuing([[0.5, 0.5], [0.5, 0.5]], count: 3), [[0, 0, 0], [0, 0, 0]], "too little to go on")
    }

    // MARK: Checks

    /// Each clip's sound stands where the report says, at most 512 samples
    /// from where the plain stitch has it (found by cross-correlation in the
    /// middle of its own frames); the end's offset matches within a frame.
    func assertPlacedWithinHalfAFrame(_ smart: Run, _ plain: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let sounds = try XCTUnwrap(smart.report.smart, file: file, line: line).map { $0.sound }
        for clip in smart.plan.clips {
            let own = smart.plan.ownFrames(of: clip)
            let middle = smart.plan.sampleIndex(atFrame: clip.startFrame + (own.lowerBound + own.upperBound) / 2)
            let lag = Self.bestLag(smart.output.audio, plain.output.audio, at: middle, within: 1100)
            XCTAssertGreaterThan(lag.correlation, 0.99, "clip \(clip.index): its sound is not the plain stitch's", file: file, line: line)
            XCTAssertLessThanOrEqual(abs(lag.lag), 512, "clip \(clip.index) moved \(lag.lag) samples", file: file, line: line)
            let reported = try XCTUnwrap(sounds[clip.index], file: file, line: line).shiftSamples
            XCTAssertLessThanOrEqual(abs(lag.lag - reported), 2, "clip \(clip.index): moved \(lag.lag), the report says \(reported)",
                                     file: file, line: line)
        }
        XCTAssertLessThanOrEqual(abs(smart.output.audio.count - plain.output.audio.count), 1024, file: file, line: line)
    }

    /// At every cut: no gap (the quietest 5 ms is as loud as the plain
    /// stitch's, within a half), no click (high-passed energy around it no more
    /// than the plain stitch's, within coding noise), no repetition (the sound
    /// just before is the outgoing clip's and just after the incoming one's,
    /// as in the plain stitch: correlated at nearly their own lag).
    func assertSeamless(_ smart: Run, _ plain: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let (mine, theirs) = (smart.output.audio, plain.output.audio)
        for clip in smart.plan.clips.dropFirst() where smart.plan.joinFrames(before: clip.index) == 0 {
            let seam = smart.plan.sampleIndex(atFrame: clip.startFrame)
            let around = (seam - 4800)..<(seam + 4800)
            XCTAssertGreaterThan(Self.quietest(mine, around), 0.5 * Self.quietest(theirs, around),
                                 "seam \(clip.index): a gap", file: file, line: line)
            let click = Self.highPassedEnergy(mine, (seam - 2048)..<(seam + 2048))
            let plainClick = Self.highPassedEnergy(theirs, (seam - 2048)..<(seam + 2048))
            XCTAssertLessThanOrEqual(click, 1.5 * plainClick + 1e-4, "seam \(clip.index): a click", file: file, line: line)
            for start in [seam - 3200, seam + 1100] {
                let lag = Self.bestLag(mine, theirs, at: start + 1024, within: 1100, span: 2048)
                XCTAssertGreaterThan(lag.correlation, 0.95, "seam \(clip.index): other sound at \(start - seam)", file: file, line: line)
                // Between its two crossfades, a seam's sound stands at most a frame from its place.
                XCTAssertLessThanOrEqual(abs(lag.lag), 1100, "seam \(clip.index): sound repeated or dropped", file: file, line: line)
            }
        }
    }

    /// No complaint from FFmpeg's decoder nor from GStreamer's qtdemux ! aacparse ! avdec_aac;
    /// the sound starts at 0 (the edit list takes the priming away).
    func assertSoundDecodesCleanly(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "null", "-"])
        XCTAssertEqual(ffmpeg.status, 0, file: file, line: line)
        XCTAssertEqual(ffmpeg.standardError, "", "FFmpeg decode errors", file: file, line: line)
        // GStreamer's demuxer and parser with FFmpeg's decoder, and with faad, a decoder FFmpeg has no part in.
        for decoder in ["avdec_aac", "faad"] {
            let gstreamer = try Tool.run("gst-launch-1.0", ["filesrc", "location=\(path)", "!", "qtdemux", "!", "aacparse", "!",
                                                            decoder, "!", "fakesink"],
                                         environment: ["GST_DEBUG": "2", "GST_DEBUG_NO_COLOR": "1"])
            XCTAssertEqual(gstreamer.status, 0, "\(decoder): " + gstreamer.standardError, file: file, line: line)
            // faad says the last of these of every AAC track FFmpeg writes, the sources' and the full re-encode's too.
            let benign = ["unknown QuickTime node type", "failed to find fragment defaults", "pad not activated yet",
                          "frames left after draining"]
            let complaints = (gstreamer.standardError + gstreamer.standardOutput).split(separator: "\n")
                .filter { ($0.contains(" WARN ") || $0.contains(" ERROR ")) && !benign.contains(where: $0.contains) }
            XCTAssertEqual(complaints, [], "GStreamer (\(decoder)) warnings or errors", file: file, line: line)
        }
        let start = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=start_time",
                                             "-of", "csv=p=0", path]).standardOutput
        XCTAssertEqual(Double(start.trimmingCharacters(in: .whitespacesAndNewlines)), 0, "sound not at 0", file: file, line: line)
    }

    /// Each clip's sound stands where the report says: a copied clip's at its
    /// offset (at most 512 samples, found by cross-correlation with the plain
    /// stitch in the middle of its own frames), the same all through it (its
    /// first and last half seconds at the same lag); a clip that isn't copied
    /// exactly where the plain stitch has it.
    func assertEachClipAtItsOffset(_ smart: Run, _ plain: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let sounds = try XCTUnwrap(smart.report.smart, file: file, line: line).map { $0.sound }
        for clip in smart.plan.clips {
            let sound = try XCTUnwrap(sounds[clip.index], file: file, line: line)
            let own = smart.plan.ownFrames(of: clip)
            let first = smart.plan.sampleIndex(atFrame: clip.startFrame + own.lowerBound) + 4800
            let last = smart.plan.sampleIndex(atFrame: clip.startFrame + own.upperBound) - 4800
            for center in [first + 2048, (first + last) / 2, last - 2048] {
                let found = Self.bestLag(smart.output.audio, plain.output.audio, at: center, within: 1100)
                XCTAssertGreaterThan(found.correlation, 0.9, "clip \(clip.index) at \(center): not the plain stitch's sound",
                                     file: file, line: line)
                XCTAssertEqual(found.lag, sound.shiftSamples, "clip \(clip.index) at \(center): heard \(found.lag) samples from its place",
                               file: file, line: line)
            }
            XCTAssertLessThanOrEqual(abs(sound.shiftSamples), 512, file: file, line: line)
            if sound.framesCopied == 0 { XCTAssertEqual(sound.shiftSamples, 0, "clip \(clip.index) is not copied", file: file, line: line) }
        }
    }

    /// Around every join and through its crossfade or held frames, the sound
    /// is the expected one (`expectedSound`): every 10 ms correlates at least
    /// `threshold` with it (its silence is as quiet), so nothing is repeated,
    /// dropped, moved or inserted there.
    func assertSoundAsExpected(_ smart: Run, _ plain: Run, threshold: Double = 0.9,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try expectedSound(smart, plain)
        let plan = smart.plan, mine = smart.output.audio
        for clip in plan.clips.dropFirst() {
            let seam = plan.sampleIndex(atFrame: clip.startFrame)
            let join = plan.sampleIndex(atFrame: clip.startFrame + plan.joinFrames(before: clip.index)) - seam
            let span = plan.mode == .overlap ? (seam - 4800)..<(seam + join + 4800) : (seam - join - 4800)..<(seam + 4800)
            for start in stride(from: span.lowerBound, to: span.upperBound - 480, by: 240) {
                let values = expected[start..<(start + 480)].compactMap { $0 }
                guard values.count == 480 else { continue }
                let heard = Array(mine[start..<(start + 480)])
                // Silence (a freeze's held frames, 26 dB under the clips' sound and coding noise): silence.
                if Tone.rms(values[...]) < 0.01 {
                    XCTAssertLessThan(Tone.rms(heard[...]), 0.02, "join before clip \(clip.index): sound at \(start - seam) in its silence",
                                      file: file, line: line)
                    continue
                }
                let correlation = Self.correlation(heard, values)
                XCTAssertGreaterThan(correlation, threshold, "join before clip \(clip.index): other sound at \(start - seam)",
                                     file: file, line: line)
            }
        }
    }

    /// What `--smart` must sound like: the plain stitch's sound with each
    /// copied clip's share (as the plain stitch weighs it) taken from its
    /// source moved by its offset; at a cut the outgoing clip runs on (its
    /// own sound past its last picture) until the incoming one starts late.
    /// Nil where nothing is exact: a cut's short crossfade, an uncopied
    /// clip running on, a freeze's ramps.
    func expectedSound(_ smart: Run, _ plain: Run) throws -> [Float?] {
        let plan = smart.plan
        var expected: [Float?] = plain.output.audio.map { $0 }
        let sounds = try XCTUnwrap(smart.report.smart).map { try XCTUnwrap($0.sound) }
        func bounds(_ clip: PlannedClip) -> Range<Int> {
            plan.sampleIndex(atFrame: clip.startFrame)..<plan.sampleIndex(atFrame: clip.startFrame + clip.frameCount)
        }
        var sources: [Int: [Float]] = [:]
        for clip in plan.clips where sounds[clip.index].framesCopied > 0 {
            // The source's own sound from its in point (its sound past its last picture too).
            let decoded = try DecodedOutput(path: clip.info.path).audio
            sources[clip.index] = Array(decoded.dropFirst(Int((clip.info.use.inPoint * 48_000).rounded())))
        }
        for clip in plan.clips {
            guard let source = sources[clip.index], sounds[clip.index].shiftSamples != 0 else { continue }
            let range = bounds(clip), shift = sounds[clip.index].shiftSamples
            func heard(_ time: Int) -> Float { source.indices.contains(time) ? source[time] : 0 }
            for x in range where expected.indices.contains(x) {
                guard let value = expected[x] else { continue }
                let gain = Self.share(of: clip, at: x - range.lowerBound, in: plan)
                expected[x] = value + gain * (heard(x - range.lowerBound - shift) - heard(x - range.lowerBound))
            }
        }
        for clip in plan.clips.dropFirst() where plan.joinFrames(before: clip.index) == 0 {
            let before = plan.clips[clip.index - 1], seam = bounds(clip).lowerBound
            let (a, b) = (sounds[before.index].shiftSamples, sounds[clip.index].shiftSamples)
            guard a != 0 || b != 0 else { continue }
            let cut = seam + max(0, b)
            for x in seam..<min(cut + SoundEdges.cutFade, expected.count) {
                let time = x - bounds(before).lowerBound - a
                expected[x] = x < cut ? sources[before.index].map { $0.indices.contains(time) ? $0[time] : 0 } : nil
            }
        }
        if plan.mode == .freeze {
            for clip in plan.clips {
                let range = bounds(clip), edge = AudioChunker.rampLength + 512
                for x in range where (x < range.lowerBound + edge || x >= range.upperBound - edge) && expected.indices.contains(x) {
                    expected[x] = nil
                }
            }
        }
        return expected
    }

    /// How much of clip `clip`'s sound the plain stitch has at sample `offset` of its frames (crossfades are linear).
    static func share(of clip: PlannedClip, at offset: Int, in plan: Plan) -> Float {
        guard plan.mode == .overlap else { return 1 }
        let start = plan.sampleIndex(atFrame: clip.startFrame)
        let fadeIn = plan.sampleIndex(atFrame: clip.startFrame + plan.joinFrames(before: clip.index)) - start
        let end = plan.sampleIndex(atFrame: clip.startFrame + clip.frameCount) - start
        let fadeOut = end - (plan.sampleIndex(atFrame: clip.startFrame + clip.frameCount - plan.joinFrames(after: clip.index)) - start)
        if offset < fadeIn { return (Float(offset) + 0.5) / Float(fadeIn) }
        if offset >= end - fadeOut { return 1 - (Float(offset - (end - fadeOut)) + 0.5) / Float(fadeOut) }
        return 1
    }

    // MARK: Measures

    /// Normalised correlation of two equally long stretches.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        precondition(a.count == b.count, "stretches of different lengths")
        var dot = 0.0, energyA = 0.0, energyB = 0.0
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            energyA += Double(x) * Double(x)
            energyB += Double(y) * Double(y)
        }
        return dot / max((energyA * energyB).squareRoot(), 1e-12)
    }

    /// The lag (samples `a` is later than `b`) within ±`within` at which `span`
    /// samples of `a` centred on `center` best match `b`'s, and their correlation.
    static func bestLag(_ a: [Float], _ b: [Float], at center: Int, within: Int, span: Int = 4096) -> (lag: Int, correlation: Double) {
        precondition(center - span / 2 >= 0 && center + span / 2 <= b.count, "a span outside the sound")
        var best = (lag: 0, correlation: -2.0)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for lag in -within...within {
                    let start = center + lag - span / 2, reference = center - span / 2
                    guard start >= 0, start + span <= a.count else { continue }
                    var dot: Float = 0, energyA: Float = 0, energyB: Float = 0
                    for index in 0..<span {
                        let x = a[start + index], y = b[reference + index]
                        dot += x * y
                        energyA += x * x
                        energyB += y * y
                    }
                    let correlation = Double(dot) / max(Double(energyA * energyB).squareRoot(), 1e-12)
                    if correlation > best.correlation { best = (lag, correlation) }
                }
            }
        }
        return best
    }

    /// The lowest RMS of 5 ms windows in `range`.
    static func quietest(_ samples: [Float], _ range: Range<Int>) -> Double {
        stride(from: range.lowerBound, to: range.upperBound - 240, by: 240).map { Tone.rms(samples[$0..<($0 + 240)]) }.min() ?? 0
    }

    /// Energy of the second difference (a high-pass: a 1.3 kHz tone loses 21 dB, a click keeps most of its) in `range`.
    static func highPassedEnergy(_ samples: [Float], _ range: Range<Int>) -> Double {
        var energy = 0.0
        for index in range where index >= 2 && index < samples.count {
            let value = Double(samples[index]) - 2 * Double(samples[index - 1]) + Double(samples[index - 2])
            energy += value * value
        }
        return energy
    }
}
