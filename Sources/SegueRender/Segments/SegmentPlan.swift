import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// A stitch cut into segments at output frame positions, as `DIR/plan.json`
/// holds it: self-contained, so any machine that sees the same storage can
/// render a segment of it (`segue render`) or join them (`segue join`).
/// Paths are absolute (or URLs); the settings are resolved; the clips are
/// the probed facts (with their measured loudness when asked for), so no
/// segment probes or measures a clip again.
public struct SegmentPlan: Codable, Sendable {
    package static let fileName = "plan.json"
    /// Bumped when the file's meaning changes; a render refuses another version.
    package static let currentVersion = 9

    package var version = SegmentPlan.currentVersion
    /// The MP4, or the HLS master playlist, the join writes (absolute).
    package var output: String
    /// What it is: an MP4 file or an HLS ladder (`RenderTarget`'s kind; the ladder's rungs follow from the canvas).
    package var container: OutputContainer
    /// `-y`: the join may replace an existing output.
    package var overwrite: Bool
    package var strict: Bool
    package var network: NetworkSettings
    /// The input policy every render applies (`--input-root`, resolved; `--no-remote`).
    package var inputRoots: [String]
    package var allowRemote: Bool
    public var settings: StitchSettings
    /// Every clip, as probed (and measured), in playing order.
    public var clips: [ClipInfo]
    /// How clip i meets clip i + 1, where its list entry chose (nil: the settings').
    public var joins: [JoinChoice?]
    /// The editors' timelines' own sounds (measured, when asked for), and where clip i stands under one.
    package var sounds: [TimelineSound]
    package var soundPlaces: [SoundPlace?]
    /// The planned timeline, for people and checks: output frames and samples.
    public var totalFrames: Int
    package var totalSamples: Int
    public var canvas: Canvas
    public var segments: [Segment]

    /// One segment: output frames `startFrame..<endFrame`, and exactly the
    /// audio samples that belong to them.
    public struct Segment: Codable, Sendable, Equatable {
        public var index: Int
        package var startFrame: Int
        package var endFrame: Int
        package var startSample: Int
        package var endSample: Int
        /// The segment's stretch of the AAC frame grid: it encodes the packets
        /// whose decoded 1024 samples start in `audioStart..<audioEnd` (output
        /// samples; `audioStart` is `startSample` rounded down to the grid).
        package var audioStart: Int
        package var audioEnd: Int
        package var frames: Int { endFrame - startFrame }
        package var samples: Int { endSample - startSample }

        /// The AAC packets a segment that isn't the last holds: its blocks, and the priming packet in the first.
        package var audioPackets: Int { (audioEnd - audioStart) / SegmentSound.blockSize + (audioStart == 0 ? 1 : 0) }

        /// Renders it with `stitcher` into `path` (its video file, or its ladder's folder), its sound to `soundPath`.
        func render(with stitcher: Stitcher, isLast: Bool, at path: String, soundPath: String?, stop: StopRequest,
                    progress: (StitchProgress) -> Void) throws -> Stitcher.Rendered {
            try stitcher.renderSegment(frames: startFrame..<endFrame, audio: audioStart..<(isLast ? Int.max : audioEnd), at: path,
                                       soundPath: soundPath, stop: stop, progress: progress)
        }
    }

