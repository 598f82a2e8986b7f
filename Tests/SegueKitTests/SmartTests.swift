import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueBitstream

/// `--smart`: marker clips encoded like phone clips (H.264 High, keyint 30,
/// B-frames, x264 settings unlike Segue's own) stitched with and without it.
/// With it, the output must show the same frames and carry the same sound,
/// copy whole GOPs byte for byte, and decode cleanly in FFmpeg and GStreamer.
final class SmartTests: SmartTestCase {
    // MARK: Cut

    func testCutCopiesEveryGOPByteForByteWithTheSameFramesAndSound() throws {
        let paths = try [phoneClip(0, frames: 60), phoneClip(1, frames: 90), phoneClip(2, frames: 60)]
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        XCTAssertEqual(smart.report.framesCopied, 210)
        XCTAssertEqual(smart.report.smart?.map(\.framesReencoded), [0, 0, 0])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 210, "every packet is a source packet")
        XCTAssertTrue(smart.report.summary.contains("smart: 210 of 210 frames copied (100.0 %)"), smart.report.summary)
    }

    func testCutReencodesOnlyTheGOPATrimPointFallsIn() throws {
        // In at 0.5 s: frames 15-29 of the first GOP are re-encoded, the rest copied.
        let paths = try [phoneClip(0, frames: 60), phoneClip(1, frames: 90)]
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.smart = true
        let (_, report, path) = try store.stitch([ClipEntry(path: paths[0]), ClipEntry(path: paths[1], inPoint: 0.5)],
                                                 settings: settings)
        XCTAssertEqual(report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(report.smart?.map(\.framesReencoded), [0, 15])
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 135)
        for (index, picture) in output.pictures.enumerated() {
            let expected = index < 60 ? (0, index) : (1, index - 60 + 15)
            let read = Marker.read(picture)
            XCTAssertTrue(read.map { $0 == expected } ?? false, "frame \(index): expected \(expected), read \(String(describing: read))")
        }
        try assertDecodesCleanly(path)
        // The frames re-encoded only to close the GOP keep the source's quality.
        let source = try DecodedOutput(path: paths[1])
        for frame in 15..<30 {
            XCTAssertGreaterThanOrEqual(Self.psnr(output.pictures[60 + frame - 15], source.pictures[frame]), 40, "frame \(frame)")
        }
    }

    // MARK: Transitions

    func testFadeReencodesOnlyTheGOPsItTouchesAtTheSourcesQuality() throws {
        let paths = try [phoneClip(0, frames: 90), phoneClip(1, frames: 90), phoneClip(2, frames: 90)]
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        // 15-frame fades: the last GOP of clip 0, the first and last of clip 1, the first of clip 2 are touched.
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 30, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 150)
        // Own frames re-encoded only to close a GOP: at least 40 dB against the source's own decode.
        let sources = try paths.map { try DecodedOutput(path: $0) }
        var worst = Double.infinity
        for clip in smart.plan.clips {
            let own = clip.index == 0 ? 0..<75 : clip.index == 1 ? 15..<75 : 15..<90
            for position in own { worst = min(worst, Self.psnr(smart.output.pictures[clip.startFrame + position], sources[clip.index].pictures[position])) }
        }
        XCTAssertGreaterThanOrEqual(worst, 40, "closing GOPs below 40 dB")
    }

    func testSlideDecodesWithTheSameFramesAndSound() throws {
        let paths = try [phoneClip(0, frames: 90), phoneClip(1, frames: 90)]
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .slideLeft
            $0.transitionDuration = 0.3
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
    }

    func testFreezeCopiesAllButTheGOPsWhosePicturesAreHeld() throws {
        let paths = try [phoneClip(0, frames: 90), phoneClip(1, frames: 90)]
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
            $0.mode = .freeze
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(smart.report.frames, 195)
    }

    func testOpenGOPClipsAreCopiedFromTheirKeyframesAndNeverCorrupted() throws {
        let paths = try [phoneClip(0, frames: 90, device: .openGOP), phoneClip(1, frames: 90, device: .openGOP)]
        // A cut keeps each clip whole: copied from its one IDR to its end.
        let (cut, _) = try assertSameAsWithoutSmart(paths)
        XCTAssertEqual(cut.report.smart?.map(\.framesCopied), [90, 90])
        // A fade touches each clip's first GOP: copies start at a later I picture (rewritten as an IDR)
        // whose leading pictures no other refers to; where B-pyramid made one a reference, at none.
        let (fade, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertGreaterThan(fade.report.smart?[1].framesCopied ?? 0, 0)
        try assertCopiedPicturesAreTheSources(fade, sources: paths)
    }

    // MARK: Mixed inputs

    func testTwoDevicesWithConflictingParameterSetsStillDecodeCleanly() throws {
        let paths = try [phoneClip(0, frames: 60), phoneClip(1, frames: 60, device: .camera), phoneClip(2, frames: 60)]
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [60, 0, 60])
        XCTAssertTrue(clips[1].notCopied.contains { if case .setConflict("SPS id 0", clip: 0, _, newIDs: nil) = $0 { true } else { false } },
                      "\(clips[1].notCopied)")
        let json = try JSONSerialization.jsonObject(with: smart.report.json(plan: smart.plan, settings: StitchSettings())) as? [String: Any]
        let reported = (json?["smart"] as? [String: Any])?["clips"] as? [[String: Any]]
        XCTAssertEqual(reported?.map { $0["framesCopied"] as? Int }, [60, 0, 60])
    }

    func testOnlyTheClipsThatQualifyAreCopied() throws {
        // A 25 fps clip on a 30 fps canvas has its frames repeated: re-encoded whole.
        let other = try store.path("marker-1-50-25fps.mp4", MarkerClip(clip: 1, frames: 50, frameRate: Rational(25, 1)))
        let paths = try [phoneClip(0, frames: 60), other, phoneClip(2, frames: 60)]
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [60, 0, 60])
        XCTAssertTrue(clips[1].notCopied.contains { if case .frameRate(Rational(25, 1), _, _) = $0 { true } else { false } }, "\(clips[1].notCopied)")
    }

    func testAVariableRateClipWithDroppedFramesIsCopiedAtItsOwnTimes() throws {
        // Three frames dropped in the second GOP (as a phone does in the dark): 87 frames over 3 s.
        let source = try phoneClip(1, frames: 90)
        let dropped = try store.path("phone-1-90-dropped.mp4") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-vf", "select='not(between(n,40,42))'",
                                                 "-fps_mode", "passthrough", "-c:v", "libx264"] + Device.phone.arguments
                                        + ["-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709",
                                           "-colorspace", "bt709", "-c:a", "copy", "-f", "mp4", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let paths = try [phoneClip(0, frames: 60), dropped]
        let (smart, plain) = try stitch(paths)
        XCTAssertTrue(smart.plan.clips[1].info.facts.variableFrameRate)
        let clips = try XCTUnwrap(smart.report.smart)
        // Positions 0-29 and 63-89 are whole GOPs on the grid; 30-62, with its gap, is copied
        // at its pictures' own times: picture 39 shows for four frames, as the plain stitch repeats it.
        XCTAssertEqual(clips.map(\.framesCopied), [60, 90])
        XCTAssertEqual(clips.map(\.picturesCopied), [60, 87])
        XCTAssertEqual(clips[1].notCopied, [])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 147)
        try assertShownAtOwnTimes(smart, sources: paths, markerClips: [0, 1])
        try assertLikeThePlainStitch(smart, plain)
        try assertDecodesCleanly(smart.path)
    }

    func testStrictChecksTheCopiedPacketsToo() throws {
        // Noise in the middle GOP's packets: copied as they are, but --strict decodes them and stops.
        let clean = try phoneClip(1, frames: 90)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
        let packets = try Self.videoPackets(clean).list
        let target = packets[45].bytes
        let at = try XCTUnwrap((0..<(bytes.count - target.count)).first { bytes[$0..<($0 + target.count)].elementsEqual(target) })
        for index in (at + 8)..<min(at + target.count, at + 200) { bytes[index] = UInt8(truncatingIfNeeded: index &* 73) }
        let damaged = store.folder.appendingPathComponent("phone-damaged-gop.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let output = store.outputPath("smart-strict")
        let result = try SegueTool.run(["stitch", try phoneClip(0, frames: 60), damaged, "-o", output, "--smart", "--strict",
                                        "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains(damaged) && result.standardError.contains("--strict"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        // Without --strict the same job copies the packets as they are and finishes.
        let lenient = try SegueTool.run(["stitch", try phoneClip(0, frames: 60), damaged, "-o", store.outputPath("smart-lenient"),
                                         "--smart", "--preset", "ultrafast"])
        XCTAssertEqual(lenient.status, 0, lenient.standardError)
    }

    func testWithoutSmartNothingIsCopied() throws {
        let run = try stitch([phoneClip(0, frames: 60)], smart: false)
        XCTAssertNil(run.report.smart)
        XCTAssertEqual(try identicalPackets(run.path, sources: [phoneClip(0, frames: 60)]), 0)
    }

    func testCommandLineFlagCopiesAndSaysHowMuchInTheSummaryAndReport() throws {
        let paths = try [phoneClip(0, frames: 60), phoneClip(2, frames: 60)]
        let output = store.outputPath(), report = store.outputPath("smart-report") + ".json"
        let result = try SegueTool.run(["stitch"] + paths + ["-o", output, "--smart", "--report", report])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("smart: 120 of 120 frames copied (100.0 %)"), result.standardError)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let smart = json?["smart"] as? [String: Any]
        XCTAssertEqual(smart?["framesCopied"] as? Int, 120)
        XCTAssertEqual(smart?["framesReencoded"] as? Int, 0)
        XCTAssertEqual((smart?["clips"] as? [[String: Any]])?.count, 2)
    }

    func testAVCRecordReadsAndWritesSeveralParameterSetsWithTheirIDs() throws {
        // x264's global header is Annex B; a phone's is an avcC record. Both read, and the record round-trips.
        let encoder = try Encoder.video(codec: .h264, width: 320, height: 180, frameRate: Rational(30, 1), crf: 23,
                                        preset: "ultrafast", codecParams: "sps-id=3", globalHeader: true)
        let own = try XCTUnwrap(AVCRecord(encoder.extradata))
        XCTAssertEqual(own.sequenceParameterSets.compactMap(H264.parameterSetID), [3])
        XCTAssertEqual(own.pictureParameterSets.compactMap(H264.parameterSetID), [3])
        let phone = try XCTUnwrap(AVCRecord(try Self.videoExtradata(phoneClip(0, frames: 60))))
        XCTAssertEqual(phone.sequenceParameterSets.compactMap(H264.parameterSetID), [0])
        var both = phone
        both.sequenceParameterSets += own.sequenceParameterSets
        both.pictureParameterSets += own.pictureParameterSets
        XCTAssertEqual(AVCRecord(both.bytes), both)
        XCTAssertEqual(AVCRecord(both.bytes)?.sequenceParameterSets.compactMap(H264.parameterSetID), [0, 3])
    }
}

/// Marker clips encoded as phones and cameras do, for every `--smart` test.
extension SmartTestCase {
    /// How a "device" encodes: two devices write different SPS and PPS under the same id 0.
    enum Device: String {
        case phone, camera
        /// Open GOPs: after the first IDR every keyframe is a recovery point whose leading B-frames refer back.
        case openGOP = "open-gop"

        var arguments: [String] {
            switch self {
            case .phone:
                return ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                        "-x264-params", "keyint=30:min-keyint=30:bframes=3:b-pyramid=normal:scenecut=0:ref=2"]
            case .camera:
                return ["-profile:v", "main", "-preset", "faster", "-crf", "20",
                        "-x264-params", "keyint=30:min-keyint=30:bframes=2:b-pyramid=none:scenecut=0:ref=1:weightp=0"]
            case .openGOP:
                return ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                        "-x264-params", "keyint=30:min-keyint=30:bframes=3:scenecut=0:open-gop=1"]
            }
        }
    }

    /// Marker clip `clip` of `frames` frames as `device` writes it: tagged BT.709, AAC sound as made.
    func phoneClip(_ clip: Int, frames: Int, device: Device = .phone) throws -> String {
        let source = try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
        return try store.path("\(device.rawValue)-\(clip)-\(frames).mp4") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264"] + device.arguments
                + ["-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                   "-c:a", "copy", "-f", "mp4", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }
}
