import SegueMedia

/// The filters that bring a clip's pictures to the output's colour (SDR
/// BT.709, or 10-bit HLG or PQ on BT.2020) as they are scaled.
enum ColourConversion {
    /// The tone-mapping operator for PQ and HLG. Mobius keeps everything below
    /// its knee (`toneMappingKnee` of SDR white, in linear light) as it is, so
    /// mid-tones and saturation survive, and rolls highlights off smoothly
    /// above it. Measured on 75 % colour bars made HDR with zscale and mapped
    /// back: mean RGB error 4.6 (mobius, knee 0.5), 8.8 (mobius, knee 0.3),
    /// 16.9 (reinhard), 38.5 (hable, much darker), 65.9 without tone mapping.
    static let toneMapping = "mobius"
    static let toneMappingKnee = 0.5

    /// Scaling and colour conversion to yuv420p BT.709 limited range.
    /// SDR BT.601/709: swscale converts the matrix and range as it scales.
    /// BT.2020 primaries (SDR or HDR) need a gamut conversion in linear light:
    /// zscale (zimg). HDR goes linear, is tone-mapped, and comes back as BT.709.
    static func filters(from colour: ColourInfo, codedHeight: Int, width: Int, height: Int, to target: OutputColour) -> [String] {
        let chain = target.dynamicRange.isHDR
            ? toHDR(colour, codedHeight: codedHeight, width: width, height: height, target: target)
            : toSDR(colour, codedHeight: codedHeight, width: width, height: height)
        return chain + ["format=\(target.pixelFormatName)"]
    }

    /// To 10-bit HLG or PQ on BT.2020: a clip already so is only scaled; any
    /// other goes through linear light, SDR white placed at 203 cd/m² (BT.2408).
    private static func toHDR(_ colour: ColourInfo, codedHeight: Int, width: Int, height: Int, target: OutputColour) -> [String] {
        let range = colour.isFullRange ? "pc" : "tv"
        let matrix = colour.matrix(height: codedHeight)
        if colour.dynamicRange == target.dynamicRange && matrix == .bt2020 && !colour.isFullRange {
            return ["scale=\(width):\(height):flags=bicubic", "format=yuv420p10le"]
        }
        let zimgMatrix = matrix == .bt2020 ? "2020_ncl" : matrix == .bt601 ? "170m" : "709"
        let zimgPrimaries = colour.dynamicRange.isHDR ? "2020"
            : colour.primaries == "bt2020" ? "2020" : colour.primaries == "smpte170m" ? "170m" : "709"
        let transfer = colour.dynamicRange == .pq ? "smpte2084" : colour.dynamicRange == .hlg ? "arib-std-b67" : "709"
        let outTransfer = target.dynamicRange == .pq ? "smpte2084" : "arib-std-b67"
        return [
            "zscale=w=\(width):h=\(height):filter=bicubic:min=\(zimgMatrix):pin=\(zimgPrimaries):rin=\(range):tin=\(transfer):t=linear:p=2020:npl=203",
            "format=gbrpf32le",
            "zscale=t=\(outTransfer):m=2020_ncl:r=tv:npl=203",
        ]
    }

    private static func toSDR(_ colour: ColourInfo, codedHeight: Int, width: Int, height: Int) -> [String] {
        let matrix = colour.matrix(height: codedHeight)
        let range = colour.isFullRange ? "pc" : "tv"
        let dynamicRange = colour.dynamicRange
        if dynamicRange != .sdr || colour.primaries == "bt2020" {
            let zimgMatrix = matrix == .bt2020 ? "2020_ncl" : matrix == .bt601 ? "170m" : "709"
            let zimgPrimaries = colour.primaries == "bt709" ? "709" : colour.primaries == "smpte170m" ? "170m" : "2020"
            let source = "zscale=w=\(width):h=\(height):filter=bicubic:min=\(zimgMatrix):pin=\(zimgPrimaries):rin=\(range)"
            switch dynamicRange {
            case .sdr:
                return [source + ":tin=709:m=709:p=709:t=709:r=tv"]
            case .pq, .hlg:
                let transfer = dynamicRange == .pq ? "smpte2084" : "arib-std-b67"
                // npl=100: SDR white is 100 cd/m², linear 1.0.
                return [
                    source + ":tin=\(transfer):t=linear:npl=100", "format=gbrpf32le", "zscale=p=709",
                    "tonemap=\(toneMapping):param=\(toneMappingKnee):desat=0",
                    "zscale=t=709:m=709:r=tv",
                ]
            }
        }
        var scale = "scale=\(width):\(height):flags=bicubic"
        // Already BT.709 limited: nothing to convert, and a picture already at
        // its size passes through scale untouched (no copy).
        if matrix == .bt709 && !colour.isFullRange { return [scale] }
        if matrix != .rgb {
            let swscaleMatrix = matrix == .bt2020 ? "bt2020" : matrix == .bt601 ? "bt601" : "bt709"
            scale += ":in_color_matrix=\(swscaleMatrix):in_range=\(range)"
        }
        scale += ":out_color_matrix=bt709:out_range=tv"
        return [scale]
    }

    /// Filters bringing an SDR BT.709 limited-range picture with alpha
    /// (yuva420p: text, a logo) to `target`'s colour, alpha kept; none for 8-bit SDR.
    static func overlayFilters(to target: OutputColour) -> [String] {
        guard target != .sdr else { return [] }
        guard target.dynamicRange.isHDR else { return ["format=yuva420p10le"] }
        let transfer = target.dynamicRange == .pq ? "smpte2084" : "arib-std-b67"
        return ["zscale=min=709:pin=709:rin=tv:tin=709:t=linear:p=2020:npl=203", "format=gbrapf32le",
                "zscale=t=\(transfer):m=2020_ncl:r=tv:npl=203", "format=yuva420p10le"]
    }
}
