internal import CFFmpeg
import SegueCore

/// A run of a timed-text sample's text in one style: characters (Unicode
/// scalars) `start` up to `end`, excluded, and its 3GPP face-style flags
/// (bold 1, italic 2, underline 4).
package struct TimedTextStyle: Equatable, Sendable {
    package var start: Int
    package var end: Int
    package var flags: UInt8

    package init(start: Int, end: Int, flags: UInt8) {
        self.start = start
        self.end = end
        self.flags = flags
    }
}

/// A 3GPP timed-text track (MP4 `mov_text`, sample entry `tx3g`): what
/// QuickTime, iOS, VLC, mpv and browsers play as soft subtitles. Its samples
/// are UTF-8 text and style records, so a cue's text is never read as markup.
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

    /// Writes `text` with its `styles` on timed-text stream `stream` from `start` to `end` (milliseconds).
    package func writeText(_ text: String, styles: [TimedTextStyle] = [], start: Int64, end: Int64, stream: Int) throws {
        let sample = Muxer.textSample(text, styles: styles)
        let packet = Packet()
        try check(av_new_packet(packet.pointer, Int32(sample.count)), "av_new_packet")
        packet.pointer.pointee.data!.update(from: sample, count: sample.count)
        packet.pts = start
        packet.dts = start
        packet.duration = max(0, end - start)
        try write(packet, stream: stream)
    }

    /// A 3GPP timed-text sample (TS 26.245 TextSample): the text's length in
    /// bytes (16 bits, big-endian) and its UTF-8, cut at a character's edge to
    /// what 16 bits count; then, when any of it is styled, a 'styl' box of one
    /// style record per run. A record counts characters (Unicode scalars, as
    /// libavcodec's mov_text encoder and decoder count them), names font 1,
    /// size 16 and white (the sample description's defaults) and carries the
    /// run's face-style flags.
    package static func textSample(_ text: String, styles: [TimedTextStyle]) -> [UInt8] {
        var bytes: [UInt8] = [], characters = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard bytes.count + width <= Int(UInt16.max) else { break }
            UTF8.encode(scalar) { bytes.append($0) }
            characters += 1
        }
        var sample = bigEndian(bytes.count, bytes: 2) + bytes
        let records = styles.compactMap { run -> TimedTextStyle? in
            let end = min(run.end, characters)
            return run.flags != 0 && run.start >= 0 && run.start < end ? TimedTextStyle(start: run.start, end: end, flags: run.flags) : nil
        }
        guard !records.isEmpty else { return sample }
        sample += bigEndian(10 + 12 * records.count, bytes: 4) + Array("styl".utf8) + bigEndian(records.count, bytes: 2)
        for record in records {
            sample += bigEndian(record.start, bytes: 2) + bigEndian(record.end, bytes: 2) + [0, 1, record.flags, 0x10, 0xFF, 0xFF, 0xFF, 0xFF]
        }
        return sample
    }

    private static func bigEndian(_ value: Int, bytes count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
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
