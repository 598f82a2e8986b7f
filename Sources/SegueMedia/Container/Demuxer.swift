internal import CFFmpeg
import Synchronization
import SegueCore

/// What a stream carries, read from its codec parameters.
package struct StreamInfo {
    package enum Kind { case video, audio, other }

    package var index: Int
    package var kind: Kind
    package var codecName: String
    package var timeBase: Rational
    /// First timestamp in `timeBase`, or nil when the container doesn't say.
    package var startTime: Int64?
    /// Duration in seconds, or nil when the container doesn't say.
    package var duration: Double?
    /// Bits after which timestamps wrap (33 in MPEG transport and program streams).
    package var timestampBits = 64

    // Video
    package var width = 0
    package var height = 0
    package var sampleAspectRatio = Rational(1, 1)
    /// Display rotation in degrees clockwise (0, 90, 180, 270).
    package var rotation = 0
    /// The display matrix as stored (nine 16.16 and 2.30 fixed-point values), nil when the stream has none.
    package var displayMatrix: [Int32]?
    package var averageFrameRate = Rational(0, 1)
    package var realFrameRate = Rational(0, 1)
    package var pixelFormatName = ""
    package var colour = ColourInfo()
    package var fieldOrder = FieldOrder.unknown
    /// Pictures the decoder holds back to reorder (`video_delay`): a packet
    /// with no presentation time (AVI's B-frames) is shown this many frames
    /// after it is decoded, as the decoder's best-effort timestamps say.
    package var reorderDelay = 0
    /// The Dolby Vision profile its configuration record names (8 for iPhone
    /// HLG-compatible clips), nil for none.
    package var dolbyVisionProfile: Int?
    /// HDR10 metadata the container states for the stream, nil for none.
    package var hdrMetadata: HDRMetadata?
    /// Where 4:2:0 chroma samples sit, as the VUI's chroma_sample_loc_type
    /// (0 left, 1 centre, 2 top left … 5 bottom); nil when unsaid.
    package var chromaSiteType: Int?

    /// The codec's global header (for H.264 in MP4: the avcC record with its
    /// parameter sets; for AAC its AudioSpecificConfig), which a stream copy depends on.
    package var extradata: [UInt8] = []
    /// The container's name for the codec (an MP4 sample entry: avc1, hvc1, hev1), "" when none.
    package var codecTag = ""

    // Audio
    package var sampleRate = 0
    package var channels = 0

    // Any stream
    /// Its `language` tag as stored (ISO 639-2 in most containers), nil when none.
    package var language: String?
    /// Whether the container marks it the default of its kind.
    package var isDefault = false
    /// Its `timecode` tag (a MOV/MP4 `tmcd` track's, or the video stream's): where its first frame counts from.
    package var timecode: String?
    /// For a subtitle stream, whether it is text or pictures; nil for other streams.
    package var subtitle: SubtitleForm?
}

/// What a subtitle stream carries: text (SubRip, WebVTT, ASS, mov_text …)
/// or pictures (DVD, DVB, PGS).
package enum SubtitleForm: Sendable, Equatable {
    case text, bitmap
}

/// Raised from another thread to stop a blocking libav operation (an open or
/// a read waiting on the network): the demuxer's interrupt callback reads it,
/// and the operation returns `FFmpegError.exit`.
package final class Cancellation: Sendable {
    private let raised = Atomic<Bool>(false)

    package init() {}

    package func cancel() { raised.store(true, ordering: .relaxed) }
    package var isCancelled: Bool { raised.load(ordering: .relaxed) }
}

