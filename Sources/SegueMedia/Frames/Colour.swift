import CFFmpeg

/// How a stream's or a picture's samples are to be read as colour, by role:
/// the matrix, primaries and transfer as FFmpeg names them (nil when the file
/// doesn't say), the range (nil when unsaid), and the bits per sample.
public struct ColourInfo: Sendable, Equatable, Codable {
    /// YUV matrix, e.g. "bt709", "smpte170m", "bt470bg", "bt2020nc".
    public var matrix: String?
    /// Primaries, e.g. "bt709", "smpte170m", "bt2020".
    public var primaries: String?
    /// Transfer, e.g. "bt709", "smpte2084" (PQ), "arib-std-b67" (HLG).
    public var transfer: String?
    /// True for full range (0-255), false for limited (16-235); nil when unsaid.
    public var fullRange: Bool?
    /// Bits per sample of the stored pictures (8, 10, 12).
    public var bitDepth: Int
    /// Whether the pixel format itself says full range (the yuvj formats).
    public var fullRangeFormat: Bool

    public init(matrix: String? = nil, primaries: String? = nil, transfer: String? = nil, fullRange: Bool? = nil,
                bitDepth: Int = 8, fullRangeFormat: Bool = false) {
        self.matrix = matrix
        self.primaries = primaries
        self.transfer = transfer
        self.fullRange = fullRange
        self.bitDepth = bitDepth
        self.fullRangeFormat = fullRangeFormat
    }

    /// Facts from a stream's codec parameters or a decoded picture.
    init(space: AVColorSpace, primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic,
         range: AVColorRange, pixelFormat: Int32) {
        func name(_ text: UnsafePointer<CChar>?) -> String? { text.map { String(cString: $0) } }
        matrix = space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RESERVED ? nil : name(av_color_space_name(space))
        self.primaries = primaries == AVCOL_PRI_UNSPECIFIED || primaries == AVCOL_PRI_RESERVED
            ? nil : name(av_color_primaries_name(primaries))
        self.transfer = transfer == AVCOL_TRC_UNSPECIFIED || transfer == AVCOL_TRC_RESERVED
            ? nil : name(av_color_transfer_name(transfer))
        switch range {
        case AVCOL_RANGE_JPEG: fullRange = true
        case AVCOL_RANGE_MPEG: fullRange = false
        default: fullRange = nil
        }
        let format = AVPixelFormat(pixelFormat)
        if let descriptor = av_pix_fmt_desc_get(format) {
            bitDepth = Int(descriptor.pointee.comp.0.depth)
        } else {
            bitDepth = 8
        }
        fullRangeFormat = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
                           AV_PIX_FMT_YUVJ411P].contains(format)
    }

    /// These facts, with whatever `other` says filling what these leave unsaid.
    public func filled(from other: ColourInfo) -> ColourInfo {
        var merged = self
        merged.matrix = matrix ?? other.matrix
        merged.primaries = primaries ?? other.primaries
        merged.transfer = transfer ?? other.transfer
        merged.fullRange = fullRange ?? other.fullRange
        return merged
    }
}

/// How a stream's pictures are scanned.
public enum FieldOrder: String, Sendable, Equatable, Codable {
    case progressive, unknown
    /// Interlaced, top field first (coded and shown), and the other orders.
    case topFirst = "tt", bottomFirst = "bb", topCodedBottomShown = "tb", bottomCodedTopShown = "bt"

    init(_ order: AVFieldOrder) {
        switch order {
        case AV_FIELD_PROGRESSIVE: self = .progressive
        case AV_FIELD_TT: self = .topFirst
        case AV_FIELD_BB: self = .bottomFirst
        case AV_FIELD_TB: self = .topCodedBottomShown
        case AV_FIELD_BT: self = .bottomCodedTopShown
        default: self = .unknown
        }
    }

    public var isInterlaced: Bool { self != .progressive && self != .unknown }
}

extension Frame {
    /// The colour facts the decoder stamped on this picture.
    package var colour: ColourInfo {
        ColourInfo(space: pointer.pointee.colorspace, primaries: pointer.pointee.color_primaries,
                   transfer: pointer.pointee.color_trc, range: pointer.pointee.color_range, pixelFormat: pointer.pointee.format)
    }

    /// Whether the decoder flagged this picture as interlaced (two fields).
    package var isInterlaced: Bool { pointer.pointee.interlaced_frame != 0 }

    /// Labels this picture as SDR BT.709, limited range: what the output holds.
    package func tagAsBT709() {
        pointer.pointee.colorspace = AVCOL_SPC_BT709
        pointer.pointee.color_primaries = AVCOL_PRI_BT709
        pointer.pointee.color_trc = AVCOL_TRC_BT709
        pointer.pointee.color_range = AVCOL_RANGE_MPEG
    }
}
