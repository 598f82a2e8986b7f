internal import CFFmpeg
import SegueCore

extension ColourInfo {
    /// Facts from a stream's codec parameters or a decoded picture.
    init(space: AVColorSpace, primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic,
         range: AVColorRange, pixelFormat: Int32) {
        func name(_ text: UnsafePointer<CChar>?) -> String? { text.map { String(cString: $0) } }
        let fullRange: Bool?
        switch range {
        case AVCOL_RANGE_JPEG: fullRange = true
        case AVCOL_RANGE_MPEG: fullRange = false
        default: fullRange = nil
        }
        let format = AVPixelFormat(pixelFormat)
        let bitDepth = av_pix_fmt_desc_get(format).map { Int($0.pointee.comp.0.depth) } ?? 8
        self.init(
            matrix: space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RESERVED ? nil : name(av_color_space_name(space)),
            primaries: primaries == AVCOL_PRI_UNSPECIFIED || primaries == AVCOL_PRI_RESERVED
                ? nil : name(av_color_primaries_name(primaries)),
            transfer: transfer == AVCOL_TRC_UNSPECIFIED || transfer == AVCOL_TRC_RESERVED
                ? nil : name(av_color_transfer_name(transfer)),
            fullRange: fullRange, bitDepth: bitDepth,
            fullRangeFormat: [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
                              AV_PIX_FMT_YUVJ411P].contains(format))
    }
}

extension OutputColour {
    /// The pixel format pictures are composed and encoded in.
    package var pixelFormat: PixelFormat { bitDepth > 8 ? .yuv420p10 : .yuv420p }
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

    /// States it as `stream`'s side data, which the Matroska/WebM muxer writes
    /// into the track's colour element (chromaticities in 1/50000, luminance
    /// in 1/10000 cd/m², as HEVC's SEI counts them); light levels only when known.
    func state(on stream: UnsafeMutablePointer<AVStream>) {
        let size = MemoryLayout<AVMasteringDisplayMetadata>.size
        guard let raw = av_stream_new_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, size) else {
            fatalError("av_stream_new_side_data: out of memory")
        }
        func ratio(_ value: Double, _ denominator: Int32) -> AVRational {
            AVRational(num: Int32((value * Double(denominator)).rounded()), den: denominator)
        }
        func point(_ xy: [Double]) -> (AVRational, AVRational) { (ratio(xy[0], 50_000), ratio(xy[1], 50_000)) }
        raw.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) { display in
            display.pointee.display_primaries = (point(red), point(green), point(blue))
            display.pointee.white_point = point(whitePoint)
            display.pointee.min_luminance = ratio(minLuminance, 10_000)
            display.pointee.max_luminance = ratio(maxLuminance, 10_000)
            display.pointee.has_primaries = 1
            display.pointee.has_luminance = 1
        }
        guard let maxCLL, let maxFALL else { return }
        guard let light = av_stream_new_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, MemoryLayout<AVContentLightMetadata>.size) else {
            fatalError("av_stream_new_side_data: out of memory")
        }
        light.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) {
            $0.pointee.MaxCLL = UInt32(maxCLL)
            $0.pointee.MaxFALL = UInt32(maxFALL)
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

extension FieldOrder {
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
