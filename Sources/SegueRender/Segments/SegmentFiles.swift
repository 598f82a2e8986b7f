import Foundation
internal import SegueMedia
import SegueInput
import SegueModel

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
    /// File names inside the work folder.
    package var video: String
    package var videoBytes: Int
    package var videoSHA256: String
    package var sound: String?
    package var soundBytes: Int?
    package var soundSHA256: String?
    package var wallSeconds: Double
    package var host: String
    /// Frames made before the segment's first and not written (the warm-up
    /// from its first clip's start, or from where it sought to).
    package var warmUpFrames: Int
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
            if kill(pid, 0) != 0 && errno == ESRCH { unlink((work as NSString).appendingPathComponent(name)) }
        }
    }

    /// The manifest of `segment`, if one is there and reads.
    package static func manifest(work: String, segment: Int) -> SegmentManifest? {
        FileManager.default.contents(atPath: manifestPath(work: work, segment: segment))
            .flatMap { try? JSONDecoder().decode(SegmentManifest.self, from: $0) }
    }

    /// Why `segment` can't be joined, or nil when it can. `deep` checks the
    /// checksums too (the join); without it, presence and sizes (a render
    /// deciding whether it is done).
    package static func problem(with segment: SegmentPlan.Segment, isLast: Bool, work: String, includeAudio: Bool,
                               deep: Bool) -> String? {
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
        var files = [(manifest.video, manifest.videoBytes, manifest.videoSHA256)]
        if includeAudio {
            guard let sound = manifest.sound, let bytes = manifest.soundBytes, let sum = manifest.soundSHA256 else {
                return "its sound is missing"
            }
            files.append((sound, bytes, sum))
        }
        for (name, bytes, sum) in files {
            let path = (work as NSString).appendingPathComponent(name)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
                return "\(name) is missing"
            }
            guard size == bytes else { return "\(name) has \(size) bytes, its receipt says \(bytes)" }
            if deep {
                guard let actual = try? Checksum.sha256(file: path) else { return "\(name) can't be read" }
                guard actual == sum else { return "\(name) is damaged (its checksum differs)" }
            }
        }
        return nil
    }
}
