internal import CFFmpeg
import SegueCore

/// One stream's decoder (`avcodec_free_context` frees it). Verbs follow the
/// send/receive API: `send`, `sendEndOfStream`, `receive`.
package final class Decoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    package let streamIndex: Int
    package let timeBase: Rational
    /// Packets rejected as corrupt and pictures decoded with errors (concealed).
    package private(set) var damage = 0
    /// Whether damage is an error rather than something to conceal and count.
    package var failOnDamage = false
    /// The latest frame's timestamp and duration, for a frame that comes without one.
    private var lastStamp: (pts: Int64, duration: Int64)?

    /// `exportQuantisers` makes each picture carry the quantisers it was coded
    /// with (`Frame.meanQuantiser`).
    package init(demuxer: Demuxer, streamIndex: Int, threads: Int = 0, exportQuantisers: Bool = false) throws {
        let (context, codec, timeBase) = try Decoder.unopenedContext(demuxer, streamIndex: streamIndex)
        self.context = context
        self.streamIndex = streamIndex
        self.timeBase = timeBase
        context.pointee.thread_count = Int32(threads) // 0: libav picks one per core
        context.pointee.max_pixels = demuxer.decoderPixelLimit // refused before a pixel is decoded
        if exportQuantisers { context.pointee.export_side_data |= Int32(AV_CODEC_EXPORT_DATA_VIDEO_ENC_PARAMS) }
        try check(avcodec_open2(context, codec, nil), "avcodec_open2")
    }

    /// A decoder of `encoder`'s packets (time base: the encoder's), to see what it made.
    package init(decoding encoder: Encoder) throws {
        guard let parameters = avcodec_parameters_alloc() else { fatalError("avcodec_parameters_alloc: out of memory") }
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        defer { avcodec_parameters_free(&owned) }
        try encoder.copyParameters(to: parameters)
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), call: "avcodec_find_decoder")
        }
        context = avcodec_alloc_context3(codec)
        guard let context else { fatalError("avcodec_alloc_context3: out of memory") }
        streamIndex = 0
        timeBase = encoder.timeBase
        try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = encoder.timeBase.avRational
        context.pointee.thread_count = 1
        try check(avcodec_open2(context, codec, nil), "avcodec_open2")
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// A decoder context for stream `streamIndex` of `demuxer`, its codec
    /// parameters and packet time base set but not yet opened; the codec to
    /// open it with, and the stream's time base. The caller frees the context.
    static func unopenedContext(_ demuxer: Demuxer, streamIndex: Int) throws
        -> (context: UnsafeMutablePointer<AVCodecContext>, codec: UnsafePointer<AVCodec>, timeBase: Rational) {
        let stream = demuxer.stream(streamIndex)
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), call: "avcodec_find_decoder(\(String(cString: avcodec_get_name(parameters.pointee.codec_id))))")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        let copied = avcodec_parameters_to_context(context, parameters)
        if copied < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw FFmpegError(code: copied, call: "avcodec_parameters_to_context")
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        return (context, codec, Rational(Int(stream.pointee.time_base.num), Int(stream.pointee.time_base.den)))
    }


    /// Sends one packet. A corrupt packet is counted and skipped, as players do.
    package func send(_ packet: Packet) throws {
        let code = avcodec_send_packet(context, packet.pointer)
        if code == FFmpegError.invalidData.code && !failOnDamage {
            damage += 1
            return
        }
        try check(code, "avcodec_send_packet")
    }

    /// Tells the decoder no more packets come, so it releases its delayed frames.
    package func sendEndOfStream() throws {
        let code = avcodec_send_packet(context, nil)
        if code == FFmpegError.endOfFile.code { return }
        try check(code, "avcodec_send_packet(flush)")
    }

    /// Makes a drained decoder (end of stream sent, every frame received) take
    /// packets again, from a point that needs nothing earlier (an IDR).
    package func reset() {
        avcodec_flush_buffers(context)
        lastStamp = nil
    }

    /// Stamps a frame with its best-effort timestamp; a frame without one (the
    /// last pictures out of a decoder fed packets with only decoding times)
    /// follows the one before it.
    private func stamp(_ frame: Frame) {
        var pts = Timestamp.plausible(frame.pointer.pointee.best_effort_timestamp)
        if pts == nil, let previous = lastStamp {
            pts = previous.pts.saturatingAdd(max(previous.duration, 1))
        }
        frame.pts = pts
        lastStamp = pts.map { ($0, frame.duration) }
    }

    /// Receives the next frame (`avcodec_receive_frame` unrefs `frame` first),
    /// stamped with its best-effort timestamp.
    package func receive(into frame: Frame) throws -> Step {
        let code = avcodec_receive_frame(context, frame.pointer)
        if code == FFmpegError.invalidData.code && !failOnDamage {
            damage += 1
            return .needsInput
        }
        let result = try step(code, "avcodec_receive_frame")
        if result == .ready {
            stamp(frame)
            if frame.pointer.pointee.decode_error_flags != 0 || (frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 {
                damage += 1
                if failOnDamage { throw FFmpegError(code: FFmpegError.invalidData.code, call: "avcodec_receive_frame (damaged picture)") }
            }
        }
        return result
    }
}
