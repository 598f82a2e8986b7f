import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The colour conversions end to end on tiny clips (320x180, 1 s) through
/// the built `segue` and the ffmpeg CLI (the maths: SegueUnitTests).
final class ColourConversionStitchTests: XCTestCase {
    let store = FixtureStore.shared

    // MARK: Filters

    func testOverlaysKeepTheirAlphaInEveryTarget() throws {
        XCTAssertEqual(ColourConversion.overlayFilters(to: .sdr), [])
        XCTAssertEqual(ColourConversion.overlayFilters(to: OutputColour(.sdr, bitDepth: 10)), ["format=yuva420p10le"])
        // White at half opacity into HLG: luma at 75 %, alpha still half.
        let chain = ColourConversion.overlayFilters(to: OutputColour(.hlg, bitDepth: 10)).joined(separator: ",")
        let (data, log) = try FFmpeg.run(["-v", "error", "-f", "lavfi", "-i", "color=white:s=64x64:d=0.04,format=yuva420p,"
                                          + "colorchannelmixer=aa=0.5", "-vf", chain, "-frames:v", "1",
                                          "-f", "rawvideo", "-pix_fmt", "yuva420p10le", "pipe:1"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        XCTAssertEqual(samples.count, 64 * 64 * 2 + 2 * 32 * 32, log)
        XCTAssertEqual(Double(samples[0]), 721, accuracy: 8)
        XCTAssertEqual(Double(samples[64 * 64 + 2 * 32 * 32]), 511, accuracy: 4)
    }

    // MARK: End to end

    /// A 1 s 320x180 clip of one flat colour, given as limited-range codes.
    func flatClip(_ name: String, y: Int, bits: Int, transfer: String) throws -> String {
        let hdr = transfer != "bt709"
        let neutral = 128 << (bits - 8)
        let format = bits == 10 ? "yuv420p10le" : "yuv420p"
        return try FFmpeg.make(name, [
            "-f", "lavfi", "-i", "color=black:s=320x180:r=25:d=1,format=\(format),lutyuv=y=\(y):u=\(neutral):v=\(neutral)",
            "-c:v", "libx265", "-x265-params", "log-level=error:crf=4", "-preset", "ultrafast",
            "-colorspace", hdr ? "bt2020nc" : "bt709", "-color_primaries", hdr ? "bt2020" : "bt709", "-color_trc", transfer,
        ])
    }

    /// The mean luma of the output's first picture, in its own bits.
    func meanLuma(_ path: String, bits: Int) throws -> Double {
        let (data, log) = try FFmpeg.run(["-v", "error", "-i", path, "-frames:v", "1", "-vf", "extractplanes=y",
                                          "-f", "rawvideo", "-pix_fmt", bits == 10 ? "gray10le" : "gray", "pipe:1"])
        XCTAssertFalse(data.isEmpty, log)
        let values: [Double] = bits == 10 ? data.withUnsafeBytes { $0.bindMemory(to: UInt16.self).map(Double.init) } : data.map(Double.init)
        return values.reduce(0, +) / Double(max(values.count, 1))
    }

    func stitch(_ clip: String, _ name: String, hdr: String) throws -> String {
        let output = store.outputPath(name)
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--codec", "hevc", "--hdr", hdr,
                                        "--preset", "ultrafast", "--crf", "4", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return output
    }

    func testSDRWhiteIsHLGAndPQReferenceWhite() throws {
        let white = try flatClip("colour-sdr-white.mp4", y: 235, bits: 8, transfer: "bt709")
        XCTAssertEqual(try meanLuma(stitch(white, "colour-white-hlg", hdr: "hlg"), bits: 10), 721, accuracy: 8)
        XCTAssertEqual(try meanLuma(stitch(white, "colour-white-pq", hdr: "pq"), bits: 10), 64 + 876 * 0.58, accuracy: 8)
    }

    func testHLGMidGreyLandsAtItsBackwardCompatibleLevel() throws {
        // BT.2408's 18 % grey: HLG 38 %.
        let grey = try flatClip("colour-hlg-grey.mp4", y: 64 + Int(876 * 0.38), bits: 10, transfer: "arib-std-b67")
        XCTAssertEqual(try meanLuma(stitch(grey, "colour-grey-sdr", hdr: "off"), bits: 8), 16 + 219 * 0.38, accuracy: 3)
    }

    func testAnHLGRampKeepsItsHighlights() throws {
        // Left to right, HLG 50 % to 100 %.
        let ramp = try FFmpeg.make("colour-hlg-ramp.mp4", [
            "-f", "lavfi", "-i", "color=black:s=320x180:r=25:d=1,format=yuv420p10le,geq=lum='64+876*(0.5+0.5*X/(W-1))':cb=512:cr=512",
            "-c:v", "libx265", "-x265-params", "log-level=error:crf=4", "-preset", "ultrafast",
            "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67",
        ])
        let output = try stitch(ramp, "colour-ramp-sdr", hdr: "off")
        let (data, log) = try FFmpeg.run(["-v", "error", "-i", output, "-frames:v", "1", "-vf", "extractplanes=y",
                                          "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"])
        XCTAssertEqual(data.count, 320 * 180, log)
        let row = Array(data[(90 * 320)..<(91 * 320)])
        let brightestTenth = row.suffix(32)
        let clipped = brightestTenth.filter { $0 >= 234 }.count
        XCTAssertLessThan(Double(clipped) / 32, 0.2, "\(brightestTenth)")
        XCTAssertGreaterThan(Set(brightestTenth).count, 5, "the top of the ramp keeps its steps")
    }
}
