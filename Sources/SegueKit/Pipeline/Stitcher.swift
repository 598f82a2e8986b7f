import Foundation

/// Joins the planned clips into one MP4: the current clip plays while the next
/// is pre-opened in the background; at each join the two swap, and the
/// transition is drawn from the last frames of one and the first of the other.
///
/// The output is written to a hidden `.NAME.partial` beside the target and
/// renamed only on success; on any failure it is removed.
public final class Stitcher {
    public let plan: Plan
    public let settings: StitchSettings
    public let outputPath: String

    public init(plan: Plan, settings: StitchSettings, outputPath: String) {
        self.plan = plan
        self.settings = settings
        self.outputPath = outputPath
    }

    /// The temporary file a stitch writes to before renaming it over the target.
    public static func temporaryPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
    }

    /// Checks the target before any work: its folder exists and is writable,
    /// and an existing file is only replaced when overwriting was asked for.
    public static func checkOutput(_ output: String, overwrite: Bool) throws {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SegueError.outputFolder(folder, reason: "output folder does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw SegueError.outputFolder(folder, reason: "output folder is not writable")
        }
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) {
            if isFolder.boolValue { throw SegueError.outputFolder(output, reason: "output is a folder") }
            if !overwrite { throw SegueError.outputExists(output) }
        }
    }

    /// Runs the whole stitch; `progress` is called a few times a second, and
    /// raising `stop` ends it within a frame, with nothing written.
    public func run(stop: StopRequest = StopRequest(), progress: ((StitchProgress) -> Void)? = nil) throws -> StitchReport {
        try Stitcher.checkOutput(outputPath, overwrite: settings.overwrite)
        LibAV.returnLargeBuffersToTheSystem
        LibAV.trimHeap() // what probing every clip left behind
        let temporary = Stitcher.temporaryPath(for: outputPath)
        unlink(temporary) // a leftover from a killed run
        let started = monotonicSeconds()
        let writer: OutputWriter
        do {
            writer = try OutputWriter(path: temporary, canvas: plan.canvas, settings: settings)
        } catch {
            unlink(temporary)
            throw SegueError.stitchFailed("\(outputPath): can't start writing (\(Stitcher.describe(error)))")
        }
        do {
            var report = try stitch(into: writer, started: started, stop: stop, progress: progress)
            try writing { try writer.finish() }
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            guard rename(temporary, outputPath) == 0 else {
                throw SegueError.stitchFailed("\(outputPath): can't move the finished file into place (\(String(cString: strerror(errno))))")
            }
            report.wallSeconds = monotonicSeconds() - started
            report.peakMemoryBytes = peakMemoryBytes()
            return report
        } catch {
            writer.abandon()
            unlink(temporary)
            throw error
        }
    }

    private func stitch(into writer: OutputWriter, started: Double, stop: StopRequest,
                        progress: ((StitchProgress) -> Void)?) throws -> StitchReport {
        let canvas = plan.canvas
        let clips = plan.clips
        var audio = settings.includeAudio ? AudioChunker(frameSize: writer.audioFrameSize, sampleRate: canvas.sampleRate) : nil
        var frame = 0
        var joins: [StitchReport.Join] = []
        var lastProgress = started

        // Remote clips are fetched one clip further ahead than they are opened.
        var staged: [Int: Prefetcher] = [:]
        let stagingFolder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-stage-\(getpid())-\(UUID().uuidString)").path
        defer {
            staged.removeAll()
            try? FileManager.default.removeItem(atPath: stagingFolder)
        }
        func stage(_ index: Int) {
            guard settings.preload, index < clips.count, staged[index] == nil,
                  InputAccess.isRemote(clips[index].info.readPath),
                  (try? FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)) != nil
            else { return }
            staged[index] = Prefetcher(url: clips[index].info.readPath, folder: stagingFolder, network: settings.network)
        }
        func preload(_ index: Int) -> Preloader {
            stage(index + 1)
            // Opening, reading headers and the first pictures is what costs
            // time at a join; two pictures prove the decoder is warm.
            defer { staged[index] = nil }
            return Preloader(clip: clips[index], canvas: canvas, settings: settings, primePictures: 2, staged: staged[index])
        }
        func samples(forFrame frame: Int) -> Int {
            plan.sampleIndex(atFrame: frame + 1) - plan.sampleIndex(atFrame: frame)
        }
        func emit(_ picture: Frame, _ sound: [[Float]]?, clipIndex: Int) throws {
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            picture.pts = Int64(frame)
            try writing { try writer.submit(picture: picture) }
            if let sound {
                try audio!.append(sound) { block in try writing { try writer.submit(sound: block) } }
            }
            frame += 1
            let now = monotonicSeconds()
            if let progress, now - lastProgress >= 0.25 {
                lastProgress = now
                progress(StitchProgress(framesDone: frame, totalFrames: plan.totalFrames, clipIndex: clipIndex,
                                        clipCount: clips.count, elapsedSeconds: now - started,
                                        frameRate: canvas.frameRate.value))
            }
        }

        // No second name for the first clip: it must be released at its join like every other.
        var current: ClipSource
        let startup: Double
        (current, startup) = try reading(clips[0]) { try preload(0).take() }
        var next: Preloader? = clips.count > 1 ? preload(1) : nil
        var warnings = plan.warnings

        let overlapping = plan.mode == .overlap
        for (index, clip) in clips.enumerated() {
            let joinBefore = index > 0 ? plan.joins[index - 1].frameCount : 0
            let joinAfter = index < plan.joins.count ? plan.joins[index].frameCount : 0
            // Overlap: the clip's first and last frames belong to its joins. Freeze: all of them play.
            let head = overlapping ? joinBefore : 0
            let tail = overlapping ? joinAfter : 0
            for position in head..<(clip.frameCount - tail) {
                let picture = try reading(clip) { try current.nextPicture() }
                var sound = audio == nil ? nil : try reading(clip) { try current.nextSamples(samples(forFrame: frame)) }
                // Freeze: the sound fades out into the held frames and back in after them, with no click.
                if !overlapping && joinBefore > 0 && position == 0 { AudioChunker.fadeIn(&sound) }
                if !overlapping && joinAfter > 0 && position == clip.frameCount - 1 { AudioChunker.fadeOut(&sound) }
                try emit(picture, sound, clipIndex: index)
            }
            guard let preloader = next else {
                warnings += notes(on: current)
                break
            }
            let (incoming, waited) = try reading(clips[index + 1]) { try preloader.take() }
            let join = plan.joins[index]
            let transitionStart = plan.sampleIndex(atFrame: frame)
            let transitionSamples = plan.sampleIndex(atFrame: frame + join.frameCount) - transitionStart
            // Freeze holds the last picture shown and the first one to come.
            let held = overlapping ? nil : try reading(clip) { try current.heldPicture() }
            let waiting = overlapping ? nil : try reading(clips[index + 1]) { try incoming.peekPicture() }
            for step in 0..<join.frameCount {
                let outgoing = try held ?? reading(clip) { try current.nextPicture() }
                let incomingPicture = try waiting ?? reading(clips[index + 1]) { try incoming.nextPicture() }
                let picture = try writing { try Frame.video(width: canvas.width, height: canvas.height) }
                Stitcher.draw(join.transition, from: outgoing, to: incomingPicture,
                              at: Double(step + 1) / Double(join.frameCount + 1), into: picture)
                var sound: [[Float]]?
                if audio != nil {
                    let count = samples(forFrame: frame)
                    if overlapping {
                        let fading = try reading(clip) { try current.nextSamples(count) }
                        let rising = try reading(clips[index + 1]) { try incoming.nextSamples(count) }
                        let offset = plan.sampleIndex(atFrame: frame) - transitionStart
                        sound = AudioChunker.crossfade(fading, rising, offset: offset, length: transitionSamples)
                    } else {
                        sound = [[Float]](repeating: [Float](repeating: 0, count: count), count: 2)
                    }
                }
                try emit(picture, sound, clipIndex: index)
            }
            joins.append(StitchReport.Join(index: index, transition: join.transition, frames: join.frameCount,
                                           seconds: Double(join.frameCount) / canvas.frameRate.value, stallSeconds: waited))
            warnings += notes(on: current)
            current = incoming // releases the finished clip: never more than two open
            next = index + 2 < clips.count ? preload(index + 2) : nil
        }
        if audio != nil {
            try audio!.flush { block in try writing { try writer.submit(sound: block) } }
        }
        return StitchReport(
            output: outputPath, canvas: canvas, clipCount: clips.count, frames: frame,
            audioSamples: audio?.samplesWritten ?? 0, plannedDuration: plan.duration, joins: joins,
            startupSeconds: startup, warnings: warnings, wallSeconds: 0, peakMemoryBytes: 0)
    }

    /// Draws step `position` (between 0 and 1, exclusive) of a transition.
    static func draw(_ transition: TransitionKind, from outgoing: Frame, to incoming: Frame, at position: Double, into picture: Frame) {
        switch transition {
        case .fade: Frame.blend(outgoing, incoming, weight: Int((position * 256).rounded()), into: picture)
        case .slideLeft: Frame.slide(outgoing, incoming, fraction: position, direction: .left, into: picture)
        case .slideRight: Frame.slide(outgoing, incoming, fraction: position, direction: .right, into: picture)
        case .slideUp: Frame.slide(outgoing, incoming, fraction: position, direction: .up, into: picture)
        case .slideDown: Frame.slide(outgoing, incoming, fraction: position, direction: .down, into: picture)
        case .none: break
        }
    }

    /// Warnings about a finished clip: pictures held or audio made up at its end.
    private func notes(on source: ClipSource) -> [String] {
        var notes: [String] = []
        let path = source.clip.info.path
        let rate = plan.canvas.frameRate.value
        let missing = max(source.missingVideoSeconds, Double(max(0, source.picturesRepeated - 1)) / rate)
        if missing > 0 {
            notes.append("\(path): video ended \(Plan.seconds(missing)) early (damaged or truncated); its last frame was held")
        }
        if source.damage > 0 {
            notes.append("\(path): \(source.damage) damaged packet\(source.damage == 1 ? "" : "s") concealed")
        }
        if settings.includeAudio, source.clip.info.audio != nil, source.paddedAudioSeconds > 0.1 {
            notes.append("\(path): audio ended \(Plan.seconds(source.paddedAudioSeconds)) early; filled with silence")
        }
        return notes
    }

    /// Runs a step that reads `clip`, naming the clip in any error.
    private func reading<T>(_ clip: PlannedClip, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SegueError {
            throw error
        } catch {
            throw SegueError.stitchFailed("\(clip.info.path): \(Stitcher.describe(error))")
        }
    }

    /// Runs a step that writes the output, naming the output in any error.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SegueError {
            throw error
        } catch {
            throw SegueError.stitchFailed("\(outputPath): writing failed (\(Stitcher.describe(error)))")
        }
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? FFmpegError {
            return error.isNoSpace ? "no space left on device" : error.description
        }
        return "\(error)"
    }
}

