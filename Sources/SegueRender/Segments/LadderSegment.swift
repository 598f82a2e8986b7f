import Foundation
internal import SegueMedia
internal import SegueBitstream
import SegueInput
import SegueModel
import SegueRuntime

/// One segment of an HLS plan, rendered into a folder of its own in the
/// work folder: every rung's CMAF segments (cut by libavformat's HLS muxer on
/// the output's grid, as one process cuts them) and the sound's (cut by
/// `SoundFragments` where one process cuts them), each moved from the
/// render's own time line, which starts at 0, to its place in the whole
/// output's and numbered on from the HLS segments before it. The join then
/// only names them in playlists.
struct LadderSegment {
    let record: SegmentPlan
    let segment: SegmentPlan.Segment
    let ladder: HLSLadder
    let work: String
    /// The folder's name in the work folder once complete, and the one it is written under.
    let folderName: String
    var partialFolder: String { (work as NSString).appendingPathComponent("." + folderName + ".partial") }

    /// The output's HLS segment this segment's first one is.
    var firstIndex: Int { segment.startFrame / ladder.segmentFrames }

    /// Renders the segment into the partial folder and moves its media segments into place; what
    /// the render made, and each rendition's files (named as they will be in the completed folder).
    func render(stitcher: Stitcher, isLast: Bool, stop: StopRequest,
                progress: (StitchProgress) -> Void) throws -> (rendered: Stitcher.Rendered, renditions: [RenditionPiece]) {
        let soundPath = record.settings.includeAudio ? (partialFolder as NSString).appendingPathComponent("sound.m4a") : nil
        let rendered = try segment.render(with: stitcher, isLast: isLast, at: partialFolder, soundPath: soundPath, stop: stop,
                                          progress: progress).checked(segment, output: record.output)
        var pieces = try ladder.rungs.map { try placeRung($0) }
        if let soundPath {
            pieces.append(try placeSound(from: soundPath, totalSamples: record.totalSamples))
            unlink(soundPath)
        }
        return (rendered, pieces)
    }

    /// A rung's media segments (as its playlist lists them), moved `startFrame` frames on.
    private func placeRung(_ rung: HLSLadder.Rung) throws -> RenditionPiece {
        let text = try String(contentsOfFile: path(rung.playlist), encoding: .utf8)
        let listed = HLSPlaylists.segments(of: text)
        guard listed.count == (segment.frames + ladder.segmentFrames - 1) / ladder.segmentFrames else {
            throw SegueError(.writeFailed, subject: path(rung.playlist),
                             detail: "segment \(segment.index)'s \(rung.name) rung came out in \(listed.count) HLS segments")
        }
        let rate = ladder.frameRate
        let ticks = try shiftTicks(units: Int64(segment.startFrame) * Int64(rate.denominator), per: Int64(rate.numerator),
                                   initSegment: HLSLadder.initSegment(rung.prefix))
        try shift(listed.map(\.uri), by: ticks)
        return try piece(rung.playlist, initSegment: HLSLadder.initSegment(rung.prefix), segments: listed)
    }

    /// The sound's AAC packets, as `SegmentSound` kept them, cut into one fragment per HLS segment
    /// (`HLSLadder.soundCut`) and moved to where they play in the whole.
    private func placeSound(from soundPath: String, totalSamples: Int) throws -> RenditionPiece {
        let canvas = record.canvas
        let encoder = try Encoder.aac(sampleRate: canvas.sampleRate, channels: canvas.soundChannels, bitRate: record.settings.audioBitRate,
                                      globalHeader: true)
        let fragments = try SoundFragments(folder: partialFolder, prefix: HLSLadder.soundPrefix, encoder: encoder, sampleRate: canvas.sampleRate)
        defer { fragments.abandon() }
        // Where each of its HLS segments after the first starts.
        let lastIndex = (segment.endFrame - 1) / ladder.segmentFrames
        let boundaries = ((firstIndex + 1)..<(lastIndex + 1)).map { ladder.soundCut(beforeSegment: $0, canvas: canvas) }
        // The first packet's output sample: the priming packet's before the first segment's.
        let first = segment.index == 0 ? -SegmentSound.blockSize : segment.audioStart
        let demuxer = try InputAccess().openDemuxer(soundPath)
        let packet = Packet()
        var position = first, next = boundaries[...]
        while position < totalSamples, try demuxer.read(into: packet) {
            if let boundary = next.first, position >= boundary {
                try fragments.cut()
                next = next.dropFirst()
            }
            packet.pts = Int64(position - first)
            packet.dts = packet.pts
            packet.duration = Int64(min(SegmentSound.blockSize, totalSamples - position))
            try fragments.write(packet)
            position += SegmentSound.blockSize
        }
        try fragments.finish()
        // On the output's sound time line the priming packet starts at 0.
        let ticks = try shiftTicks(units: Int64(first + SegmentSound.blockSize), per: Int64(canvas.sampleRate),
                                   initSegment: HLSLadder.initSegment(HLSLadder.soundPrefix))
        try shift(fragments.segments.map(\.name), by: ticks)
        return try piece(HLSLadder.soundPlaylist, initSegment: HLSLadder.initSegment(HLSLadder.soundPrefix),
                         segments: fragments.segments.map { ($0.seconds, $0.name) })
    }

    /// `units / per` seconds in the ticks of the track `initSegment` describes; exact, or a failure.
    private func shiftTicks(units: Int64, per: Int64, initSegment: String) throws -> UInt64 {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(initSegment))))
        guard let timescale = FragmentBoxes.timescale(ofInit: bytes), units >= 0, (units * Int64(timescale)) % per == 0 else {
            throw SegueError(.writeFailed, subject: path(initSegment),
                             detail: "segment \(segment.index)'s start doesn't fall on a tick of its track's timescale")
        }
        return UInt64(units * Int64(timescale) / per)
    }

    /// Moves each media segment `ticks` on and numbers its fragment after the output's HLS segments before it.
    private func shift(_ names: [String], by ticks: UInt64) throws {
        for (offset, name) in names.enumerated() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
            let moved: [UInt8]
            do {
                moved = try FragmentBoxes.shifted(bytes, by: ticks, sequence: UInt32(firstIndex + offset + 1))
            } catch {
                throw SegueError(.writeFailed, subject: path(name), detail: "can't place it on the output's time line (\(error))")
            }
            try Data(moved).write(to: URL(fileURLWithPath: path(name)))
        }
    }

    private func piece(_ playlist: String, initSegment: String, segments: [(seconds: Double, uri: String)]) throws -> RenditionPiece {
        func inFolder(_ name: String) -> String { (folderName as NSString).appendingPathComponent(name) }
        let partialName = (partialFolder as NSString).lastPathComponent
        return RenditionPiece(
            playlist: playlist,
            initSegment: try FileReceipt.of((partialName as NSString).appendingPathComponent(initSegment), in: work).renamed(inFolder(initSegment)),
            segments: try segments.map {
                try FileReceipt.of((partialName as NSString).appendingPathComponent($0.uri), in: work, seconds: $0.seconds).renamed(inFolder($0.uri))
            })
    }

    private func path(_ name: String) -> String { (partialFolder as NSString).appendingPathComponent(name) }
}

extension FileReceipt {
    /// The same file under another name (its folder renamed).
    func renamed(_ name: String) -> FileReceipt {
        var copy = self
        copy.name = name
        return copy
    }
}
