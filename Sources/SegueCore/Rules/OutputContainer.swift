/// The container an output's name says, and what it can hold: the one
/// place that ties an extension to what Segue writes under it.
package enum OutputContainer: String, Sendable, CaseIterable, Codable {
    /// ISO base media (libavformat's `mp4` muxer): `.mp4`, `.m4v` and `.mov`
    /// (QuickTime reads an ISO file as its own; MOV and MP4 share one demuxer).
    case mp4
    /// WebM (Matroska's web subset): VP9 or AV1 with Opus sound and WebVTT text.
    case webm
    /// An HLS ladder: a master playlist (`.m3u8`) beside CMAF renditions, H.264 (and HEVC for HDR) with AAC.
    case hls

    /// Every extension Segue writes, in the order messages list them, and its container.
    package static let extensions: [(name: String, container: OutputContainer)] =
        [("mp4", .mp4), ("m4v", .mp4), ("mov", .mp4), ("webm", .webm), ("m3u8", .hls)]

    /// The container `path`'s extension (any case) says; nil for one Segue doesn't write, or none.
    package init?(path: String) {
        guard let suffix = OutputContainer.suffix(of: path)?.lowercased(),
              let known = OutputContainer.extensions.first(where: { $0.name == suffix }) else { return nil }
        self = known.container
    }

    /// Why `path` can't be written, for a usage error naming it: its extension is one Segue doesn't write, or it has none.
    package static func refusal(path: String) -> String {
        let names = extensions.map { "." + $0.name }
        let written = "Segue writes \(names.dropLast().joined(separator: ", ")) and \(names.last!) files"
        guard let suffix = suffix(of: path), !suffix.isEmpty else { return "\(path): \(written); give the output one of those extensions" }
        return "\(path): \(written), not .\(suffix)"
    }

    /// What follows the last dot of the file's name, nil without one (a name starting with its only dot has none).
    private static func suffix(of path: String) -> Substring? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...]
    }

    /// libavformat's muxer.
    package var muxerName: String { rawValue }

    /// The codec a stitch writes when none is chosen: H.264 in MP4, VP9 in WebM.
    package var defaultCodec: VideoCodecChoice { self == .webm ? .vp9 : .h264 }

    /// The video codecs it holds: WebM only VP9 and AV1 (its specification's), an HLS ladder H.264 and
    /// HEVC (its HDR rungs), MP4 all four.
    package func holds(_ codec: VideoCodecChoice) -> Bool {
        switch self {
        case .mp4: return true
        case .webm: return codec == .vp9 || codec == .av1
        case .hls: return codec == .h264 || codec == .hevc
        }
    }

    /// What it is, as a message names it: "MP4", "WebM", "an HLS ladder".
    package var displayName: String {
        switch self {
        case .mp4: return "MP4"
        case .webm: return "WebM"
        case .hls: return "an HLS ladder"
        }
    }

    /// The video codecs it holds, as a message names them ("VP9 or AV1"); every codec for MP4.
    package var heldVideo: String {
        switch self {
        case .mp4: return "H.264, HEVC, VP9 or AV1"
        case .webm: return "VP9 or AV1"
        case .hls: return "H.264 or HEVC"
        }
    }

    /// Its sound codec: AAC-LC in MP4, Opus in WebM.
    package var soundCodec: String { self == .webm ? "opus" : "aac" }
}