/// An opened input: `avformat_open_input` + `avformat_find_stream_info`,
/// closed with `avformat_close_input`. Its bytes always come through I/O of
/// our own: a `LocalFile` for a path, a `ResumingInput` (which resumes lost
/// connections and can say whether the connection failed) for a URL. The
/// format is probed here and opened only if `MediaFormats` allows it, nested
/// opens are refused, and pictures are bounded in area before decoding.
package final class Demuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Where the bytes come from; kept alive while the context reads them.
    private var file: LocalFile?
    private var input: ResumingInput?
    /// Kept alive for the interrupt callback, which holds it unretained.
    private let cancellation: Cancellation
    package let url: String
    package let streams: [StreamInfo]
    /// The most pixels one picture may have; decoders made from this demuxer refuse larger ones.
    package let maxPictureArea: Int
    /// What decoders are told (`max_pixels`): the limit plus the padding they
    /// add when they allocate (widths aligned up, JPEG heights to 16 rows),
    /// which libavcodec counts too.
    package var decoderPixelLimit: Int64 { Demuxer.decoderPixelLimit(maxPictureArea) }

    private static func decoderPixelLimit(_ area: Int) -> Int64 { Int64(area) + Int64(area) / 16 }

    /// Opens a local file; `options` go to the format (e.g. probesize).
    /// `formats` are the demuxers it may be opened with (a sidecar subtitle
    /// file: `MediaFormats.subtitles`).
    package convenience init(file: LocalFile, options: [String: String] = [:], maxPictureArea: Int,
                             cancellation: Cancellation = Cancellation(), formats: Set<String> = MediaFormats.allowed) throws {
        try self.init(url: file.path, file: file, input: nil, options: options, maxPictureArea: maxPictureArea,
                      cancellation: cancellation, formats: formats)
    }

    /// Opens a network URL (http or https) through libavformat's own
    /// protocols; `options` go to the protocol and the format (e.g.
    /// rw_timeout). Raising `cancellation` makes a blocked open or read return
    /// `.exit`. A lost connection is resumed up to `retries` times.
    package convenience init(networkURL url: String, options: [String: String] = [:], retries: Int = 0,
                             maxPictureArea: Int, cancellation: Cancellation = Cancellation()) throws {
        let input = try ResumingInput(url: url, options: options.merging(["protocol_whitelist": Network.protocols]) { a, _ in a },
                                      retries: retries, cancellation: cancellation)
        try self.init(url: url, file: nil, input: input, options: options, maxPictureArea: maxPictureArea,
                      cancellation: cancellation)
    }

    private init(url: String, file: LocalFile?, input: ResumingInput?, options: [String: String], maxPictureArea: Int,
                 cancellation: Cancellation, formats: Set<String> = MediaFormats.allowed) throws {
        self.url = url
        self.file = file
        self.input = input
        self.cancellation = cancellation
        self.maxPictureArea = maxPictureArea
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        guard var context = avformat_alloc_context() else { fatalError("avformat_alloc_context: out of memory") }
        context.pointee.interrupt_callback = cancellation.interruptCallback
        context.pointee.pb = file?.context ?? input!.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        cffmpeg_refuse_nested_opens(context)
        let format: UnsafePointer<AVInputFormat>
        do {
            format = try Demuxer.probeFormat(context.pointee.pb, url: url, formats: formats)
        } catch {
            avformat_free_context(context)
            throw Demuxer.transportFailure(input, cancellation) ?? error
        }
        var opening: UnsafeMutablePointer<AVFormatContext>? = context
        let code = avformat_open_input(&opening, url, format, &dictionary)
        if code < 0 {
            // avformat_open_input freed the context; our I/O is still ours to read and close.
            throw Demuxer.transportFailure(input, cancellation) ?? FFmpegError(code: code, call: "avformat_open_input")
        }
        context = opening!
        // The decoders find_stream_info opens are bounded too.
        var streamOptions = [OpaquePointer?](repeating: nil, count: Int(context.pointee.nb_streams))
        for index in streamOptions.indices { av_dict_set(&streamOptions[index], "max_pixels", String(Demuxer.decoderPixelLimit(maxPictureArea)), 0) }
        let found = avformat_find_stream_info(context, &streamOptions)
        for index in streamOptions.indices { av_dict_free(&streamOptions[index]) }
        if found < 0 {
            avformat_close_input(&opening)
            throw Demuxer.transportFailure(input, cancellation) ?? FFmpegError(code: found, call: "avformat_find_stream_info")
        }
        self.context = context
        streams = (0..<Int(context.pointee.nb_streams)).map { Demuxer.describe(context.pointee.streams[$0]!, index: $0) }
        if let video = bestStream(.video), streams[video].width * streams[video].height > maxPictureArea {
            throw PictureTooLarge(width: streams[video].width, height: streams[video].height)
        }
    }

    /// The format of the bytes `io` reads, if `MediaFormats` allows it;
    /// otherwise `RefusedFormat` naming what it is. The probe sees only the
    /// name's extension, so a `%d` or a `scheme:` in a name means nothing.
    private static func probeFormat(_ io: UnsafeMutablePointer<AVIOContext>?, url: String,
                                    formats: Set<String>) throws -> UnsafePointer<AVInputFormat> {
        var format: UnsafePointer<AVInputFormat>?
        let extensionName = (url.split(separator: "/").last ?? "").split(separator: ".").dropFirst().last
            .map(String.init)?.filter { $0.isLetter || $0.isNumber } ?? ""
        try check(av_probe_input_buffer2(io, &format, extensionName.isEmpty ? "input" : "input.\(extensionName)", nil, 0, 0),
                  "av_probe_input_buffer2")
        if format.map({ String(cString: $0.pointee.name) }) == "image2" {
            // image2 claims a picture by its extension alone; by its bytes it is one picture (jpeg_pipe …).
            format = nil // the probe keeps a format it is given
            try check(av_probe_input_buffer2(io, &format, "input", nil, 0, 0), "av_probe_input_buffer2")
        }
        guard let format else { throw FFmpegError.invalidData }
        let name = String(cString: format.pointee.name)
        guard formats.contains(name) else {
            throw RefusedFormat(name: name, longName: format.pointee.long_name.map { String(cString: $0) } ?? name)
        }
        return format
    }

    deinit {
        avformat_close_input(&context) // before our I/O, whose buffer it reads
        input = nil
        file = nil
    }

    /// The I/O error behind a failure, when the connection (not the data) failed:
    /// the demuxer may only have seen the data end early and called it invalid.
    package func transportFailure() -> (any Error)? { Demuxer.transportFailure(input, cancellation) }

    private static func transportFailure(_ input: ResumingInput?, _ cancellation: Cancellation) -> (any Error)? {
        if cancellation.isCancelled { return FFmpegError.exit }
        return input?.lost
    }

    /// The container's short name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    package var formatName: String {
        guard let name = context?.pointee.iformat?.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// Whether the container's clock may wrap or jump mid-file: MPEG
    /// transport and program streams (libavformat's `AVFMT_TS_DISCONT`), and
    /// every container whose packets carry their own times (FLV, Matroska,
    /// AVI, Ogg …), which damage can make jump by days. MP4/MOV and MXF time
    /// their samples from tables, and pictures are one frame.
    package var timestampsMayJump: Bool {
        guard let format = context?.pointee.iformat else { return false }
        if format.pointee.flags & AVFMT_TS_DISCONT != 0 { return true }
        return !Demuxer.tabledTimes.contains(formatName) && !formatName.hasSuffix("_pipe")
    }

    private static let tabledTimes: Set<String> = [movFamily, "mxf"]
    /// The name of libavformat's MP4/MOV demuxer (the one that reads edit lists).
    package static let movFamily = "mov,mp4,m4a,3gp,3g2,mj2"

    /// Container duration in seconds, if known.
    package var duration: Double? {
        guard let value = context?.pointee.duration, value != cffmpeg_nopts_value(), value > 0 else { return nil }
        return Double(value) / Double(AV_TIME_BASE)
    }

    /// The container's own `timecode` tag (MXF states it there), nil when none.
    package var timecode: String? {
        guard let entry = av_dict_get(context?.pointee.metadata, "timecode", nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }

    /// The stream libav would pick for a kind (`av_find_best_stream`), or nil.
    package func bestStream(_ kind: StreamInfo.Kind) -> Int? {
        let type = kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Reads the next packet into `packet`; false at end of file.
    package func read(into packet: Packet) throws -> Bool {
        packet.unref()
        let code = av_read_frame(context, packet.pointer)
        // A connection lost mid-file can surface as a plain end of file: ask the I/O.
        if let failure = transportFailure() { throw failure }
        if code == FFmpegError.endOfFile.code { return false }
        try check(code, "av_read_frame")
        return true
    }

    /// Seeks so that reading resumes at the keyframe at or before `seconds`
    /// (container time, as stream start times count it).
    package func seek(toSeconds seconds: Double) throws {
        let target = Int64(saturatingSeconds: seconds * Double(AV_TIME_BASE))
        try check(avformat_seek_file(context, -1, Int64.min, target, target, 0), "avformat_seek_file")
    }

    /// The stream object a decoder is made from (borrowed, owned by the context).
    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        context!.pointee.streams[index]!
    }

    /// A four-character code as text; "" for none or for one that isn't printable.
    static func fourCC(_ tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8((tag >> (8 * $0)) & 0xFF) }
        guard tag != 0, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
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
            startTime: Timestamp.plausible(stream.pointee.start_time),
            duration: nil
        )
        info.timestampBits = Int(stream.pointee.pts_wrap_bits)
        if let entry = av_dict_get(stream.pointee.metadata, "language", nil, 0), let value = entry.pointee.value {
            info.language = String(cString: value)
        }
        info.isDefault = (stream.pointee.disposition & AV_DISPOSITION_DEFAULT) != 0
        if let entry = av_dict_get(stream.pointee.metadata, "timecode", nil, 0), let value = entry.pointee.value {
            info.timecode = String(cString: value)
            // A timecode track counts at its own rate.
            info.averageFrameRate = Rational(Int(stream.pointee.avg_frame_rate.num), Int(stream.pointee.avg_frame_rate.den))
        }
        if parameters.codec_type == AVMEDIA_TYPE_SUBTITLE {
            let properties = avcodec_descriptor_get(parameters.codec_id)?.pointee.props ?? 0
            info.subtitle = (properties & AV_CODEC_PROP_BITMAP_SUB) != 0 ? .bitmap : .text
        }
        info.codecTag = Demuxer.fourCC(parameters.codec_tag)
        if Timestamp.plausibleDuration(stream.pointee.duration) > 0 {
            info.duration = Double(stream.pointee.duration) * timeBase.value
        }
        if kind == .video {
            describeVideo(stream, into: &info)
        } else if kind == .audio {
            info.sampleRate = Int(parameters.sample_rate)
            info.channels = Int(parameters.ch_layout.nb_channels)
            if let data = parameters.extradata, parameters.extradata_size > 0 {
                info.extradata = Array(UnsafeBufferPointer(start: data, count: Int(parameters.extradata_size)))
            }
        }
        return info
    }

    /// The picture facts of a video stream: size, aspect, rotation, rates, format, colour, HDR and its header.
    private static func describeVideo(_ stream: UnsafeMutablePointer<AVStream>, into info: inout StreamInfo) {
        let parameters = stream.pointee.codecpar!.pointee
        info.width = Int(parameters.width)
        info.height = Int(parameters.height)
        let sar = av_guess_sample_aspect_ratio(nil, stream, nil)
        info.sampleAspectRatio = sar.num > 0 && sar.den > 0 ? Rational(Int(sar.num), Int(sar.den)) : Rational(1, 1)
        // av_display_rotation_get is counter-clockwise; ffmpeg turns it into a clockwise angle the same way.
        var degrees = -cffmpeg_stream_rotation(stream)
        degrees -= 360 * (degrees / 360 + 0.9 / 360).rounded(.down)
        info.rotation = (Int(degrees.rounded()) % 360 + 360) % 360
        var size: Int = 0
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * MemoryLayout<Int32>.size {
            info.displayMatrix = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
        }
        info.averageFrameRate = Rational(Int(stream.pointee.avg_frame_rate.num), Int(stream.pointee.avg_frame_rate.den))
        info.realFrameRate = Rational(Int(stream.pointee.r_frame_rate.num), Int(stream.pointee.r_frame_rate.den))
        if let name = av_get_pix_fmt_name(AVPixelFormat(parameters.format)) { info.pixelFormatName = String(cString: name) }
        info.colour = ColourInfo(space: parameters.color_space, primaries: parameters.color_primaries,
                                 transfer: parameters.color_trc, range: parameters.color_range, pixelFormat: parameters.format)
        info.fieldOrder = FieldOrder(parameters.field_order)
        info.reorderDelay = max(0, Int(parameters.video_delay))
        let profile = cffmpeg_stream_dovi_profile(stream)
        info.dolbyVisionProfile = profile >= 0 ? Int(profile) : nil
        info.hdrMetadata = HDRMetadata.stated(by: stream)
        let site = Int(parameters.chroma_location.rawValue) // AVCHROMA_LOC_LEFT (1) is type 0
        info.chromaSiteType = site >= 1 && site <= 6 ? site - 1 : nil
        if let data = parameters.extradata, parameters.extradata_size > 0 {
            info.extradata = Array(UnsafeBufferPointer(start: data, count: Int(parameters.extradata_size)))
        }
    }
}
