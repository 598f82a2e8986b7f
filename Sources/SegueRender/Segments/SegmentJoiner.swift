import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// Writes the joined output from checked segments. An MP4 (here): every segment's video
/// packets copied, as they are, into one track (each segment starts with an
/// IDR, all made with the same encoder settings, so the first segment's
/// parameter sets serve them all), and every segment's AAC packets, each its
/// stretch of the whole output's AAC frame grid (`SegmentSound`), laid end to
/// end from the first segment's priming packet, so nothing is encoded here.
/// Written to a temporary file beside the target and renamed on success.
/// An HLS ladder: `writeLadder` (LadderJoin.swift).
package struct SegmentJoiner {
    let record: SegmentPlan
    let plan: Plan
    let work: String
    let manifests: [SegmentManifest]

    package init(record: SegmentPlan, plan: Plan, work: String, manifests: [SegmentManifest]) {
        self.record = record
        self.plan = plan
        self.work = work
        self.manifests = manifests
    }

    func inWork(_ name: String) -> String { (work as NSString).appendingPathComponent(name) }

    /// Writes the output (and the cover and poster, from it, when asked for); returns the audio samples written.
    package func writeMP4(stop: StopRequest) throws -> (samples: Int, cover: StitchReport.Cover?) {
        try OutputFile.write(record.output, stop: stop) { path in
            let samples = try writeFile(path, stop: stop)
            let cover = try CoverMaker.joined(record: record, plan: plan, manifests: manifests) { _ in CoverMaker.Source(path: path) }
            return (samples, cover)
        }
    }

    private func writeFile(_ path: String, stop: StopRequest) throws -> Int {
        let frameBase = plan.canvas.frameRate.inverted
        // The track's header, reordering and stored form come from the first segment.
        let track = try firstSegmentTrack(frameBase: frameBase)
        let sink = try makeSink(path, track: track)
        // Where the next AAC packet's decoded samples start: the priming packet first.
        var sound = SoundCursor(next: -Int64(SegmentSound.blockSize), total: Int64(plan.sampleIndex(atFrame: plan.totalFrames)))
        for (segment, manifest) in zip(record.segments, manifests) {
            try copy(segment, manifest, track: track, frameBase: frameBase, into: sink, sound: &sound, stop: stop)
        }
        try OutputFile.writing(to: record.output) { try sink.finish() }
        return record.settings.includeAudio ? plan.sampleIndex(atFrame: plan.totalFrames) : 0
    }

    /// The output's writer: the settings of the whole, the video copied as the first segment's `track` says.
    private func makeSink(_ path: String, track: SmartVideo) throws -> EncodingSink {
        let settings = record.settings
        let canvas = plan.canvas
        var format = EncodingSink.Format(canvas: canvas, settings: settings)
        format.chapters = settings.chapters ? plan.chapters : []
        format.subtitles = plan.subtitleTrack(settings)
        format.videoLayout = track
        return try OutputFile.writing(to: record.output) { try EncodingSink(path: path, format: format) }
    }

    /// Where the joined sound has got to: the output sample the next AAC packet's block starts at.
    private struct SoundCursor {
        var next: Int64
        let total: Int64
        let packet = Packet()
    }

    /// Copies one segment's pictures, and its sound as the pictures go, so the
    /// muxer interleaves without holding a segment; checks both against the plan.
    private func copy(_ segment: SegmentPlan.Segment, _ manifest: SegmentManifest, track: SmartVideo, frameBase: Rational,
                      into sink: EncodingSink, sound: inout SoundCursor, stop: StopRequest) throws {
        guard let videoName = manifest.video else {
            throw SegueError(.readFailed, subject: work, detail: "segment \(segment.index)'s receipt names no video")
        }
        let demuxer = try InputAccess().openDemuxer(inWork(videoName))
        guard let video = demuxer.bestStream(.video) else {
            throw SegueError(.readFailed, subject: inWork(videoName), detail: "segment \(segment.index) holds no video")
        }
        let timeBase = demuxer.streams[video].timeBase
        let ticksPerFrame = track.ticksPerFrame
        guard demuxer.streams[video].extradata == track.extradata, Self.ticksPerFrame(timeBase, frameBase: frameBase) == ticksPerFrame else {
            throw SegueError(.readFailed, subject: inWork(videoName),
                             detail: "segment \(segment.index) was encoded with other parameter sets or time base than segment 0 (render it again)")
        }
        let sounds = try manifest.sound.map { try InputAccess().openDemuxer(inWork($0)) }
        let packet = Packet()
        var copied = 0
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == video else { packet.unref(); continue }
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            guard let pts = packet.pts else {
                throw SegueError(.readFailed, subject: inWork(videoName), detail: "a packet without a time")
            }
            // Every segment counts in the track's ticks (its time base is the first's).
            let time = FrameTime(frames: pts, over: ticksPerFrame).shifted(by: segment.startFrame)
            guard segment.startFrame..<segment.endFrame ~= time.frame else {
                throw SegueError(.readFailed, subject: inWork(videoName),
                                 detail: "segment \(segment.index) shows a picture at \(time), outside its \(segment.startFrame)..<\(segment.endFrame)")
            }
            let end = packet.duration > 0 ? FrameTime(frames: pts + packet.duration, over: ticksPerFrame) : nil
            try OutputFile.writing(to: record.output) { try sink.copy(packet, at: time, until: end?.shifted(by: segment.startFrame)) }
            copied += 1
            try copySound(from: sounds, into: sink, cursor: &sound,
                          upTo: Int64(plan.sampleIndex(atFrame: min(time.frame + 1, segment.endFrame))))
        }
        let pictures = manifest.pictures ?? segment.frames
        guard copied == pictures else {
            throw SegueError(.readFailed, subject: inWork(videoName),
                             detail: "segment \(segment.index) holds \(copied) pictures, the plan \(pictures)")
        }
        try copySound(from: sounds, into: sink, cursor: &sound, upTo: .max)
        if sounds != nil, segment.index + 1 < record.segments.count, sound.next != Int64(segment.audioEnd) {
            throw SegueError(.readFailed, subject: inWork(manifest.sound ?? ""),
                             detail: "segment \(segment.index)'s sound ends at sample \(sound.next), the plan's grid at \(segment.audioEnd)")
        }
    }

    /// Copies a segment's AAC packets whose blocks start before `sample`, each
    /// stamped on the output's grid; the last lasts to the end of the sound, as
    /// the whole stitch's encoder says.
    private func copySound(from sounds: Demuxer?, into sink: EncodingSink, cursor: inout SoundCursor, upTo sample: Int64) throws {
        guard let sounds else { return }
        let packet = cursor.packet
        while cursor.next < sample, try sounds.read(into: packet) {
            let duration = min(Int64(SegmentSound.blockSize), cursor.total - cursor.next)
            guard duration > 0 else {
                packet.unref()
                continue
            }
            packet.pts = cursor.next
            packet.dts = cursor.next
            packet.duration = duration
            cursor.next += Int64(SegmentSound.blockSize)
            try OutputFile.writing(to: record.output) { try sink.copy(sound: packet) }
        }
    }

    /// The track the first segment holds: its parameter sets, its sample entry
    /// (hev1 when `--smart` copied HEVC samples carrying their own sets), how
    /// many frames its decoding times run behind its pictures (the encoder's
    /// reordering), and (`--smart` copying phone clips) its display matrix and range.
    private func firstSegmentTrack(frameBase: Rational) throws -> SmartVideo {
        guard let first = manifests.first?.video else { throw SegueError(.readFailed, subject: work, detail: "no segments") }
        let demuxer = try InputAccess().openDemuxer(inWork(first))
        guard let video = demuxer.bestStream(.video) else {
            throw SegueError(.readFailed, subject: inWork(first), detail: "segment 0 holds no video")
        }
        let stream = demuxer.streams[video]
        let packet = Packet()
        var delay = 0
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == video else { continue }
            if let dts = packet.dts, let pts = packet.pts {
                delay = max(0, Int(stream.timeBase.rescale(pts - dts, to: frameBase)))
            }
            break
        }
        guard let ticksPerFrame = Self.ticksPerFrame(stream.timeBase, frameBase: frameBase) else {
            throw SegueError(.readFailed, subject: inWork(first), detail: "segment 0 counts time in \(stream.timeBase), not a whole part of a frame")
        }
        var track = SmartVideo(extradata: stream.extradata, encoderParams: "", renumbering: nil,
                               sampleEntry: stream.codecTag.isEmpty ? nil : stream.codecTag, reorderDelay: delay,
                               orientation: stream.displayMatrix.flatMap(DisplayOrientation.init(matrix:)) ?? .upright,
                               fullRange: stream.colour.fullRange == true)
        track.ticksPerFrame = ticksPerFrame
        return track
    }

    /// How many ticks of `timeBase` make a frame (`frameBase`), when a whole number do.
    private static func ticksPerFrame(_ timeBase: Rational, frameBase: Rational) -> Int64? {
        let numerator = Int64(frameBase.numerator) * Int64(timeBase.denominator)
        let denominator = Int64(frameBase.denominator) * Int64(timeBase.numerator)
        return denominator > 0 && numerator % denominator == 0 ? numerator / denominator : nil
    }
}
