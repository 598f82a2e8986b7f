import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// How the output's colour is chosen from `--hdr`, the codec and the clips,
/// and the HDR facts that go with it (metadata, text colours, 10-bit pictures).
final class OutputColourTests: XCTestCase {
    func clip(_ name: String, transfer: String? = nil, primaries: String? = "bt709", pixelFormat: String = "yuv420p",
              bitDepth: Int = 8, metadata: HDRMetadata? = nil) -> ClipInfo {
        var info = ClipInfo(path: name, container: "mp4", videoCodec: "hevc", codedWidth: 320, codedHeight: 180,
                            sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: pixelFormat, duration: 1,
                            audio: nil)
        info.facts.colour = ColourInfo(matrix: transfer == nil ? "bt709" : "bt2020nc", primaries: primaries, transfer: transfer,
                                 fullRange: false, bitDepth: bitDepth)
        info.facts.hdrMetadata = metadata
        return info
    }

    func hlg(_ name: String = "hlg.mov", metadata: HDRMetadata? = nil) -> ClipInfo {
        clip(name, transfer: "arib-std-b67", primaries: "bt2020", pixelFormat: "yuv420p10le", bitDepth: 10, metadata: metadata)
    }

    func pq(_ name: String = "pq.mp4", primaries: String = "bt2020", metadata: HDRMetadata? = nil) -> ClipInfo {
        clip(name, transfer: "smpte2084", primaries: primaries, pixelFormat: "yuv420p10le", bitDepth: 10, metadata: metadata)
    }

    func plan(_ clips: [ClipInfo], codec: VideoCodecChoice = .h264, hdr: HDRChoice = .auto) throws -> Plan {
        var settings = StitchSettings()
        settings.codec = codec
        settings.hdr = hdr
        return try Plan(clips: clips, settings: settings)
    }

    func testAutoKeepsTheFirstHDRClipsTransferWhenTheCodecCarriesIt() throws {
        XCTAssertEqual(try plan([clip("a.mp4"), hlg(), pq()], codec: .hevc).canvas.colour, OutputColour(.hlg, bitDepth: 10))
        XCTAssertEqual(try plan([pq(), hlg()], codec: .av1).canvas.colour, OutputColour(.pq, bitDepth: 10))
    }

    func testAutoWithH264OrOnlySDRClipsIsTodaysOutput() throws {
        let h264 = try plan([hlg()])
        XCTAssertEqual(h264.canvas.colour, .sdr)
        XCTAssertTrue(h264.colourReason.contains("h264"), h264.colourReason)
        XCTAssertEqual(try plan([clip("a.mp4")], codec: .hevc).canvas.colour, .sdr)
        XCTAssertEqual(try plan([clip("a.mp4")], codec: .av1).canvas.colour, OutputColour(.sdr, bitDepth: 10), "AV1 is 10-bit in SDR too")
    }

