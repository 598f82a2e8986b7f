import Foundation
internal import SegueMedia
import Synchronization
import SegueModel

/// A `ColourMapping` from 10-bit (or 8-bit) 4:2:0 Y'CbCr straight to 8-bit
/// BT.709 limited-range Y'CbCr, as the tables `Frame.convert(_:through:into:)`
/// looks up: the HDR-into-SDR conversion without the RGB pictures that the
/// lut3d chain makes (see docs/hdr.md, Cost).
///
/// Each entry is what the lut3d chain gives for that Y'CbCr: the source's
/// matrix and range to R'G'B' (clipped, as swscale does), the same 33-point
/// cube (`ColourLUT.size`) with tetrahedral interpolation, then BT.709
/// limited range. Computed once per process and conversion (about a million
/// entries, tens of milliseconds).
enum ColourTables {
    struct Source: Hashable {
        var mapping: ColourMapping
        var matrix: ColourMatrix
        var fullRange: Bool
    }

    private static let made = Mutex<[Source: ColourTable]>([:])

    /// The table for `source`, made on first use in this process.
    static func table(for source: Source) -> ColourTable {
        if let table = made.withLock({ $0[source] }) { return table }
        let table = make(source)
        made.withLock { $0[source] = table }
        return table
    }

    /// The tables' entries: for each chroma grid point, every luma code (and
    /// every fourth, for chroma), the output code times 256.
    static func make(_ source: Source) -> ColourTable {
        precondition(source.matrix != .rgb, "the tables read Y'CbCr")
        let cube = ColourCube(source.mapping)
        let gridPoints = ColourTable.gridPoints
        let codes = ColourTable.lumaCodes, steps = ColourTable.chromaLumaSteps
        let cellCodes = Double(codes / (gridPoints - 1))
        var luma = [UInt16](repeating: 0, count: gridPoints * gridPoints * codes)
        var chroma = [UInt16](repeating: 0, count: gridPoints * gridPoints * steps * 2)
        func stored(_ code: Double) -> UInt16 { UInt16((min(max(code, 0), 255) * 256).rounded()) }
        for crPoint in 0..<gridPoints {
            for cbPoint in 0..<gridPoints {
                let cell = crPoint * gridPoints + cbPoint
                let cb = Double(cbPoint) * cellCodes, cr = Double(crPoint) * cellCodes
                for code in 0..<codes {
                    let rgb = sourceRGB(y: Double(code), cb: cb, cr: cr, source)
                    let out = bt709Codes(cube.map(rgb))
                    luma[cell * codes + code] = stored(out.y)
                    if code & 3 == 0 {
                        // The chroma of the block's mean luma (its step's first code).
                        chroma[(cell * steps + code / 4) * 2] = stored(out.cb)
                        chroma[(cell * steps + code / 4) * 2 + 1] = stored(out.cr)
                    }
                }
            }
        }
        return ColourTable(luma: luma, chroma: chroma)
    }

    /// 10-bit Y'CbCr codes of the source to R'G'B' in 0...1 (clipped).
    static func sourceRGB(y: Double, cb: Double, cr: Double, _ source: Source) -> RGB {
        let (kr, kb) = source.matrix == .bt2020 ? (0.2627, 0.0593) : source.matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let luma = source.fullRange ? y / 1023 : (y - 64) / 876
        let blueDifference = source.fullRange ? (cb - 512) / 1023 : (cb - 512) / 896
        let redDifference = source.fullRange ? (cr - 512) / 1023 : (cr - 512) / 896
        let red = luma + 2 * (1 - kr) * redDifference, blue = luma + 2 * (1 - kb) * blueDifference
        let green = (luma - kr * red - kb * blue) / (1 - kr - kb)
        return RGB(red, green, blue).map { min(max($0, 0), 1) }
    }

    /// R'G'B' (0...1) to 8-bit BT.709 limited-range Y'CbCr codes, unrounded.
    static func bt709Codes(_ c: RGB) -> (y: Double, cb: Double, cr: Double) {
        let luma = c.bt709Luminance
        return (16 + 219 * luma, 128 + 224 * (c.b - luma) / 1.8556, 128 + 224 * (c.r - luma) / 1.5748)
    }
}

/// A mapping sampled on `ColourLUT.size` points a side, interpolated
/// tetrahedrally: what lut3d does with the .cube file.
struct ColourCube {
    private let size: Int
    private var points: [RGB] = []

    init(_ mapping: ColourMapping, size: Int = ColourLUT.size) {
        self.size = size
        points.reserveCapacity(size * size * size)
        let step = 1 / Double(size - 1)
        for blue in 0..<size {
            for green in 0..<size {
                for red in 0..<size {
                    let out = mapping.map(RGB(Double(red) * step, Double(green) * step, Double(blue) * step))
                    points.append(out.map { min(max($0, 0), 1) })
                }
            }
        }
    }

    /// The interpolated output for `c` (components in 0...1).
    func map(_ c: RGB) -> RGB {
        let scale = Double(size - 1)
        let (r, g, b) = (c.r * scale, c.g * scale, c.b * scale)
        let (r0, g0, b0) = (min(Int(r), size - 2), min(Int(g), size - 2), min(Int(b), size - 2))
        let (fr, fg, fb) = (r - Double(r0), g - Double(g0), b - Double(b0))
        func at(_ dr: Int, _ dg: Int, _ db: Int) -> RGB { points[((b0 + db) * size + g0 + dg) * size + r0 + dr] }
        let c000 = at(0, 0, 0), c111 = at(1, 1, 1)
        // The tetrahedron of the cell holding the point, by the order of its fractions.
        if fr > fg {
            if fg > fb { return mix(c000, at(1, 0, 0), at(1, 1, 0), c111, 1 - fr, fr - fg, fg - fb, fb) }
            if fr > fb { return mix(c000, at(1, 0, 0), at(1, 0, 1), c111, 1 - fr, fr - fb, fb - fg, fg) }
            return mix(c000, at(0, 0, 1), at(1, 0, 1), c111, 1 - fb, fb - fr, fr - fg, fg)
        }
        if fb > fg { return mix(c000, at(0, 0, 1), at(0, 1, 1), c111, 1 - fb, fb - fg, fg - fr, fr) }
        if fb > fr { return mix(c000, at(0, 1, 0), at(0, 1, 1), c111, 1 - fg, fg - fb, fb - fr, fr) }
        return mix(c000, at(0, 1, 0), at(1, 1, 0), c111, 1 - fg, fg - fr, fr - fb, fb)
    }

    private func mix(_ a: RGB, _ b: RGB, _ c: RGB, _ d: RGB, _ wa: Double, _ wb: Double, _ wc: Double, _ wd: Double) -> RGB {
        RGB(wa * a.r + wb * b.r + wc * c.r + wd * d.r, wa * a.g + wb * b.g + wc * c.g + wd * d.g,
            wa * a.b + wb * b.b + wc * c.b + wd * d.b)
    }
}
