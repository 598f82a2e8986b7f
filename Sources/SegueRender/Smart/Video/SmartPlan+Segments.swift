import SegueInput
import SegueModel
internal import SegueMedia
/// `--smart` in a segmented render: each segment's copy plan, and where
/// copied GOPs let a segment boundary fall for free.
extension SmartPlan {
    /// The copy plan of a segment `start..<end` (output frames): a copied GOP
    /// that a segment boundary cuts is re-encoded, so a segment starts with a
    /// keyframe of its own and never ends inside a GOP whose pictures refer
    /// across it. Both segments of a cut GOP re-encode it; the others stay
    /// copied. Copied leading pictures come after the keyframe that follows
    /// them: a boundary at or in them re-encodes that keyframe's GOP, so they
    /// are decoded in the segment that shows them. The segment's first copied
    /// GOP opens a copied run (a BLA, or an IDR for an H.264 open GOP's I
    /// picture) even where the whole stitch copies the GOP before it: the
    /// segment before may have re-encoded that one.
    func cut(at start: Int, _ end: Int) -> SmartPlan {
        var cut = self
        for index in cut.clips.indices {
            guard let copy = cut.clips[index].copy else { continue }
            let clipStart = plan.clips[index].startFrame
            var gops = copy.gops
            for (at, gop) in copy.gops.enumerated() where gop.copied {
                let shown = (clipStart + gop.frames.lowerBound)..<(clipStart + gop.frames.upperBound)
                let straddles = { (boundary: Int) in shown.lowerBound < boundary && boundary < shown.upperBound }
                let meets = { (boundary: Int) in shown.lowerBound <= boundary && boundary <= shown.upperBound }
                if gop.leading ? meets(start) || meets(end) : straddles(start) || straddles(end) {
                    gops[gop.leading ? at + 1 : at].copied = false
                }
            }
            var segment = copy.replacingGOPs(gops)
            // The segment comes to its first copied GOP from its own pictures, whatever the GOP before.
            segment.runStart = segment.gops.first { $0.copied && $0.frames.lowerBound >= start - clipStart }?.frames.lowerBound
            cut.clips[index].copy = segment
        }
        return cut
    }

    /// The copied GOP (in output frames) holding `frame` strictly inside it,
    /// if any; with the copied leading pictures before it, which a boundary
    /// can't part from it.
    package func copiedGOP(strictlyHolding frame: Int) -> Range<Int>? {
        for index in clips.indices {
            let gops = clips[index].copy?.gops ?? []
            for (at, gop) in gops.enumerated() where gop.copied && !gop.leading {
                let first = at > 0 && gops[at - 1].leading && gops[at - 1].copied ? gops[at - 1].frames.lowerBound : gop.frames.lowerBound
                let shown = (plan.clips[index].startFrame + first)..<(plan.clips[index].startFrame + gop.frames.upperBound)
                if shown.lowerBound < frame && frame < shown.upperBound { return shown }
            }
        }
        return nil
    }
}