    func testHDRForcedOnH264IsAUsageErrorNamingTheConflict() {
        XCTAssertThrowsError(try plan([hlg()], hdr: .pq)) { error in
            guard let error = error as? SegueError, case .usage = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("--hdr pq") && "\(error)".contains("h264"), "\(error)")
        }
    }

    func testOffToneMapsAndForcedRangesIgnoreTheClips() throws {
        XCTAssertEqual(try plan([hlg()], codec: .hevc, hdr: .off).canvas.colour, .sdr)
        XCTAssertEqual(try plan([clip("a.mp4")], codec: .hevc, hdr: .pq).canvas.colour, OutputColour(.pq, bitDepth: 10))
    }

    func testPQOutputStatesTheClipsMetadataElseTheDefaults() throws {
        let stated = HDRMetadata(red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], whitePoint: [0.3127, 0.329],
                                 minLuminance: 0.005, maxLuminance: 4000, maxCLL: 2000, maxFALL: 300)
        XCTAssertEqual(try plan([pq(metadata: stated)], codec: .hevc).canvas.hdrMetadata, stated)
        let defaults = try plan([hlg()], codec: .hevc, hdr: .pq)
        XCTAssertEqual(defaults.canvas.hdrMetadata, .typical)
        XCTAssertTrue(defaults.colourReason.contains("defaults"), defaults.colourReason)
        XCTAssertNil(try plan([hlg()], codec: .hevc).canvas.hdrMetadata, "HLG passes on only what a clip states")
    }

    func testImpossibleMetadataIsIgnoredWithAWarning() throws {
        var dark = HDRMetadata.typical
        dark.maxLuminance = 0
        let result = try plan([pq("zero.mp4", metadata: dark)], codec: .hevc)
        XCTAssertEqual(result.canvas.hdrMetadata, .typical)
        XCTAssertTrue(result.notices.contains(.hdrMetadataIgnored(path: "zero.mp4", reason: "a peak luminance of 0.0 cd/m²")),
                      "\(result.warnings)")
        var bright = HDRMetadata.typical
        bright.maxCLL = 20_000
        XCTAssertNotNil(bright.implausibility)
        XCTAssertNil(HDRMetadata.typical.implausibility)
    }

    func testMetadataNoRealDisplayHasIsImplausible() throws {
        var dim = HDRMetadata.typical
        dim.maxLuminance = 0.1
        XCTAssertEqual(dim.implausibility, "a peak luminance of 0.1 cd/m², under any display's 100")
        var misordered = HDRMetadata.typical
        (misordered.red, misordered.green, misordered.blue) = (HDRMetadata.typical.blue, HDRMetadata.typical.red, HDRMetadata.typical.green)
        XCTAssertTrue(misordered.implausibility?.hasPrefix("primaries that are not red, green and blue") == true,
                      "\(misordered.implausibility ?? "plausible")")
        var outside = HDRMetadata.typical
        outside.whitePoint = [0.1, 0.5]
        XCTAssertNotNil(outside.implausibility, "a white point outside the primaries")
        var averageAboveMaximum = HDRMetadata.typical
        averageAboveMaximum.maxFALL = 1200
        XCTAssertEqual(averageAboveMaximum.implausibility, "a MaxFALL of 1200 cd/m², above its MaxCLL of 1000")
        let result = try plan([pq("dim.mp4", metadata: dim)], codec: .hevc)
        XCTAssertEqual(result.canvas.hdrMetadata, .typical)
        XCTAssertTrue(result.notices.contains { if case .hdrMetadataIgnored(path: "dim.mp4", _) = $0 { return true }; return false },
                      "\(result.warnings)")
        XCTAssertTrue(result.colourReason.contains("defaults"), result.colourReason)
    }

    func testRealDisplaysMetadataIsPlausible() {
        let p3 = HDRMetadata(red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], whitePoint: [0.3127, 0.329],
                             minLuminance: 0.005, maxLuminance: 4000, maxCLL: 2000, maxFALL: 300)
        let bt709 = HDRMetadata(red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], whitePoint: [0.3127, 0.329],
                                minLuminance: 0.05, maxLuminance: 100)
        var unknownLevels = HDRMetadata.typical
        (unknownLevels.maxCLL, unknownLevels.maxFALL) = (0, 0)
        for metadata in [HDRMetadata.typical, p3, bt709, unknownLevels] { XCTAssertNil(metadata.implausibility, "\(metadata)") }
    }

    func testContradictingTagsAndDeepOrWideChromaPicturesAreNoted() throws {
        let result = try plan([pq("odd.mp4", primaries: "bt709"), clip("deep.mov", transfer: "arib-std-b67", primaries: "bt2020",
                                                                           pixelFormat: "yuv422p12le", bitDepth: 12)], codec: .hevc)
        XCTAssertTrue(result.notices.contains(.hdrTagsContradict(path: "odd.mp4", transfer: .pq, primaries: "bt709")), "\(result.warnings)")
        XCTAssertTrue(result.notices.contains(.hdrPictureReduced(path: "deep.mov", pixelFormat: "yuv422p12le")), "\(result.warnings)")
    }

    func testEncoderParametersCarryTheMetadataInEachCodecsUnits() {
        XCTAssertEqual(HDRMetadata.typical.x265Parameters,
                       "master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(10000000,1):max-cll=1000,400")
        XCTAssertEqual(HDRMetadata.typical.svtParameters,
                       "mastering-display=G(0.1700,0.7970)B(0.1310,0.0460)R(0.7080,0.2920)WP(0.3127,0.3290)L(1000.0000,0.0001)"
                           + ":content-light=1000,400")
    }

    func testBurnedTextColoursSitAtReferenceWhiteInHDR() {
        let script = "Style: S,Sans,20,&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000\nDialogue: {\\c&HFFFFFF&\\alpha&H80&}x"
        let hlg = TextColour.scriptColours(script, into: OutputColour(.hlg, bitDepth: 10))
        XCTAssertEqual(hlg, "Style: S,Sans,20,&H00BFBFBF,&H00BFBFBF,&H00000000,&H80000000\nDialogue: {\\c&HBFBFBF&\\alpha&H80&}x")
        XCTAssertEqual(TextColour.scriptColours(script, into: OutputColour(.sdr, bitDepth: 10)), script)
        XCTAssertTrue(TextColour.scriptColours(script, into: OutputColour(.pq, bitDepth: 10)).contains("&H00949494"),
                      "BT.2408: SDR white is PQ 58 %")
    }

    func testFadesAndSlidesWorkOnTenBitSamples() throws {
        let a = try Frame.video(width: 4, height: 2, pixelFormat: .yuv420p10)
        let b = try Frame.video(width: 4, height: 2, pixelFormat: .yuv420p10)
        let out = try Frame.video(width: 4, height: 2, pixelFormat: .yuv420p10)
        XCTAssertEqual(a.sampleBytes, 2)
        func fill(_ frame: Frame, _ value: UInt16) {
            for plane in 0..<3 {
                let (width, height) = frame.planeSize(plane)
                let row = frame.dataPointer(plane)!
                for y in 0..<height {
                    let samples = UnsafeMutableRawPointer(row + y * frame.lineSize(plane)).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width { samples[x] = value + UInt16(x) }
                }
            }
        }
        func luma(_ frame: Frame) -> [UInt16] {
            let row = UnsafeRawPointer(frame.dataPointer(0)!).assumingMemoryBound(to: UInt16.self)
            return (0..<4).map { row[$0] }
        }
        fill(a, 64)
        fill(b, 940)
        Frame.blend(a, b, weight: 128, into: out)
        XCTAssertEqual(luma(out), [502, 503, 504, 505], "halfway between 10-bit black and white, every sample")
        Frame.slide(a, b, fraction: 0.5, direction: .left, into: out)
        XCTAssertEqual(luma(out), [66, 67, 940, 941], "a's right half moved left, b's left half after it")
    }
}
