import Foundation
import SegueMedia

/// What a stitch renders when it renders one segment: output frames
/// `frames`, made exactly as the whole stitch makes them. The stitch starts
/// at the first clip the segment needs (clips before it are never opened),
/// plays that clip from its start without writing (`warmUpFrame` up to the
/// segment's first frame), and ends at the segment's end. Its sound goes to
/// `sound` as the exact samples, for the join to encode once.
final class SegmentWindow {
    /// Thrown by the clock at the segment's end: the stitch stops there.
    struct Reached: Error {}

    let frames: Range<Int>
    /// The clip whose turn in the stitch holds the segment's first frame.
    let firstClip: Int
    /// The output frame the clock starts at: where that clip's turn begins.
    let warmUpFrame: Int
    /// Frames of `firstClip` an overlap join before it already played (its
    /// pictures and sound are taken and dropped before its turn).
    let playedInJoin: Range<Int>
    let sound: SoundFile?
    /// The first clip as it is opened: itself, or trimmed to start where the
    /// segment's warm-up starts, when that is deep inside it (`framesSkipped` in).
    private(set) var opened: PlannedClip? = nil
    private(set) var framesSkipped = 0

    /// Seconds of picture (and sound) made before a segment's first frame when
    /// its first clip is sought into: the decoders, the sound's resampler and
    /// the filters settle over them.
    static let seekMarginSeconds = 2.0
    /// A clip is sought into only when that passes over at least this much of it.
    static let seekMinimumSeconds = 3.0

    static func seekMargin(_ plan: Plan) -> Int { Int((seekMarginSeconds * plan.canvas.frameRate.value).rounded(.up)) }

    /// How many of `clip`'s frames a segment whose warm-up starts at output
    /// frame `start` passes over by seeking; 0 when the clip plays from its start.
    /// Only a plain video at the canvas rate, with sound at the canvas's sample
    /// rate or none, is sought into (its pictures fall on the canvas's ticks, so
    /// a trimmed start picks the same ones; its samples are not resampled),
    /// never into the frames of a join before it.
    static func framesToSeekPast(_ clip: PlannedClip, to start: Int, plan: Plan) -> Int {
        let info = clip.info
        guard !info.isStill, info.timestampJumps == 0, !info.variableFrameRate,
              info.frameRate.reduced == plan.canvas.frameRate.reduced else { return 0 }
        // Resampled sound would start at another phase of the resampler (measured: up
        // to 0.006 off on a 44.1 kHz tone): such a clip is played from its start, exactly.
        if let audio = info.audio, audio.sampleRate != plan.canvas.sampleRate { return 0 }
        let skip = start - clip.startFrame
        let joinBefore = plan.mode == .overlap ? plan.joinFrames(before: clip.index) : 0
        guard skip >= joinBefore, skip >= Int(seekMinimumSeconds * plan.canvas.frameRate.value), skip < clip.frameCount else { return 0 }
        // Never past where the picture ends (a held last picture is not sought into).
        guard Double(skip) / plan.canvas.frameRate.value < clip.pictureSeconds - 1 else { return 0 }
        return skip
    }

    /// The last clip the segment needs: the one whose turn holds its last
    /// frame, and the next one too when that frame is in their join.
    let lastClip: Int

    /// `warmUpFrames`: at least this many frames are made before the segment's
    /// first (from the start of an earlier clip's turn, when one is there): state
    /// that carries across clips (the music's ducking) settles into the whole
    /// stitch's over them.
    init(frames: Range<Int>, plan: Plan, sound: SoundFile?, warmUpFrames: Int = 0) {
        precondition(!frames.isEmpty && frames.upperBound <= plan.totalFrames, "a segment outside the plan")
        self.frames = frames
        self.sound = sound
        let turns = plan.turnStarts
        let holding = (turns.lastIndex { $0 <= frames.lowerBound }) ?? 0
        let first = min(holding, (turns.lastIndex { $0 <= frames.lowerBound - warmUpFrames }) ?? 0)
        firstClip = first
        let clip = plan.clips[first]
        let skip = SegmentWindow.framesToSeekPast(clip, to: frames.lowerBound - max(warmUpFrames, SegmentWindow.seekMargin(plan)),
                                                  plan: plan)
        if skip > 0 {
            // Opened as if trimmed to start `skip` frames in: the demuxer seeks to the keyframe before.
            var trimmed = clip
            let seconds = Double(skip) / plan.canvas.frameRate.value
            trimmed.info.inPoint += seconds
            trimmed.info.duration -= seconds
            trimmed.frameCount -= skip
            trimmed.startFrame += skip
            opened = trimmed
            framesSkipped = skip
            warmUpFrame = clip.startFrame + skip
            playedInJoin = warmUpFrame..<warmUpFrame
        } else {
            warmUpFrame = turns[first]
            playedInJoin = clip.startFrame..<turns[first]
        }
        let last = (turns.lastIndex { $0 < frames.upperBound }) ?? 0
        let ownEnd = plan.clips[last].startFrame + plan.ownFrames(of: plan.clips[last]).upperBound
        lastClip = min(plan.clips.count - 1, frames.upperBound > ownEnd ? last + 1 : last)
    }
}

extension Plan {
    /// Where each clip's turn in the stitch begins: the first of its own
    /// frames (an overlap join into it is played in the turn before).
    var turnStarts: [Int] {
        clips.map { clip in clip.startFrame + (mode == .overlap ? joinFrames(before: clip.index) : 0) }
    }
}

/// A segment's sound, written as it comes: interleaved 32-bit float stereo,
/// little-endian (the samples exactly as the encoder would have had them).
final class SoundFile {
    private let handle: FileHandle
    private var pending = Data()
    private(set) var samples = 0

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw SegueError(.writeFailed, subject: path, detail: "can't create the segment's sound file")
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    func write(_ sound: [[Float]]) throws {
        precondition(sound.count == 2 && sound.hasEqualChannels, "a segment's sound is stereo")
        let count = sound[0].count
        var interleaved = [Float](repeating: 0, count: count * 2)
        for index in 0..<count {
            interleaved[2 * index] = sound[0][index]
            interleaved[2 * index + 1] = sound[1][index]
        }
        interleaved.withUnsafeBytes { pending.append(contentsOf: $0) }
        samples += count
        if pending.count >= 1 << 20 { try flush() }
    }

    func finish() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        try handle.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Reads `count` stereo samples from `handle` as two channels; fewer at the file's end.
    static func read(_ count: Int, from handle: FileHandle) throws -> [[Float]] {
        let data = try handle.read(upToCount: count * 8) ?? Data()
        let frames = data.count / 8
        var channels: [[Float]] = [[Float](repeating: 0, count: frames), [Float](repeating: 0, count: frames)]
        data.withUnsafeBytes { raw in
            let floats = raw.bindMemory(to: Float.self)
            for index in 0..<frames {
                channels[0][index] = floats[2 * index]
                channels[1][index] = floats[2 * index + 1]
            }
        }
        return channels
    }
}
