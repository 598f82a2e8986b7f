import CFFmpeg

/// A 3GPP timed-text track (MP4 `mov_text`, sample entry `tx3g`): what
/// QuickTime, iOS, VLC, mpv and browsers play as soft subtitles. Its samples
/// are plain UTF-8 text, so a cue's text is never read as markup.
extension Muxer {
    /// Adds a timed-text stream in `language` (ISO 639-2), counting milliseconds; returns its index.
    package func addTextTrack(language: String) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        parameters.pointee.codec_id = AV_CODEC_ID_MOV_TEXT
        let description = Muxer.textSampleDescription
        guard let buffer = av_mallocz(description.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("av_mallocz: out of memory")
        }
        buffer.update(from: description, count: description.count)
        parameters.pointee.extradata = buffer
        parameters.pointee.extradata_size = Int32(description.count)
        stream.pointee.time_base = AVRational(num: 1, den: 1000)
        av_dict_set(&stream.pointee.metadata, "language", language, 0)
        return appendTimeBase(Rational(1, 1000), stream: stream)
    }

    /// Writes `text` on timed-text stream `stream` from `start` to `end` (milliseconds).
    package func writeText(_ text: String, start: Int64, end: Int64, stream: Int) throws {
        // A sample is the text's length (16 bits, big-endian) and its UTF-8 bytes.
        let bytes = Array(text.utf8.prefix(Int(UInt16.max)))
        let packet = Packet()
        try check(av_new_packet(packet.pointer, Int32(bytes.count + 2)), "av_new_packet")
        let data = packet.pointer.pointee.data!
        data[0] = UInt8(bytes.count >> 8)
        data[1] = UInt8(bytes.count & 0xFF)
        (data + 2).update(from: bytes, count: bytes.count)
        packet.pts = start
        packet.dts = start
        packet.duration = max(0, end - start)
        try write(packet, stream: stream)
    }

    /// The track's sample description (3GPP TS 26.245 TextSampleEntry), as
    /// libavcodec's mov_text encoder writes it for a default ASS style: text
    /// centred at the bottom, white, 16 point, font 1 "Arial" (what decoders
    /// take as no styling at all, so an extracted cue is its bare text).
    static let textSampleDescription: [UInt8] = {
        let font = Array("Arial".utf8)
        var bytes: [UInt8] = [0, 0, 0, 0]          // display flags
        bytes += [0x01, 0xFF]                      // horizontal: centre; vertical: bottom
        bytes += [0, 0, 0, 0xFF]                   // background RGBA
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]          // default text box: the whole track
        bytes += [0, 0, 0, 0, 0, 1, 0, 0x10]       // style: chars 0-0, font 1, plain, size 16
        bytes += [0xFF, 0xFF, 0xFF, 0xFF]          // text RGBA: white
        let tableSize = 8 + 2 + 2 + 1 + font.count
        bytes += [0, 0, UInt8(tableSize >> 8), UInt8(tableSize & 0xFF)] + Array("ftab".utf8)
        bytes += [0, 1, 0, 1, UInt8(font.count)] + font // one entry: font 1
        return bytes
    }()
}