    /// Cuts `plan` into segments of about `segmentSeconds` (whole frames, at least one each; for an
    /// HLS output, whole HLS segments). `boundary` moves each cut between segments where it costs
    /// less (`--smart`: off a copied GOP's inside).
    package init(plan: Plan, settings: StitchSettings, joins: [JoinChoice?], run: RunOptions,
                network: NetworkSettings, policy: InputPolicy, segmentSeconds: Double, boundary: (Int) -> Int = { $0 }) {
        guard let target = plan.target else { preconditionFailure("a plan cut into segments names what it writes") }
        output = SegmentPlan.absolute(target.path)
        container = target.container
        overwrite = run.overwrite
        strict = run.strict
        self.network = network
        inputRoots = policy.roots
        allowRemote = policy.allowRemote
        var settings = settings
        settings.music = settings.music.map(SegmentPlan.absolute)
        self.settings = settings
        clips = plan.clips.map { clip in
            var info = clip.info
            if !InputAccess.isRemote(info.path) { info.path = SegmentPlan.absolute(info.path) }
            // A cached copy is the planning machine's: every node reads the clip itself.
            info.readPath = info.path
            return info
        }
        self.joins = joins
        sounds = plan.soundTracks.map(\.sound)
        soundPlaces = plan.clips.map(\.soundPlace)
        totalFrames = plan.totalFrames
        totalSamples = plan.sampleIndex(atFrame: plan.totalFrames)
        canvas = plan.canvas
        // An HLS output's segments hold whole HLS segments: each job cuts its own on the output's grid.
        let grid = target.ladder?.segmentFrames ?? 1
        let frames = max(1, Int((segmentSeconds * plan.canvas.frameRate.value).rounded()))
        let length = (frames + grid - 1) / grid * grid
        var starts: [Int] = [0]
        for nominal in stride(from: length, to: plan.totalFrames, by: length) {
            let moved = boundary(nominal)
            if moved > starts.last!, moved < plan.totalFrames { starts.append(moved) }
        }
        let block = SegmentSound.blockSize
        let audioStarts = starts.map { plan.sampleIndex(atFrame: $0) / block * block }
        segments = starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1] : plan.totalFrames
            return Segment(index: index, startFrame: start, endFrame: end, startSample: plan.sampleIndex(atFrame: start),
                           endSample: plan.sampleIndex(atFrame: end), audioStart: audioStarts[index],
                           audioEnd: index + 1 < starts.count ? audioStarts[index + 1] : plan.sampleIndex(atFrame: plan.totalFrames))
        }
    }

    /// An HLS output's ladder; nil for an MP4 output.
    package var ladder: HLSLadder? {
        container == .hls ? try? HLSLadder(canvas: canvas, settings: settings) : nil
    }

    /// What the join (and every segment's render) writes; nil when a ladder can't be made of the canvas (`problem` says so).
    package var target: RenderTarget? {
        guard container == .hls else { return .file(path: output, container: container) }
        return ladder.map { .ladder(master: output, $0) }
    }

    /// The playlists of an HLS output's renditions, which every segment's receipt names (nil: an MP4 output).
    package var renditionPlaylists: [String]? {
        ladder.map { $0.rungs.map(\.playlist) + (settings.includeAudio ? [HLSLadder.soundPlaylist] : []) }
    }

    /// The run options every segment renders with (the join decides about the output).
    package var runOptions: RunOptions { RunOptions(overwrite: overwrite, strict: strict) }

    /// The plan again, made from the recorded clips and settings; checked
    /// against the recorded timeline, so a render never works from another.
    package func timeline() throws -> Plan {
        var plan = try Plan(clips: clips, settings: settings, joins: joins, sounds: sounds, places: soundPlaces)
        plan.target = target
        guard plan.totalFrames == totalFrames, plan.sampleIndex(atFrame: plan.totalFrames) == totalSamples else {
            throw SegueError.usage("the plan's timeline does not come out the same here (\(plan.totalFrames) frames, not \(totalFrames)): plan again with this version of segue")
        }
        return plan
    }

    // MARK: files

    /// Reads `DIR/plan.json`; a missing or unreadable plan is a usage error (exit 2).
    package static func load(work: String) throws -> SegmentPlan {
        let path = SegmentPlan.path(work: work)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SegueError.usage("\(path): no plan here (make one with segue plan ... --work \(work))")
        }
        return try read(data, from: path)
    }

    /// A plan from the bytes of `path`, checked (its version, its fields' ranges).
    static func read(_ data: Data, from path: String) throws -> SegmentPlan {
        let plan: SegmentPlan
        do {
            plan = try JSONDecoder().decode(SegmentPlan.self, from: data)
        } catch {
            throw SegueError.usage("\(path): not a plan segue can read (\(error))")
        }
        guard plan.version == currentVersion else {
            throw SegueError.usage("\(path): plan version \(plan.version), this segue reads \(currentVersion)")
        }
        if let problem = plan.problem {
            throw SegueError.usage("\(path): not a plan segue can read (\(problem))")
        }
        return plan
    }

    /// What in a plan read from a file lies outside what `segue plan` writes
    /// (a plan can be edited or damaged), checked by the same limits as the
    /// command line; nil when every field a render or join uses is in range.
    var problem: String? {
        func outside(_ value: Double?, _ limit: Limit) -> Bool { value.map { !limit.contains($0) } ?? false }
        func badRate(_ rate: Rational) -> Bool {
            !rate.isValid || !OptionLimits.frameRateTerm.contains(rate.numerator)
                || !OptionLimits.frameRateTerm.contains(rate.denominator) || rate.value > 1000
        }
        // `--smart` takes the clips' own rate (`OutputAudio.copiedRate`).
        if settings.smart ? !OutputAudio.copiedRates.contains(canvas.sampleRate) : canvas.sampleRate != settings.sampleRate {
            return "settings.sampleRate \(settings.sampleRate)"
        }
        if !OptionLimits.timeout.contains(network.timeout) || !OptionLimits.retries.contains(network.retries) { return "network" }
        // A join writes MP4 or HLS (its sound is AAC on one grid): never an MP4 under another container's name.
        // The plan file's two records of what it writes agree (a name is only checked here, on reading one).
        if OutputContainer(path: output) != container { return "output \(output) is no \(container.rawValue) output" }
        if container != .mp4 && container != .hls { return "output \(output): segmented renders write .mp4, .m4v, .mov or .m3u8" }
        if container == .hls {
            guard let ladder, !settings.smart else { return "output \(output): no HLS ladder can be made of this canvas" }
            if let segment = segments.first(where: { $0.startFrame % ladder.segmentFrames != 0 }) {
                return "segments[\(segment.index)] starts off the HLS segment grid"
            }
        }
        if !OptionLimits.side.contains(canvas.width) || !OptionLimits.side.contains(canvas.height) || badRate(canvas.frameRate) {
            return "canvas"
        }
        for (index, clip) in clips.enumerated() {
            // A timeline's clip may start before its media's first picture (that picture held): in by at most its length.
            let lengths = [clip.use.duration, clip.facts.timing.sourceDuration, clip.facts.timing.pictureDuration,
                           clip.use.edited == nil ? clip.use.inPoint : abs(clip.use.inPoint)]
            // Sound may end before the picture starts (an MPEG-PS whose sound leads): negative, but bounded.
            let sound = clip.facts.timing.soundDuration ?? 0
            guard lengths.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Prober.longestClip }), clip.use.duration > 0,
                  sound.isFinite, abs(sound) <= Prober.longestClip,
                  !badRate(clip.facts.frameRate), clip.facts.sampleAspectRatio.isValid,
                  OptionLimits.frameRateTerm.contains(clip.facts.sampleAspectRatio.numerator),
                  OptionLimits.frameRateTerm.contains(clip.facts.sampleAspectRatio.denominator),
                  (1...1 << 16).contains(clip.facts.codedWidth), (1...1 << 16).contains(clip.facts.codedHeight),
                  (1...1 << 16).contains(clip.facts.displayWidth), (1...1 << 16).contains(clip.facts.displayHeight)
            else { return "clips[\(index)]" }
        }
        for (index, sound) in sounds.enumerated() {
            if let problem = sound.problem { return "sounds[\(index)]: \(problem)" }
        }
        guard soundPlaces.count == clips.count, soundPlaces.allSatisfy({ $0.map { sounds.indices.contains($0.track) } ?? true }) else {
            return "soundPlaces"
        }
        for (index, join) in joins.enumerated() {
            if let join, outside(join.duration, OptionLimits.transitionSeconds) {
                return "joins[\(index)]"
            }
        }
        guard joins.count == max(0, clips.count - 1) || joins.count == clips.count, !clips.isEmpty else { return "clips or joins" }
        guard (1...Int(Prober.longestClip * 1000)).contains(totalFrames), (0...Int(Prober.longestClip * 192_000)).contains(totalSamples)
        else { return "totalFrames or totalSamples" }
        var next = 0
        for (index, segment) in segments.enumerated() {
            guard segment.index == index, segment.startFrame == next, segment.endFrame > segment.startFrame,
                  segment.endFrame <= totalFrames, segment.startSample <= segment.endSample,
                  segment.audioStart <= segment.audioEnd, segment.audioStart >= 0, segment.audioEnd <= totalSamples
            else { return "segments[\(index)]" }
            next = segment.endFrame
        }
        return next == totalFrames ? nil : "segments don't cover the timeline"
    }

    /// Writes the plan to `DIR/plan.json` (temporary file, then rename), making `DIR` if needed.
    package func write(work: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(self)
            // The same plan again leaves the file (and so every receipt made from it) as it is.
            if FileManager.default.contents(atPath: SegmentPlan.path(work: work)) == data { return }
            try OutputFile.writeAtomically(data, to: SegmentPlan.path(work: work))
        } catch let error as SegueError {
            throw error
        } catch {
            throw SegueError.outputFolder(work, reason: "can't write the plan there (\(error.localizedDescription))")
        }
    }

    /// The SHA-256 of `DIR/plan.json`: what every segment's receipt names.
    package static func fingerprint(work: String) throws -> String {
        do {
            return try Checksum.sha256(file: path(work: work))
        } catch {
            throw SegueError.usage("\(path(work: work)): can't read the plan (\(error))")
        }
    }

    public static func path(work: String) -> String { (work as NSString).appendingPathComponent(fileName) }

    static func absolute(_ path: String) -> String {
        switch InputLocation(path) {
        case .remote: return path
        case .file(let file) where file != path: return absolute(file) // a file: URL
        default: break
        }
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}
