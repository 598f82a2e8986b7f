import Foundation
internal import SegueMedia
import SegueModel
import SegueCore
import SegueRuntime

/// The files of an HLS output, all beside its master playlist: each
/// rendition's playlist, init segment and numbered `.m4s` segments. Checked
/// before any work (nothing written over without `-y`), each written
/// complete under its final name (segments renamed from `.tmp`, playlists
/// replaced whole), and all removed when the render fails or is stopped.
final class LadderFiles {
    let master: String
    let folder: String
    /// The renditions' playlists and the prefixes of their segment files.
    private let renditions: [(playlist: String, prefix: String)]
    /// Whether the folder was made for this output (removed again, when empty, on failure).
    private var madeFolder = false

    /// The subtitle rendition's files, when there is one: written whole at the end.
    private let subtitled: Bool

    /// The output's chapters, written beside the master when asked for.
    private let chapters: HLSChapters?

    init(master: String, ladder: HLSLadder, sound: Bool, subtitles: Bool, chapters: HLSChapters? = nil) {
        self.master = master
        folder = (master as NSString).deletingLastPathComponent
        renditions = ladder.rungs.map { ($0.playlist, $0.prefix) } + (sound ? [(HLSLadder.soundPlaylist, HLSLadder.soundPrefix)] : [])
        subtitled = subtitles
        self.chapters = chapters
    }

    /// Every name this output may write, and whether `name` (a file in the folder) is one of them.
    func owns(_ name: String) -> Bool {
        if name == (master as NSString).lastPathComponent { return true }
        // A file being written whole (`OutputFile.writeAtomically`) or the sound's fragments being made.
        if name.hasPrefix("."), let range = name.range(of: ".partial-") { return owns(String(name[name.index(after: name.startIndex)..<range.lowerBound])) }
        if name == SoundFragments.stagingName(HLSLadder.soundPrefix) { return true }
        if name == HLSChapters.file { return true }
        if name == HLSSubtitles.playlist || (name.hasPrefix(HLSSubtitles.prefix + "_") && name.hasSuffix(".vtt")) { return true }
        return renditions.contains { rendition in
            name == rendition.playlist || name == rendition.playlist + ".tmp" || name == HLSLadder.initSegment(rendition.prefix)
                || (name.hasPrefix(rendition.prefix + "_") && (name.hasSuffix(".m4s") || name.hasSuffix(".m4s.tmp"))
                    && name.dropFirst(rendition.prefix.count + 1).prefix { $0 != "." }.allSatisfy(\.isNumber))
        }
    }