/// Gathers the output's audio and cuts it into the encoder's frame size,
/// stamping each block with its position in samples.
struct AudioChunker {
    let frameSize: Int
    let sampleRate: Int
    private var pending: [[Float]] = [[], []]
    private(set) var samplesWritten = 0

    init(frameSize: Int, sampleRate: Int) {
        self.frameSize = frameSize
        self.sampleRate = sampleRate
    }

    mutating func append(_ samples: [[Float]], submit: (Frame) throws -> Void) throws {
        for channel in pending.indices { pending[channel] += samples[channel] }
        var start = 0
        while pending[0].count - start >= frameSize {
            try submit(makeBlock(start: start, count: frameSize))
            start += frameSize
        }
        if start > 0 { for channel in pending.indices { pending[channel].removeFirst(start) } }
    }

    /// Sends what is left as a shorter last block (AAC accepts a small last frame).
    mutating func flush(submit: (Frame) throws -> Void) throws {
        guard !pending[0].isEmpty else { return }
        try submit(makeBlock(start: 0, count: pending[0].count))
        pending = [[], []]
    }

    private mutating func makeBlock(start: Int, count: Int) throws -> Frame {
        let block = try Frame.audio(sampleCount: count, channels: 2, sampleRate: sampleRate)
        block.setSamples(from: pending, start: start)
        block.pts = Int64(samplesWritten)
        samplesWritten += count
        return block
    }

