import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The colour maths against the standards' values, and the filters chosen
/// for each conversion (end to end: SegueKitTests' ColourConversionStitchTests).
final class ColourConversionTests: XCTestCase {
    // MARK: Curves

    func testPQCurveGivesST2084Values() {
        XCTAssertEqual(TransferFunctions.pqToLight(1), 10_000, accuracy: 0.01)
        XCTAssertEqual(TransferFunctions.pqToLight(0), 0, accuracy: 1e-9)
        XCTAssertEqual(TransferFunctions.lightToPQ(100), 0.5081, accuracy: 0.0005)
        XCTAssertEqual(TransferFunctions.lightToPQ(203), 0.5807, accuracy: 0.0005)
        XCTAssertEqual(TransferFunctions.lightToPQ(1000), 0.7518, accuracy: 0.0005)
        // 10-bit full-range code 520 is about 100 cd/m².
        XCTAssertEqual(TransferFunctions.pqToLight(520.0 / 1023), 100, accuracy: 1.5)
        for light in [0.01, 1, 48, 203, 1000, 4000] {
            XCTAssertEqual(TransferFunctions.pqToLight(TransferFunctions.lightToPQ(light)), light, accuracy: light * 1e-9)
        }
    }

    func testHLGCurveGivesBT2100Values() {
        XCTAssertEqual(TransferFunctions.hlgOETF(1.0 / 12), 0.5, accuracy: 1e-9)
        XCTAssertEqual(TransferFunctions.hlgOETF(1), 1, accuracy: 1e-6)
        XCTAssertEqual(TransferFunctions.hlgInverseOETF(0.5), 1.0 / 12, accuracy: 1e-9)
        XCTAssertEqual(TransferFunctions.hlgInverseOETF(0.75), 0.2647, accuracy: 0.0005)
        // BT.2408: 203 cd/m² on the 1000 cd/m² display is HLG 75 %.
        let white = TransferFunctions.hlgInverseOOTF(RGB(203, 203, 203))
        XCTAssertEqual(TransferFunctions.hlgOETF(white.g), 0.75, accuracy: 0.001)
        XCTAssertEqual(TransferFunctions.hlgOOTF(RGB(1, 1, 1)).r, 1000, accuracy: 1e-9)
    }

    func testSDRWhiteMapsToBT2408ReferenceWhite() {
        let hlg = ColourMapping(from: .sdr, primaries: .bt709, to: .hlg).map(RGB(1, 1, 1))
        let pq = ColourMapping(from: .sdr, primaries: .bt709, to: .pq).map(RGB(1, 1, 1))
        XCTAssertEqual(hlg.g, 0.75, accuracy: 0.001)
        XCTAssertEqual(pq.g, 0.58, accuracy: 0.002)
        // BT.709 primaries stay themselves: pure red keeps its BT.2087 ratios in BT.2020.
        let red = ColourMapping(from: .sdr, primaries: .bt709, to: .pq).map(RGB(1, 0, 0))
        XCTAssertEqual(TransferFunctions.pqToLight(red.g) / TransferFunctions.pqToLight(red.r), 0.0691 / 0.6274, accuracy: 0.001)
    }

    func testHLGToPQToHLGComesBack() {
        let toPQ = ColourMapping(from: .hlg, primaries: .bt2020, to: .pq)
        let toHLG = ColourMapping(from: .pq, primaries: .bt2020, to: .hlg)
        for r in stride(from: 0.0, through: 1, by: 0.125) {
            for g in stride(from: 0.0, through: 1, by: 0.25) {
                let signal = RGB(r, g, 0.4)
                let back = toHLG.map(toPQ.map(signal))
                XCTAssertEqual(back.r, signal.r, accuracy: 0.002, "\(signal)")
                XCTAssertEqual(back.g, signal.g, accuracy: 0.002, "\(signal)")
                XCTAssertEqual(back.b, signal.b, accuracy: 0.002, "\(signal)")
            }
        }
    }

    func testToneMappingRollsHighlightsOffWithoutClipping() {
        let mapping = ColourMapping(from: .hlg, primaries: .bt2020, to: .sdr)
        let levels = stride(from: 0.80, through: 0.99, by: 0.01).map { mapping.map(RGB($0, $0, $0)).g }
        XCTAssertEqual(levels, levels.sorted(), "monotonic")
        XCTAssertLessThan(levels.last!, 0.995, "HLG 99 % still below white")
        // Every step of 1 % in the source stays a visible step (over half an 8-bit level).
        for (a, b) in zip(levels, levels.dropFirst()) { XCTAssertGreaterThan(b - a, 0.5 / 219) }
        // Below HLG 50 % the SDR picture is the HLG signal itself (its backward-compatible picture).
        for grey in [0.1, 0.25, 0.38, 0.5] { XCTAssertEqual(mapping.map(RGB(grey, grey, grey)).g, grey, accuracy: 0.002) }
    }

    func testTheLUTIsTheSameBytesEveryTime() throws {
        let mapping = ColourMapping(from: .pq, primaries: .bt2020, to: .sdr)
        XCTAssertEqual(ColourLUT.cube(mapping, size: 9), ColourLUT.cube(mapping, size: 9))
        let path = try XCTUnwrap(ColourLUT.file(for: mapping))
        XCTAssertEqual(ColourLUT.file(for: mapping), path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), ColourLUT.cube(mapping))
    }

    // MARK: Filters

    func testEightBitSDRKeepsTheSwscaleChain() {
        let tagged = ColourInfo(matrix: "bt709", primaries: "bt709", transfer: "bt709", fullRange: false)
        XCTAssertEqual(ColourConversion.filters(from: tagged, codedHeight: 1080, width: 640, height: 360, to: .sdr),
                       ["scale=640:360:flags=bicubic", "format=yuv420p"])
        let jpeg = ColourInfo(matrix: "smpte170m", fullRange: true)
        XCTAssertEqual(ColourConversion.filters(from: jpeg, codedHeight: 480, width: 640, height: 360, to: .sdr),
                       ["scale=640:360:flags=bicubic:in_color_matrix=bt601:in_range=pc:out_color_matrix=bt709:out_range=tv",
                        "format=yuv420p"])
    }

    func testAnHDRClipInTheTargetsTransferIsOnlyScaled() {
        let hlg = ColourInfo(matrix: "bt2020nc", primaries: "bt2020", transfer: "arib-std-b67", fullRange: false, bitDepth: 10)
        let filters = ColourConversion.filters(from: hlg, codedHeight: 1080, width: 640, height: 360, to: OutputColour(.hlg, bitDepth: 10))
        XCTAssertEqual(filters, ["scale=640:360:flags=bicubic", "format=yuv420p10le"])
    }
}
