package import SegueMedia
import SegueModel
import SegueCore

/// The filters that bring a clip's pictures to the output's colour (SDR
/// BT.709 at 8 or 10 bits, or 10-bit HLG or PQ on BT.2020) as they are scaled.
///
/// swscale does the matrix, the range and the size; what the transfer or the
/// primaries change is one 3D LUT (`ColourLUT`, from `ColourMapping`) on
/// 16-bit RGB between two swscale steps, so HDR costs little more than SDR.
package enum ColourConversion {
    /// Scaling to width x height and conversion to the target's colour,
    /// ending in the target's pixel format.
    static func filters(from colour: ColourInfo, codedHeight: Int, width: Int, height: Int, to target: OutputColour) -> [String] {
        let matrix = colour.matrix(height: codedHeight)
        let scale = "scale=\(width):\(height):flags=bicubic"
        let primaries: ColourMapping.Primaries = colour.dynamicRange.isHDR || colour.primaries == "bt2020" ? .bt2020 : .bt709
        let mapping = ColourMapping(from: colour.dynamicRange, primaries: primaries, to: target.dynamicRange)
        let input = inputMatrix(matrix, fullRange: colour.isFullRange)
        let output = ":out_color_matrix=\(target.dynamicRange.isHDR ? "bt2020" : "bt709"):out_range=tv"
        let unchanged = mapping.source == mapping.target && mapping.sourcePrimaries == mapping.targetPrimaries
        if unchanged {
            // Already in the target's matrix, limited: only scaled (a picture
            // already at its size passes through untouched, no copy).
            let targetMatrix: ColourMatrix = target.dynamicRange.isHDR ? .bt2020 : .bt709
            if matrix == targetMatrix && !colour.isFullRange { return [scale, "format=\(target.pixelFormatName)"] }
            return [scale + input + output, "format=\(target.pixelFormatName)"]
        }
        guard let lut = ColourLUT.file(for: mapping) else {
            return zscaleFilters(colour, matrix: matrix, width: width, height: height, to: target)
        }
        return [scale + input, "format=gbrp16le", "lut3d=file=\(lut):interp=tetrahedral",
                "scale=" + output.dropFirst(), "format=\(target.pixelFormatName)"]
    }

    /// The Y'CbCr tables that convert a clip of `colour` in one pass, in
    /// place of the lut3d chain of `filters`: for HDR into 8-bit SDR (where
    /// that chain cost most, against the SDR stitch it is measured by); nil
    /// for every other conversion, which `filters` makes.
    static func table(from colour: ColourInfo, codedHeight: Int, to target: OutputColour) -> ColourTable? {
        let matrix = colour.matrix(height: codedHeight)
        guard colour.dynamicRange.isHDR, target == .sdr, matrix != .rgb else { return nil }
        let mapping = ColourMapping(from: colour.dynamicRange, primaries: .bt2020, to: .sdr)
        return ColourTables.table(for: .init(mapping: mapping, matrix: matrix, fullRange: colour.isFullRange))
    }

    /// The tables that tone-map an HDR canvas's pictures (10-bit BT.2020, limited range) to 8-bit SDR
    /// BT.709, as an HDR clip is for SDR output: an HLS ladder's SDR rungs beside its HDR ones. Nil for SDR.
    package static func sdrTable(from canvas: OutputColour) -> ColourTable? {
        guard canvas.dynamicRange.isHDR else { return nil }
        let mapping = ColourMapping(from: canvas.dynamicRange, primaries: .bt2020, to: .sdr)
        return ColourTables.table(for: .init(mapping: mapping, matrix: .bt2020, fullRange: false))
    }

    /// Filters taking an SDR BT.709 limited-range picture with alpha
    /// (yuva420p: captions, logos) to the target's colour, alpha kept.
    package static func overlayFilters(to target: OutputColour) -> [String] {
        if target == .sdr { return [] }
        if !target.dynamicRange.isHDR { return ["format=yuva420p10le"] }
        let mapping = ColourMapping(from: .sdr, primaries: .bt709, to: target.dynamicRange)
        guard let lut = ColourLUT.file(for: mapping) else {
            let transfer = target.dynamicRange == .pq ? "smpte2084" : "arib-std-b67"
            return ["zscale=min=709:pin=709:rin=tv:tin=709:t=\(transfer):p=2020:m=2020_ncl:r=tv:npl=203", "format=yuva420p10le"]
        }
        return ["scale=in_color_matrix=bt709:in_range=tv", "format=gbrap16le", "lut3d=file=\(lut):interp=tetrahedral",
                "scale=out_color_matrix=bt2020:out_range=tv", "format=yuva420p10le"]
    }

    /// swscale's options naming the source's matrix and range ("" for RGB sources).
    static func inputMatrix(_ matrix: ColourMatrix, fullRange: Bool) -> String {
        if matrix == .rgb { return "" }
        let name = matrix == .bt2020 ? "bt2020" : matrix == .bt601 ? "bt601" : "bt709"
        return ":in_color_matrix=\(name):in_range=\(fullRange ? "pc" : "tv")"
    }

    /// The same conversion by zscale, slower, for when no LUT file can be
    /// written: linear light, BT.2408's 203 cd/m² for SDR white, and
    /// tonemap's hable for HDR into SDR.
    private static func zscaleFilters(_ colour: ColourInfo, matrix: ColourMatrix, width: Int, height: Int,
                                      to target: OutputColour) -> [String] {
        func transfer(_ range: DynamicRange) -> String {
            range == .pq ? "smpte2084" : range == .hlg ? "arib-std-b67" : "709"
        }
        let zimgMatrix = matrix == .bt2020 ? "2020_ncl" : matrix == .bt601 ? "170m" : "709"
        let sourcePrimaries = colour.dynamicRange.isHDR || colour.primaries == "bt2020" ? "2020" : "709"
        let source = "zscale=w=\(width):h=\(height):filter=bicubic:min=\(zimgMatrix):pin=\(sourcePrimaries)"
            + ":rin=\(colour.isFullRange ? "pc" : "tv"):tin=\(transfer(colour.dynamicRange)):t=linear"
        let toneMap = colour.dynamicRange.isHDR && !target.dynamicRange.isHDR
        let primaries = target.dynamicRange.isHDR ? "2020" : "709"
        return [source + ":npl=\(toneMap ? 100 : 203)", "format=gbrpf32le", "zscale=p=\(primaries)"]
            + (toneMap ? ["tonemap=hable:desat=0"] : [])
            + ["zscale=t=\(transfer(target.dynamicRange)):m=\(target.dynamicRange.isHDR ? "2020_ncl" : "709"):r=tv:npl=203",
               "format=\(target.pixelFormatName)"]
    }
}
