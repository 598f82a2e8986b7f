import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The Y'CbCr tables that take HDR clips into 8-bit SDR in one pass, against
/// what the lut3d chain computes for the same codes (the mapping sampled on
/// its 33-point cube) and, for greys, against the exact mapping.
final class ColourTableTests: XCTestCase {
    /// 10-bit limited-range BT.2020 codes of an R'G'B' signal (0...1).
    private func bt2020Codes(_ c: RGB) -> (y: Int, cb: Int, cr: Int) {
        let luma = c.bt2020Luminance
        return (Int((64 + 876 * luma).rounded()), Int((512 + 896 * (c.b - luma) / 1.8814).rounded()),
                Int((512 + 896 * (c.r - luma) / 1.4746).rounded()))
    }

    /// A 16x16 block of each of `colours` side by side through the table of
    /// `range` into 8-bit SDR, against the lut3d chain's cube (or with
    /// `exact`, the mapping itself) for the block's codes: luma and chroma
    /// codes within `tolerance`.
    private func assertTableFollowsMapping(_ range: DynamicRange, _ colours: [RGB], tolerance: Double, exact: Bool = false,
                                           file: StaticString = #filePath, line: UInt = #line) throws {
        let source = ColourTables.Source(mapping: ColourMapping(from: range, primaries: .bt2020, to: .sdr), matrix: .bt2020,
                                         fullRange: false)
        let table = ColourTables.table(for: source)
        let cube = ColourCube(source.mapping)
        let picture = try Frame.video(width: 16 * colours.count, height: 16, pixelFormat: .yuv420p10)
        let codes = colours.map(bt2020Codes)
        for (index, code) in codes.enumerated() {
            picture.fill(plane: 0, x: 16 * index, y: 0, width: 16, height: 16, with: code.y)
            picture.fill(plane: 1, x: 8 * index, y: 0, width: 8, height: 8, with: code.cb)
            picture.fill(plane: 2, x: 8 * index, y: 0, width: 8, height: 8, with: code.cr)
        }
        let output = try Frame.video(width: picture.width, height: 16)
        Frame.convert(picture, through: table, into: output, threads: 2)
        let (luma, cb, cr) = (output.plane(0), output.plane(1), output.plane(2))
        for (index, code) in codes.enumerated() {
            let rgb = ColourTables.sourceRGB(y: Double(code.y), cb: Double(code.cb), cr: Double(code.cr), source)
            let expected = ColourTables.bt709Codes(exact ? source.mapping.map(rgb).map { min(max($0, 0), 1) } : cube.map(rgb))
            let what = "\(range) colour \(colours[index]) (codes \(code))"
            XCTAssertEqual(Double(luma[16 * index + 5, 7]), expected.y, accuracy: tolerance, "luma of \(what)", file: file, line: line)
            XCTAssertEqual(Double(cb[8 * index + 3, 3]), expected.cb, accuracy: tolerance, "Cb of \(what)", file: file, line: line)
            XCTAssertEqual(Double(cr[8 * index + 3, 3]), expected.cr, accuracy: tolerance, "Cr of \(what)", file: file, line: line)
        }
    }

    func testColourTableMapsHDRGreysAsTheMappingDoes() throws {
        let greys = stride(from: 0.0, through: 1.0, by: 0.0625).map { RGB($0, $0, $0) }
        try assertTableFollowsMapping(.hlg, greys, tolerance: 0.6, exact: true)
        try assertTableFollowsMapping(.pq, greys, tolerance: 0.6, exact: true)
    }

    func testColourTableMapsHDRColoursAsTheLUTChainDoes() throws {
        // Skin tones, a dark blue and half-saturated colours, as an HDR
        // camera records them (SDR colours in BT.2020 at reference white).
        let skin = [RGB(0.62, 0.48, 0.40), RGB(0.45, 0.33, 0.27), RGB(0.80, 0.62, 0.52), RGB(0.10, 0.12, 0.30)]
        let halfSaturated = [RGB(0.6, 0.6, 0.3), RGB(0.3, 0.6, 0.6), RGB(0.6, 0.3, 0.3), RGB(0.3, 0.3, 0.6)]
        for range in [DynamicRange.hlg, .pq] {
            func recorded(_ colours: [RGB]) -> [RGB] { colours.map { ColourMapping(from: .sdr, primaries: .bt709, to: range).map($0) } }
            try assertTableFollowsMapping(range, recorded(skin), tolerance: 1.5)
            try assertTableFollowsMapping(range, recorded(halfSaturated), tolerance: 5)
        }
    }

    func testColourTableKeepsSaturatedBarsNearTheLUTChain() throws {
        // 75 % and 100 % BT.709 bars: the chroma grid's bilinear steps and
        // the cube's tetrahedral ones part most here (up to about 15 codes
        // of chroma for PQ cyan; each is that far from the exact mapping
        // too: docs/hdr.md, Cost).
        let bars = [RGB(0.75, 0.75, 0), RGB(0, 0.75, 0.75), RGB(0, 0.75, 0), RGB(0.75, 0, 0.75), RGB(0.75, 0, 0),
                    RGB(0, 0, 0.75), RGB(1, 1, 0), RGB(1, 0, 0)]
        for range in [DynamicRange.hlg, .pq] {
            let recorded = bars.map { ColourMapping(from: .sdr, primaries: .bt709, to: range).map($0) }
            try assertTableFollowsMapping(range, recorded, tolerance: 16)
        }
    }

    func testOnlyHDRIntoEightBitSDRTakesTheTable() {
        let hlg = ColourInfo(matrix: "bt2020nc", primaries: "bt2020", transfer: "arib-std-b67", fullRange: false, bitDepth: 10)
        let sdr = ColourInfo(matrix: "bt709", primaries: "bt709", transfer: "bt709", fullRange: false)
        XCTAssertNotNil(ColourConversion.table(from: hlg, codedHeight: 1080, to: .sdr))
        XCTAssertNil(ColourConversion.table(from: hlg, codedHeight: 1080, to: OutputColour(.sdr, bitDepth: 10)))
        XCTAssertNil(ColourConversion.table(from: hlg, codedHeight: 1080, to: OutputColour(.pq, bitDepth: 10)))
        XCTAssertNil(ColourConversion.table(from: sdr, codedHeight: 1080, to: .sdr))
    }
}
