/// A picture's dynamic range by its transfer: SDR, or BT.2100 HDR as PQ
/// (HDR10, smpte2084) or HLG (arib-std-b67).
package enum DynamicRange: String, Sendable, Codable {
    case sdr = "SDR", hlg = "HLG", pq = "PQ"

    package var isHDR: Bool { self != .sdr }
}

/// How the output's pictures are stored and tagged: SDR on BT.709
/// primaries and matrix, or HDR (HLG or PQ) on BT.2020 (BT.2100); 8 or 10
/// bits, 4:2:0, limited range.
package struct OutputColour: Sendable, Equatable, Codable, CustomStringConvertible {
    package var dynamicRange: DynamicRange
    package var bitDepth: Int

    package init(_ dynamicRange: DynamicRange, bitDepth: Int) {
        precondition(bitDepth == 8 || bitDepth == 10, "an output of 8 or 10 bits, not \(bitDepth)")
        precondition(dynamicRange == .sdr || bitDepth == 10, "HDR output is 10-bit")
        self.dynamicRange = dynamicRange
        self.bitDepth = bitDepth
    }

    /// 8-bit SDR BT.709: the output unless HDR or AV1 asks for more.
    package static let sdr = OutputColour(.sdr, bitDepth: 8)

    /// The same, as libavfilter's `format` filter names it.
    package var pixelFormatName: String { bitDepth > 8 ? "yuv420p10le" : "yuv420p" }
    /// Primaries, transfer and matrix as FFmpeg names them.
    package var primariesName: String { dynamicRange == .sdr ? "bt709" : "bt2020" }
    package var transferName: String {
        switch dynamicRange {
        case .sdr: return "bt709"
        case .hlg: return "arib-std-b67"
        case .pq: return "smpte2084"
        }
    }
    package var matrixName: String { dynamicRange == .sdr ? "bt709" : "bt2020nc" }

    /// Limited-range code of black and of nominal peak white for luma, and of
    /// neutral chroma, at this depth (16, 235, 128 scaled by 2^(depth-8)).
    package var blackCode: Int { 16 << (bitDepth - 8) }
    package var greyChromaCode: Int { 128 << (bitDepth - 8) }

    package var description: String {
        dynamicRange == .sdr ? "SDR BT.709, \(bitDepth)-bit" : "\(dynamicRange.rawValue) BT.2020, \(bitDepth)-bit"
    }
}
