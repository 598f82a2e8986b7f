import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore
import SegueBitstream

/// `--smart --codec hevc` with HDR clips: HEVC Main 10 HLG and PQ clips that
/// match the output are copied, and the GOPs re-encoded beside them carry the
/// same profile, level, colour description and HDR10 SEI; clips that don't
/// match are re-encoded, each with its reason.
final class SmartHDRTests: SmartTestCase {
    enum HDRClip: String, CaseIterable {
        /// HEVC Main 10 HLG at level 3.1 (above what x265 would choose for its size), chroma sited top left.
        case hlg
        /// The same with its chroma site unsaid (left).
        case hlgChromaLeft = "hlg-chroma-left"
        /// HEVC Main 10 PQ with a mastering display and light levels.
        case pq
        /// PQ mastered on another display.
        case pqOtherDisplay = "pq-other-display"
        /// HLG tags on 8-bit pictures (HEVC Main).
        case hlg8Bit = "hlg-8bit"

        var x265Parameters: String {
            let gops = "log-level=error:keyint=15:min-keyint=15:scenecut=0:bframes=3:open-gop=0:colorprim=bt2020:colormatrix=bt2020nc"
            switch self {
            case .hlg, .hlg8Bit: return gops + ":transfer=arib-std-b67:level-idc=31:chromaloc=2"
            case .hlgChromaLeft: return gops + ":transfer=arib-std-b67:level-idc=31"
            case .pq: return gops + ":transfer=smpte2084:hdr10=1:" + HDRClip.mastering(peak: 1000, maxCLL: 1000)
            case .pqOtherDisplay: return gops + ":transfer=smpte2084:hdr10=1:" + HDRClip.mastering(peak: 4000, maxCLL: 2500)
            }
        }

        static func mastering(peak: Int, maxCLL: Int) -> String {
            "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(\(peak * 10000),50):max-cll=\(maxCLL),400"
        }

        var transfer: String { self == .pq || self == .pqOtherDisplay ? "smpte2084" : "arib-std-b67" }
    }

