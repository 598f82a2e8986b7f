import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// Joins the planned clips into one MP4 or WebM (as the output's name says):
/// the current clip plays while the next is pre-opened in the background; at
/// each join the two swap, and the transition is drawn from the last frames of
/// one and the first of the other.
///
/// The output is written through `OutputFile`: a hidden `.NAME.partial` beside the target,
/// renamed only on success and removed on any failure.
package final class Stitcher {
    /// The plan, its loudness measured (see `PlannedStitch`).
    package let plan: Plan
    package let settings: StitchSettings
    /// What it writes: one file, or an HLS ladder.
    package let target: RenderTarget
    /// The file it writes, or the ladder's master playlist.
    package var outputPath: String { target.path }
    /// How the run goes (overwrite, strict, preload), apart from what it makes.
    package let options: RunOptions
    /// Opens every input of the run, clips and music alike, with its network settings and cache.
    package let access: InputAccess
    /// What `--smart` copies of the whole stitch; nil without it.
    let smart: SmartPlan?

    package init(planned: PlannedStitch, target: RenderTarget, options: RunOptions = RunOptions()) {
        plan = planned.plan
        settings = planned.settings
        access = planned.access
        smart = planned.smart
        self.target = target
        self.options = options
    }

    /// Runs the whole stitch; `progress` is called a few times a second, and
    /// raising `stop` ends it within a frame, with nothing written.
    package func run(stop: StopRequest = StopRequest(), progress: (StitchProgress) -> Void = { _ in }) throws -> StitchReport {
        if let ladder = target.ladder { return try runLadder(ladder, stop: stop, progress: progress) }
        try OutputFile.checkOutput(outputPath, overwrite: options.overwrite)
        ProcessPolicy.heapIsQuiet() // what probing, measuring and scanning every clip left behind
        let started = monotonicSeconds()
        var report = try OutputFile.write(outputPath, stop: stop) { temporary in
            let writer: OutputWriter
            do {
                writer = try OutputWriter(path: temporary, container: target.container, canvas: plan.canvas,
                                          settings: settings,
                                          chapters: settings.chapters ? plan.chapters : [], subtitles: plan.subtitleTrack(settings),
                                          videoLayout: smart?.videoLayout, soundLayout: smart?.soundLayout, overlay: try overlay())
            } catch {
                throw OutputFile.writeFailure(error, output: outputPath, doing: "can't start writing")
            }
            writer.scout = coverScout()
            do {
                var report = try play(into: writer, smart: smart, started: started, stop: stop, progress: progress)
                report.cover = try makeCover(scout: writer.scout) { _ in CoverMaker.Source(path: temporary) }
                return report
            } catch {
                writer.abandon()
                throw error
            }
        }
        report.wallSeconds = monotonicSeconds() - started
        report.peakMemoryBytes = peakMemoryBytes()
        return report
    }

    /// Plays the whole stitch into `writer` and finishes it: what was played.
    func play(into writer: OutputWriter, smart: SmartPlan?, started: Double, stop: StopRequest,
              progress: (StitchProgress) -> Void) throws -> StitchReport {
        let played = try withoutActuallyEscaping(progress) { progress in
            try stitch(into: writer, smart: smart, started: started, stop: stop, progress: progress)
        }
        try OutputFile.writing(to: outputPath) { try writer.finish() }
        return report(of: played, smart: smart)
    }

    /// The `--overlay` picture ready to draw, nil without one (checked before
    /// any encoding: see `StitchJob.prepare`).
    func overlay() throws -> PictureOverlay? {
        guard let path = settings.overlay else { return nil }
        let logo = try OverlayPicture.load(path, access: access).mapError { SegueError.badInputs([$0]) }.get()
        return try PictureOverlay(picture: logo.picture, orientation: logo.orientation, canvas: plan.canvas, position: settings.overlayPosition,
                                  widthFraction: settings.overlayWidth, opacity: settings.overlayOpacity)
    }

    /// Renders `segment`'s output frames alone, as the whole stitch would make
    /// them: the video (its own file, starting with an IDR, the encoder
    /// settings of the whole) to `videoPath`, its stretch of the whole
    /// stitch's AAC packets to `soundPath` (see `SegmentSound`; nothing without audio).
    /// Both paths are written in place: the caller renames them.
    package func renderSegment(_ segment: SegmentPlan.Segment, isLast: Bool, videoPath: String, soundPath: String?, stop: StopRequest = StopRequest(),
                       progress: (StitchProgress) -> Void = { _ in }) throws -> RenderedSegment {
        var videoOnly = settings
        videoOnly.includeAudio = false
        let writer: OutputWriter
        do {
            writer = try OutputWriter(path: videoPath, canvas: plan.canvas, settings: videoOnly, videoLayout: self.smart?.videoLayout,
                                      overlay: try overlay())
        } catch {
            throw OutputFile.writeFailure(error, output: videoPath, doing: "can't start writing")
        }
        // With --smart: the whole stitch's copy plan (every segment's track has its layout), GOPs
        // a segment boundary cuts re-encoded (a segment starts with a keyframe of its own).
        return try renderSegment(segment, isLast: isLast, into: writer, smart: self.smart?.cut(at: segment.startFrame, segment.endFrame),
                                 output: videoPath, soundPath: soundPath, stop: stop, progress: progress)
    }

    /// Renders `segment`'s pictures into `writer` (which writes `output`) and its sound to `soundPath`.
    func renderSegment(_ segment: SegmentPlan.Segment, isLast: Bool, into writer: OutputWriter, smart: SmartPlan?, output: String,
                       soundPath: String?, stop: StopRequest,
                       progress: (StitchProgress) -> Void) throws -> RenderedSegment {
        let started = monotonicSeconds()
        do {
            let frames = segment.startFrame..<segment.endFrame
            let sound = try settings.includeAudio ? soundPath.map {
                try SegmentSound(path: $0, segment: segment, isLast: isLast, sampleRate: plan.canvas.sampleRate,
                                 channels: plan.canvas.soundChannels, bitRate: settings.audioBitRate)
            } : nil
            let settle = MusicBed.settleSeconds(settings)
            let window = SegmentWindow(frames: frames, plan: plan, sound: sound,
                                       warmUpFrames: Int((settle * plan.canvas.frameRate.value).rounded(.up)),
                                       seekable: { smart?.copiesVideo(ofClip: $0.index) != true })
            // The cover is made by the join, from what every segment's scout saw.
            writer.scout = coverScout()
            let played = try withoutActuallyEscaping(progress) { progress in
                try stitch(into: writer, smart: smart, started: started, stop: stop, window: window, progress: progress)
            }
            var report = report(of: played, smart: smart)
            try OutputFile.writing(to: output) { try writer.finish() }
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            report.wallSeconds = monotonicSeconds() - started
            report.peakMemoryBytes = peakMemoryBytes()
            return RenderedSegment(report: report, warmUpFrames: frames.lowerBound - window.warmUpFrame,
                                   audioPackets: sound?.packetsKept ?? 0, cover: writer.scout?.notes,
                                   pictures: smart?.pictures(inOutputFrames: frames) ?? frames.count)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// What rendering one segment made: its report, the frames made before its first (not written),
    /// its sound's AAC packets, and (with `--cover` or `--poster`) what its scout saw.
    package struct RenderedSegment {
        package var report: StitchReport
        package var warmUpFrames: Int
        package var audioPackets: Int
        package var cover: CoverNotes?
        /// Pictures its video holds: one per frame, but a variable-rate clip's copied at their own times may be fewer or more.
        package var pictures: Int
    }

    /// What playing the clips came to; `report(of:)` tells it.
    struct Played {
        var frames: Int
        var audioSamples: Int
        var joins: [StitchReport.Join]
        var startupSeconds: Double
        var notices: [Warning]
        var music: MusicBed?
    }

    /// Plays the clips in order through a clock: each clip's own frames (with
    /// `--smart`, copied GOPs as packets), then its join with the next, drawn
    /// by the plan's join strategy.
    func stitch(into writer: OutputWriter, smart: SmartPlan?, started: Double, stop: StopRequest,
                        window: SegmentWindow? = nil, progress: @escaping (StitchProgress) -> Void) throws -> Played {
        let music = try musicBed(window: window)
        let clock = FrameClock(plan: plan, writer: writer, includeAudio: settings.includeAudio, music: music, smart: smart,
                               outputPath: outputPath, stop: stop, started: started, window: window, progress: progress)
        clock.timelineSound = settings.includeAudio ? TimelineSoundMix.make(plan: plan, access: access, loudness: settings.loudness) : nil
        let lookahead = self.lookahead(smart: smart, window: window)
        defer { lookahead.shutDown() } // on any failure too: nothing runs on after it
        var played = try play(through: clock, from: lookahead, window: window, stop: stop)
        try clock.finish()
        played.frames = clock.frame
        played.audioSamples = clock.samplesWritten
        played.music = music
        return played
    }

    /// The music bed, mixed under every frame's sound by the clock; a segment's starts where its warm-up does.
    private func musicBed(window: SegmentWindow?) throws -> MusicBed? {
        guard settings.includeAudio, let path = settings.music else { return nil }
        do {
            let music = try MusicBed(path: path, plan: plan, settings: settings, access: access)
            if let window { try music.skip(plan.sampleIndex(atFrame: window.warmUpFrame)) }
            return music
        } catch {
            throw ClipSource.failure(error, reading: path)
        }
    }

    /// The clips' loader. A segment opens (and fetches ahead) only the clips
    /// it needs: a remote one is read by no other segment.
    private func lookahead(smart: SmartPlan?, window: SegmentWindow?) -> Lookahead {
        let last = window?.lastClip ?? plan.clips.count - 1
        var opened = Array(plan.clips.prefix(last + 1))
        if let trimmed = window?.opened { opened[trimmed.index] = trimmed }
        return Lookahead(clips: opened, canvas: plan.canvas, settings: settings, run: options, access: access,
                         // A segment's sound goes to its own encoder: none of it is copied there.
                         smart: smart, copiesSound: window == nil, fetchesAhead: window == nil)
    }

    /// Plays every clip (a segment: from the turn of the first it needs) and every join between them.
    private func play(through clock: FrameClock, from lookahead: Lookahead, window: SegmentWindow?, stop: StopRequest) throws -> Played {
        let clips = plan.clips
        let strategy = plan.layout.strategy
        // A segment starts at the turn of the first clip it needs; the clips before are never opened.
        let first = window?.firstClip ?? 0
        lookahead.prepare(first)
        var (current, startup) = try lookahead.take(first, stop: stop)
        lookahead.prepare(first + 1)
        if let window { try skipPlayedInJoin(of: current, window: window, clock: clock) }
        var played = Played(frames: 0, audioSamples: 0, joins: [], startupSeconds: startup, notices: plan.notices)
        // A segment ends where the clock reaches its window's end, inside a clip or a join.
        for (index, clip) in clips.enumerated() where index >= first {
            // A segment that sought into its first clip starts that far in.
            let skipped = index == first ? window?.framesSkipped ?? 0 : 0
            guard try playOwnFrames(of: clip, from: current, skipping: skipped, strategy: strategy, through: clock) else { break }
            // The segment's end: the next clip is not opened at all.
            guard index + 1 < clips.count, !clock.reachedWindowEnd else {
                played.notices += notes(on: current)
                break
            }
            let (incoming, waited) = try lookahead.take(index + 1, stop: stop)
            let join = plan.joins[index]
            // A cut: the outgoing clip's sound runs on until the incoming one's starts (late, with --smart).
            if join.frameCount == 0, clock.includeAudio { try incoming.leadIn(from: current) }
            guard try strategy.play(join, from: current, to: incoming, through: clock) else { break }
            played.joins.append(StitchReport.Join(index: index, transition: join.transition, frames: join.frameCount,
                                                  seconds: Double(join.frameCount) / plan.canvas.frameRate.value,
                                                  stallSeconds: waited))
            played.notices += notes(on: current)
            current = incoming // releases the finished clip: never more than two open
            lookahead.prepare(index + 2)
        }
        return played
    }

    /// What an overlap join into a segment's first clip played of it, taken as that join took it.
    private func skipPlayedInJoin(of current: ClipSource, window: SegmentWindow, clock: FrameClock) throws {
        for frame in window.playedInJoin {
            _ = try current.nextPicture()
            if clock.includeAudio { _ = try current.nextSamples(clock.samples(forFrame: frame)) }
        }
    }

    /// A clip's own frames, outside its joins, from `skipped` on; false when
    /// a segment's window ended before they did.
    private func playOwnFrames(of clip: PlannedClip, from current: ClipSource, skipping skipped: Int, strategy: JoinStrategy,
                               through clock: FrameClock) throws -> Bool {
        let before = plan.joinFrames(before: clip.index), after = plan.joinFrames(after: clip.index)
        for position in plan.ownFrames(of: clip) where position >= skipped {
            if clock.reachedWindowEnd { return false }
            // With --smart, a copied frame comes as its source packet instead of a picture.
            var own = try current.nextOwnFrame(at: position, samples: clock.includeAudio ? clock.samplesForNextFrame : nil)
            strategy.shape(&own.sound, at: position, of: clip, joinBefore: before, joinAfter: after, soundDelay: own.soundDelay)
            try clock.emit(own, of: clip)
        }
        return true
    }

    /// Warnings about a finished clip: pictures held or audio made up at its end.
    private func notes(on source: ClipSource) -> [Warning] {
        var notes: [Warning] = []
        let path = source.clip.info.path
        let rate = plan.canvas.frameRate.value
        let missing = max(source.missingVideoSeconds, Double(max(0, source.picturesRepeated - 1)) / rate)
        if missing > 0 { notes.append(.videoEndedEarly(path: path, seconds: missing)) }
        if source.damage > 0 { notes.append(.damageConcealed(path: path, packets: source.damage)) }
        // A timeline's held edge frames are silent by design, not sound that ended early.
        let held = source.clip.info.use.edited.map { Double($0.heldBefore + $0.heldAfter) / rate } ?? 0
        // So is a freeze frame, and a speed beyond what sounds right (the timeline's note says so).
        let silenced = source.clip.info.use.speed.map { !$0.isAudible } ?? false
        if settings.includeAudio, source.clip.info.facts.audio != nil, !silenced, source.paddedAudioSeconds - held > 0.1 {
            notes.append(.audioEndedEarly(path: path, seconds: source.paddedAudioSeconds - held))
        }
        return notes
    }
}
