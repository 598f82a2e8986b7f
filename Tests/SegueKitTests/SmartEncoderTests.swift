import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueBitstream

/// `--smart` with H.264 from encoders and settings other than the x264 phone
/// profile SmartTests uses: OpenH264 (GStreamer's `openh264enc`), CAVLC, several
/// slices per picture, Baseline, SEI- and AUD-heavy streams, parameter sets
/// repeated in band (and `avc3` tracks), a PPS id unlike its SPS id, MOV
/// files with an edit list, 29.97 fps, and lists where only some clips qualify.
/// Every stitch shows the same frames with the same sound as without `--smart`,
/// and decodes cleanly in FFmpeg and GStreamer.
final class SmartEncoderTests: SmartTestCase {
    /// The marker clip's picture (BT.709, 320x180) at `frameRate`.
    func markerClip(_ clip: Int, frames: Int, frameRate: Rational = Rational(30, 1)) throws -> String {
        let rate = frameRate == Rational(30, 1) ? "" : "-\(frameRate.numerator)-\(frameRate.denominator)"
        return try store.path("marker-\(clip)-\(frames)\(rate).mp4", MarkerClip(clip: clip, frames: frames, frameRate: frameRate))
    }

    /// The marker clip re-encoded by libx264 with `arguments`, its AAC sound copied, in `container` (mp4 or mov).
    func x264Clip(_ name: String, _ clip: Int, frames: Int, frameRate: Rational = Rational(30, 1), container: String = "mp4",
                  _ arguments: [String]) throws -> String {
        let source = try markerClip(clip, frames: frames, frameRate: frameRate)
        return try store.path("x264-\(name)-\(clip)-\(frames)-\(frameRate.numerator).\(container)") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264"] + arguments
                + ["-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                   "-c:a", "copy", "-f", container, path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    /// The marker clip encoded by OpenH264 through GStreamer (Constrained
    /// Baseline, CAVLC, `slices` per picture, SPS and PPS repeated at every
    /// IDR), in an `avc1` or `avc3` track, the marker clip's AAC sound added.
    func openH264Clip(_ clip: Int, frames: Int, slices: Int = 1, format: String = "avc") throws -> String {
        let source = try markerClip(clip, frames: frames)
        return try store.path("openh264-\(format)-\(slices)-\(clip)-\(frames).mp4") { path in
            let video = path + ".video.mp4"
            defer { try? FileManager.default.removeItem(atPath: video) }
            let encode = try Tool.run("gst-launch-1.0", [
                "-q", "filesrc", "location=\(source)", "!", "qtdemux", "name=demux", "demux.video_0", "!", "decodebin", "!",
                "videoconvert", "!", "video/x-raw,format=I420", "!",
                "openh264enc", "gop-size=30", "bitrate=2000000", "rate-control=bitrate", "scene-change-detection=false",
                "slice-mode=n-slices", "num-slices=\(slices)", "!",
                "h264parse", "!", "video/x-h264,stream-format=\(format),alignment=au", "!", "mp4mux", "!",
                "filesink", "location=\(video)"])
            XCTAssertEqual(encode.status, 0, encode.standardError)
            let mux = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", video, "-i", source, "-map", "0:v", "-map", "1:a",
                                              "-c", "copy", "-f", "mp4", path])
            XCTAssertEqual(mux.status, 0, mux.standardError)
        }
    }

    /// NAL unit types of a file's first video packet.
    func firstPacketUnits(_ path: String) throws -> [Int] {
        let demuxer = try InputAccess().openDemuxer(path)
        let index = try XCTUnwrap(demuxer.bestStream(.video))
        let packet = Packet()
        while try demuxer.read(into: packet), packet.streamIndex != index {}
        var types: [Int] = []
        packet.forEachNALUnit(lengthSize: 4) { header, _ in types.append(Int(header & 0x1F)) }
        return types
    }

    func assertAllCopied(_ run: Run, _ sources: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let frames = run.plan.clips.map(\.frameCount)
        XCTAssertEqual(run.report.smart?.map(\.framesCopied), frames, run.report.smart?.compactMap(\.reason).joined(separator: "; ") ?? "",
                       file: file, line: line)
        XCTAssertEqual(try identicalPackets(run.path, sources: sources), frames.reduce(0, +), "every packet is a source packet",
                       file: file, line: line)
    }