    /// A 3-second 320x180 clip at 30 fps, GOPs of half a second (closed, B-frames).
    func clip(_ kind: HDRClip) throws -> String {
        try store.path("smart-hdr-\(kind.rawValue).mp4") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3",
                                                 "-pix_fmt", kind == .hlg8Bit ? "yuv420p" : "yuv420p10le", "-c:v", "libx265",
                                                 "-preset", "fast", "-crf", "18", "-x265-params", kind.x265Parameters,
                                                 "-color_primaries", "bt2020", "-color_trc", kind.transfer, "-colorspace", "bt2020nc",
                                                 "-tag:v", "hvc1", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    /// A stitch's plan, report and file (its 10-bit pictures are read by FFmpeg's tools, not `DecodedOutput`).
    struct HDRRun {
        var plan: Plan
        var report: StitchReport
        var path: String
    }

    func hdrStitch(_ entries: [ClipEntry], smart: Bool, hdr: HDRChoice = .auto) throws -> HDRRun {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 12
        settings.smart = smart
        settings.codec = .hevc
        settings.hdr = hdr
        let (plan, report, path) = try store.stitch(entries, settings: settings)
        return HDRRun(plan: plan, report: report, path: path)
    }

    // MARK: Copied like SDR clips

    func testHLGClipsAreCopiedByteForByteAndTheTrimmedGOPMatchesThem() throws {
        let source = try clip(.hlg)
        try assertCopiedWithMatchingStretches(source, transfer: "arib-std-b67", level: 93, chroma: "topleft")
    }

    func testPQClipsWithMasteringMetadataAreCopiedAndStretchesRepeatTheirSEI() throws {
        let source = try clip(.pq)
        let smart = try assertCopiedWithMatchingStretches(source, transfer: "smpte2084", level: nil, chroma: "left")
        let sourceSEI = try Self.hdrSEI(atKeyframesOf: source).first
        XCTAssertEqual(try Self.hdrSEI(atKeyframesOf: smart.path).first, sourceSEI, "the output's HDR10 SEI is the source's")
        XCTAssertEqual(sourceSEI.map { $0.map(HEVC.seiPayloadTypes).flatMap { $0 } }, [144, 137], "content light level and mastering display")
        let sideData = try FFprobe.run(["-select_streams", "v", "-read_intervals", "%+#1", "-show_frames", smart.path])
        let frame = (sideData["frames"] as? [[String: Any]])?.first
        let kinds = (frame?["side_data_list"] as? [[String: Any]])?.compactMap { $0["side_data_type"] as? String } ?? []
        XCTAssertTrue(kinds.contains("Mastering display metadata") && kinds.contains("Content light level metadata"), "\(kinds)")
    }

    /// Two of `source`, the second trimmed into its first GOP: well over 90 %
    /// of frames copied as the source's packets; every SPS of the track (copied
    /// and re-encoded) with one profile, tier and level; every picture with
    /// one colour description; every keyframe with the same HDR SEI; a clean
    /// decode; the same pictures as the plain HDR stitch.
    @discardableResult
    func assertCopiedWithMatchingStretches(_ source: String, transfer: String, level: Int?, chroma: String,
                                           file: StaticString = #filePath, line: UInt = #line) throws -> HDRRun {
        let entries = [ClipEntry(path: source), ClipEntry(path: source, inPoint: 0.3)]
        let smart = try hdrStitch(entries, smart: true)
        let plain = try hdrStitch(entries, smart: false)
        XCTAssertEqual(smart.plan.canvas.colour.transferName, transfer, file: file, line: line)
        XCTAssertEqual(smart.plan.totalFrames, 171, file: file, line: line)
        XCTAssertEqual(smart.report.framesCopied, 165, "all but the 6 frames of the trimmed GOP", file: file, line: line)
        XCTAssertEqual(try identicalPackets(smart.path, sources: [source]), 165, "copied frames are source packets", file: file, line: line)
        try assertCleanHDRTimeline(smart, file: file, line: line)

        let record = try XCTUnwrap(HEVCRecord(try Self.videoExtradata(smart.path)), file: file, line: line)
        let sequenceSets = record.units.filter { HEVC.unitType($0) == HEVC.sequenceParameterSet }
        XCTAssertEqual(sequenceSets.count, 2, "the source's SPS and the encoder's", file: file, line: line)
        let tiers = Set(sequenceSets.map { Array(Self.withoutEmulationPrevention($0.dropFirst(2))[1...12]) })
        XCTAssertEqual(tiers.count, 1, "one profile, tier and level in every SPS", file: file, line: line)
        XCTAssertEqual(tiers.first.map { Int($0[0] & 0x1F) }, 2, "Main 10", file: file, line: line)
        if let level { XCTAssertEqual(tiers.first.map { Int($0[11]) }, level, "the source's level", file: file, line: line) }

        let colours = try Self.pictureColours(smart.path)
        XCTAssertEqual(colours.count, 171, file: file, line: line)
        XCTAssertEqual(Set(colours), ["yuv420p10le tv bt2020nc bt2020 \(transfer) \(chroma)"], file: file, line: line)
        XCTAssertEqual(Set(try Self.hdrSEI(atKeyframesOf: smart.path)).count, 1, "every keyframe's HDR SEI alike", file: file, line: line)

        try assertDecodesWithoutComplaint(smart.path, file: file, line: line)
        let psnr = try Self.psnr(smart.path, plain.path)
        XCTAssertGreaterThan(psnr.minimum, 40, "a picture unlike the plain stitch's", file: file, line: line)
        return smart
    }

    // MARK: Not copied, with reasons

    func testAPQClipAndAn8BitClipInHLGOutputAreReencodedWithTheirReasons() throws {
        let paths = try [clip(.hlg), clip(.pq), clip(.hlg8Bit)]
        let smart = try hdrStitch(paths.map { ClipEntry(path: $0) }, smart: true)
        XCTAssertEqual(smart.plan.canvas.colour, OutputColour(.hlg, bitDepth: 10))
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [90, 0, 0])
        XCTAssertEqual(clips[1].notCopied, [.transfer("smpte2084", output: smart.plan.canvas.colour)])
        XCTAssertEqual(clips[2].notCopied, [.bitDepth(8, output: smart.plan.canvas.colour)])
        XCTAssertEqual(clips[1].reason, "its transfer is smpte2084, the output's arib-std-b67 (HLG BT.2020, 10-bit): it is converted")
        XCTAssertEqual(clips[2].reason, "its pictures are 8-bit, the output's 10-bit (HLG BT.2020, 10-bit): they are converted")
        try assertCleanHDRTimeline(smart)
        try assertDecodesWithoutComplaint(smart.path)
    }

