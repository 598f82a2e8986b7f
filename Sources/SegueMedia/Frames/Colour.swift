import CFFmpeg

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
    package func filled(from other: ColourInfo) -> ColourInfo {
        var merged = self
        merged.matrix = matrix ?? other.matrix
        merged.primaries = primaries ?? other.primaries
        merged.transfer = transfer ?? other.transfer
        merged.fullRange = fullRange ?? other.fullRange
        return merged
    }
}

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

    /// The pixel format pictures are composed and encoded in.
    package var pixelFormat: PixelFormat { bitDepth > 8 ? .yuv420p10 : .yuv420p }
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

    var primaries: AVColorPrimaries { dynamicRange == .sdr ? AVCOL_PRI_BT709 : AVCOL_PRI_BT2020 }
    var transfer: AVColorTransferCharacteristic {
        switch dynamicRange {
        case .sdr: return AVCOL_TRC_BT709
        case .hlg: return AVCOL_TRC_ARIB_STD_B67
        case .pq: return AVCOL_TRC_SMPTE2084
        }
    }
    var space: AVColorSpace { dynamicRange == .sdr ? AVCOL_SPC_BT709 : AVCOL_SPC_BT2020_NCL }
}

/// HDR10 static metadata: the mastering display (SMPTE ST 2086) and the
/// content light levels (CTA-861.3), as a clip states them or as Segue
/// chooses when none does.
package struct HDRMetadata: Sendable, Equatable, Codable {
    /// Chromaticities (x, y) of the display's red, green and blue primaries and white point.
    package var red: [Double]
    package var green: [Double]
    package var blue: [Double]
    package var whitePoint: [Double]
    /// The display's luminance range in cd/m².
    package var minLuminance: Double
    package var maxLuminance: Double
    /// Maximum content light level and maximum frame-average light level, cd/m²; nil when unstated.
    package var maxCLL: Int?
    package var maxFALL: Int?

    package init(red: [Double], green: [Double], blue: [Double], whitePoint: [Double], minLuminance: Double, maxLuminance: Double,
                maxCLL: Int? = nil, maxFALL: Int? = nil) {
        self.red = red
        self.green = green
        self.blue = blue
        self.whitePoint = whitePoint
        self.minLuminance = minLuminance
        self.maxLuminance = maxLuminance
        self.maxCLL = maxCLL
        self.maxFALL = maxFALL
    }

    /// BT.2020 primaries, D65, 1000 cd/m² peak and 0.0001 black: the
    /// mastering display BT.2408 takes as typical, for output whose clips state none.
    package static let typical = HDRMetadata(red: [0.708, 0.292], green: [0.170, 0.797], blue: [0.131, 0.046],
                                            whitePoint: [0.3127, 0.3290], minLuminance: 0.0001, maxLuminance: 1000,
                                            maxCLL: 1000, maxFALL: 400)

    /// The dimmest peak a real mastering display has, cd/m² (SDR's reference
    /// display is 100; HDR ones are brighter).
    package static let dimmestPeak = 100.0

    /// Why these values can't be passed on, nil when they can: values out of
    /// range (a luminance of 0 or above 10,000 cd/m², a chromaticity outside
    /// 0...1), or that no real display has (a peak under 100 cd/m², which a
    /// writer's unit slip gives; primaries that are not red, green and blue
    /// around the white point, as a writer that lists them in the wrong order
    /// gives; a frame-average light level above the maximum).
    /// The primaries are FFmpeg's, in R, G, B order (`AVMasteringDisplayMetadata`:
    /// it reorders HEVC's SEI and MP4's `mdcv`, which list G, B, R).
    package var implausibility: String? {
        let points = [red, green, blue, whitePoint]
        if !points.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0 > 0 && $0 < 1 } }) { return "a chromaticity outside 0 to 1" }
        if !(maxLuminance > 0 && maxLuminance <= 10_000) { return "a peak luminance of \(maxLuminance) cd/m²" }
        if !(minLuminance >= 0 && minLuminance < maxLuminance) { return "a black level of \(minLuminance) cd/m²" }
        // A light level of 0 means unknown (CTA-861.3).
        for (name, value) in [("MaxCLL", maxCLL), ("MaxFALL", maxFALL)] {
            if let value, !(0...10_000).contains(value) { return "a \(name) of \(value) cd/m²" }
        }
        if maxLuminance < Self.dimmestPeak {
            return "a peak luminance of \(decimal(maxLuminance)) cd/m², under any display's \(Int(Self.dimmestPeak))"
        }
        if !primariesInOrder {
            func point(_ p: [Double]) -> String { "(\(decimal(p[0])), \(decimal(p[1])))" }
            return "primaries that are not red, green and blue around its white point "
                + "(red \(point(red)), green \(point(green)), blue \(point(blue)), white \(point(whitePoint)))"
        }
        if let cll = maxCLL, let fall = maxFALL, cll > 0, fall > cll { return "a MaxFALL of \(fall) cd/m², above its MaxCLL of \(cll)" }
        return nil
    }

    /// Whether red is the reddest primary (largest x), green the greenest
    /// (largest y) and blue the bluest (smallest y), with the white point
    /// inside their triangle.
    private var primariesInOrder: Bool {
        guard red[0] > green[0], red[0] > blue[0], green[1] > red[1], green[1] > blue[1], blue[1] < red[1] else { return false }
        // The white point lies on the same side of each edge, taken in turn.
        func side(_ a: [Double], _ b: [Double]) -> Double {
            (b[0] - a[0]) * (whitePoint[1] - a[1]) - (b[1] - a[1]) * (whitePoint[0] - a[0])
        }
        let sides = [side(red, green), side(green, blue), side(blue, red)]
        return sides.allSatisfy { $0 > 0 } || sides.allSatisfy { $0 < 0 }
    }

    private func decimal(_ value: Double) -> String { String(format: "%g", value) }

    /// x265's `master-display` and `max-cll` parameters (chromaticities in
    /// 1/50000, luminance in 1/10000 cd/m², G, B, R order).
    package var x265Parameters: String {
        func point(_ p: [Double]) -> String { "(\(Int((p[0] * 50000).rounded())),\(Int((p[1] * 50000).rounded())))" }
        let display = "G\(point(green))B\(point(blue))R\(point(red))WP\(point(whitePoint))"
            + "L(\(Int((maxLuminance * 10000).rounded())),\(Int((minLuminance * 10000).rounded())))"
        return "master-display=\(display):max-cll=\(maxCLL ?? 0),\(maxFALL ?? 0)"
    }

    /// SVT-AV1's `mastering-display` and `content-light` parameters (decimal values, G, B, R order).
    package var svtParameters: String {
        func point(_ p: [Double]) -> String { "(\(decimal(p[0])),\(decimal(p[1])))" }
        func decimal(_ value: Double) -> String { String(format: "%.4f", value) }
        return "mastering-display=G\(point(green))B\(point(blue))R\(point(red))WP\(point(whitePoint))"
            + "L(\(decimal(maxLuminance)),\(decimal(minLuminance))):content-light=\(maxCLL ?? 0),\(maxFALL ?? 0)"
    }
}

