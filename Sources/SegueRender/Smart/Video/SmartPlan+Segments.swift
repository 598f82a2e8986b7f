import SegueInput
import SegueModel
internal import SegueMedia
/// `--smart` in a segmented render: each segment's copy plan, and where
/// copied GOPs let a segment boundary fall for free.
extension SmartPlan {
    /// The copy plan of a segment `start..<end` (output frames): a copied GOP
    /// that a segment boundary cuts is re-encoded, so a segment starts with a
    /// keyframe of its own and never ends inside a GOP whose pictures refer
    /// across it. Both segments of a cut GOP re-encode it; the others stay copied.
    func cut(at start: Int, _ end: Int) -> SmartPlan {
        var cut = self
        for index in cut.clips.indices {
            guard let copy = cut.clips[index].copy else { continue }
            let clipStart = plan.clips[index].startFrame
            let gops = copy.gops.map { gop -> ClipCopyPlan.GOP in
                let shown = (clipStart + gop.frames.lowerBound)..<(clipStart + gop.frames.upperBound)
                let straddles = { (boundary: Int) in shown.lowerBound < boundary && boundary < shown.upperBound }
                guard gop.copied, straddles(start) || straddles(end) else { return gop }
                return ClipCopyPlan.GOP(frames: gop.frames, copied: false)
            }
            cut.clips[index].copy = ClipCopyPlan(origin: copy.origin, timeBase: copy.timeBase, frameRate: copy.frameRate,
                                                 syntax: copy.syntax, gops: gops, renumbering: copy.renumbering)
        }
        return cut
    }

    /// Where copied GOPs start, in output frames: where a segment boundary costs nothing.
    var copiedGOPStarts: [Int] {
        clips.indices.flatMap { index in
            (clips[index].copy?.gops ?? []).filter(\.copied).map { plan.clips[index].startFrame + $0.frames.lowerBound }
        }.sorted()
    }

    /// The copied GOP (in output frames) holding `frame` strictly inside it, if any.
    package func copiedGOP(strictlyHolding frame: Int) -> Range<Int>? {
        for index in clips.indices {
            for gop in clips[index].copy?.gops ?? [] where gop.copied {
                let shown = (plan.clips[index].startFrame + gop.frames.lowerBound)..<(plan.clips[index].startFrame + gop.frames.upperBound)
                if shown.lowerBound < frame && frame < shown.upperBound { return shown }
            }
        }
        return nil
    }
}
