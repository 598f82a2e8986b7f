import Foundation
internal import SegueMedia
import SegueInput
import SegueModel

/// What a stitch renders when it renders one segment: output frames
/// `frames`, made exactly as the whole stitch makes them. The stitch starts
/// at the first clip the segment needs (clips before it are never opened),
/// plays that clip from its start (or, deep inside a long clip, from a
/// keyframe sought to a little before the segment) without writing
/// (`warmUpFrame` up to the segment's first frame), and ends at the segment's end (or a few frames
/// past it, for its sound encoder's post-roll). Its sound goes to `sound`.
final class SegmentWindow {
    let frames: Range<Int>
    /// The clip whose turn in the stitch holds the segment's first frame.
    let firstClip: Int
    /// The output frame the clock starts at: where that clip's turn begins.
    let warmUpFrame: Int
    /// Frames of `firstClip` an overlap join before it already played (its
    /// pictures and sound are taken and dropped before its turn).
    let playedInJoin: Range<Int>
    let sound: SegmentSound?
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
        // A speed change's pictures are picked from its in point: played from its start.
        // Nor one with layers over it: they play from their first frames.
        guard !info.facts.isStill, info.use.speed == nil, info.use.layers.isEmpty, info.facts.timing.timestampJumps == 0, !info.facts.variableFrameRate,
              info.facts.frameRate.reduced == plan.canvas.frameRate.reduced else { return 0 }
        // After a seek, resampled sound would start at another phase of the resampler,
        // and sound whose timestamps are coarser than its samples (Matroska's
        // milliseconds) where its rounded timestamp says, not where the samples
        // before it put it: such a clip is played from its start.
        if let audio = info.facts.audio, audio.sampleRate != plan.canvas.sampleRate || !audio.timestampsCountSamples { return 0 }
        let skip = start - clip.startFrame
        // Within the clip's own frames: a join's frames are drawn from both clips in step.
        let own = plan.ownFrames(of: clip)
        guard skip >= own.lowerBound, skip < own.upperBound, skip >= Int(seekMinimumSeconds * plan.canvas.frameRate.value) else { return 0 }
        // Never past where the picture ends (a held last picture is not sought into).
        guard Double(skip) / plan.canvas.frameRate.value < clip.pictureSeconds - 1 else { return 0 }
        return skip
    }

    /// The last clip the segment needs: the one whose turn holds its last
    /// frame (or the last frame its sound's post-roll needs), and the next one
    /// too when that frame is in their join.
    let lastClip: Int
    /// Where the stitch stops: the segment's end, or past it by the frames
    /// whose sound the segment's encoder needs after its stretch (not written as pictures).
    let tailEnd: Int

    /// `warmUpFrames`: at least this many frames are made before the segment's
    /// first (from the start of an earlier clip's turn, when one is there): state
    /// that carries across clips (the music's ducking) settles into the whole
    /// stitch's over them.
    /// `seekable` says which clips may be sought into (not one whose GOPs `--smart` copies).
    init(frames: Range<Int>, plan: Plan, sound: SegmentSound?, warmUpFrames: Int = 0,
         seekable: (PlannedClip) -> Bool = { _ in true }) {
        precondition(!frames.isEmpty && frames.upperBound <= plan.totalFrames, "a segment outside the plan")
        self.frames = frames
        self.sound = sound
        // The sound's pre-roll: frames back to where its encoder's feed starts.
        var warmUpFrames = warmUpFrames
        if let sound {
            let firstFed = (0...frames.lowerBound).last { plan.sampleIndex(atFrame: $0) <= sound.feedStart } ?? 0
            warmUpFrames = max(warmUpFrames, frames.lowerBound - firstFed)
            // Its post-roll: frames on past the segment, made for their sound only.
            if let feedEnd = sound.feedEnd {
                let past = (frames.upperBound...plan.totalFrames).first { plan.sampleIndex(atFrame: $0) >= feedEnd } ?? plan.totalFrames
                tailEnd = past
            } else {
                tailEnd = frames.upperBound
            }
        } else {
            tailEnd = frames.upperBound
        }
        let turns = plan.turnStarts
        let holding = (turns.lastIndex { $0 <= frames.lowerBound }) ?? 0
        let first = min(holding, (turns.lastIndex { $0 <= frames.lowerBound - warmUpFrames }) ?? 0)
        firstClip = first
        let clip = plan.clips[first]
        let skip = seekable(clip)
            ? SegmentWindow.framesToSeekPast(clip, to: frames.lowerBound - max(warmUpFrames, SegmentWindow.seekMargin(plan)), plan: plan)
            : 0
        if skip > 0 {
            // Opened as if trimmed to start `skip` frames in: the demuxer seeks to the keyframe before.
            var trimmed = clip
            let seconds = Double(skip) / plan.canvas.frameRate.value
            trimmed.info.use.inPoint += seconds
            trimmed.info.use.duration -= seconds
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
        let tail = tailEnd
        let last = (turns.lastIndex { $0 < tail }) ?? 0
        let ownEnd = plan.clips[last].startFrame + plan.ownFrames(of: plan.clips[last]).upperBound
        lastClip = min(plan.clips.count - 1, tailEnd > ownEnd ? last + 1 : last)
    }
}

extension Plan {
    /// Where each clip's turn in the stitch begins: the first of its own
    /// frames (an overlap join into it is played in the turn before).
    var turnStarts: [Int] {
        clips.map(turnStart(of:))
    }
}
