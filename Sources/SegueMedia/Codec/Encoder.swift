internal import CFFmpeg
import SegueCore

extension VideoCodecChoice {
    /// The libavcodec encoder that writes it.
    var encoderName: String {
        switch self {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        case .av1: return "libsvtav1"
        case .vp9: return "libvpx-vp9"
        }
    }
}

/// One output stream's encoder (`avcodec_free_context` frees it).
package final class Encoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    package let timeBase: Rational
    /// Samples per audio frame the encoder wants (1024 for AAC), 0 for video.
    package let frameSize: Int
    /// The MP4 sample entry to use (hvc1 for HEVC, so Apple players accept it).
    package let codecTag: String?
    /// For video, the colour every picture sent is tagged with, and whether in full range.
    private var pictureColour: OutputColour?
    private var pictureFullRange = false
    /// For sound, whether the encoder takes packed samples (libopus): planar blocks are interleaved first.
    private var interleavesSound = false

    private init(codecName: String, codecTag: String? = nil, options: [String: String],
                 globalHeader: Bool, configure: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws {
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), call: "avcodec_find_encoder_by_name(\(codecName))")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        self.context = context
        configure(context)
        // The muxer stores codec headers once (e.g. MP4's avcC), so ask for them before opening.
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        do {
            try check(avcodec_open2(context, codec, &dictionary), "avcodec_open2(\(codecName))")
        } catch {
            avcodec_free_context(&self.context)
            throw error
        }
        timeBase = Rational(Int(context.pointee.time_base.num), Int(context.pointee.time_base.den))
        frameSize = Int(context.pointee.frame_size)
        self.codecTag = codecTag
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// A video encoder whose timestamps count frames (time base 1/fps),
    /// writing pictures of `colour` and tagging the stream with it. `codecParams`
    /// are extra `x264-params` / `x265-params` / `svtav1-params` (key=value:key=value; none for VP9);
    /// `metadata`, for HDR output, goes into the bitstream as the codec's SEI or OBU.
    /// `fullRange`: the pictures hold full-range samples (`--smart` copying a phone's
    /// full-range clips); limited range otherwise.
    package static func video(codec: VideoCodecChoice, width: Int, height: Int, frameRate: Rational, crf: Int, preset: String,
                              colour: OutputColour = .sdr, metadata: HDRMetadata? = nil, fullRange: Bool = false,
                              codecParams: String = "", threads: Int = 0, globalHeader: Bool) throws -> Encoder {
        let options = videoOptions(codec: codec, crf: crf, preset: preset, colour: colour, metadata: metadata, codecParams: codecParams)
        let encoder = try Encoder(codecName: codec.encoderName, codecTag: codec == .hevc ? "hvc1" : nil,
                                  options: options, globalHeader: globalHeader) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = AVPixelFormat(colour.pixelFormat.rawValue)
            context.pointee.time_base = AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator))
            context.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            context.pointee.thread_count = Int32(threads)
            // Written into the stream (VUI, AV1 sequence header) and the MP4 colr box.
            context.pointee.color_primaries = colour.primaries
            context.pointee.color_trc = colour.transfer
            context.pointee.colorspace = colour.space
            context.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        }
        encoder.pictureColour = colour
        encoder.pictureFullRange = fullRange
        return encoder
    }

    /// The encoder's options for a CRF and a preset name: x264's and x265's
    /// own, SVT-AV1's and libvpx-vp9's mapped from it (`VideoCodecChoice`).
    private static func videoOptions(codec: VideoCodecChoice, crf: Int, preset: String, colour: OutputColour,
                                     metadata: HDRMetadata?, codecParams: String) -> [String: String] {
        var options = ["crf": String(crf)]
        var params = codecParams.isEmpty ? [] : [codecParams]
        switch codec {
        case .h264:
            options["preset"] = preset
        case .hevc:
            options["preset"] = preset
            params.insert("log-level=error", at: 0)
            // CRF 0 is lossless, as it is for x264 (x265's own CRF 0 is not).
            if crf == 0 { params.append("lossless=1") }
            if colour.dynamicRange.isHDR {
                // HDR signalled in the VUI (from the context's tags) and, with hdr10, in SEI;
                // repeat-headers puts the sets and SEI before every keyframe, as cameras do.
                params.append("hdr10=\(colour.dynamicRange == .pq || metadata != nil ? 1 : 0):repeat-headers=1")
                if let metadata { params.append(metadata.x265Parameters) }
            }
        case .av1:
            options["preset"] = String(VideoCodecChoice.svtPreset(for: preset))
            if colour.dynamicRange.isHDR, let metadata {
                params.append("enable-hdr=1:" + metadata.svtParameters)
            }
        case .vp9:
            // Constant quality (no bit rate: libvpx's Q mode), rows of tiles on every thread;
            // CRF 0 is lossless, as it is for x264. 10-bit pictures make it Profile 2.
            let speed = VideoCodecChoice.vpxSpeed(for: preset)
            options["b"] = "0"
            options["row-mt"] = "1"
            options["deadline"] = speed.deadline
            options["cpu-used"] = String(speed.cpuUsed)
            if crf == 0 { options["lossless"] = "1" }
        }
        if !params.isEmpty, codec != .vp9 {
            options[codec == .h264 ? "x264-params" : codec == .hevc ? "x265-params" : "svtav1-params"] = params.joined(separator: ":")
        }
        return options
    }

    /// A JPEG (MJPEG) encoder for full-range yuvj420p pictures at a high quality (qscale 3).
    package static func jpeg(width: Int, height: Int) throws -> Encoder {
        try Encoder(codecName: "mjpeg", options: [:], globalHeader: false) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.time_base = AVRational(num: 1, den: 1)
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = 3 * FF_QP2LAMBDA
        }
    }

    /// A PNG encoder for rgb24 pictures (one picture, one packet: a whole PNG file).
    package static func png(width: Int, height: Int) throws -> Encoder {
        try Encoder(codecName: "png", options: [:], globalHeader: false) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = AV_PIX_FMT_RGB24
            context.pointee.time_base = AVRational(num: 1, den: 1)
        }
    }

    /// The encoder's global header (for H.264: an avcC record), empty without one.
    package var extradata: [UInt8] {
        guard let context, let data = context.pointee.extradata, context.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(context.pointee.extradata_size)))
    }

    /// Pictures the encoder's output is reordered by (B-frames), as decoders must hold them.
    package var reorderDelay: Int { Int(context?.pointee.has_b_frames ?? 0) }
    /// The size of the pictures it encodes (0 for sound).
    package var width: Int { Int(context?.pointee.width ?? 0) }
    package var height: Int { Int(context?.pointee.height ?? 0) }
    /// The channels of the sound it encodes (0 for pictures).
    package var channels: Int { Int(context?.pointee.ch_layout.nb_channels ?? 0) }

    /// FFmpeg's native AAC encoder, planar float.
    package static func aac(sampleRate: Int, channels: Int = 2, bitRate: Int, globalHeader: Bool) throws -> Encoder {
        try Encoder(codecName: "aac", options: [:], globalHeader: globalHeader) { context in
            context.pointee.sample_rate = Int32(sampleRate)
            context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
            context.pointee.bit_rate = Int64(bitRate)
            context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        }
    }

    /// libopus (Opus in WebM), which takes packed float samples: `send`
    /// interleaves the planar blocks it is given. Opus runs at 48 kHz (or
    /// 24, 16, 12 or 8); libopus refuses any other rate.
    package static func opus(sampleRate: Int, channels: Int = 2, bitRate: Int, globalHeader: Bool) throws -> Encoder {
        let encoder = try Encoder(codecName: "libopus", options: [:], globalHeader: globalHeader) { context in
            context.pointee.sample_rate = Int32(sampleRate)
            context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
            av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
            context.pointee.bit_rate = Int64(bitRate)
            context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        }
        encoder.interleavesSound = true
        return encoder
    }

    /// Sends one frame; the encoder takes its own reference. A picture is
    /// tagged first with the colour the stream holds.
    package func send(_ frame: Frame) throws {
        if let pictureColour { frame.tag(as: pictureColour, fullRange: pictureFullRange) }
        if interleavesSound, frame.isPlanarFloat {
            let packed = try frame.interleavedFloat()
            // The encoder takes its own reference before the copy is freed.
            try withExtendedLifetime(packed) { try check(avcodec_send_frame(context, packed.pointer), "avcodec_send_frame") }
            return
        }
        try check(avcodec_send_frame(context, frame.pointer), "avcodec_send_frame")
    }

    package func sendEndOfStream() throws {
        let code = avcodec_send_frame(context, nil)
        if code == FFmpegError.endOfFile.code { return }
        try check(code, "avcodec_send_frame(flush)")
    }

    /// Receives the next packet (`avcodec_receive_packet` unrefs `packet` first).
    package func receive(into packet: Packet) throws -> Step {
        try step(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet")
    }

    /// Copies the encoder's parameters to an output stream.
    /// The encoder's output format, for a decoder of its packets.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws {
        try check(avcodec_parameters_from_context(parameters, context), "avcodec_parameters_from_context")
    }

    /// For the muxer (Muxer.swift), which adds the stream this encoder feeds.
    func copyParameters(to stream: UnsafeMutablePointer<AVStream>) throws {
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, context), "avcodec_parameters_from_context")
        stream.pointee.time_base = context!.pointee.time_base
        if let codecTag { stream.pointee.codecpar.pointee.codec_tag = Encoder.fourCC(codecTag) }
    }

    /// A four-letter code as libav stores it (first letter lowest); 0 (the muxer's choice) for anything else.
    static func fourCC(_ code: String) -> UInt32 {
        guard code.utf8.count == 4 else { return 0 }
        let bytes = Array(code.utf8).map(UInt32.init)
        return bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
    }
}
