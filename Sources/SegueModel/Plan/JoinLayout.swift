/// Where joins sit in time, by the plan's mode: the one place that answers
/// an overlap-or-freeze question. Overlap: a join's frames are the last of
/// one clip and the first of the next, played at once, so the output is
/// shorter by the join. Freeze: they are inserted between the clips, drawn
/// from the held last picture of one and first picture of the next.
/// Counts are output frames; `joinBefore` and `joinAfter` are the frames of
/// a clip's joins (0 for none, or a cut).
package struct JoinLayout: Sendable, Equatable {
    package let mode: TransitionMode

    package init(mode: TransitionMode) { self.mode = mode }

    /// Whether a join's frames are the clips' own, played at once.
    package var overlaps: Bool { mode == .overlap }

    /// Where the clip after one of `frameCount` frames starting at `start` starts.
    func nextStart(after start: Int, frameCount: Int, joinAfter: Int) -> Int {
        overlaps ? start + frameCount - joinAfter : start + frameCount + joinAfter
    }

    /// The positions in a clip of `frameCount` frames that play as its own,
    /// between the frames its joins take.
    func ownFrames(frameCount: Int, joinBefore: Int, joinAfter: Int) -> Range<Int> {
        overlaps ? joinBefore..<(frameCount - joinAfter) : 0..<frameCount
    }

    /// Where a clip starting at `start` is first seen: where the join into it
    /// starts (a freeze's held frames come before the clip).
    func firstSeen(start: Int, joinBefore: Int) -> Int {
        overlaps ? start : start - joinBefore
    }

    /// Where the stitch's turn of a clip starting at `start` begins: its first
    /// own frame (an overlap join into it is played in the turn before).
    func turnStart(start: Int, joinBefore: Int) -> Int {
        overlaps ? start + joinBefore : start
    }

    /// Where the output's sound passes to a clip starting at `start`: the
    /// middle of the join into it.
    func soundHandover(start: Int, joinBefore: Int) -> Int {
        overlaps ? start + joinBefore / 2 : start - (joinBefore + 1) / 2
    }

    /// Which of a clip's edge pictures a join holds (freeze only): its first
    /// when a join comes before it, its last when one comes after.
    func heldEdges(joinBefore: Int, joinAfter: Int) -> (first: Bool, last: Bool) {
        overlaps ? (false, false) : (joinBefore > 0, joinAfter > 0)
    }
}

extension Plan {
    /// How this plan's joins sit in time.
    package var layout: JoinLayout { JoinLayout(mode: mode) }

    /// The frames clip `clip` plays as its own, between the frames its joins take.
    package func ownFrames(of clip: PlannedClip) -> Range<Int> {
        layout.ownFrames(frameCount: clip.frameCount, joinBefore: joinFrames(before: clip.index), joinAfter: joinFrames(after: clip.index))
    }

    /// The output frame where `clip` is first seen.
    func firstSeen(_ clip: PlannedClip) -> Int {
        layout.firstSeen(start: clip.startFrame, joinBefore: joinFrames(before: clip.index))
    }

    /// The output frame where the stitch's turn of `clip` begins.
    package func turnStart(of clip: PlannedClip) -> Int {
        layout.turnStart(start: clip.startFrame, joinBefore: joinFrames(before: clip.index))
    }

    /// The output frame where the sound passes to `clip`.
    package func soundHandover(to clip: PlannedClip) -> Int {
        layout.soundHandover(start: clip.startFrame, joinBefore: joinFrames(before: clip.index))
    }

    /// Which of `clip`'s edge pictures its joins hold.
    package func heldEdges(of clip: PlannedClip) -> (first: Bool, last: Bool) {
        layout.heldEdges(joinBefore: joinFrames(before: clip.index), joinAfter: joinFrames(after: clip.index))
    }
}