extension HDRMetadata {
    /// From FFmpeg's side data: nil when neither the mastering display nor
    /// the light levels are stated; a stated light level alone comes with the typical display.
    init?(mastering: UnsafePointer<AVMasteringDisplayMetadata>?, light: UnsafePointer<AVContentLightMetadata>?) {
        let display = mastering.map { $0.pointee }
        let hasDisplay = display.map { $0.has_primaries != 0 && $0.has_luminance != 0 } ?? false
        guard hasDisplay || light != nil else { return nil }
        self = .typical
        if let display, hasDisplay {
            // A zero denominator reads as 0, which `implausibility` then names.
            func value(_ rational: AVRational) -> Double { rational.den == 0 ? 0 : av_q2d(rational) }
            func point(_ pair: (AVRational, AVRational)) -> [Double] { [value(pair.0), value(pair.1)] }
            red = point(display.display_primaries.0)
            green = point(display.display_primaries.1)
            blue = point(display.display_primaries.2)
            whitePoint = point(display.white_point)
            minLuminance = value(display.min_luminance)
            maxLuminance = value(display.max_luminance)
            maxCLL = nil
            maxFALL = nil
        }
        if let light {
            maxCLL = Int(light.pointee.MaxCLL)
            maxFALL = Int(light.pointee.MaxFALL)
        }
    }

    /// A stream's HDR10 metadata as its container states it (MP4 mdcv/clli, Matroska's colour elements).
    static func stated(by stream: UnsafePointer<AVStream>) -> HDRMetadata? {
        let mastering = av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nil)
        let light = av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nil)
        return HDRMetadata(mastering: UnsafeRawPointer(mastering)?.assumingMemoryBound(to: AVMasteringDisplayMetadata.self),
                           light: UnsafeRawPointer(light)?.assumingMemoryBound(to: AVContentLightMetadata.self))
    }
}

/// How a stream's pictures are scanned.
package enum FieldOrder: String, Sendable, Equatable, Codable {
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

    package var isInterlaced: Bool { self != .progressive && self != .unknown }
}

extension Frame {
    /// The colour facts the decoder stamped on this picture.
    package var colour: ColourInfo {
        ColourInfo(space: pointer.pointee.colorspace, primaries: pointer.pointee.color_primaries,
                   transfer: pointer.pointee.color_trc, range: pointer.pointee.color_range, pixelFormat: pointer.pointee.format)
    }

    /// The HDR10 metadata the picture's bitstream carries (HEVC SEI, AV1 metadata OBUs), nil for none.
    package var hdrMetadata: HDRMetadata? {
        let mastering = av_frame_get_side_data(pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)
        let light = av_frame_get_side_data(pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)
        return HDRMetadata(mastering: mastering.map { UnsafeRawPointer($0.pointee.data).assumingMemoryBound(to: AVMasteringDisplayMetadata.self) },
                           light: light.map { UnsafeRawPointer($0.pointee.data).assumingMemoryBound(to: AVContentLightMetadata.self) })
    }

    /// Whether the decoder flagged this picture as interlaced (two fields).
    package var isInterlaced: Bool { pointer.pointee.interlaced_frame != 0 }

    /// Labels this picture as the output holds it (limited range unless `fullRange`).
    package func tag(as colour: OutputColour, fullRange: Bool = false) {
        pointer.pointee.colorspace = colour.space
        pointer.pointee.color_primaries = colour.primaries
        pointer.pointee.color_trc = colour.transfer
        pointer.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
    }
}