    /// Samples in the short ramps around freeze joins: 10 ms at 48 kHz.
    static let rampLength = 480

    /// Ramps the start of `sound` up from silence.
    static func fadeIn(_ sound: inout [[Float]]?) {
        guard var channels = sound else { return }
        let length = min(rampLength, channels[0].count)
        for channel in channels.indices {
            for index in 0..<length { channels[channel][index] *= Float(index) / Float(length) }
        }
        sound = channels
    }

    /// Ramps the end of `sound` down to silence.
    static func fadeOut(_ sound: inout [[Float]]?) {
        guard var channels = sound else { return }
        let count = channels[0].count, length = min(rampLength, count)
        for channel in channels.indices {
            for index in 0..<length { channels[channel][count - 1 - index] *= Float(index) / Float(length) }
        }
        sound = channels
    }

    /// A linear crossfade (ffmpeg's acrossfade default) of `a` out and `b` in;
    /// `offset` is where these samples sit in a transition `length` samples long.
    static func crossfade(_ a: [[Float]], _ b: [[Float]], offset: Int, length: Int) -> [[Float]] {
        var mixed = a
        let scale = 1 / Float(max(length, 1))
        for channel in mixed.indices {
            for index in mixed[channel].indices {
                let gain = (Float(offset + index) + 0.5) * scale
                mixed[channel][index] = a[channel][index] * (1 - gain) + b[channel][index] * gain
            }
        }
        return mixed
    }
}
