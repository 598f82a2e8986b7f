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
    init(frames: Range<Int>, plan: Plan, sound: SegmentSound?, warmUpFrames: Int = 0) {
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
        clips.map { clip in clip.startFrame + (mode == .overlap ? joinFrames(before: clip.index) : 0) }
    }
}

/// A segment's sound, encoded where it is rendered: the AAC packets of the
/// whole stitch's sound that fall in the segment's stretch of the AAC frame
/// grid (`SegmentPlan.Segment.audioStart..<audioEnd`), written to an M4A of
/// its own for the join to copy.
///
/// The encoder is fed on the whole output's 1024-sample grid, from
/// `preRollBlocks` blocks of the real sound before the stretch (so its MDCT
/// overlap, window choices and masking state at the seam come from the same
/// samples as in one process), to `postRollBlocks` blocks after it (each
/// packet's window reaches one block ahead); the packets outside the stretch,
/// the encoder's own priming among them, are dropped. The first segment keeps
/// the priming packet, the last one everything to the end.
final class SegmentSound {
    static let blockSize = 1024
    static let preRollBlocks = 4
    static let postRollBlocks = 3

    private let encoder: Encoder
    private let muxer: Muxer
    private let stream: Int
    private let packet = Packet()
    /// The output sample the encoder's first block starts at (on the grid).
    let feedStart: Int
    /// The output sample feeding stops at (exclusive); nil: the end of the output.
    let feedEnd: Int?
    /// Packets kept are those whose decoded block starts in this range (output samples).
    private let keep: Range<Int>
    private var pending: [[Float]] = [[], []]
    /// The output sample `pending` starts at.
    private var pendingStart: Int
    private(set) var packetsKept = 0
    private let sampleRate: Int

    /// Needs the output's sound from `feedStart(for:)` to `feedEnd(for:)`, handed over in order.
    init(path: String, segment: SegmentPlan.Segment, isLast: Bool, sampleRate: Int, bitRate: Int) throws {
        self.sampleRate = sampleRate
        let muxer = try Muxer(path: path, format: "mp4")
        encoder = try Encoder.aac(sampleRate: sampleRate, channels: 2, bitRate: bitRate, globalHeader: muxer.needsGlobalHeader)
        precondition(encoder.frameSize == SegmentSound.blockSize, "AAC frames of \(encoder.frameSize) samples")
        stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader(options: [:])
        self.muxer = muxer
        feedStart = SegmentSound.feedStart(for: segment)
        feedEnd = isLast ? nil : SegmentSound.feedEnd(for: segment)
        pendingStart = feedStart
        // The first segment keeps the encoder's priming packet (decoded block -1024).
        keep = (segment.audioStart == 0 ? -SegmentSound.blockSize : segment.audioStart)..<(isLast ? Int.max : segment.audioEnd)
    }

    static func feedStart(for segment: SegmentPlan.Segment) -> Int {
        max(0, segment.audioStart - preRollBlocks * blockSize)
    }

    static func feedEnd(for segment: SegmentPlan.Segment) -> Int {
        segment.audioEnd + postRollBlocks * blockSize
    }

    /// Whether the sound up to the end of the feed has been given (the segment may stop).
    var isFed: Bool { feedEnd.map { pendingStart + pending[0].count >= $0 } ?? false }

    /// Takes the output's sound starting at output sample `start` (any stretch of
    /// it; what lies outside the feed is ignored).
    func write(_ sound: [[Float]], at start: Int) throws {
        precondition(sound.count == 2 && sound.hasEqualChannels, "a segment's sound is stereo")
        let end = start + sound[0].count
        let from = max(start, pendingStart + pending[0].count), to = min(end, feedEnd ?? .max)
        guard from < to else { return }
        precondition(from == pendingStart + pending[0].count, "the segment's sound has a gap before sample \(from)")
        for channel in 0..<2 { pending[channel] += sound[channel][(from - start)..<(to - start)] }
        while pending[0].count >= SegmentSound.blockSize { try encodeBlock(count: SegmentSound.blockSize) }
    }

    /// Encodes what is left (the last segment: the short last block, as the whole
    /// stitch does), flushes the encoder, and closes the file.
    func finish() throws {
        if feedEnd == nil, !pending[0].isEmpty { try encodeBlock(count: pending[0].count) }
        try encoder.sendEndOfStream()
        try drain()
        try muxer.finish()
    }

    private func encodeBlock(count: Int) throws {
        let block = try Frame.audio(sampleCount: count, channels: 2, sampleRate: sampleRate)
        block.setSamples(from: pending, start: 0)
        block.pts = Int64(pendingStart - feedStart)
        for channel in 0..<2 { pending[channel].removeFirst(count) }
        pendingStart += count
        try encoder.send(block)
        try drain()
    }

    private func drain() throws {
        while try encoder.receive(into: packet) == .ready {
            guard let pts = packet.pts, keep.contains(feedStart + Int(pts)) else {
                packet.unref()
                continue
            }
            packetsKept += 1
            try muxer.write(packet, stream: stream)
        }
    }
}