    /// Every file of the finished output, by path, in name order: the master
    /// playlist, each rendition's playlist, init segment and media segments,
    /// and the subtitles and chapters it has.
    func written() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".tmp") && owns($0) }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Before any work: the folder can be made or written in, and the master and
    /// playlists are only replaced with `overwrite` (whose stale segments go first).
    func prepare(overwrite: Bool) throws {
        try OutputFile.checkOutput(master, overwrite: overwrite, folderMayBeMade: true)
        for playlist in renditions.map(\.playlist) + (subtitled ? [HLSSubtitles.playlist] : []) + (chapters != nil ? [HLSChapters.file] : []) {
            try OutputFile.checkOutput((folder as NSString).appendingPathComponent(playlist), overwrite: overwrite, folderMayBeMade: true)
        }
        madeFolder = !FileManager.default.fileExists(atPath: folder)
        try OutputFile.makeOutputFolder(for: master)
        removeFiles()
    }

    /// Removes every file of this output (a failed or stopped render's), and the folder if it was made for it.
    func removeWritten() {
        removeFiles()
        if madeFolder { rmdir(folder) }
    }

    private func removeFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where owns(name) { unlink((folder as NSString).appendingPathComponent(name)) }
    }

    /// A muxer writing rendition `playlist`: CMAF segments named `prefix_00000.m4s` after an
    /// init segment `prefix_init.mp4`, cut at the first keyframe `seconds` after the last cut.
    func muxer(playlist: String, prefix: String, seconds: Double) throws -> RenditionMuxer {
        let muxer = try Muxer(path: (folder as NSString).appendingPathComponent(playlist), format: "hls")
        return RenditionMuxer(muxer: muxer, options: [
            "hls_time": String(format: "%.6f", seconds), "hls_list_size": "0", "hls_playlist_type": "event",
            "hls_segment_type": "fmp4", "hls_flags": "temp_file+independent_segments",
            "hls_fmp4_init_filename": HLSLadder.initSegment(prefix),
            "hls_segment_filename": (folder as NSString).appendingPathComponent(prefix + "_%05d.m4s"),
        ])
    }

    /// Whether every rendition has written its playlist (its first segment is complete).
    func mediaPlaylistsExist() -> Bool {
        renditions.allSatisfy { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0.playlist)) }
    }

    /// Writes the subtitle rendition whole: its segments, then its playlist.
    func write(_ subtitles: HLSSubtitles) throws {
        for index in 0..<subtitles.segmentCount {
            try OutputFile.writeAtomically(Data(subtitles.segment(index).utf8),
                                           to: (folder as NSString).appendingPathComponent(HLSSubtitles.segmentName(index)))
        }
        try OutputFile.writeAtomically(Data(subtitles.mediaPlaylist.utf8), to: (folder as NSString).appendingPathComponent(HLSSubtitles.playlist))
    }

    /// Puts `source` (a finished file elsewhere) in the folder as `name`: a hard link, or, across
    /// file systems, a copy written under a temporary name and renamed.
    func place(_ source: String, as name: String) throws {
        let target = (folder as NSString).appendingPathComponent(name)
        unlink(target)
        guard link(source, target) != 0 else { return }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw SegueError(.readFailed, subject: source, detail: "can't read it (\(error.localizedDescription))")
        }
        try OutputFile.writeAtomically(data, to: target)
    }

    /// Writes a media playlist whole.
    func writePlaylist(_ playlist: String, text: String) throws {
        try OutputFile.writeAtomically(Data(text.utf8), to: (folder as NSString).appendingPathComponent(playlist))
    }

    /// A rendition as the report gives it.
    func rendition(_ stream: HLSPlaylists.Stream) -> StitchReport.Rendition {
        StitchReport.Rendition(playlist: (folder as NSString).appendingPathComponent(stream.playlist), codecs: stream.codecs,
                               width: stream.width, height: stream.height, segments: stream.segments, bytes: stream.bytes,
                               peakBitRate: stream.peakBitRate ?? 0, averageBitRate: stream.averageBitRate ?? 0,
                               longestSegmentSeconds: stream.longestSegment)
    }

    /// Writes the chapters file, when there are chapters; the master's lines naming it.
    func writeChapters() throws -> [String] {
        guard let chapters else { return [] }
        try OutputFile.writeAtomically(try chapters.json(), to: (folder as NSString).appendingPathComponent(HLSChapters.file))
        return [HLSChapters.sessionDataLine]
    }

    func writeMaster(_ text: String) throws {
        try OutputFile.writeAtomically(Data(text.utf8), to: master)
    }

    /// Makes a finished rendition's playlist VOD (replaced whole) and measures its segments.
    func finalise(_ stream: HLSPlaylists.Stream) throws -> HLSPlaylists.Stream {
        let path = (folder as NSString).appendingPathComponent(stream.playlist)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try OutputFile.writeAtomically(Data(HLSPlaylists.vod(text).utf8), to: path)
        let segments = HLSPlaylists.segments(of: text).map { segment in
            (segment.seconds, FileSize.bytes(atPath: (folder as NSString).appendingPathComponent(segment.uri)) ?? 0)
        }
        let prefix = renditions.first { $0.playlist == stream.playlist }?.prefix ?? ""
        let initBytes = FileSize.bytes(atPath: (folder as NSString).appendingPathComponent(HLSLadder.initSegment(prefix))) ?? 0
        return HLSPlaylists.measured(stream, segments: segments, initBytes: initBytes, target: HLSPlaylists.targetDuration(of: text) ?? 1)
    }

    /// A rendition's init segment and the media segments holding output `frames`, one after the
    /// other in a hidden file (a fragmented MP4), for reading them back: its path and first frame.
    func excerpt(of playlist: String, frames: Range<Int>, segmentFrames: Int) throws -> CoverMaker.Source {
        let text = try String(contentsOfFile: (folder as NSString).appendingPathComponent(playlist), encoding: .utf8)
        let segments = HLSPlaylists.segments(of: text)
        let first = frames.lowerBound / segmentFrames, last = min(segments.count - 1, (frames.upperBound - 1) / segmentFrames)
        let prefix = renditions.first { $0.playlist == playlist }?.prefix ?? ""
        var bytes = try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(HLSLadder.initSegment(prefix))))
        for segment in segments[first...max(first, last)] {
            bytes += try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(segment.uri)))
        }
        try OutputFile.writeAtomically(bytes, to: excerptPath)
        return CoverMaker.Source(path: excerptPath, firstFrame: first * segmentFrames)
    }

    private var excerptPath: String { (folder as NSString).appendingPathComponent(".cover-excerpt.mp4") }

    func removeExcerpt() {
        unlink(excerptPath)
    }

}

/// A rendition's HLS muxer and the options its header is written with (after its stream is added).
struct RenditionMuxer {
    let muxer: Muxer
    let options: [String: String]

    func writeHeader() throws {
        try muxer.writeHeader(options: options)
    }
}
