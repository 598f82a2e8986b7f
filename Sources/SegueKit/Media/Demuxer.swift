import CFFmpeg

/// What a stream carries, read from its codec parameters.
struct StreamInfo {
    enum Kind { case video, audio, other }

    var index: Int
    var kind: Kind
    var codecName: String
    var timeBase: Rational
    /// First timestamp in `timeBase`, or nil when the container doesn't say.
    var startTime: Int64?
    /// Duration in seconds, or nil when the container doesn't say.
    var duration: Double?
    /// Bits after which timestamps wrap (33 in MPEG transport and program streams).
    var timestampBits = 64

    // Video
    var width = 0
    var height = 0
    var sampleAspectRatio = Rational(1, 1)
    /// Display rotation in degrees clockwise (0, 90, 180, 270).
    var rotation = 0
    var averageFrameRate = Rational(0, 1)
    var realFrameRate = Rational(0, 1)
    var pixelFormatName = ""
    var colour = ColourInfo()
    var fieldOrder = FieldOrder.unknown
    /// The Dolby Vision profile its configuration record names (8 for iPhone
    /// HLG-compatible clips), nil for none.
    var dolbyVisionProfile: Int?

    // Audio
    var sampleRate = 0
    var channels = 0
}

/// An opened input: `avformat_open_input` + `avformat_find_stream_info`,
/// closed with `avformat_close_input`.
final class Demuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let url: String
    let streams: [StreamInfo]

    /// Opens `url` (a path or any protocol libavformat knows, http(s) among
    /// them); `options` go to the format and protocol (e.g. rw_timeout).
    init(url: String, options: [String: String] = [:]) throws {
        LibAV.quietLogs
        self.url = url
        var context: UnsafeMutablePointer<AVFormatContext>?
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        try check(avformat_open_input(&context, url, nil, &dictionary), "avformat_open_input")
        self.context = context
        do {
            try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
        } catch {
            avformat_close_input(&self.context)
            throw error
        }
        streams = (0..<Int(context!.pointee.nb_streams)).map { Demuxer.describe(context!.pointee.streams[$0]!, index: $0) }
    }

    deinit {
        avformat_close_input(&context)
    }

    /// The container's short name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    var formatName: String {
        guard let name = context?.pointee.iformat?.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// Container duration in seconds, if known.
    var duration: Double? {
        guard let value = context?.pointee.duration, value != LibAV.noTimestamp, value > 0 else { return nil }
        return Double(value) / Double(AV_TIME_BASE)
    }

    /// The stream libav would pick for a kind (`av_find_best_stream`), or nil.
    func bestStream(_ kind: StreamInfo.Kind) -> Int? {
        let type = kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Reads the next packet into `packet`; false at end of file.
    func read(into packet: Packet) throws -> Bool {
        packet.unref()
        let code = av_read_frame(context, packet.pointer)
        if code == FFmpegError.endOfFile { return false }
        try check(code, "av_read_frame")
        return true
    }

    /// Seeks so that reading resumes at the keyframe at or before `seconds`
    /// (container time, as stream start times count it).
    func seek(toSeconds seconds: Double) throws {
        let target = Int64(seconds * Double(AV_TIME_BASE))
        try check(avformat_seek_file(context, -1, Int64.min, target, target, 0), "avformat_seek_file")
    }

    /// The stream object a decoder is made from (borrowed, owned by the context).
    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        context!.pointee.streams[index]!
    }

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> StreamInfo {
        let parameters = stream.pointee.codecpar!.pointee
        let kind: StreamInfo.Kind
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0 ? .other : .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        default: kind = .other
        }
        let timeBase = Rational(Int(stream.pointee.time_base.num), Int(stream.pointee.time_base.den))
        var info = StreamInfo(
            index: index,
            kind: kind,
            codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            timeBase: timeBase,
            startTime: stream.pointee.start_time == LibAV.noTimestamp ? nil : stream.pointee.start_time,
            duration: nil
        )
        info.timestampBits = Int(stream.pointee.pts_wrap_bits)
        if stream.pointee.duration != LibAV.noTimestamp, stream.pointee.duration > 0 {
            info.duration = Double(stream.pointee.duration) * timeBase.value
        }
        if kind == .video {
            info.width = Int(parameters.width)
            info.height = Int(parameters.height)
            let sar = av_guess_sample_aspect_ratio(nil, stream, nil)
            info.sampleAspectRatio = sar.num > 0 && sar.den > 0 ? Rational(Int(sar.num), Int(sar.den)) : Rational(1, 1)
            // av_display_rotation_get is counter-clockwise; ffmpeg turns it into a clockwise angle the same way.
            var degrees = -cffmpeg_stream_rotation(stream)
            degrees -= 360 * (degrees / 360 + 0.9 / 360).rounded(.down)
            info.rotation = (Int(degrees.rounded()) % 360 + 360) % 360
            info.averageFrameRate = Rational(Int(stream.pointee.avg_frame_rate.num), Int(stream.pointee.avg_frame_rate.den))
            info.realFrameRate = Rational(Int(stream.pointee.r_frame_rate.num), Int(stream.pointee.r_frame_rate.den))
            if let name = av_get_pix_fmt_name(AVPixelFormat(parameters.format)) { info.pixelFormatName = String(cString: name) }
            info.colour = ColourInfo(space: parameters.color_space, primaries: parameters.color_primaries,
                                     transfer: parameters.color_trc, range: parameters.color_range, pixelFormat: parameters.format)
            info.fieldOrder = FieldOrder(parameters.field_order)
            let profile = cffmpeg_stream_dovi_profile(stream)
            info.dolbyVisionProfile = profile >= 0 ? Int(profile) : nil
        } else if kind == .audio {
            info.sampleRate = Int(parameters.sample_rate)
            info.channels = Int(parameters.ch_layout.nb_channels)
        }
        return info
    }
}
