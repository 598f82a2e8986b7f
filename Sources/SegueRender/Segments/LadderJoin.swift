import Foundation
internal import SegueMedia
internal import SegueBitstream
import SegueModel
import SegueRuntime

/// A join's HLS output: the segments' media files, already at their places
/// on the output's time line, are put beside the master playlist under the
/// output's names (hard links where the work folder shares the file system,
/// copies otherwise; nothing is decoded or encoded); the first segment's init
/// segments serve every rendition, whose sample descriptions every segment
/// must share. Then the playlists: each rendition's (VOD), the subtitle
/// rendition, and the master last, so no playlist ever names a file that
/// isn't complete.
extension SegmentJoiner {
    /// Writes the output (and the cover and poster, from its sharpest rung, when asked for);
    /// returns each rendition as measured (rungs first, the sound last) and every file written.
    package func writeLadder(stop: StopRequest) throws -> (renditions: [StitchReport.Rendition], cover: StitchReport.Cover?, files: [String]) {
        guard let ladder = record.ladder else { throw SegueError(.readFailed, subject: work, detail: "the plan's output isn't HLS") }
        let subtitles = plan.subtitleTrack(record.settings)
        let files = LadderFiles(master: record.output, ladder: ladder, sound: record.settings.includeAudio, subtitles: subtitles != nil,
                                chapters: record.settings.chapters ? HLSChapters(chapters: plan.chapters, frameRate: plan.canvas.frameRate) : nil)
        try files.prepare(overwrite: record.overwrite)
        do {
            let rungs = try ladder.rungs.map { rung in
                try place(rung.playlist, prefix: rung.prefix, files: files, stop: stop,
                          stream: HLSPlaylists.Stream(playlist: rung.playlist, width: rung.width, height: rung.height,
                                                      frameRate: ladder.frameRate, codecs: "", range: rung.range))
            }
            let sound = try record.settings.includeAudio ? place(HLSLadder.soundPlaylist, prefix: HLSLadder.soundPrefix, files: files, stop: stop,
                                                                 stream: HLSPlaylists.Stream(playlist: HLSLadder.soundPlaylist, codecs: "mp4a.40.2"))
                : nil
            let text = subtitles.map {
                HLSSubtitles(track: $0, segmentMilliseconds: ladder.segmentSeconds * 1000, segmentCount: rungs.first?.segments ?? 0)
            }
            if let text { try files.write(text) }
            let cover = try CoverMaker.joined(record: record, plan: plan, manifests: manifests) { frames in
                try files.excerpt(of: ladder.rungs[0].playlist, frames: frames, segmentFrames: ladder.segmentFrames)
            }
            files.removeExcerpt()
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            try files.writeMaster(HLSPlaylists.master(rungs, sound: sound.map { (record.settings.audioBitRate, $0) },
                                                      subtitles: text?.mediaLine, sessionData: try files.writeChapters()))
            return ((rungs + [sound].compactMap { $0 }).map { files.rendition($0) }, cover, files.written())
        } catch {
            files.removeExcerpt()
            files.removeWritten()
            throw error
        }
    }

    /// Puts one rendition's files in place and writes its playlist: `stream` measured, its codecs read from its init segment.
    private func place(_ playlist: String, prefix: String, files: LadderFiles, stop: StopRequest,
                       stream: HLSPlaylists.Stream) throws -> HLSPlaylists.Stream {
        let pieces = try manifests.map { manifest in
            guard let piece = manifest.renditions?.first(where: { $0.playlist == playlist }) else {
                throw SegueError(.readFailed, subject: work, detail: "segment \(manifest.segment) holds no \(playlist)")
            }
            return piece
        }
        let initBytes = try bytes(pieces[0].initSegment)
        let description = FragmentBoxes.sampleDescription(ofInit: initBytes)
        for (manifest, piece) in zip(manifests, pieces) where try FragmentBoxes.sampleDescription(ofInit: bytes(piece.initSegment)) != description {
            throw SegueError(.readFailed, subject: inWork(piece.initSegment.name),
                             detail: "segment \(manifest.segment)'s \(playlist) was encoded otherwise than segment 0's (render it again)")
        }
        let initName = HLSLadder.initSegment(prefix)
        try files.place(inWork(pieces[0].initSegment.name), as: initName)
        var listed: [(seconds: Double, uri: String)] = []
        var measured: [(seconds: Double, bytes: Int)] = []
        for file in pieces.flatMap(\.segments) {
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            let name = HLSLadder.mediaSegment(prefix, listed.count)
            try files.place(inWork(file.name), as: name)
            listed.append((file.seconds ?? 0, name))
            measured.append((file.seconds ?? 0, file.bytes))
        }
        let text = HLSPlaylists.mediaPlaylist(initSegment: initName, segments: listed)
        try files.writePlaylist(playlist, text: text)
        var stream = stream
        if stream.codecs.isEmpty { stream.codecs = HLSPlaylists.videoCodecs(ofInit: initBytes) }
        return HLSPlaylists.measured(stream, segments: measured, initBytes: initBytes.count, target: HLSPlaylists.targetDuration(of: text) ?? 1)
    }

    private func bytes(_ file: FileReceipt) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: inWork(file.name))))
    }
}
