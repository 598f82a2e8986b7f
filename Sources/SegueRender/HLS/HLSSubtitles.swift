import Foundation
import SegueModel

/// The output's subtitle track as an HLS WebVTT rendition: one `.vtt`
/// segment per video segment (a cue that spans a boundary is in both, as the
/// HLS specification allows), each mapped to the media's time 0, and the
/// playlist that lists them.
struct HLSSubtitles {
    let track: SubtitleTrack
    /// Milliseconds a segment lasts, and how many there are.
    let segmentMilliseconds: Double
    let segmentCount: Int

    static let playlist = "subtitles.m3u8"
    static let prefix = "subtitles"
    static let group = "subs"

    /// Segment `index`'s file name.
    static func segmentName(_ index: Int) -> String { prefix + String(format: "_%05d.vtt", index) }

    /// Segment `index`: the cues showing within it, at their output times.
    func segment(_ index: Int) -> String {
        let start = Double(index) * segmentMilliseconds, end = start + segmentMilliseconds
        var text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n"
        for cue in track.cues where Double(cue.end) > start && Double(cue.start) < end {
            text += "\n\(Self.time(cue.start)) --> \(Self.time(cue.end))\n\(Self.escaped(cue.text))\n"
        }
        return text
    }

    /// The rendition's media playlist, every segment listed (its cues are known before the render).
    var mediaPlaylist: String {
        let seconds = segmentMilliseconds / 1000
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(Int(seconds.rounded(.up)))", "#EXT-X-MEDIA-SEQUENCE:0",
                     "#EXT-X-PLAYLIST-TYPE:VOD"]
        for index in 0..<segmentCount {
            lines += [String(format: "#EXTINF:%.6f,", seconds), Self.segmentName(index)]
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// The master's line for it: its language as a BCP 47 tag where the track's ISO 639-2 code has a short one.
    var mediaLine: String {
        let language = Self.languageTags[track.language] ?? track.language
        return "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"\(Self.group)\",NAME=\"Subtitles\","
            + (track.language == "und" ? "" : "LANGUAGE=\"\(language)\",") + "DEFAULT=YES,AUTOSELECT=YES,URI=\"\(Self.playlist)\""
    }

    /// `HH:MM:SS.mmm`.
    static func time(_ milliseconds: Int) -> String {
        let value = max(0, milliseconds)
        return String(format: "%02d:%02d:%02d.%03d", value / 3_600_000, value / 60_000 % 60, value / 1000 % 60, value % 1000)
    }

    /// Cue text as WebVTT takes it: `&`, `<`, `>` escaped, no blank lines (which would end the cue).
    static func escaped(_ text: String) -> String {
        let plain = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return plain.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
    }

    /// ISO 639-2 codes and their two-letter BCP 47 tags, for the commonest languages.
    static let languageTags = ["eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es", "ita": "it",
                               "por": "pt", "nld": "nl", "dut": "nl", "jpn": "ja", "zho": "zh", "chi": "zh", "kor": "ko",
                               "rus": "ru", "ara": "ar", "hin": "hi", "swe": "sv", "nor": "no", "dan": "da", "fin": "fi",
                               "pol": "pl", "tur": "tr", "ces": "cs", "cze": "cs", "ell": "el", "gre": "el", "heb": "he"]
}
