/// How a stream's or a picture's samples are to be read as colour, by role:
/// the matrix, primaries and transfer as FFmpeg names them (nil when the file
/// doesn't say), the range (nil when unsaid), and the bits per sample.
package struct ColourInfo: Sendable, Equatable, Codable {
    /// YUV matrix, e.g. "bt709", "smpte170m", "bt470bg", "bt2020nc".
    package var matrix: String?
    /// Primaries, e.g. "bt709", "smpte170m", "bt2020".
    package var primaries: String?
    /// Transfer, e.g. "bt709", "smpte2084" (PQ), "arib-std-b67" (HLG).
    package var transfer: String?
    /// True for full range (0-255), false for limited (16-235); nil when unsaid.
    package var fullRange: Bool?
    /// Bits per sample of the stored pictures (8, 10, 12).
    package var bitDepth: Int
    /// Whether the pixel format itself says full range (the yuvj formats).
    package var fullRangeFormat: Bool

    package init(matrix: String? = nil, primaries: String? = nil, transfer: String? = nil, fullRange: Bool? = nil,
                bitDepth: Int = 8, fullRangeFormat: Bool = false) {
        self.matrix = matrix
        self.primaries = primaries
        self.transfer = transfer
        self.fullRange = fullRange
        self.bitDepth = bitDepth
        self.fullRangeFormat = fullRangeFormat
    }

    /// These facts, with whatever `other` says filling what these leave unsaid.
    package func filled(from other: ColourInfo) -> ColourInfo {
        var merged = self
        merged.matrix = matrix ?? other.matrix
        merged.primaries = primaries ?? other.primaries
        merged.transfer = transfer ?? other.transfer
        merged.fullRange = fullRange ?? other.fullRange
        return merged
    }
}

/// How a stream's pictures are scanned.
package enum FieldOrder: String, Sendable, Equatable, Codable {
    case progressive, unknown
    /// Interlaced, top field first (coded and shown), and the other orders.
    case topFirst = "tt", bottomFirst = "bb", topCodedBottomShown = "tb", bottomCodedTopShown = "bt"

    package var isInterlaced: Bool { self != .progressive && self != .unknown }
}
