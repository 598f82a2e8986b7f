import Foundation
import SegueMedia

/// Joins the planned clips into one MP4: the current clip plays while the next
/// is pre-opened in the background; at each join the two swap, and the
/// transition is drawn from the last frames of one and the first of the other.
///
/// The output is written through `OutputFile`: a hidden `.NAME.partial` beside the target,
/// renamed only on success and removed on any failure.
public final class Stitcher {
    /// The plan; `run` fills in its clips' loudness when the settings need it.
    public private(set) var plan: Plan
    public let settings: StitchSettings
    public let outputPath: String
    /// How the run goes (overwrite, strict, preload), apart from what it makes.
    public let options: RunOptions
    /// Opens every input of the run, clips and music alike, with its network settings and cache.
    public let access: InputAccess

    public init(plan: Plan, settings: StitchSettings, outputPath: String, options: RunOptions = RunOptions(),
                access: InputAccess = InputAccess()) {
        self.plan = plan
        self.settings = settings
        self.outputPath = outputPath
        self.options = options
        self.access = access
    }

    /// Runs the whole stitch; `progress` is called a few times a second, and
    /// raising `stop` ends it within a frame, with nothing written.
    public func run(stop: StopRequest = StopRequest(), progress: (StitchProgress) -> Void = { _ in }) throws -> StitchReport {
        try OutputFile.checkOutput(outputPath, overwrite: options.overwrite)
        measureLoudnessWhereNeeded()
        ProcessPolicy.heapIsQuiet() // what probing and measuring every clip left behind
        let started = monotonicSeconds()
        var report = try OutputFile.write(outputPath, stop: stop) { temporary in
            let writer: OutputWriter
            let smart: SmartPlan?
            do {
                smart = settings.smart ? try smartPlan() : nil
                if smart != nil { ProcessPolicy.heapIsQuiet() } // what scanning the clips and the encoder's trial open left
                let copying = smart.flatMap { $0.copiedFrames > 0 ? $0 : nil }
                writer = try OutputWriter(path: temporary, canvas: plan.canvas, settings: settings,
                                          chapters: settings.chapters ? plan.chapters : [], smart: copying?.outputTrack,
                                          smartSound: smart?.soundTrack)
            } catch {
                throw OutputFile.writeFailure(error, output: outputPath, doing: "can't start writing")
            }
            do {
                let report = try withoutActuallyEscaping(progress) { progress in
                    try stitch(into: writer, smart: smart, started: started, stop: stop, progress: progress)
                }
                try OutputFile.writing(to: outputPath) { try writer.finish() }
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

    /// Renders `segment`'s output frames alone, as the whole stitch would make
    /// them: the video (its own file, starting with an IDR, the encoder
    /// settings of the whole) to `videoPath`, its stretch of the whole
    /// stitch's AAC packets to `soundPath` (see `SegmentSound`; nothing without audio).
    /// Both paths are written in place: the caller renames them.
    func renderSegment(_ segment: SegmentPlan.Segment, isLast: Bool, videoPath: String, soundPath: String?, stop: StopRequest = StopRequest(),
                       progress: (StitchProgress) -> Void = { _ in }) throws -> (report: StitchReport, warmUpFrames: Int, audioPackets: Int) {
        measureLoudnessWhereNeeded()
        let started = monotonicSeconds()
        var videoOnly = settings
        videoOnly.includeAudio = false
        let writer: OutputWriter
        let smart: SmartPlan?
        do {
            // With --smart: the whole stitch's copy plan (every segment's track has its layout), GOPs
            // a segment boundary cuts re-encoded (a segment starts with a keyframe of its own).
            let whole = try settings.smart ? smartPlan(copiesSound: false) : nil
            smart = whole?.cut(at: segment.startFrame, segment.endFrame)
            let copying = whole.flatMap { $0.copiedFrames > 0 ? $0 : nil }
            writer = try OutputWriter(path: videoPath, canvas: plan.canvas, settings: videoOnly, smart: copying?.outputTrack)
        } catch {
            throw OutputFile.writeFailure(error, output: videoPath, doing: "can't start writing")
        }
        do {
            let frames = segment.startFrame..<segment.endFrame
            let sound = try settings.includeAudio ? soundPath.map {
                try SegmentSound(path: $0, segment: segment, isLast: isLast, sampleRate: plan.canvas.sampleRate,
                                 bitRate: settings.audioBitRate)
            } : nil
            // The music's ducking settles within its attack and release: that much warm-up makes it the whole stitch's.
            let settle = settings.music != nil && settings.duck > 0 ? MusicBed.attackSeconds + MusicBed.releaseSeconds + 0.2 : 0
            let copied = Set(smart?.clips.indices.filter { smart?.clips[$0].copy != nil } ?? [])
            let window = SegmentWindow(frames: frames, plan: plan, sound: sound,
                                       warmUpFrames: Int((settle * plan.canvas.frameRate.value).rounded(.up)),
                                       seekable: { !copied.contains($0.index) })
            var report = try withoutActuallyEscaping(progress) { progress in
                try stitch(into: writer, smart: smart, started: started, stop: stop, window: window, progress: progress)
            }
            try OutputFile.writing(to: videoPath) { try writer.finish() }
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            report.wallSeconds = monotonicSeconds() - started
            report.peakMemoryBytes = peakMemoryBytes()
            return (report, frames.lowerBound - window.warmUpFrame, sound?.packetsKept ?? 0)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// `--loudness` and `--music` need each clip's measured loudness: clips
    /// the caller did not measure are measured here, never left as recorded.
    func measureLoudnessWhereNeeded() {
        guard settings.includeAudio, settings.loudness != nil || settings.music != nil,
              plan.clips.contains(where: { $0.info.audio != nil && !$0.info.isStill && $0.info.loudness == nil }) else { return }
        let measured = LoudnessMeter.measureAll(plan.clips.map(\.info), access: access)
        for index in plan.clips.indices { plan.clips[index].info = measured[index] }
    }

    /// What `--smart` copies: every clip scanned, before anything is written.
    /// `copiesSound`: false for a segment, whose sound is encoded on its own.
    func smartPlan(copiesSound: Bool = true) throws -> SmartPlan {
        // A freeze holds a clip's last picture and the next one's first: those GOPs are decoded.
        try SmartPlan(plan: plan, settings: settings, access: access, copiesSound: copiesSound, ownFrames: plan.ownFrames(of:),
                      heldEdges: plan.heldEdges(of:))
    }

    /// Plays the clips in order through `clock`: each clip's own frames (with
    /// `--smart`, copied GOPs as packets), then its join with the next, drawn
    /// by the plan's join strategy.
    private func stitch(into writer: OutputWriter, smart: SmartPlan?, started: Double, stop: StopRequest,
                        window: SegmentWindow? = nil, progress: @escaping (StitchProgress) -> Void) throws -> StitchReport {
        let clips = plan.clips
        // The music bed, mixed under every frame's sound by the clock.
        let music = try settings.includeAudio ? settings.music.map { path in
            do {
                return try MusicBed(path: path, plan: plan, settings: settings, access: access)
            } catch {
                throw ClipSource.failure(error, reading: path)
            }
        } : nil
        let clock = FrameClock(plan: plan, writer: writer, includeAudio: settings.includeAudio, music: music, smart: smart,
                               outputPath: outputPath, stop: stop, started: started, window: window, progress: progress)
        // A segment starts at the turn of the first clip it needs; the clips before are never opened.
        let first = window?.firstClip ?? 0
        if let window, let music {
            do {
                try music.skip(plan.sampleIndex(atFrame: window.warmUpFrame))
            } catch {
                throw ClipSource.failure(error, reading: music.path)
            }
        }
        let strategy = plan.layout.strategy
        // A segment opens (and fetches ahead) only the clips it needs: a remote one is read by no other segment.
        let last = window?.lastClip ?? clips.count - 1
        var opened = Array(clips.prefix(last + 1))
        if let trimmed = window?.opened { opened[trimmed.index] = trimmed }
        let lookahead = Lookahead(clips: opened, canvas: plan.canvas, settings: settings, run: options, access: access,
                                  copyPlans: smart?.clips.map(\.copy) ?? [],
                                  // A segment's sound goes to its own encoder: none of it is copied there.
                                  soundCopies: window == nil ? smart?.sound.map(\.copy) ?? [] : [], fetchesAhead: window == nil)
        defer { lookahead.shutDown() } // on any failure too: nothing runs on after it
        var joins: [StitchReport.Join] = []
        var notices = plan.notices

        lookahead.prepare(first)
        var (current, startup) = try lookahead.take(first, stop: stop)
        lookahead.prepare(first + 1)
        if let window {
            // What an overlap join into the first clip played of it, taken as that join took it.
            for frame in window.playedInJoin {
                _ = try current.nextPicture()
                if clock.includeAudio { _ = try current.nextSamples(clock.samples(forFrame: frame) ) }
            }
        }
        do { // a segment ends where the clock reaches its last frame
            for (index, clip) in clips.enumerated() where index >= first {
                let before = plan.joinFrames(before: index), after = plan.joinFrames(after: index)
                // A segment that sought into its first clip starts that far in.
                let skipped = index == first ? window?.framesSkipped ?? 0 : 0
                for position in plan.ownFrames(of: clip) where position >= skipped {
                    // With --smart, a copied frame comes as its source packet instead of a picture.
                    let copied = current.copyPlan?.isCopied(position) == true ? try current.nextCopiedPacket() : nil
                    let picture = copied == nil ? try current.nextPicture() : nil
                    let delay = current.soundDelay
                    var sound = try clock.includeAudio ? current.nextSamples(clock.samplesForNextFrame) : nil
                    try clock.copy(sound: current.takeCopiedSound())
                    strategy.shape(&sound, at: position, of: clip, joinBefore: before, joinAfter: after, soundDelay: delay)
                    if let copied {
                        try clock.emit(copied: copied.packet, shownAt: clip.startFrame + copied.position, sound, clipIndex: index)
                    } else if let picture {
                        try clock.emit(picture, sound, clipIndex: index)
                    }
                }
                // The segment's end: the next clip is not opened at all.
                guard index + 1 < clips.count, clock.frame < window?.tailEnd ?? .max else {
                    notices += notes(on: current)
                    break
                }
                let (incoming, waited) = try lookahead.take(index + 1, stop: stop)
                let join = plan.joins[index]
                // A cut: the outgoing clip's sound runs on until the incoming one's starts (late, with --smart).
                if join.frameCount == 0, clock.includeAudio { try incoming.leadIn(from: current) }
                try strategy.play(join, from: current, to: incoming, through: clock)
                joins.append(StitchReport.Join(index: index, transition: join.transition, frames: join.frameCount,
                                               seconds: Double(join.frameCount) / plan.canvas.frameRate.value,
                                               stallSeconds: waited))
                notices += notes(on: current)
                current = incoming // releases the finished clip: never more than two open
                lookahead.prepare(index + 2)
            }
        } catch is SegmentWindow.Reached {}
        try clock.finish()
        return StitchReport(
            output: outputPath, canvas: plan.canvas, clipCount: clips.count, frames: clock.frame,
            audioSamples: clock.samplesWritten, plannedDuration: plan.duration, joins: joins,
            startupSeconds: startup, warnings: notices.map(\.description), wallSeconds: 0, peakMemoryBytes: 0,
            smart: smart.map { smart in
                smart.clips.enumerated().map { index, clip in
                    var report = StitchReport.SmartClip(index: index, framesCopied: clip.copiedFrames,
                                                        framesReencoded: plan.clips[index].frameCount - clip.copiedFrames,
                                                        reason: clip.reason)
                    if settings.includeAudio, index < smart.sound.count {
                        let sound = smart.sound[index], copied = sound.copy?.count ?? 0
                        // A copied clip is heard at its run's shift (all of it: the windows read it there too), another where it is.
                        report.sound = StitchReport.SmartSound(shiftSamples: sound.copy?.shift ?? 0, framesCopied: copied,
                                                               framesReencoded: max(0, soundFrames(of: index) - copied),
                                                               reason: sound.notCopied?.description)
                    }
                    return report
                }
            },
            music: music.map { StitchReport.Music(path: $0.path, loudness: $0.loudness, gain: $0.gain) })
    }

    /// The output's AAC frames that start in clip `index`'s share of the output
    /// (joins split in the middle): what its sound was copied or encoded as.
    private func soundFrames(of index: Int) -> Int {
        func boundary(_ index: Int) -> Int {
            guard index > 0 else { return 0 }
            guard index < plan.clips.count else { return plan.sampleIndex(atFrame: plan.totalFrames) }
            return plan.sampleIndex(atFrame: plan.soundHandover(to: plan.clips[index]))
        }
        let size = OutputAudio.frameSize
        func frames(before sample: Int) -> Int { (sample + size - 1) / size }
        return frames(before: boundary(index + 1)) - frames(before: boundary(index))
    }

    /// Warnings about a finished clip: pictures held or audio made up at its end.
    private func notes(on source: ClipSource) -> [Warning] {
        var notes: [Warning] = []
        let path = source.clip.info.path
        let rate = plan.canvas.frameRate.value
        let missing = max(source.missingVideoSeconds, Double(max(0, source.picturesRepeated - 1)) / rate)
        if missing > 0 { notes.append(.videoEndedEarly(path: path, seconds: missing)) }
        if source.damage > 0 { notes.append(.damageConcealed(path: path, packets: source.damage)) }
        if settings.includeAudio, source.clip.info.audio != nil, source.paddedAudioSeconds > 0.1 {
            notes.append(.audioEndedEarly(path: path, seconds: source.paddedAudioSeconds))
        }
        return notes
    }
}
