import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueBitstream

/// `--smart --codec hevc`: marker clips encoded as HEVC phones and cameras
/// write them (x265 Main, GOPs of 30 with B-frames, hvc1), stitched with and
/// without it. x265 can't be told parameter-set ids, so its re-encoded
/// stretches are renumbered to ids the copied clips don't use.
extension SmartTests {
    enum HEVCDevice: String {
        case phone = "hevc-phone"
        /// Other coding tools and GOP shape: a different SPS and PPS under the same ids 0.
        case camera = "hevc-camera"
        /// The camera with HRD: buffering-period SEI that names its SPS by id.
        case cameraWithHRD = "hevc-camera-hrd"
        /// Open GOPs: every keyframe after the first is a CRA whose leading pictures refer back.
        case openGOP = "hevc-open-gop"
        /// CRA keyframes with no leading pictures (no B-frames).
        case craOnly = "hevc-cra"
        /// VPS, SPS and PPS repeated before every keyframe, in an hev1 track (as some cameras and drones write).
        case inBand = "hevc-in-band"
        /// Two temporal sub-layers (TSA/STSA pictures, sub-layer fields in the VPS and SPS) in a MOV, as phones write.
        case subLayers = "hevc-sub-layers"

        var parameters: String {
            let common = "log-level=error:keyint=30:min-keyint=30:scenecut=0"
            switch self {
            case .phone: return common + ":bframes=3:open-gop=0"
            case .camera: return common + ":bframes=2:open-gop=0:ctu=32:no-sao=1:ref=2"
            case .cameraWithHRD: return Self.camera.parameters + ":hrd=1:vbv-bufsize=4000:vbv-maxrate=4000"
            case .openGOP: return common + ":bframes=3:open-gop=1"
            case .craOnly: return common + ":bframes=0:open-gop=1"
            case .inBand: return common + ":bframes=3:open-gop=0:repeat-headers=1"
            case .subLayers: return common + ":bframes=3:open-gop=0:temporal-layers=1"
            }
        }
    }

    /// Marker clip `clip` of `frames` frames as an HEVC `device` writes it, in an hvc1 track, tagged BT.709.
    func hevcClip(_ clip: Int, frames: Int, device: HEVCDevice = .phone) throws -> String {
        let source = try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
        return try store.path("\(device.rawValue)-\(clip)-\(frames).\(device == .subLayers ? "mov" : "mp4")") { path in
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx265", "-preset", "fast",
                                                 "-crf", "20", "-x265-params", device.parameters, "-tag:v", device == .inBand ? "hev1" : "hvc1",
                                                 "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                 "-colorspace", "bt709", "-c:a", "copy", "-f", device == .subLayers ? "mov" : "mp4", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    func hevc(_ settings: inout StitchSettings) { settings.codec = .hevc }

    /// HEVC output with fades of `seconds` at every join.
    func hevcFade(_ seconds: Double) -> (inout StitchSettings) -> Void {
        { settings in
            settings.codec = .hevc
            settings.transition = .fade
            settings.transitionDuration = seconds
        }
    }

    /// The MP4 sample entry of a file's video track (hvc1, hev1, avc1).
    static func videoSampleEntry(_ path: String) throws -> String? {
        try FFprobe.streams(path).first { $0["codec_type"] as? String == "video" }?["codec_tag_string"] as? String
    }

    func testHEVCCutCopiesEveryGOPByteForByte() throws {
        let paths = try [hevcClip(0, frames: 60), hevcClip(1, frames: 90), hevcClip(2, frames: 60)]
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevc)
        XCTAssertEqual(smart.report.framesCopied, 210)
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 210, "every packet is a source packet")
        XCTAssertEqual(try Self.videoSampleEntry(smart.path), "hvc1")
    }

