import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// A rendered segment's receipt, `DIR/segment-NNNNN.json`, written last (by
/// rename) once its files are complete: its presence says the segment is
/// done, and it vouches for the files it names with their sizes and SHA-256.
/// Each render names its files afresh, so two runs of one segment that
/// overlap (a requeue, a pre-empted node) never write into the same file.
package struct SegmentManifest: Codable, Sendable {
    /// The SHA-256 of the plan.json it was rendered from.
    package var plan: String
    package var segment: Int
    package var frames: Int
    /// Samples of the segment's stretch of the sound (its AAC grid stretch).
    package var samples: Int
    /// AAC packets in its sound file.
    package var audioPackets: Int?
    /// File names inside the work folder (an MP4 plan's segment).
    package var video: String?
    package var videoBytes: Int?
    package var videoSHA256: String?
    package var sound: String?
    package var soundBytes: Int?
    package var soundSHA256: String?
    package var wallSeconds: Double
    package var host: String
    /// Frames made before the segment's first and not written (the warm-up
    /// from its first clip's start, or from where it sought to).
    package var warmUpFrames: Int
    /// An HLS plan's segment: each rendition's init segment and media segments, in a folder of its own.
    package var renditions: [RenditionPiece]? = nil
    /// With `--cover` or `--poster`: what the segment's scout saw, for the join to choose the cover's place.
    package var cover: CoverNotes? = nil
    /// Pictures its video holds, when not one per frame (a variable-rate clip's copied at their own times).
    package var pictures: Int? = nil
}

/// One rendition's files from one segment of an HLS plan: its media segments
/// already at their places on the whole output's time line.
package struct RenditionPiece: Codable, Sendable, Equatable {
    /// The output's playlist it belongs to (`video_720p.m3u8`, `audio.m3u8`).
    package var playlist: String
    package var initSegment: FileReceipt
    package var segments: [FileReceipt]
}

/// A file in the work folder, vouched for by its size and SHA-256.
package struct FileReceipt: Codable, Sendable, Equatable {
    /// Its path inside the work folder.
    package var name: String
    package var bytes: Int
    package var sha256: String
    /// A media segment's seconds.
    package var seconds: Double?

    /// The receipt of `name` as it is now in `work`.
    static func of(_ name: String, in work: String, seconds: Double? = nil) throws -> FileReceipt {
        let path = (work as NSString).appendingPathComponent(name)
        let bytes = FileSize.bytes(atPath: path) ?? -1
        return FileReceipt(name: name, bytes: bytes, sha256: try Checksum.sha256(file: path), seconds: seconds)
    }
}

/// Where a plan's segments live in its work folder, and how they are written.
package enum SegmentFiles {
    /// This machine's name, as receipts and reports give it.
    package static var hostName: String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "unknown" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func manifestPath(work: String, segment: Int) -> String {
        (work as NSString).appendingPathComponent(String(format: "segment-%05d.json", segment))
    }

    /// A name no other run uses: `segment-00003-<run>.mp4`.
    package static func freshName(segment: Int, run: String, suffix: String) -> String {
        String(format: "segment-%05d-", segment) + run + suffix
    }

    /// Removes what renders of `segment` on this machine left when they were
    /// killed: partial files whose run (`host-pid-…`) is this host's and whose
    /// process is gone. Runs on other machines, or still running, are left alone.
    package static func removeAbandoned(segment: Int, work: String) {
        let prefix = "." + String(format: "segment-%05d-", segment) + hostName + "-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: work) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".partial") {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid() else { continue }
            // A file, or an HLS segment's folder.
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: (work as NSString).appendingPathComponent(name)) }
        }
    }

    /// The manifest of `segment`, if one is there and reads.
    package static func manifest(work: String, segment: Int) -> SegmentManifest? {
        FileManager.default.contents(atPath: manifestPath(work: work, segment: segment))
            .flatMap { try? JSONDecoder().decode(SegmentManifest.self, from: $0) }
    }

    /// Why `segment` can't be joined, or nil when it can. `deep` checks the
    /// checksums too (the join); without it, presence and sizes (a render
    /// deciding whether it is done). `renditions`: an HLS plan's playlists, which its segments hold.
    package static func problem(with segment: SegmentPlan.Segment, isLast: Bool, work: String, includeAudio: Bool,
                               renditions: [String]? = nil, deep: Bool) -> String? {
        guard let manifest = manifest(work: work, segment: segment.index) else {
            return FileManager.default.fileExists(atPath: manifestPath(work: work, segment: segment.index))
                ? "its receipt is damaged" : "not rendered"
        }
        guard manifest.segment == segment.index else {
            return "its receipt is for segment \(manifest.segment)"
        }
        guard manifest.frames == segment.frames else {
            return "it holds \(manifest.frames) frames, the plan \(segment.frames)"
        }
        if includeAudio, let packets = manifest.audioPackets, !isLast, packets != segment.audioPackets {
            return "it holds \(packets) audio packets, the plan \(segment.audioPackets)"
        }
        let files: [FileReceipt]
        switch (manifest.renditions, renditions) {
        case (let pieces?, let wanted?):
            guard pieces.map(\.playlist) == wanted else { return "it holds other renditions than the plan's" }
            files = pieces.flatMap { [$0.initSegment] + $0.segments }
        case (nil, nil):
            guard let video = manifest.video, let bytes = manifest.videoBytes, let sum = manifest.videoSHA256 else {
                return "its video is missing"
            }
            var both = [FileReceipt(name: video, bytes: bytes, sha256: sum)]
            if includeAudio {
                guard let sound = manifest.sound, let bytes = manifest.soundBytes, let sum = manifest.soundSHA256 else {
                    return "its sound is missing"
                }
                both.append(FileReceipt(name: sound, bytes: bytes, sha256: sum))
            }
            files = both
        default:
            return renditions == nil ? "it is an HLS segment, the plan's output isn't HLS" : "it isn't an HLS segment"
        }
        for file in files {
            let path = (work as NSString).appendingPathComponent(file.name)
            guard let size = FileSize.bytes(atPath: path) else {
                return "\(file.name) is missing"
            }
            guard size == file.bytes else { return "\(file.name) has \(size) bytes, its receipt says \(file.bytes)" }
            if deep {
                guard let actual = try? Checksum.sha256(file: path) else { return "\(file.name) can't be read" }
                guard actual == file.sha256 else { return "\(file.name) is damaged (its checksum differs)" }
            }
        }
        return nil
    }
}
