import SegueMedia

/// How two clips meet in time (`TransitionMode`): which of a clip's frames
/// play as its own, and how a join's frames are drawn and heard. A new join
/// mode is one more conforming type.
protocol JoinStrategy {
    /// The positions in `clip` that play as its own frames, given the frames its joins take.
    func ownFrames(of clip: PlannedClip, joinBefore: Int, joinAfter: Int) -> Range<Int>
    /// Shapes the sound of own frame `position` (e.g. ramps next to held frames).
    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int)
    /// Plays `join`'s frames from the clip going out and the clip coming in.
    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws
}

/// The last frames of one clip and the first of the next play at once; the
/// sound crossfades over the same frames.
struct OverlapJoin: JoinStrategy {
    func ownFrames(of clip: PlannedClip, joinBefore: Int, joinAfter: Int) -> Range<Int> {
        joinBefore..<(clip.frameCount - joinAfter)
    }

    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int) {}

    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws {
        let transitionStart = clock.nextSampleIndex
        let transitionSamples = clock.samples(forFrames: join.frameCount)
        for step in 0..<join.frameCount {
            let picture = try TransitionDrawing.draw(join, step: step, from: outgoing.nextPicture(),
                                                     to: incoming.nextPicture(), canvas: clock.canvas)
            var sound: [[Float]]?
            if clock.includeAudio {
                let count = clock.samplesForNextFrame
                sound = try AudioChunker.crossfade(outgoing.nextSamples(count), incoming.nextSamples(count),
                                                   offset: clock.nextSampleIndex - transitionStart, length: transitionSamples)
            }
            try clock.emit(picture, sound, clipIndex: join.index)
        }
    }
}

/// The seed player's literal trick: the last picture of one clip and the
/// first of the next are held and blended over inserted frames, in silence
/// reached through short ramps, so no content is lost.
struct FreezeJoin: JoinStrategy {
    func ownFrames(of clip: PlannedClip, joinBefore: Int, joinAfter: Int) -> Range<Int> {
        0..<clip.frameCount
    }

    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int) {
        if joinBefore > 0 && position == 0 { AudioChunker.fadeIn(&sound) }
        if joinAfter > 0 && position == clip.frameCount - 1 { AudioChunker.fadeOut(&sound) }
    }

    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws {
        let held = try outgoing.heldPicture()
        let waiting = try incoming.peekPicture()
        for step in 0..<join.frameCount {
            let picture = try TransitionDrawing.draw(join, step: step, from: held, to: waiting, canvas: clock.canvas)
            let silence = clock.includeAudio
                ? [[Float]](repeating: [Float](repeating: 0, count: clock.samplesForNextFrame), count: 2) : nil
            try clock.emit(picture, silence, clipIndex: join.index)
        }
    }
}

/// The picture of one step of a transition.
enum TransitionDrawing {
    /// Step `step` of `join`'s frames, drawn between `outgoing` and `incoming`.
    static func draw(_ join: PlannedJoin, step: Int, from outgoing: Frame, to incoming: Frame, canvas: Canvas) throws -> Frame {
        let picture = try Frame.video(width: canvas.width, height: canvas.height)
        let position = Double(step + 1) / Double(join.frameCount + 1)
        switch join.transition {
        case .fade: Frame.blend(outgoing, incoming, weight: Int((position * 256).rounded()), into: picture)
        case .slideLeft: Frame.slide(outgoing, incoming, fraction: position, direction: .left, into: picture)
        case .slideRight: Frame.slide(outgoing, incoming, fraction: position, direction: .right, into: picture)
        case .slideUp: Frame.slide(outgoing, incoming, fraction: position, direction: .up, into: picture)
        case .slideDown: Frame.slide(outgoing, incoming, fraction: position, direction: .down, into: picture)
        case .none: break
        }
        return picture
    }
}
