internal import CFFmpeg
import SegueCore

/// A WebVTT text track (the `webvtt` codec in WebM, `D_WEBVTT/SUBTITLES`):
/// what browsers and players read as soft subtitles in a WebM file. Each
/// cue's payload is its text, escaped so it is never read as markup, with
/// its bold, italic and underlined runs as WebVTT's `<b>`, `<i>` and `<u>`.
extension Muxer {
    /// Adds a WebVTT stream in `language` (ISO 639-2), counting milliseconds; returns its index.
    package func addWebVTTTrack(language: String) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_WEBVTT
        stream.pointee.time_base = AVRational(num: 1, den: 1000)
        av_dict_set(&stream.pointee.metadata, "language", language, 0)
        return appendTimeBase(Rational(1, 1000), stream: stream)
    }

    /// Writes one cue, `text` with its `styles`, on WebVTT stream `stream` from `start` to `end` (milliseconds).
    package func writeWebVTTCue(_ text: String, styles: [TimedTextStyle] = [], start: Int64, end: Int64, stream: Int) throws {
        let payload = Array(Muxer.webVTTPayload(text, styles: styles).utf8)
        let packet = Packet()
        try check(av_new_packet(packet.pointer, Int32(payload.count)), "av_new_packet")
        if !payload.isEmpty { packet.pointer.pointee.data!.update(from: payload, count: payload.count) }
        packet.pts = start
        packet.dts = start
        packet.duration = max(0, end - start)
        try write(packet, stream: stream)
    }

    /// A cue's payload: `&`, `<` and `>` as character references, blank lines
    /// (which end a cue in a .vtt file) closed up, and each styled run
    /// (characters counted as Unicode scalars) wrapped in its tags, closed
    /// and reopened where the style changes so they always nest.
    package static func webVTTPayload(_ text: String, styles: [TimedTextStyle]) -> String {
        let tags: [(flag: UInt8, name: String)] = [(1, "b"), (2, "i"), (4, "u")]
        var payload = "", open: [String] = [], current: UInt8 = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            // A line break only between lines of text: none first, none twice.
            if scalar == "\n", payload.isEmpty || payload.unicodeScalars.last == "\n" { continue }
            let flags = styles.filter { $0.start <= index && index < $0.end }.reduce(UInt8(0)) { $0 | $1.flags }
            if flags != current {
                payload += open.reversed().map { "</\($0)>" }.joined()
                open = tags.filter { flags & $0.flag != 0 }.map(\.name)
                payload += open.map { "<\($0)>" }.joined()
                current = flags
            }
            switch scalar {
            case "&": payload += "&amp;"
            case "<": payload += "&lt;"
            case ">": payload += "&gt;"
            default: payload.unicodeScalars.append(scalar)
            }
        }
        if payload.unicodeScalars.last == "\n" { payload.unicodeScalars.removeLast() }
        return payload + open.reversed().map { "</\($0)>" }.joined()
    }
}
