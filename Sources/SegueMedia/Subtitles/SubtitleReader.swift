internal import CFFmpeg
import SegueCore

/// One cue of a text subtitle stream, on the stream's own clock.
package struct TextCue: Sendable, Equatable {
    /// Seconds, as the container's timestamps count them.
    package var start: Double
    /// Seconds; nil when the stream doesn't say (the cue lasts until the next).
    package var end: Double?
    /// The ASS event libavcodec's decoders turn every text format into:
    /// `Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`.
    package var event: String

    /// The event's text field, with its markup (`{\i1}`, `\N`) as the decoder wrote it.
    package var assText: String {
        var rest = Substring(event)
        for _ in 0..<7 {
            guard let comma = rest.firstIndex(of: ",") else { return String(rest) }
            rest = rest[rest.index(after: comma)...]
        }
        return String(rest)
    }
}

/// A text subtitle stream read whole, as ASS: the script header its decoder
/// gives (the source's styles for ASS, a default otherwise) and its cues.
package struct TextSubtitles: Sendable, Equatable {
    package var header: String
    package var cues: [TextCue]
}

/// Reads a text subtitle stream whole through its libavcodec decoder
/// (SubRip, WebVTT, ASS/SSA, mov_text, Matroska's S_TEXT), which gives every
/// cue as an ASS event. The other streams are skipped by the demuxer
/// (`AVDISCARD_ALL`), so an MP4 reads only the subtitle samples.
package enum SubtitleReader {
    /// The cues of `stream`. `characterEncoding` (an iconv name such as
    /// "CP1252") converts text that isn't UTF-8; without it, text that isn't
    /// valid UTF-8 fails with `invalidData`.
    package static func read(_ demuxer: Demuxer, stream index: Int, characterEncoding: String? = nil) throws -> TextSubtitles {
        for other in demuxer.streams.indices where other != index {
            demuxer.stream(other).pointee.discard = AVDISCARD_ALL
        }
        let decoder = try SubtitleDecoder(demuxer: demuxer, streamIndex: index, characterEncoding: characterEncoding)
        var cues: [TextCue] = []
        let packet = Packet()
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            cues += try decoder.decode(packet)
        }
        return TextSubtitles(header: decoder.header, cues: cues.sorted { $0.start < $1.start })
    }
}

/// One text subtitle stream's decoder (`avcodec_decode_subtitle2`).
final class SubtitleDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let timeBase: Rational

    init(demuxer: Demuxer, streamIndex: Int, characterEncoding: String?) throws {
        let (context, codec, timeBase) = try Decoder.unopenedContext(demuxer, streamIndex: streamIndex)
        self.context = context
        self.timeBase = timeBase
        var options: OpaquePointer?
        if let characterEncoding { av_dict_set(&options, "sub_charenc", characterEncoding, 0) }
        defer { av_dict_free(&options) }
        try check(avcodec_open2(context, codec, &options), "avcodec_open2")
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// The ASS script header the decoder uses (styles and play size).
    var header: String {
        guard let header = context?.pointee.subtitle_header, context!.pointee.subtitle_header_size > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: header, count: Int(context!.pointee.subtitle_header_size)), as: UTF8.self)
    }

    /// The cues in one packet (none for a packet that only clears the screen).
    func decode(_ packet: Packet) throws -> [TextCue] {
        guard let pts = packet.pts else { return [] }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer), "avcodec_decode_subtitle2")
        guard got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let start = Double(pts) * timeBase.value
        let shown = start + Double(subtitle.start_display_time) / 1000
        // libavcodec fills the end from the packet's duration when the format has none of its own.
        let end: Double? = subtitle.end_display_time > subtitle.start_display_time && subtitle.end_display_time != UInt32.max
            ? start + Double(subtitle.end_display_time) / 1000 : nil
        var cues: [TextCue] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else { continue }
            // "ReadOrder,Layer,Style,…": the read order is the decoder's count, not the cue's.
            let line = String(cString: ass)
            let event = line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]) } ?? line
            cues.append(TextCue(start: shown, end: end, event: event))
        }
        return cues
    }
}