    func testHEVCFadeRenumbersTheEncodersStretchesAndKeepsTheSourcesQuality() throws {
        let paths = try [hevcClip(0, frames: 90), hevcClip(1, frames: 90), hevcClip(2, frames: 90)]
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.5))
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 30, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 150)
        // The track lists the phone's sets (ids 0) and x265's under ids no clip uses.
        let record = try XCTUnwrap(HEVCRecord(try Self.videoExtradata(smart.path)))
        let ids = record.units.map { (HEVC.unitType($0), HEVC.parameterSetID($0)) }
        XCTAssertEqual(Set(ids.filter { $0.0 == HEVC.videoParameterSet }.map(\.1)), [0, 1])
        XCTAssertEqual(Set(ids.filter { $0.0 == HEVC.sequenceParameterSet }.map(\.1)), [0, 1])
        XCTAssertEqual(Set(ids.filter { $0.0 == HEVC.pictureParameterSet }.map(\.1)), [0, 15])
        // Own frames re-encoded only to close a GOP: at least 40 dB against the source's own decode.
        let sources = try paths.map { try DecodedOutput(path: $0) }
        var worst = Double.infinity
        for clip in smart.plan.clips {
            let own = clip.index == 0 ? 0..<75 : clip.index == 1 ? 15..<75 : 15..<90
            for position in own {
                worst = min(worst, Self.psnr(smart.output.pictures[clip.startFrame + position], sources[clip.index].pictures[position]))
            }
        }
        XCTAssertGreaterThanOrEqual(worst, 40, "closing GOPs below 40 dB")
    }

    func testHEVCTwoDevicesWithConflictingParameterSetsAreRenumberedAndCopied() throws {
        let paths = try [hevcClip(0, frames: 60), hevcClip(1, frames: 90, device: .camera), hevcClip(2, frames: 60)]
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.3))
        let clips = try XCTUnwrap(smart.report.smart)
        // Every clip copies its middle GOP; the camera's under new ids (VPS 1, SPS 1, PPS 15), the encoder's after them.
        XCTAssertEqual(clips.map(\.framesCopied), [30, 30, 30])
        XCTAssertTrue(clips[1].notCopied.contains {
            if case .setConflict(_, clip: 0, _, newIDs: "VPS 1, SPS 1, PPS 15") = $0 { true } else { false }
        }, "\(clips[1].notCopied)")
        let record = try XCTUnwrap(HEVCRecord(try Self.videoExtradata(smart.path)))
        let pictureSets = record.units.filter { HEVC.unitType($0) == HEVC.pictureParameterSet }.compactMap(HEVC.parameterSetID)
        XCTAssertEqual(Set(pictureSets), [0, 15, 16])
        // The phones' packets are their own bytes; the camera's differ only in their slice headers' PPS id.
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 60)
    }

    func testHEVCClipWhoseSEINamesItsSetsIsReencodedNotRenumbered() throws {
        // Buffering-period SEI (HRD) names the SPS by id: renumbering would leave it behind.
        let paths = try [hevcClip(0, frames: 60), hevcClip(1, frames: 90, device: .cameraWithHRD)]
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.3))
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips[1].framesCopied, 0)
        XCTAssertTrue(clips[1].reason?.hasSuffix("one set per id: re-encoded") ?? false, clips[1].reason ?? "no reason")
    }

    func testHEVCOpenGOPCopiesFromEachCRAAndReencodesItsLeadingPictures() throws {
        // x265's default: every keyframe after the first a CRA whose RASL pictures refer back across it.
        let paths = try [hevcClip(0, frames: 150, device: .openGOP), hevcClip(1, frames: 150, device: .openGOP),
                         hevcClip(2, frames: 150, device: .openGOP)]
        let source = try Self.videoPackets(paths[1]).list.map { Self.unitTypes($0.bytes) }
        XCTAssertGreaterThanOrEqual(source.filter { $0.contains(HEVC.cleanRandomAccess) }.count, 4, "the fixture's keyframes are CRAs")
        XCTAssertGreaterThanOrEqual(source.filter { !Set($0).isDisjoint(with: [8, 9]) }.count, 4, "with RASL pictures")
        let (cut, _) = try assertSameAsWithoutSmart(paths, hevc)
        XCTAssertEqual(cut.report.framesCopied, 450)
        XCTAssertEqual(try identicalPackets(cut.path, sources: paths), 450)

        let (fade, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.5))
        let copied = try XCTUnwrap(fade.report.smart).map(\.framesCopied)
        // Clip 1 copies from its first CRA, after the fade-in's GOP, to the GOP the fade-out touches.
        XCTAssertGreaterThanOrEqual(Double(copied.reduce(0, +)) / 420, 0.7, "\(copied)")
        XCTAssertGreaterThan(copied[1], 80, "\(copied)")
        try assertOpenGOPRunsStartAsBrokenLinks(fade, sources: paths, runsFromCRAs: 2)
        try assertOwnFramesNearTheirSource(fade, sources: paths, floor: 30)
    }

    func testHEVCOpenGOPTrimmedMidGOPCopiesTheGOPsWithinIt() throws {
        let paths = try [hevcClip(0, frames: 240, device: .openGOP), hevcClip(1, frames: 240, device: .openGOP)]
        // In and out points inside GOPs: clip 0 shows source frames 15..<156, clip 1 45..<222.
        let entries = [ClipEntry(path: paths[0], inPoint: 0.5, outPoint: 5.2), ClipEntry(path: paths[1], inPoint: 1.5, outPoint: 7.4)]
        let (smart, _) = try assertSameAsWithoutSmart(entries, hevcFade(0.3))
        let copied = try XCTUnwrap(smart.report.smart).map(\.framesCopied)
        // Every GOP whole inside what each shows alone is copied: from the CRA at 30 to the last
        // before the fade-out (clip 0); from the CRA at 60 (the one at 30 is cut) to the last before its out point.
        XCTAssertGreaterThanOrEqual(copied[0], 85, "\(copied)")
        XCTAssertGreaterThanOrEqual(copied[1], 140, "\(copied)")
        try assertOpenGOPRunsStartAsBrokenLinks(smart, sources: paths, runsFromCRAs: 2)
        try assertOwnFramesNearTheirSource(smart, sources: paths, floor: 30)
    }

    /// Every copied run that opens at a source CRA is written as a BLA with no
    /// leading pictures after it (its own are re-encoded before it); copied
    /// RASL pictures come only after a CRA the run went through; every other
    /// copied packet is the source's byte for byte.
    func assertOpenGOPRunsStartAsBrokenLinks(_ run: Run, sources: [String], runsFromCRAs: Int,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        let packets = try Self.videoPackets(run.path).list
        let types = packets.map { Self.unitTypes($0.bytes) }
        XCTAssertEqual(types.filter { $0.contains(HEVC.brokenLinkWithoutLeading) }.count, runsFromCRAs, file: file, line: line)
        var lastRandomAccess: Int?
        for (index, units) in types.enumerated() {
            if let point = units.first(where: HEVC.isRandomAccess) { lastRandomAccess = point }
            if !Set(units).isDisjoint(with: [8, 9]) {
                XCTAssertEqual(lastRandomAccess, HEVC.cleanRandomAccess, "packet \(index): a RASL picture after \(String(describing: lastRandomAccess))",
                               file: file, line: line)
            }
        }
        XCTAssertEqual(try identicalPackets(run.path, sources: sources), run.report.framesCopied - runsFromCRAs,
                       "copied packets are the source's (a CRA opening a run differs in its NAL unit type)", file: file, line: line)
    }

    /// Every picture a clip shows alone, copied or re-encoded, within `floor` dB of the source picture it shows.
    func assertOwnFramesNearTheirSource(_ run: Run, sources: [String], floor: Double,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        var decoded: [String: DecodedOutput] = [:]
        for path in Set(sources) { decoded[path] = try DecodedOutput(path: path) }
        for clip in run.plan.clips {
            let source = try XCTUnwrap(decoded[clip.info.path], file: file, line: line)
            let first = Int((clip.info.use.inPoint * 30).rounded())
            for position in run.plan.ownFrames(of: clip) {
                let psnr = Self.psnr(run.output.pictures[clip.startFrame + position], source.pictures[first + position])
                XCTAssertGreaterThanOrEqual(psnr, floor, "clip \(clip.index) frame \(position)", file: file, line: line)
            }
        }
    }

    func testHEVCCopyFromACRAStartsANewSequenceAsABrokenLink() throws {
        // Without B-frames a CRA has no leading pictures: copying can start there.
        let paths = try [hevcClip(0, frames: 90, device: .craOnly), hevcClip(1, frames: 90, device: .craOnly)]
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.5))
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        // Clip 1's copy starts at its CRA at frame 30, written as a BLA; every other packet is the source's own.
        let packets = try Self.videoPackets(smart.path).list
        XCTAssertEqual(packets.filter { Self.unitTypes($0.bytes).contains(HEVC.brokenLinkWithoutLeading) }.count, 1)
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 119)
    }

    func testHEVCParameterSetsInTheSamplesMakeAnHev1Track() throws {
        let paths = try [hevcClip(0, frames: 90, device: .inBand), hevcClip(1, frames: 90, device: .inBand)]
        let inBand = try Self.videoPackets(paths[0]).list.filter { Self.unitTypes($0.bytes).contains(HEVC.sequenceParameterSet) }
        XCTAssertEqual(inBand.count, 3, "the fixture repeats its SPS at each keyframe")
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.5))
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 120)
        XCTAssertEqual(try Self.videoSampleEntry(smart.path), "hev1")
        // Without sets in the samples the track stays hvc1 (Apple players need it).
        let plain = try stitch([hevcClip(0, frames: 90)], smart: true, hevc)
        XCTAssertEqual(try Self.videoSampleEntry(plain.path), "hvc1")
    }

    /// `--smart --codec hevc` renders in segments: x265's stretches renumbered in
    /// every segment alike, the copied GOPs copied, the hev1 sample entry kept,
    /// and every frame what the plain `--smart` stitch shows.
    func testHEVCSmartSegmentsJoinToThePlainSmartStitch() throws {
        try assertSmartSegmentsJoinToThePlainSmartStitch(device: .inBand, sampleEntry: "hev1")
    }

    /// Open GOPs: a boundary at or in copied leading pictures re-encodes the
    /// GOP after them; in segments and with --jobs every frame is still the plain --smart stitch's.
    func testHEVCOpenGOPSmartSegmentsAndJobsJoinToThePlainSmartStitch() throws {
        try assertSmartSegmentsJoinToThePlainSmartStitch(device: .openGOP, sampleEntry: "hvc1", jobs: true)
    }

    func assertSmartSegmentsJoinToThePlainSmartStitch(device: HEVCDevice, sampleEntry: String, jobs: Bool = false) throws {
        let paths = try [hevcClip(0, frames: 90, device: device), hevcClip(1, frames: 90, device: device)]
        let flags = ["--smart", "--codec", "hevc", "--transition", "fade", "--transition-duration", "0.5", "--preset", "ultrafast", "-y"]
        let work = store.folder.appendingPathComponent("work-hevc-smart-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath()
        let planned = try Tools.segue(["plan"] + paths + ["-o", output, "--work", work, "--segment-duration", "1.3"] + flags)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let segments = try SegmentPlan.load(work: work).segments.count
        XCTAssertGreaterThan(segments, 2)
        try Tools.renderInAnyOrderAndJoin(work, segments: segments)
        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + paths + ["-o", plainPath] + flags).status, 0)
        XCTAssertEqual(try Self.videoSampleEntry(output), sampleEntry)
        let plainCopies = try identicalPackets(plainPath, sources: paths)
        // A boundary at open GOPs' copied leading pictures re-encodes a GOP the plain --smart stitch copies.
        XCTAssertLessThanOrEqual(try identicalPackets(output, sources: paths), plainCopies)
        XCTAssertGreaterThan(try identicalPackets(output, sources: paths), device == .openGOP ? 0 : plainCopies - 1)
        var outputs = [output]
        if jobs {
            let local = store.outputPath()
            let stitched = try Tools.segue(["stitch"] + paths + ["-o", local, "--jobs", "2", "--segment-duration", "1.3"] + flags)
            XCTAssertEqual(stitched.status, 0, stitched.standardError)
            outputs.append(local)
        }
        let plain = try DecodedOutput(path: plainPath)
        for path in outputs {
            let split = try DecodedOutput(path: path)
            XCTAssertEqual(split.pictures.count, plain.pictures.count)
            for index in 0..<min(plain.pictures.count, split.pictures.count) {
                guard let shown = Marker.read(plain.pictures[index]) else {
                    XCTAssertGreaterThan(Self.psnr(split.pictures[index], plain.pictures[index]), 38, "frame \(index) of \(path)")
                    continue
                }
                let read = Marker.read(split.pictures[index])
                XCTAssertTrue(read?.clip == shown.clip && read?.frame == shown.frame,
                              "frame \(index) of \(path) shows \(String(describing: read)), not \(shown)")
            }
            try assertDecodesCleanly(path)
        }
    }

    func testHEVCTemporalSubLayersInAMOVAreCopied() throws {
        let paths = try [hevcClip(0, frames: 90, device: .subLayers), hevcClip(1, frames: 90, device: .subLayers)]
        let sets = try XCTUnwrap(HEVCRecord(try Self.videoExtradata(paths[0]))).units
        XCTAssertEqual(sets.compactMap(HEVC.parameterSetID), [0, 0, 0], "ids read past the sub-layers' profile fields")
        let (smart, _) = try assertSameAsWithoutSmart(paths, hevcFade(0.5))
        XCTAssertEqual(smart.report.smart?.map(\.framesCopied), [60, 60])
        XCTAssertEqual(try identicalPackets(smart.path, sources: paths), 120)
    }

    func testHEVCRenumberingRewritesIDsAndKeepsSlicesAligned() throws {
        let encoder = try Encoder.video(codec: .hevc, width: 320, height: 180, frameRate: Rational(30, 1), crf: 23,
                                        preset: "ultrafast", codecParams: "info=0", globalHeader: true)
        let own = try XCTUnwrap(HEVCRecord(encoder.extradata))
        let renumbering = HEVCRenumbering(videoSet: (0, 3), sequenceSet: (0, 5), pictureSet: (0, 17))
        let renumbered = try own.units.map { try XCTUnwrap(renumbering.apply($0)) }
        XCTAssertEqual(renumbered.map(HEVC.parameterSetID), [3, 5, 17])
        // Back again gives the encoder's own bytes.
        let back = HEVCRenumbering(videoSet: (3, 0), sequenceSet: (5, 0), pictureSet: (17, 0))
        XCTAssertEqual(try renumbered.map { try XCTUnwrap(back.apply($0)) }, own.units)
        XCTAssertEqual(HEVCRenumbering.pictureSetIDs(replacing: 0), [0] + Array(15...30))
        XCTAssertNil(renumbering.apply([0x40, 0x01, 0x5C]), "a VPS with another id is not the encoder's")
    }

    /// The NAL unit types of an MP4 HEVC sample (4-byte lengths).
    static func unitTypes(_ sample: [UInt8]) -> [Int] {
        var types: [Int] = [], offset = 0
        while offset + 4 < sample.count {
            let length = sample[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(HEVC.unitType(firstByte: sample[offset + 4]))
            offset += 4 + length
        }
        return types
    }
}
