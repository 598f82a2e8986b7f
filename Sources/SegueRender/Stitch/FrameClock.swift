internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime

/// The output's time: stamps each picture with its frame number, gives each
/// frame exactly its planned share of audio samples (so sound never drifts
/// from picture), cuts the sound into encoder-sized blocks, reports progress a
/// few times a second and notices a stop request, once per frame.
final class FrameClock {
    private let plan: Plan
    private let writer: OutputWriter
    private let outputPath: String
    private let stop: StopRequest
    private let started: Double
    private let progress: (StitchProgress) -> Void
    private var audio: AudioChunker?
    private let music: MusicBed?
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
    /// An editor's timeline's own sound, heard instead of its clips' own under the frames it covers.
    var timelineSound: TimelineSoundMix?

    init(plan: Plan, writer: OutputWriter, includeAudio: Bool, music: MusicBed?, smart: SmartPlan? = nil, outputPath: String,
         stop: StopRequest, started: Double, window: SegmentWindow? = nil, progress: @escaping (StitchProgress) -> Void) {
        self.smart = smart
        self.window = window
        frame = window?.warmUpFrame ?? 0
        self.music = music
        self.plan = plan
        self.writer = writer
        self.outputPath = outputPath
        self.stop = stop
        self.started = started
        self.progress = progress
        lastProgress = started
        audio = includeAudio ? AudioChunker(frameSize: writer.audioFrameSize, sampleRate: plan.canvas.sampleRate) : nil
    }

    var includeAudio: Bool { audio != nil }
    var samplesWritten: Int { audio?.samplesWritten ?? 0 }

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

    private func emit(_ sound: [[Float]]?, clipIndex: Int, video: () throws -> Void) throws {
        if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
        precondition(!reachedWindowEnd, "a frame past the segment's window")
        var sound = sound
        if let timelineSound, let clipSound = sound, timelineSound.covers(frame: frame) {
            sound = try timelineSound.sound(from: plan.sampleIndex(atFrame: frame), count: clipSound.first?.count ?? 0)
        }
        if let music, let clipSound = sound {
            do {
                sound = try music.mix(under: clipSound)
            } catch {
                throw ClipSource.failure(error, reading: music.path)
            }
        }
        if let window {
            // A segment's sound encoder takes its pre-roll and post-roll from the frames around it.
            if let sound, let encoder = window.sound {
                try OutputFile.writing(to: outputPath) { try encoder.write(sound, at: plan.sampleIndex(atFrame: frame)) }
            }
            if !window.frames.contains(frame) {
                frame += 1 // warming up (or the sound's post-roll): made exactly as in the whole stitch, no picture written
                return
            }
            try OutputFile.writing(to: outputPath) { try video() }
        } else {
            try OutputFile.writing(to: outputPath) {
                try video()
                if let sound { try audio?.append(sound) { try writer.submit(sound: $0) } }
            }
        }
        frame += 1
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
        guard audio != nil else { return }
        try OutputFile.writing(to: outputPath) {
            for (packet, slot) in packets { try writer.submit(copiedSound: packet, slot: slot) }
        }
    }

    /// Sends the last, short block of sound.
    func finish() throws {
        if let window { return try OutputFile.writing(to: outputPath) { try window.sound?.finish() } }
        try OutputFile.writing(to: outputPath) { try audio?.flush { try writer.submit(sound: $0) } }
    }
}
