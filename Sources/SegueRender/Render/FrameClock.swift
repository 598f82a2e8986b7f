internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime

/// The output's time: stamps each picture with its frame number, gives each
/// frame exactly its planned share of audio samples (so sound never drifts
/// from picture) and hands it to the sound chain, reports progress a
/// few times a second and notices a stop request, once per frame.
final class FrameClock {
    private let plan: Plan
    private let writer: OutputWriter
    private let outputPath: String
    private let stop: StopRequest
    private let started: Double
    private let progress: (StitchProgress) -> Void
    /// The output's sound (nil without audio): each frame's block goes through it.
    private let soundChain: SoundChain?
    private var lastProgress: Double
    /// Frames emitted so far: the number of the next one.
    private(set) var frame = 0
    /// With `--smart`: the quality each re-encoded frame gets.
    private let smart: SmartPlan?
    /// A segment's output frames: frames around it are made but their
    /// pictures not written (the warm-up before it, the sound's post-roll
    /// after it; their sound goes to the segment's encoder), and reaching
    /// `tailEnd` ends the stitch (`reachedWindowEnd`). Nil: the whole output.
    private let window: SegmentWindow?

    init(plan: Plan, writer: OutputWriter, sound: SoundChain?, smart: SmartPlan? = nil, outputPath: String,
         stop: StopRequest, started: Double, window: SegmentWindow? = nil, progress: @escaping (StitchProgress) -> Void) {
        self.smart = smart
        self.window = window
        frame = window?.warmUpFrame ?? 0
        soundChain = sound
        self.plan = plan
        self.writer = writer
        self.outputPath = outputPath
        self.stop = stop
        self.started = started
        self.progress = progress
        lastProgress = started
    }

    var includeAudio: Bool { soundChain != nil }

    /// Audio samples that belong to the next frame.
    var samplesForNextFrame: Int { samples(forFrame: frame) }

    /// Audio sample at which the next frame starts.
    var nextSampleIndex: Int { plan.sampleIndex(atFrame: frame) }

    func samples(forFrame frame: Int) -> Int {
        plan.sampleIndex(atFrame: frame + 1) - plan.sampleIndex(atFrame: frame)
    }

    /// Audio samples in the next `count` frames.
    func samples(forFrames count: Int) -> Int {
        plan.sampleIndex(atFrame: frame + count) - plan.sampleIndex(atFrame: frame)
    }

    var canvas: Canvas { plan.canvas }

    /// Whether a segment's stitch has made every frame it needs: its window's
    /// tail end (never, for the whole output). Nothing more is emitted then.
    var reachedWindowEnd: Bool { window.map { frame >= $0.tailEnd } ?? false }

    /// Sends one frame's picture (and sound) to the writer.
    func emit(_ picture: Frame, _ sound: [[Float]]?, clipIndex: Int) throws {
        // A segment's pictures count from its first frame: its file starts at 0.
        picture.pts = Int64(frame - (window?.frames.lowerBound ?? 0))
        try emit(sound, clipIndex: clipIndex) { try writer.submit(picture: picture, crf: smart?.crf(atFrame: frame)) }
    }

    /// Sends one of `clip`'s own frames (and its sound) to the writer: a
    /// picture, or (`--smart`) copied packets, each shown at its own time;
    /// the copied AAC packets met with it go first.
    func emit(_ own: ClipSource.OwnFrame, of clip: PlannedClip) throws {
        try copy(sound: own.copiedSound)
        let sound = own.sound
        switch own.frame {
        case .picture(let picture):
            try emit(picture, sound, clipIndex: clip.index)
        case .copied(let packets):
            // Packets come in decoding order: each stands where it shows.
            let shift = clip.startFrame - (window?.frames.lowerBound ?? 0)
            try emit(sound, clipIndex: clip.index) {
                for copied in packets {
                    try writer.submit(copied: copied.packet, at: copied.time.shifted(by: shift), until: copied.end?.shifted(by: shift))
                }
            }
        }
    }

    /// Passes a frame's own sound through the sound chain and writes it after its video.
    private func emit(_ sound: [[Float]]?, clipIndex: Int, video: () throws -> Void) throws {
        if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
        precondition(!reachedWindowEnd, "a frame past the segment's window")
        let start = plan.sampleIndex(atFrame: frame)
        let heard = try sound.flatMap { try soundChain?.hear($0, from: start, frame: frame) }
        // A segment's warm-up (or its sound's post-roll): made exactly as in the whole stitch, its sound
        // to the segment's encoder, no picture written.
        let written = window?.frames.contains(frame) ?? true
        try OutputFile.writing(to: outputPath) {
            if written { try video() }
            if let heard { try soundChain?.write(heard, at: start) }
        }
        frame += 1
        guard written else { return }
        let now = monotonicSeconds()
        if now - lastProgress >= 0.25 {
            lastProgress = now
            let done = frame - (window?.frames.lowerBound ?? 0), total = window?.frames.count ?? plan.totalFrames
            progress(StitchProgress(framesDone: done, totalFrames: total, clipIndex: clipIndex,
                                    clipCount: plan.clips.count, elapsedSeconds: now - started,
                                    frameRate: plan.canvas.frameRate.value))
        }
    }

    /// Sends copied AAC packets (`--smart`), each standing as its output sound frame.
    private func copy(sound packets: [(packet: Packet, slot: Int)]) throws {
        guard soundChain != nil else { return }
        try OutputFile.writing(to: outputPath) {
            for (packet, slot) in packets { try writer.submit(copiedSound: packet, slot: slot) }
        }
    }

    /// Sends the last, short block of sound.
    func finish() throws {
        try OutputFile.writing(to: outputPath) { try soundChain?.finish() }
    }
}