    func testAClipWhoseChromaSitsElsewhereIsReencodedWithTheFirstCopiedClipsSite() throws {
        let paths = try [clip(.hlg), clip(.hlgChromaLeft)]
        let smart = try hdrStitch(paths.map { ClipEntry(path: $0) }, smart: true)
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [90, 0])
        XCTAssertEqual(clips[1].notCopied, [.chromaSite(0, clip: 0, clipSite: 2)])
        XCTAssertEqual(clips[1].reason, "its chroma sits left, clip 1's top left, which the re-encoded pictures follow")
        XCTAssertEqual(Set(try Self.pictureColours(smart.path)), ["yuv420p10le tv bt2020nc bt2020 arib-std-b67 topleft"])
        try assertDecodesWithoutComplaint(smart.path)
    }

    func testAPQClipMasteredOnAnotherDisplayIsReencodedUnderTheOutputsMetadata() throws {
        let paths = try [clip(.pq), clip(.pqOtherDisplay)]
        let smart = try hdrStitch(paths.map { ClipEntry(path: $0) }, smart: true)
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.framesCopied), [90, 0])
        guard case let .hdrMetadata(its, output) = clips[1].notCopied.first else {
            return XCTFail("\(clips[1].notCopied)")
        }
        XCTAssertEqual(its?.maxLuminance, 4000)
        XCTAssertEqual(output?.maxLuminance, 1000)
        XCTAssertEqual(output, smart.plan.canvas.hdrMetadata)
        XCTAssertTrue(clips[1].reason?.hasPrefix("its HDR10 metadata (display 0.005-4000 cd/m²") == true, clips[1].reason ?? "")
        // One mastering display throughout: the first clip's.
        XCTAssertEqual(Set(try Self.hdrSEI(atKeyframesOf: smart.path)).count, 1)
        try assertDecodesWithoutComplaint(smart.path)
    }

    // MARK: Dolby Vision profile 8

    /// An HLG clip as an iPhone records it: a Dolby Vision configuration
    /// record (dvvC: profile 8, base layer compatible with HLG) and an RPU
    /// (NAL type 62) after every picture. The RPUs are of a type FFmpeg leaves
    /// unread; no B-frames, so the raw stream muxes with plain timestamps.
    /// A Dolby Vision profile 8 clip (HLG base layer, an RPU after every slice), as an iPhone writes it:
    /// `openGOP`, every keyframe after the first a CRA with RASL pictures; otherwise no B-frames.
    func dolbyVisionClip(openGOP: Bool = false) throws -> String {
        let name = openGOP ? "dv-open-gop" : "dv"
        let gops = openGOP ? HDRClip.hlg.x265Parameters.replacingOccurrences(of: "open-gop=0", with: "open-gop=1")
            : HDRClip.hlg.x265Parameters.replacingOccurrences(of: "bframes=3", with: "bframes=0")
        // Encoded into an MP4 first, whose timestamps say the pictures' order (a raw stream's don't).
        let encoded = try store.path("\(name)-encoded.mp4") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3",
                                                 "-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-preset", "fast", "-crf", "18",
                                                 "-x265-params", gops, "-tag:v", "hvc1", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let base = try store.path("\(name)-base.hevc") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", encoded, "-c", "copy", "-bsf:v", "hevc_mp4toannexb", "-f", "hevc", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        // The raw stream's packets are remuxed in decoding order; each gets the encoded MP4's pts and dts back
        // (setts works in the output's time base, made the encoded MP4's).
        let encodedPackets = try Self.videoPackets(encoded), timing = encodedPackets.list, unit = encodedPackets.timeBase
        func stamps(_ values: [Int64]) -> String {
            // Commas escaped: the filter list is split at bare ones.
            values.enumerated().map { "eq(N\\,\($0.offset))*(\($0.element))" }.joined(separator: "+")
        }
        let setts = "setts=pts=\(stamps(timing.map(\.pts))):dts=\(stamps(timing.map(\.dts)))"
        let withRPUs = try store.path("\(name)-rpu.hevc") { path in
            let rpu: [UInt8] = [0x7C, 0x01, 0x19, 0x04, 0x80]
            let units = Self.annexBUnits(try XCTUnwrap(FileManager.default.contents(atPath: base)).map { $0 })
            let withRPU: [[UInt8]] = units.flatMap { unit in HEVC.isSlice(HEVC.unitType(unit)) ? [unit, rpu] : [unit] }
            let stream: [UInt8] = withRPU.flatMap { [0, 0, 0, 1] + $0 }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(stream)))
        }
        let muxed = try store.path("\(name)-muxed.mp4") { path in
            // The parameter sets stay in the header only (the raw demuxer's copy there keeps a byte of the next start code).
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-fflags", "+genpts", "-r", "30", "-i", withRPUs, "-c", "copy",
                                                 "-bsf:v", "filter_units=remove_types=32-34,\(setts)", "-video_track_timescale", "\(unit.denominator / unit.numerator)",
                                                 "-tag:v", "hvc1", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        return try store.path("\(name)-profile8.mp4") { path in
            let file = try XCTUnwrap(FileManager.default.contents(atPath: muxed)).map { $0 }
            let tagged = try XCTUnwrap(Self.addingDolbyVisionRecord(to: file), "no hvcC found, or moov before mdat")
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(tagged)))
        }
    }

    func testDolbyVisionProfile8IsCopiedWithItsRPUsAndClaimsNoDolbyVision() throws {
        let source = try dolbyVisionClip()
        let entries = [ClipEntry(path: source), ClipEntry(path: source, inPoint: 0.3)]
        let smart = try hdrStitch(entries, smart: true)
        XCTAssertEqual(smart.plan.clips.map(\.info.facts.dolbyVisionProfile), [8, 8], "the fixture is Dolby Vision profile 8")
        XCTAssertEqual(smart.plan.canvas.colour, OutputColour(.hlg, bitDepth: 10))
        XCTAssertEqual(smart.report.framesCopied, 165)
        // Copied packets are the source's, RPUs and all, byte for byte (a CRA
        // opening a copied run is marked a broken link: its packet differs).
        let sourcePackets = Set(try Self.videoPackets(source).list.map(\.bytes))
        let output = try Self.videoPackets(smart.path).list
        let copied = output.filter { sourcePackets.contains($0.bytes) }
        XCTAssertGreaterThanOrEqual(copied.count, 160)
        XCTAssertTrue(copied.allSatisfy { Self.lengthPrefixedUnits($0.bytes).contains { HEVC.unitType($0) == 62 } }, "a copied RPU lost")
        // Nothing claims Dolby Vision (re-encoded pictures have no RPU): no configuration record, no side data.
        let file = try XCTUnwrap(FileManager.default.contents(atPath: smart.path))
        for box in ["dvcC", "dvvC", "dvwC"] { XCTAssertNil(file.range(of: Data(box.utf8)), box) }
        let streams = try FFprobe.run(["-select_streams", "v", "-show_streams", smart.path])["streams"] as? [[String: Any]]
        XCTAssertNil(streams?.first?["side_data_list"], "\(streams?.first?["side_data_list"] ?? "")")
        XCTAssertEqual(Set(try Self.pictureColours(smart.path)), ["yuv420p10le tv bt2020nc bt2020 arib-std-b67 topleft"])
        try assertCleanHDRTimeline(smart)
        try assertDecodesWithoutComplaint(smart.path)
    }

    func testDolbyVisionOpenGOPClipTrimmedCopiesItsMiddleGOPsWithTheirRPUs() throws {
        // As an iPhone HLG clip trimmed by its edit: CRAs with RASL pictures every half second, an RPU with every picture.
        let source = try dolbyVisionClip(openGOP: true)
        let units = try Self.videoPackets(source).list.map { Self.lengthPrefixedUnits($0.bytes).map(HEVC.unitType) }
        XCTAssertGreaterThanOrEqual(units.filter { $0.contains(HEVC.cleanRandomAccess) }.count, 4, "the fixture's keyframes are CRAs")
        XCTAssertGreaterThanOrEqual(units.filter { !Set($0).isDisjoint(with: [8, 9]) }.count, 4, "with RASL pictures")
        let entries = [ClipEntry(path: source, inPoint: 0.3, outPoint: 2.6), ClipEntry(path: source, inPoint: 0.3, outPoint: 2.6)]
        let smart = try hdrStitch(entries, smart: true)
        let plain = try hdrStitch(entries, smart: false)
        // Each shows source frames 9..<78: the GOPs from the CRA at 15 to the last before the one the out point cuts.
        let copied = try XCTUnwrap(smart.report.smart).map(\.framesCopied)
        XCTAssertTrue(copied.allSatisfy { $0 >= 40 }, "\(copied)")
        let sourcePackets = Set(try Self.videoPackets(source).list.map(\.bytes))
        let output = try Self.videoPackets(smart.path).list
        let copiedPackets = output.filter { sourcePackets.contains($0.bytes) }
        // Every copied packet but the CRAs opening a run (marked BLA) is the source's, its RPU with it.
        XCTAssertEqual(copiedPackets.count, smart.report.framesCopied - 2)
        XCTAssertTrue(copiedPackets.allSatisfy { Self.lengthPrefixedUnits($0.bytes).contains { HEVC.unitType($0) == 62 } }, "a copied RPU lost")
        XCTAssertEqual(Set(try Self.pictureColours(smart.path)), ["yuv420p10le tv bt2020nc bt2020 arib-std-b67 topleft"])
        try assertCleanHDRTimeline(smart)
        try assertDecodesWithoutComplaint(smart.path)
        XCTAssertGreaterThan(try Self.psnr(smart.path, plain.path).minimum, 40, "a picture unlike the plain stitch's")
    }

    // MARK: Helpers

    /// One packet per planned frame, pts 0, 1, 2 … in frames, dts strictly increasing and never after pts.
    func assertCleanHDRTimeline(_ run: HDRRun, file: StaticString = #filePath, line: UInt = #line) throws {
        let packets = try Self.videoPackets(run.path)
        let rate = run.plan.canvas.frameRate
        let tick = Int64(packets.timeBase.denominator * rate.denominator)
        let frames = packets.list.map { $0.pts * Int64(packets.timeBase.numerator * rate.numerator) }
        XCTAssertTrue(frames.allSatisfy { $0 % tick == 0 }, "a pts off the frame grid", file: file, line: line)
        XCTAssertEqual(frames.map { $0 / tick }.sorted(), (0..<Int64(run.plan.totalFrames)).map { $0 }, file: file, line: line)
        for (previous, next) in zip(packets.list, packets.list.dropFirst()) {
            XCTAssertLessThan(previous.dts, next.dts, "dts must strictly increase", file: file, line: line)
        }
        XCTAssertTrue(packets.list.allSatisfy { $0.dts <= $0.pts }, "a frame decodes after it shows", file: file, line: line)
    }

    /// No complaint from FFmpeg's decoder, nor from GStreamer's qtdemux ! h265parse ! avdec_h265.
    func assertDecodesWithoutComplaint(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        XCTAssertEqual(ffmpeg.status, 0, file: file, line: line)
        XCTAssertEqual(ffmpeg.standardError, "", "FFmpeg decode errors", file: file, line: line)
        let gstreamer = try Tool.run("gst-launch-1.0", ["filesrc", "location=\(path)", "!", "qtdemux", "!", "h265parse", "!",
                                                        "avdec_h265", "!", "fakesink"], environment: ["GST_DEBUG": "2", "GST_DEBUG_NO_COLOR": "1"])
        XCTAssertEqual(gstreamer.status, 0, gstreamer.standardError, file: file, line: line)
        let benign = ["unknown QuickTime node type", "failed to find fragment defaults", "pad not activated yet"]
        let complaints = (gstreamer.standardError + gstreamer.standardOutput).split(separator: "\n")
            .filter { ($0.contains(" WARN ") || $0.contains(" ERROR ")) && !benign.contains(where: $0.contains) }
            // GStreamer's plugin scan (a registry rebuilt) warns of plugins outside the pipeline.
            .filter { $0.contains(" ERROR ") || ["qtdemux", "h265parse", "avdec", "libav", "videodecoder"].contains(where: $0.contains) }
        XCTAssertEqual(complaints, [], file: file, line: line)
    }

    /// Each decoded picture's pixel format, range, matrix, primaries, transfer and chroma location, as ffprobe reads them.
    static func pictureColours(_ path: String) throws -> [String] {
        let json = try FFprobe.run(["-select_streams", "v", "-show_entries",
                                    "frame=pix_fmt,color_range,color_space,color_primaries,color_transfer,chroma_location", path])
        return (json["frames"] as? [[String: Any]] ?? []).map { frame in
            ["pix_fmt", "color_range", "color_space", "color_primaries", "color_transfer", "chroma_location"]
                .map { frame[$0] as? String ?? "-" }.joined(separator: " ")
        }
    }

    /// At each keyframe (IRAP picture) of a file, its prefix SEI units that
    /// carry HDR facts: mastering display (137), content light level (144),
    /// alternative transfer characteristics (147).
    static func hdrSEI(atKeyframesOf path: String) throws -> [[[UInt8]]] {
        var keyframes: [[[UInt8]]] = []
        for packet in try videoPackets(path).list {
            var units: [[UInt8]] = []
            var keyframe = false
            for unit in lengthPrefixedUnits(packet.bytes) {
                let type = HEVC.unitType(unit)
                if HEVC.isRandomAccess(type) { keyframe = true }
                if type == HEVC.prefixSEI, HEVC.seiPayloadTypes(unit).contains(where: [137, 144, 147].contains) {
                    units.append(unit)
                }
            }
            if keyframe { keyframes.append(units) }
        }
        return keyframes
    }

    /// The NAL units of an MP4 sample (each after a 4-byte length).
    static func lengthPrefixedUnits(_ sample: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var offset = 0
        while offset + 4 <= sample.count {
            let length = sample[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length > 0, offset + length <= sample.count else { break }
            units.append(Array(sample[offset..<(offset + length)]))
            offset += length
        }
        return units
    }

    /// The NAL units of an Annex B stream (each after a 00 00 01 start code).
    static func annexBUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var index = 0
        while index + 3 <= stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { number, start in
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : stream.count
            while end > start, stream[end - 1] == 0 { end -= 1 } // the next start code's leading zero
            return Array(stream[start..<end])
        }
    }

    static func bigEndian32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// `file` (an MP4 whose moov follows its mdat, so no chunk offset moves)
    /// with a dvvC box after the hvcC: Dolby Vision 1.0, profile 8, level 1,
    /// an RPU and a base layer, compatible with HLG (4). Nil when it has no hvcC.
    static func addingDolbyVisionRecord(to file: [UInt8]) -> [UInt8]? {
        let record: [UInt8] = [1, 0, 8 << 1, 1 << 3 | 1 << 2 | 1, 4 << 4] + [UInt8](repeating: 0, count: 19)
        let box = bigEndian32(8 + record.count) + Array("dvvC".utf8) + record
        // Boxes that hold the path to the hvcC, and where their children start.
        let containers = ["moov": 8, "trak": 8, "mdia": 8, "minf": 8, "stbl": 8, "stsd": 16, "hvc1": 86]
        var ancestors: [Int] = []
        var sawMediaData = false
        func endOfRecord(from start: Int, to end: Int) -> Int? {
            var offset = start
            while offset + 8 <= end {
                let size = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
                guard size >= 8, offset + size <= end else { return nil }
                if type == "mdat" { sawMediaData = true }
                if type == "hvcC" { return offset + size }
                if let childrenAt = containers[type], type != "moov" || sawMediaData {
                    ancestors.append(offset)
                    if let found = endOfRecord(from: offset + childrenAt, to: offset + size) { return found }
                    ancestors.removeLast()
                }
                offset += size
            }
            return nil
        }
        guard let insertion = endOfRecord(from: 0, to: file.count) else { return nil }
        var out = file
        for ancestor in ancestors {
            let size = out[ancestor..<(ancestor + 4)].reduce(0) { $0 << 8 | Int($1) } + box.count
            out.replaceSubrange(ancestor..<(ancestor + 4), with: bigEndian32(size))
        }
        out.insert(contentsOf: box, at: insertion)
        return out
    }

    /// A NAL unit's payload with its emulation-prevention bytes (00 00 03) taken out.
    static func withoutEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// Luma PSNR of each picture of `a` against `b`'s (FFmpeg's psnr filter, at their own depth): the worst and the mean.
    static func psnr(_ a: String, _ b: String) throws -> (minimum: Double, average: Double) {
        let result = try Tool.run("ffmpeg", ["-v", "info", "-nostats", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"])
        let summary = try XCTUnwrap(result.standardError.split(separator: "\n").last { $0.contains("PSNR y:") })
        func value(_ key: String) -> Double {
            guard let range = summary.range(of: key + ":") else { return 0 }
            return Double(summary[range.upperBound...].prefix { !$0.isWhitespace }) ?? (summary[range.upperBound...].hasPrefix("inf") ? .infinity : 0)
        }
        return (value("min"), value("average"))
    }
}
