import Foundation
import SegueModel
internal import SegueBitstream
import SegueCore

/// The text of an HLS ladder's playlists: the master Segue writes itself
/// (libavformat's lacks AVERAGE-BANDWIDTH, FRAME-RATE and VIDEO-RANGE), and
/// what is read back from the media playlists the muxer wrote.
enum HLSPlaylists {
    /// One rendition as the master names it.
    struct Stream: Sendable, Equatable {
        var playlist: String
        var width = 0
        var height = 0
        var frameRate: Rational?
        /// RFC 6381 codecs: `avc1.64001f`, `hvc1.2.4.L120.B0`, `mp4a.40.2`.
        var codecs: String
        var range: DynamicRange = .sdr
        /// Bits a second: the segments' highest (or, before they're measured, the encoder's cap).
        var peakBitRate: Int?
        var averageBitRate: Int?
        var segments = 0
        var bytes = 0
        var seconds = 0.0
        var longestSegment = 0.0
    }

    static let soundGroup = "audio"

    /// The master playlist: every rung (largest first) with the sound rendition they share.
    /// BANDWIDTH is a rung's peak plus the sound's, AVERAGE-BANDWIDTH (once measured) their averages.
    /// `subtitles`, when given, is the subtitle rendition's EXT-X-MEDIA line, group `HLSSubtitles.group`;
    /// `sessionData`, lines naming data for the whole presentation (`HLSChapters`).
    static func master(_ rungs: [Stream], sound: (bitRate: Int, measured: Stream?)?, subtitles: String? = nil,
                       sessionData: [String] = []) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"] + sessionData
        if let subtitles { lines.append(subtitles) }
        if sound != nil {
            lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(soundGroup)\",NAME=\"Sound\",DEFAULT=YES,AUTOSELECT=YES,"
                         + "CHANNELS=\"2\",URI=\"\(HLSLadder.soundPlaylist)\"")
        }
        let soundPeak = sound.map { $0.measured?.peakBitRate ?? $0.bitRate } ?? 0
        let soundAverage = sound.map { $0.measured?.averageBitRate ?? $0.bitRate } ?? 0
        for rung in rungs {
            var attributes = ["BANDWIDTH=\((rung.peakBitRate ?? 0) + soundPeak)"]
            if let average = rung.averageBitRate { attributes.append("AVERAGE-BANDWIDTH=\(average + soundAverage)") }
            let codecs = [rung.codecs] + (sound != nil ? ["mp4a.40.2"] : [])
            attributes.append("CODECS=\"\(codecs.joined(separator: ","))\"")
            attributes.append("RESOLUTION=\(rung.width)x\(rung.height)")
            if let rate = rung.frameRate { attributes.append("FRAME-RATE=" + String(format: "%.3f", rate.value)) }
            attributes.append("VIDEO-RANGE=\(rung.range.rawValue)")
            if sound != nil { attributes.append("AUDIO=\"\(soundGroup)\"") }
            if subtitles != nil { attributes.append("SUBTITLES=\"\(HLSSubtitles.group)\"") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(rung.playlist)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `avc1.PPCCLL`: the profile, constraint flags and level of the sequence parameter set in an
    /// encoder's header (an avcC record, or Annex B NAL units as libx264 gives them).
    static func avcCodecs(_ extradata: [UInt8]) -> String {
        var fields: ArraySlice<UInt8>?
        if extradata.first == 1, extradata.count >= 4 {
            fields = extradata[1...3]
        } else {
            // After a start code, the first NAL unit of type 7 (an SPS): its three bytes after the header.
            for index in extradata.indices.dropLast(4) where extradata[index] == 0 && extradata[index + 1] == 0
                && extradata[index + 2] == 1 && extradata[index + 3] & 0x1F == 7 {
                fields = extradata[(index + 4)...].prefix(3)
                break
            }
        }
        guard let fields, fields.count == 3 else { return "avc1" }
        return "avc1." + fields.map { String(format: "%02x", $0) }.joined()
    }

    /// A media playlist's segments in order: each one's EXTINF seconds and URI.
    static func segments(of text: String) -> [(seconds: Double, uri: String)] {
        var found: [(Double, String)] = []
        var pending: Double?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#EXTINF:") {
                pending = Double(line.dropFirst(8).prefix { $0 != "," })
            } else if !line.isEmpty, !line.hasPrefix("#"), let seconds = pending {
                found.append((seconds, line))
                pending = nil
            }
        }
        return found
    }

    /// The media playlist as a finished one: its EVENT type made VOD (it has its ENDLIST).
    static func vod(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { $0 == "#EXT-X-PLAYLIST-TYPE:EVENT" ? "#EXT-X-PLAYLIST-TYPE:VOD" : $0 }
        if !lines.contains("#EXT-X-ENDLIST") {
            if lines.last == "" { lines.removeLast() }
            lines += ["#EXT-X-ENDLIST", ""]
        }
        return lines.joined(separator: "\n")
    }

    /// `stream` measured from its segments: sizes (the init segment's counted once), seconds, and the
    /// peak and average rates of the media segments (what a player streams while playing), the peak as
    /// RFC 8216 (4.3.4.2) has it for a playlist of target duration `target`.
    static func measured(_ stream: Stream, segments: [(seconds: Double, bytes: Int)], initBytes: Int, target: Int) -> Stream {
        var stream = stream
        stream.segments = segments.count
        let mediaBytes = segments.reduce(0) { $0 + $1.bytes }
        stream.bytes = initBytes + mediaBytes
        stream.seconds = segments.reduce(0) { $0 + $1.seconds }
        stream.longestSegment = segments.map(\.seconds).max() ?? 0
        let average = stream.seconds > 0 ? Double(mediaBytes * 8) / stream.seconds : 0
        stream.peakBitRate = Int((peakRate(segments, target: Double(target)) ?? average).rounded(.up))
        stream.averageBitRate = Int(average.rounded(.up))
        return stream
    }

    /// The largest bit rate of any run of consecutive segments lasting 0.5 to 1.5 times `target`
    /// seconds (so a short last segment counts with the one before it); nil when no run does.
    static func peakRate(_ segments: [(seconds: Double, bytes: Int)], target: Double) -> Double? {
        var peak: Double?
        for first in segments.indices {
            var seconds = 0.0, bytes = 0
            for segment in segments[first...] {
                seconds += segment.seconds
                bytes += segment.bytes
                if seconds > 1.5 * target { break }
                if seconds >= 0.5 * target { peak = max(peak ?? 0, Double(bytes * 8) / seconds) }
            }
        }
        return peak
    }

    /// A media playlist's `EXT-X-TARGETDURATION`.
    static func targetDuration(of text: String) -> Int? {
        text.split(whereSeparator: \.isNewline).lazy.compactMap { line in
            line.hasPrefix("#EXT-X-TARGETDURATION:") ? Int(line.dropFirst(22).trimmingCharacters(in: .whitespaces)) : nil
        }.first
    }

    /// A media playlist listing `segments` after their init segment: VOD when `ended`, EVENT while
    /// more are coming. Its target duration is `target`, or the longest segment's seconds rounded to
    /// the nearest whole (RFC 8216 bounds every segment so).
    static func mediaPlaylist(initSegment: String, segments: [(seconds: Double, uri: String)], target: Int? = nil,
                              ended: Bool = true) -> String {
        let longest = segments.map { Int($0.seconds.rounded()) }.max() ?? 1
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, target ?? longest, longest))", "#EXT-X-MEDIA-SEQUENCE:0",
                     "#EXT-X-PLAYLIST-TYPE:" + (ended ? "VOD" : "EVENT"), "#EXT-X-INDEPENDENT-SEGMENTS",
                     "#EXT-X-MAP:URI=\"\(initSegment)\""]
        for segment in segments {
            lines += [String(format: "#EXTINF:%.6f,", segment.seconds), segment.uri]
        }
        return (lines + (ended ? ["#EXT-X-ENDLIST"] : [])).joined(separator: "\n") + "\n"
    }

    /// The RFC 6381 codecs of the video track an init segment describes (its avcC or hvcC record).
    static func videoCodecs(ofInit bytes: [UInt8]) -> String {
        switch FragmentBoxes.codecConfiguration(ofInit: bytes) {
        case let (type, record)? where type == "hvcC": return HEVCRecord(record)?.codecs ?? "hvc1"
        case let (_, record)?: return avcCodecs(record)
        case nil: return "avc1"
        }
    }
}
