import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// Joins the planned clips into the plan's target (an MP4 or WebM, or an HLS
/// ladder): the current clip plays while the next is pre-opened in the
/// background; at each join the two swap, and the transition is drawn from the
/// last frames of one and the first of the other.
///
/// Every render, of the whole or of one segment, is one call of `render`, into
/// a `RenderOutput` made for the target: nothing is left of a failed or stopped one.
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

    /// A stitcher of `plan` ready to write `output` (what a failure to start names): planned
    /// (`PlannedStitch`), where only `--smart`'s scan can fail, its encoder's trial open being
    /// the output's first step.
    package static func writing(_ output: String, plan: Plan, settings: StitchSettings, access: InputAccess, copiesSound: Bool = true,
                                options: RunOptions) throws -> Stitcher {
        do {
            return Stitcher(planned: try PlannedStitch(plan: plan, settings: settings, access: access, copiesSound: copiesSound),
                            options: options)
        } catch {
            throw OutputFile.writeFailure(error, output: output, doing: "can't start writing")
        }
    }

    /// Stitches `planned` into the target its plan names.
    package init(planned: PlannedStitch, options: RunOptions = RunOptions()) {
        guard let target = planned.plan.target else { preconditionFailure("a plan to stitch names what it writes") }
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
        try render(.whole, at: outputPath, stop: stop, progress: progress).report
    }

    /// Renders `segment`'s output frames alone, as the whole stitch would make
    /// them: the video (an MP4 starting with an IDR, or a ladder's rungs in a
    /// folder, the encoder settings of the whole) at `path`, its stretch of the
    /// whole stitch's AAC packets to `soundPath` (see `SegmentSound`; nothing
    /// without audio). Both are written in place: the caller renames them.
    package func renderSegment(frames: Range<Int>, audio: Range<Int>, at path: String, soundPath: String?,
                               stop: StopRequest = StopRequest(),
                               progress: (StitchProgress) -> Void = { _ in }) throws -> Rendered {
        try render(.segment(frames: frames, audio: audio, soundPath: soundPath), at: path, stop: stop, progress: progress)
    }

    /// Renders `window` of the plan into an output made for the target at
    /// `path` (the target's own for the whole): prepares it, plays the
    /// clips through a sink it opens, finishes, makes the cover (the whole)
    /// and completes it; on any failure or stop, abandons it.
    func render(_ window: RenderWindow, at path: String, stop: StopRequest, progress: (StitchProgress) -> Void) throws -> Rendered {
        let (contents, smart) = sinkContents(for: window)
        let output = target.output(for: window, at: path, contents: contents)
        try output.prepare(overwrite: options.overwrite)
        if case .whole = window { ProcessPolicy.heapIsQuiet() } // what probing, measuring and scanning every clip left behind
        let started = monotonicSeconds()
        let writer: OutputWriter
        do {
            writer = try OutputWriter(sink: try output.openSink(), canvas: plan.canvas, overlay: try overlay())
        } catch {
            output.abandon()
            throw OutputFile.writeFailure(error, output: path, doing: "can't start writing")
        }
        // A segment's cover is made by the join, from what every segment's scout saw.
        writer.scout = coverScout()
        do {
            var rendered = try play(window, into: writer, smart: smart, output: path, started: started, stop: stop, progress: progress)
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            if case .whole = window { rendered.report.cover = try makeCover(scout: writer.scout, source: output.coverSource) }
            try output.complete(&rendered.report)
            rendered.report.wallSeconds = monotonicSeconds() - started
            rendered.report.peakMemoryBytes = peakMemoryBytes()
            return rendered
        } catch {
            writer.abandon()
            output.abandon()
            throw error
        }
    }

    /// What `window`'s sink is made of, and what `--smart` copies in it: the
    /// whole stitch's copy plan for the whole; a segment's has its GOPs that a
    /// segment boundary cuts re-encoded (a segment starts with a keyframe of
    /// its own), its sound written apart and no chapters or subtitles (the join
    /// adds them). A ladder encodes everything.
    private func sinkContents(for window: RenderWindow) -> (SinkContents, SmartPlan?) {
        let smart = target.ladder == nil ? self.smart : nil
        switch window {
        case .whole:
            return (SinkContents(canvas: plan.canvas, settings: settings, chapters: settings.chapters ? plan.chapters : nil,
                                 subtitles: plan.subtitleTrack(settings), smart: smart), smart)
        case .segment(let frames, _, _):
            var videoOnly = settings
            videoOnly.includeAudio = false
            return (SinkContents(canvas: plan.canvas, settings: videoOnly, smart: smart),
                    smart?.cut(at: frames.lowerBound, frames.upperBound))
        }
    }

    /// The `--overlay` picture ready to draw, nil without one (checked before
    /// any encoding: see `StitchJob.prepare`).
    func overlay() throws -> PictureOverlay? {
        guard let path = settings.overlay else { return nil }
        let logo = try OverlayPicture.load(path, access: access).mapError { SegueError.badInputs([$0]) }.get()
        return try PictureOverlay(picture: logo.picture, orientation: logo.orientation, canvas: plan.canvas, position: settings.overlayPosition,
                                  widthFraction: settings.overlayWidth, opacity: settings.overlayOpacity)
    }

    /// Plays `window` into `writer` (which writes `output`) and finishes it: what was made.
    private func play(_ window: RenderWindow, into writer: OutputWriter, smart: SmartPlan?, output: String, started: Double,
                      stop: StopRequest, progress: (StitchProgress) -> Void) throws -> Rendered {
        let segment = try segmentWindow(window, smart: smart)
        let played = try withoutActuallyEscaping(progress) { progress in
            try stitch(into: writer, smart: smart, started: started, stop: stop, window: segment, progress: progress)
        }
        try OutputFile.writing(to: output) { try writer.finish() }
        let report = report(of: played, smart: smart)
        guard let segment else { return Rendered(report: report, warmUpFrames: 0, audioPackets: 0, cover: nil, pictures: played.frames) }
        let frames = segment.frames
        return Rendered(report: report, warmUpFrames: frames.lowerBound - segment.warmUpFrame, audioPackets: segment.sound?.packetsKept ?? 0,
                        cover: writer.scout?.notes, pictures: smart?.pictures(inOutputFrames: frames) ?? frames.count)
    }

    /// What the clock plays of a segment (nil: the whole): its frames, the warm-up before them, its sound's encoder.
    private func segmentWindow(_ window: RenderWindow, smart: SmartPlan?) throws -> SegmentWindow? {
        guard case .segment(let frames, let audio, let soundPath) = window else { return nil }
        let sound = try settings.includeAudio ? soundPath.map {
            try SegmentSound(path: $0, keeping: audio, sampleRate: plan.canvas.sampleRate, channels: plan.canvas.soundChannels,
                             bitRate: settings.audioBitRate)
        } : nil
        let settle = MusicBed.settleSeconds(settings)
        return SegmentWindow(frames: frames, plan: plan, sound: sound,
                             warmUpFrames: Int((settle * plan.canvas.frameRate.value).rounded(.up)),
                             seekable: { smart?.copiesVideo(ofClip: $0.index) != true })
    }

    /// What a render made: its report; for a segment, the frames made before its first (not written),
    /// its sound's AAC packets, and (with `--cover` or `--poster`) what its scout saw.
    package struct Rendered {
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
        let writerSound = WriterSound(writer: writer, sampleRate: plan.canvas.sampleRate)
        // A segment's sound goes to its own encoder.
        let soundOutput: (any SoundOutput)? = window.map { $0.sound } ?? writerSound
        let sound = try settings.includeAudio ? soundOutput.map {
            try SoundChain.make(plan: plan, settings: settings, access: access, from: window?.warmUpFrame ?? 0, output: $0)
        } : nil
        let clock = FrameClock(plan: plan, writer: writer, sound: sound, smart: smart, outputPath: outputPath, stop: stop,
                               started: started, window: window, progress: progress)
        let lookahead = self.lookahead(smart: smart, window: window)
        defer { lookahead.shutDown() } // on any failure too: nothing runs on after it
        var played = try play(through: clock, from: lookahead, window: window, stop: stop)
        try clock.finish()
        played.frames = clock.frame
        played.audioSamples = window == nil ? writerSound.samplesWritten : 0
        played.music = sound?.music
        return played
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