    // MARK: OpenH264

    func testOpenH264ClipsWithSeveralSlicesAreCopiedWhole() throws {
        let paths = try [openH264Clip(0, frames: 60, slices: 4), openH264Clip(1, frames: 60, slices: 4)]
        // What the fixture is meant to be: its parameter sets repeated in front of its IDR, Constrained Baseline.
        XCTAssertEqual(try firstPacketUnits(paths[0]).prefix(3), [H264.sequenceParameterSet, H264.pictureParameterSet, H264.idrSlice])
        XCTAssertEqual(try AVCRecord(Self.videoExtradata(paths[0]))?.profile, 66)
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        try assertAllCopied(smart, paths)
    }

    func testOpenH264FadeAndTrimReencodeOnlyTheGOPsTheyTouch() throws {
        let paths = try [openH264Clip(0, frames: 90), openH264Clip(1, frames: 90)]
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 120)
        XCTAssertEqual(smart.report.smart?[0].notCopied, [.touchedGOPs])
        // In at 0.5 s: the rest of the first GOP is re-encoded, the later GOPs copied.
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.smart = true
        let (_, report, path) = try store.stitch([ClipEntry(path: paths[0]), ClipEntry(path: paths[1], inPoint: 0.5)], settings: settings)
        XCTAssertEqual(report.smart?.map(\.framesCopied), [90, 60])
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 165)
        for (index, picture) in output.pictures.enumerated() {
            let expected = index < 90 ? (0, index) : (1, index - 90 + 15)
            let read = Marker.read(picture)
            XCTAssertTrue(read.map { $0 == expected } ?? false, "frame \(index): expected \(expected), read \(String(describing: read))")
        }
        try assertDecodesCleanly(path)
    }

    func testOpenH264InAnAVC3TrackIsCopiedWithItsInBandParameterSetsInTheRecord() throws {
        let paths = try [openH264Clip(0, frames: 60, format: "avc3"), openH264Clip(1, frames: 60, format: "avc3")]
        XCTAssertEqual(try AVCRecord(Self.videoExtradata(paths[0]))?.sequenceParameterSets.count, 0, "an avc3 record without sets")
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        try assertAllCopied(smart, paths)
        let record = try XCTUnwrap(AVCRecord(Self.videoExtradata(smart.path)))
        XCTAssertEqual(record.sequenceParameterSets.compactMap(H264.parameterSetID), [1, 0], "the encoder's SPS and the clips'")
    }

    // MARK: x264 as phones and cameras set it

    func testCAVLCWithFourSlicesAndBFramesIsCopiedWhole() throws {
        let arguments = ["-profile:v", "main", "-coder", "0", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:slices=4:bframes=2:b-pyramid=none"]
        let paths = try [x264Clip("cavlc-slices", 0, frames: 60, arguments), x264Clip("cavlc-slices", 1, frames: 60, arguments)]
        XCTAssertEqual(try firstPacketUnits(paths[0]).filter { $0 == H264.idrSlice }.count, 4, "four slices")
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .slideLeft
            $0.transitionDuration = 0.3
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [30, 30])
    }

    func testBaselineWithoutBFramesIsCopiedWhole() throws {
        let arguments = ["-profile:v", "baseline", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0"]
        let paths = try [x264Clip("baseline", 0, frames: 60, arguments), x264Clip("baseline", 1, frames: 60, arguments)]
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        try assertAllCopied(smart, paths)
    }

    func testSEIAndAccessUnitDelimitersInEveryPictureAreCopiedWhole() throws {
        // HRD buffering-period and picture-timing SEI and an AUD in every access unit, as broadcast cameras write.
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=2:nal-hrd=vbr:vbv-maxrate=4000:vbv-bufsize=4000",
                         "-bsf:v", "h264_metadata=aud=insert:sei_user_data=086f3693-b7b3-4f2c-9653-21492feee5b8+segue"]
        let paths = try [x264Clip("sei", 0, frames: 60, arguments), x264Clip("sei", 1, frames: 60, arguments)]
        XCTAssertEqual(try firstPacketUnits(paths[0]).prefix(2), [9, 6], "an AUD, then SEI")
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [30, 30])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 60)
    }

    func testParameterSetsRepeatedAtEveryIDRAreCopiedWhole() throws {
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=3:repeat-headers=1"]
        let paths = try [x264Clip("repeat-headers", 0, frames: 60, arguments), x264Clip("repeat-headers", 1, frames: 90, arguments)]
        XCTAssertTrue(try firstPacketUnits(paths[0]).contains(H264.sequenceParameterSet), "SPS in band")
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        try assertAllCopied(smart, paths)
    }

    func testAPictureParameterSetIdUnlikeItsSequenceSetIdIsKept() throws {
        let paths = try [ppsTwoClip(0, frames: 60), ppsTwoClip(1, frames: 90)]
        let source = try XCTUnwrap(AVCRecord(Self.videoExtradata(paths[0])))
        XCTAssertEqual(source.sequenceParameterSets.compactMap(H264.parameterSetID), [1])
        XCTAssertEqual(source.pictureParameterSets.compactMap(H264.parameterSetID), [2])
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [30, 60])
        // The encoder's own sets take id 0, which neither clip set uses.
        let record = try XCTUnwrap(AVCRecord(Self.videoExtradata(smart.path)))
        XCTAssertEqual(record.sequenceParameterSets.compactMap(H264.parameterSetID), [0, 1])
        XCTAssertEqual(record.pictureParameterSets.compactMap(H264.parameterSetID), [0, 2])
    }

    func testMOVWithAnEditListForItsBFrameDelayIsCopiedWhole() throws {
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=2:b-pyramid=none"]
        let paths = try [x264Clip("phone", 0, frames: 60, container: "mov", arguments),
                         x264Clip("phone", 1, frames: 60, container: "mov", arguments)]
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: paths[0])).range(of: Data("elst".utf8)) != nil, "an edit list")
        XCTAssertLessThan(try Self.videoPackets(paths[0]).list[0].dts, 0, "decoding starts before the picture")
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        try assertAllCopied(smart, paths)
    }

    func testAMOVTrimmedOnThePhoneByItsEditListReencodesOnlyTheCutGOP() throws {
        // Trimmed without re-encoding (as a phone's editor does): the first GOP's leading pictures are
        // kept in the file, and the edit list starts the clip 0.5 s in, where FFmpeg discards them.
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=2:b-pyramid=none"]
        let trimmed = try (0...1).map { clip in
            let whole = try x264Clip("phone", clip, frames: 90, container: "mov", arguments)
            return try store.path("x264-phone-trimmed-\(clip).mov") { path in
                let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-ss", "0.5", "-i", whole, "-c", "copy", "-f", "mov", path])
                XCTAssertEqual(result.status, 0, result.standardError)
            }
        }
        XCTAssertLessThan(try Self.videoPackets(trimmed[0]).list[0].pts, 0, "pictures before the edit list's start")
        let (smart, _) = try assertSameAsWithoutSmart(trimmed)
        XCTAssertEqual(smart.plan.clips.map(\.frameCount), [75, 75])
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(smart.report.smart?[0].notCopied, [.touchedGOPs])
    }

    func testPhoneCaptureTimesThatJitterAroundTheFrameGridAreCopied() throws {
        // Android phones stamp each picture with its sensor time (1/90000): up to 2.5 ms, 0.075 frame, off the grid.
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18", "-bf", "0",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0", "-video_track_timescale", "90000",
                         "-bsf:v", "setts=ts=PTS+if(eq(N\\,0)\\,0\\,mod(N*7919\\,451)-225)"]
        let paths = try [x264Clip("jitter", 0, frames: 90, arguments), x264Clip("jitter", 1, frames: 90, arguments)]
        let source = try Self.videoPackets(paths[0])
        XCTAssertEqual(source.timeBase, Rational(1, 90_000))
        XCTAssertGreaterThan(source.list.enumerated().map { abs($1.pts - Int64($0) * 3000) }.max() ?? 0, 150, "jittered")
        let (smart, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 120)
    }

    func testClipsAt2997OnA2997CanvasAreCopied() throws {
        let ntsc = Rational(30000, 1001)
        let arguments = ["-profile:v", "high", "-preset", "fast", "-crf", "18",
                         "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=2"]
        let paths = try [x264Clip("ntsc", 0, frames: 90, frameRate: ntsc, arguments),
                         x264Clip("ntsc", 1, frames: 90, frameRate: ntsc, arguments)]
        let (cut, _) = try assertSameAsWithoutSmart(paths)
        XCTAssertEqual(cut.plan.canvas.frameRate, ntsc)
        try assertAllCopied(cut, paths)
        let (fade, _) = try assertSameAsWithoutSmart(paths) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(fade.report.smart?.map(\.framesCopied), [60, 60])
    }

    /// One MP4 whose video joins `parts` unchanged (GStreamer's concat into mp4mux): a sample
    /// description per part whose avcC differs, as a camera that resumes recording in a file may write.
    func joinedClip(_ name: String, _ parts: [String]) throws -> String {
        try store.path("joined-\(name).mp4") { path in
            var arguments = ["-q", "concat", "name=c", "!", "h264parse", "!", "mp4mux", "!", "filesink", "location=\(path)"]
            for part in parts { arguments += ["filesrc", "location=\(part)", "!", "qtdemux", "!", "h264parse", "!", "c."] }
            let result = try Tool.run("gst-launch-1.0", arguments)
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    func testAFileWithASecondSampleDescriptionCopiesItsSetsOrIsReencoded() throws {
        let baseline = ["-profile:v", "baseline", "-preset", "fast", "-crf", "18", "-x264-params", "keyint=30:min-keyint=30:scenecut=0"]
        let first = try x264Clip("baseline", 0, frames: 60, baseline)
        // The second recording's sets under other ids: both descriptions' sets go in the output's record.
        let otherIDs = try x264Clip("baseline-id1", 1, frames: 60, ["-profile:v", "main", "-preset", "fast", "-crf", "18",
                                                                    "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=0:sps-id=1"])
        let joined = try joinedClip("ids-0-1", [first, otherIDs])
        let data = try Data(contentsOf: URL(fileURLWithPath: joined))
        XCTAssertEqual(data.ranges(of: Data("avcC".utf8)).count, 2, "two sample descriptions")
        let (copied, _) = try assertSameAsWithoutSmart([joined])
        XCTAssertEqual(copied.report.smart?.map(\.framesCopied), [120], copied.report.smart?.first?.reason ?? "")
        let record = try XCTUnwrap(AVCRecord(Self.videoExtradata(copied.path)))
        XCTAssertEqual(Set(record.sequenceParameterSets.compactMap(H264.parameterSetID)), [0, 1, 2])
        // The second recording's SPS 0 unlike the first's: no one record holds both, so it is re-encoded.
        // (mp4mux switches description one sample early, so the source's own last picture of the first
        // part is damaged: FFmpeg complains of it, and conceals it alike with and without --smart.)
        let sameID = try x264Clip("main", 1, frames: 60, ["-profile:v", "main", "-preset", "fast", "-crf", "18",
                                                          "-x264-params", "keyint=30:min-keyint=30:scenecut=0:bframes=0"])
        let (reencoded, _) = try assertSameAsWithoutSmart([try joinedClip("ids-0-0", [first, sameID])])
        XCTAssertEqual(reencoded.report.smart?.map(\.framesCopied), [0])
        XCTAssertEqual(reencoded.report.smart?[0].notCopied, [.setsChangeMidway])
    }

    // MARK: Mixed lists

    func testAMixedListCopiesOnlyTheClipsThatQualifyAndSaysWhyNotTheRest() throws {
        // OpenH264 and x264 both number their sets 0: the x264 clip is re-encoded; a 25 fps clip is converted;
        // MPEG-TS carries start codes, not the lengths an MP4 track's samples need.
        let baseline = ["-profile:v", "baseline", "-preset", "fast", "-crf", "18", "-x264-params", "keyint=30:min-keyint=30:scenecut=0"]
        let mp4 = try x264Clip("baseline", 4, frames: 60, baseline)
        let transportStream = try store.path("x264-baseline-4-60.ts") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", mp4, "-c", "copy", "-f", "mpegts", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let paths = try [openH264Clip(0, frames: 60), x264Clip("baseline", 1, frames: 60, baseline),
                         store.path("marker-2-50-25fps.mp4", MarkerClip(clip: 2, frames: 50, frameRate: Rational(25, 1))),
                         openH264Clip(3, frames: 60), transportStream]
        let (smart, _) = try assertSameAsWithoutSmart(paths)
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [60, 0, 0, 60, 0])
        XCTAssertTrue(clips[1].notCopied.contains { if case .setConflict("SPS id 0", clip: 0, _, newIDs: nil) = $0 { true } else { false } },
                      "\(clips[1].notCopied)")
        XCTAssertTrue(clips[2].notCopied.contains { if case .frameRate(Rational(25, 1), _, _) = $0 { true } else { false } }, "\(clips[2].notCopied)")
        XCTAssertEqual(clips[4].notCopied, [.startCodes(hevc: false)])
        XCTAssertEqual([clips[0].reason, clips[3].reason], [nil, nil])
        XCTAssertEqual(try identicalPackets(smart.path, sources: [paths[0], paths[3]]), 120)
    }

    // MARK: Fixture: a PPS id unlike its SPS id

    /// The marker clip from x264 Baseline with SPS id 1, its PPS (and every
    /// slice's reference to it) renumbered 2: `ue(1)` and `ue(2)` have the same
    /// length, so one bit changes and nothing else moves.
    func ppsTwoClip(_ clip: Int, frames: Int) throws -> String {
        let source = try markerClip(clip, frames: frames)
        return try store.path("pps2-\(clip)-\(frames).mp4") { path in
            let annexB = path + ".h264"
            defer { try? FileManager.default.removeItem(atPath: annexB) }
            let encode = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264", "-profile:v", "baseline",
                                                 "-preset", "fast", "-crf", "18", "-x264-params", "keyint=30:min-keyint=30:scenecut=0:sps-id=1",
                                                 "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                 "-colorspace", "bt709", "-an", "-f", "h264", annexB])
            XCTAssertEqual(encode.status, 0, encode.standardError)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: annexB)))
            Self.renumberPictureParameterSet(&bytes, from: 1, to: 2)
            try Data(bytes).write(to: URL(fileURLWithPath: annexB))
            let mux = try Tool.run("ffmpeg", ["-v", "error", "-y", "-framerate", "30", "-i", annexB, "-i", source,
                                              "-map", "0:v", "-map", "1:a", "-c", "copy", "-f", "mp4", path])
            XCTAssertEqual(mux.status, 0, mux.standardError)
        }
    }

    /// Flips the last bit of `pic_parameter_set_id` in every PPS and slice of an Annex B stream.
    static func renumberPictureParameterSet(_ bytes: inout [UInt8], from old: Int, to new: Int) {
        precondition([old, new].sorted() == [1, 2], "only ue(1) and ue(2) share a length")
        var index = 0
        while index + 3 < bytes.count {
            guard bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 else { index += 1; continue }
            let header = index + 3
            let type = Int(bytes[header] & 0x1F)
            // The id is the first ue(v) of a PPS, the third of a slice header.
            let skip = type == H264.pictureParameterSet ? 0 : (type == 1 || type == H264.idrSlice) ? 2 : -1
            if skip >= 0 {
                var bit = (header + 1) * 8
                func readUE() -> Int {
                    var zeros = 0
                    while bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1 == 0 { zeros += 1; bit += 1 }
                    bit += 1
                    var value = 0
                    for _ in 0..<zeros { value = value << 1 | Int(bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1); bit += 1 }
                    return (1 << zeros) - 1 + value
                }
                for _ in 0..<skip { _ = readUE() }
                let headerBytes = Array(bytes[(header + 1)...(bit / 8 + 2)])
                precondition(!zip(headerBytes, zip(headerBytes.dropFirst(), headerBytes.dropFirst(2))).contains { $0 == 0 && $1.0 == 0 && $1.1 == 3 },
                             "an emulation-prevention byte among the ids")
                XCTAssertEqual(readUE(), old)
                bytes[(bit - 1) / 8] ^= 1 << (7 - UInt8((bit - 1) % 8)) // ue(1) = 010, ue(2) = 011
            }
            index = header + 1
        }
    }
}
