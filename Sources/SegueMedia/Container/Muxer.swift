internal import CFFmpeg
import SegueCore

/// An output file (`avio_closep` + `avformat_free_context`). Finishing can fail,
/// so it is an explicit `finish()`; `deinit` only frees.
package final class Muxer {
    var context: UnsafeMutablePointer<AVFormatContext>?
    private var timeBases: [Rational] = []
    /// Ticks added to each stream's packet times as they are written (see `addStream`).
    private var shifts: [Int64] = []
    private var finished = false

    /// Opens `path` for writing as `format` (the name may not say: temporary files end in .partial).
    /// A format that writes its own files (HLS: playlists and segments) opens nothing here.
    package init(path: String, format: String) throws {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, format, path), "avformat_alloc_output_context2")
        self.context = context
        guard (context!.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 else { return }
        do {
            try check(avio_open(&context!.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open")
        } catch {
            avformat_free_context(context)
            self.context = nil
            throw error
        }
    }

    deinit {
        if let context {
            avio_closep(&context.pointee.pb)
            avformat_free_context(context)
        }
    }

    /// Whether encoders must put their headers in extradata (MP4 does).
    package var needsGlobalHeader: Bool {
        (context!.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0
    }

    /// Adds a stream carrying `encoder`'s output; returns its index. A video
    /// stream may carry a display matrix (nine values as `StreamInfo.displayMatrix`
    /// holds them) that tells players how to turn its pictures.
    package func addStream(for encoder: Encoder, displayMatrix: [Int32]? = nil) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        try encoder.copyParameters(to: stream)
        if let displayMatrix {
            precondition(displayMatrix.count == 9, "a display matrix has nine values")
            let size = 9 * MemoryLayout<Int32>.size
            guard let matrix = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size) else {
                fatalError("av_stream_new_side_data: out of memory")
            }
            matrix.withMemoryRebound(to: Int32.self, capacity: 9) { $0.update(from: displayMatrix, count: 9) }
        }
        // Matroska states Opus's priming as CodecDelay and wants block times that include it
        // (its specification: the delay is subtracted from them); FFmpeg 5.1's muxer writes
        // the encoder's times as they are (the first at -312 samples), which either goes
        // negative or, shifted by the muxer, puts the sound 6.5 ms ahead of the picture.
        let matroska = ["matroska", "webm"].contains(String(cString: context!.pointee.oformat.pointee.name))
        let codec = stream.pointee.codecpar.pointee
        let shift = matroska && codec.codec_id == AV_CODEC_ID_OPUS ? Int64(codec.initial_padding) : 0
        return appendTimeBase(encoder.timeBase, stream: stream, shift: shift)
    }

    /// The matrix that turns a picture `clockwise` degrees for display, for `addStream`
    /// (av_display_rotation_set takes clockwise degrees; av_display_rotation_get answers counter-clockwise).
    package static func displayMatrix(clockwise degrees: Int) -> [Int32] {
        var matrix = [Int32](repeating: 0, count: 9)
        av_display_rotation_set(&matrix, Double(degrees))
        return matrix
    }

    /// Records that `stream`'s packets come counted in `timeBase`; its index.
    func appendTimeBase(_ timeBase: Rational, stream: UnsafeMutablePointer<AVStream>, shift: Int64 = 0) -> Int {
        timeBases.append(timeBase)
        shifts.append(shift)
        return Int(stream.pointee.index)
    }

    /// Adds a video stream like `addStream(for:)` whose global header is
    /// `extradata` instead of the encoder's: e.g. an avcC record listing the
    /// parameter sets of copied packets as well as the encoder's own.
    /// `codecTag`, when given, names the sample entry instead of the encoder's.
    /// `timeBase`, when given, is the one its packets come counted in (and
    /// the track's), instead of the encoder's.
    package func addStream(for encoder: Encoder, extradata: [UInt8], codecTag: String? = nil,
                           displayMatrix: [Int32]? = nil, timeBase: Rational? = nil) throws -> Int {
        let index = try addStream(for: encoder, displayMatrix: displayMatrix)
        if let timeBase {
            timeBases[index] = timeBase
            context!.pointee.streams[index]!.pointee.time_base = timeBase.avRational
        }
        let parameters = context!.pointee.streams[index]!.pointee.codecpar!
        if let codecTag { parameters.pointee.codec_tag = Encoder.fourCC(codecTag) }
        av_freep(&parameters.pointee.extradata)
        parameters.pointee.extradata_size = 0
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let buffer = av_mallocz(extradata.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("av_mallocz: out of memory")
        }
        buffer.update(from: extradata, count: extradata.count)
        parameters.pointee.extradata = buffer
        parameters.pointee.extradata_size = Int32(extradata.count)
        return index
    }

    /// States HDR10 metadata in the container for video stream `stream`, before
    /// the header: WebM's colour element (VP9's own header has no place for
    /// it). FFmpeg 5.1's MP4 muxer writes none (no mdcv/clli boxes).
    package func stateHDRMetadata(_ metadata: HDRMetadata, stream: Int) {
        precondition(metadata.red.count == 2 && metadata.green.count == 2 && metadata.blue.count == 2 && metadata.whitePoint.count == 2,
                     "chromaticities are (x, y) pairs")
        metadata.state(on: context!.pointee.streams[stream]!)
    }

    /// Adds a chapter from `start` to `end` (in `timeBase`); before the header is written.
    package func addChapter(id: Int, timeBase: Rational, start: Int64, end: Int64, title: String) throws {
        let base = AVRational(num: Int32(timeBase.numerator), den: Int32(timeBase.denominator))
        try check(cffmpeg_add_chapter(context, Int64(id), base, start, end, title), "cffmpeg_add_chapter")
    }

    /// Writes the header; `options` are muxer options such as movflags.
    package func writeHeader(options: [String: String]) throws {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        try check(avformat_write_header(context, &dictionary), "avformat_write_header")
    }

    /// Writes one encoded packet to `stream`, rescaling from the encoder's time
    /// base. `av_interleaved_write_frame` takes the packet's reference.
    package func write(_ packet: Packet, stream: Int) throws {
        let from = timeBases[stream]
        let to = context!.pointee.streams[stream]!.pointee.time_base
        packet.pointer.pointee.stream_index = Int32(stream)
        if shifts[stream] != 0 {
            if let pts = packet.pts { packet.pts = pts + shifts[stream] }
            if let dts = packet.dts { packet.dts = dts + shifts[stream] }
        }
        av_packet_rescale_ts(packet.pointer, from.avRational, to)
        try check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame")
    }

    /// Ends the fragment being written (a fragmented MP4 with `movflags=+frag_custom`): the packets
    /// written so far go out as one `moof` and `mdat`, and the file holds them when this returns.
    package func flushFragment() throws {
        try check(av_interleaved_write_frame(context, nil), "av_interleaved_write_frame")
        try check(av_write_frame(context, nil), "av_write_frame")
        avio_flush(context!.pointee.pb)
    }

    /// Writes the trailer (and, with +faststart, moves the index to the front) and closes the file.
    package func finish() throws {
        guard !finished else { return }
        finished = true
        try check(av_write_trailer(context), "av_write_trailer")
        try check(avio_closep(&context!.pointee.pb), "avio_closep")
    }
}
