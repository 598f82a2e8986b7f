internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Which of one clip's frames are copied from its own encoded packets, in
/// whole GOPs (a picture decoding can start at, and every picture up to the
/// next such), and how its packets' timestamps map to the clip's frame positions.
struct ClipCopyPlan: Sendable {
    /// A run of frame positions that starts where decoding can start and ends
    /// before the next; or the leading pictures of such a start (open GOPs).
    struct GOP: Sendable {
        var frames: Range<Int>
        var copied: Bool
        /// Pictures that follow a keyframe in decoding order but show before it
        /// (HEVC RASL and RADL): they may lean on the GOP before. Copied only
        /// with both neighbours; otherwise decoded from them and re-encoded.
        var leading = false
        /// A copied GOP whose packets also go to the decoder: the leading
        /// pictures after it are decoded and refer to its pictures.
        var decodedToo = false
        /// A variable-rate clip's GOP whose pictures are off the frame grid:
        /// copied at their own times, from its first frame on (nil: one picture per frame).
        var timed: TimedPictures?

        init(frames: Range<Int>, copied: Bool, leading: Bool = false, timed: TimedPictures? = nil) {
            self.frames = frames
            self.copied = copied
            self.leading = leading
            self.timed = timed
        }
    }

    /// The pictures of a GOP copied at their own times (a variable-rate
    /// clip's). Its keyframe shows at the GOP's first frame (moved there by
    /// less than half a frame), the others as far after it as in the source;
    /// the last shows until the GOP's last frame ends.
    struct TimedPictures: Sendable {
        /// The source pts of its keyframe, and the pts its pictures stay below (the next GOP's first).
        var key: Int64
        var end: Int64
        var pictures: Int
    }

    /// Source pts of clip position 0 (the in point), in `timeBase`.
    let origin: Int64
    let timeBase: Rational
    let frameRate: Rational
    let syntax: CopySyntax
    /// Every GOP of the source, in order; copied ones lie wholly in the clip's own frames.
    private(set) var gops: [GOP] { didSet { timedGOPs = gops.indices.filter { gops[$0].timed != nil } } }
    /// The indices of `gops` that are timed, in order.
    private var timedGOPs: [Int] = []
    /// HEVC: new ids for the clip's parameter sets and slices, when its own
    /// collide with another copied clip's.
    var renumbering: HEVCRenumbering?
    /// H.264 open GOPs: how to read and rewrite the clip's slice headers, so
    /// that a copied run can start at an I picture that is not an IDR.
    var openGOPSlices: H264SliceSyntax?
    /// A position whose copied GOP opens a copied run whatever comes before it
    /// in the clip (a segment's first copied GOP).
    var runStart: Int?

    /// `gops`' leading pictures are settled by their neighbours (see `settled`).
    init(origin: Int64, timeBase: Rational, frameRate: Rational, syntax: CopySyntax, gops: [GOP]) {
        self.origin = origin
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.syntax = syntax
        self.gops = ClipCopyPlan.settled(gops)
        timedGOPs = self.gops.indices.filter { self.gops[$0].timed != nil }
    }

    /// The same plan with `gops` copied or not as given (leading pictures settled again).
    func replacingGOPs(_ gops: [GOP]) -> ClipCopyPlan {
        var plan = self
        plan.gops = ClipCopyPlan.settled(gops)
        return plan
    }

    /// Leading pictures are copied when the GOPs on both sides are: the run
    /// goes on through them as the source has it. Otherwise they are decoded
    /// (from the keyframe after them and the pictures before it) and
    /// re-encoded, and a copied GOP before them is decoded as well. A copied
    /// GOP that would need both (its own leading pictures decoded from its
    /// keyframe, and its pictures decoded for the next ones) is re-encoded:
    /// one decoder can't start afresh inside it.
    static func settled(_ gops: [GOP]) -> [GOP] {
        var gops = gops
        var changed = true
        while changed {
            changed = false
            for index in gops.indices where gops[index].leading {
                let before = index > 0 && !gops[index - 1].leading
                    && gops[index - 1].frames.upperBound == gops[index].frames.lowerBound ? index - 1 : nil
                let after = index + 1 < gops.count && gops[index + 1].frames.lowerBound == gops[index].frames.upperBound ? index + 1 : nil
                // A timed GOP beside leading pictures is re-encoded: they sit on the grid, it doesn't.
                for neighbour in [before, after].compactMap({ $0 }) where gops[neighbour].timed != nil && gops[neighbour].copied {
                    gops[neighbour].copied = false
                    changed = true
                }
                let copiedBefore = before.map { gops[$0].copied } ?? false
                let copiedAfter = after.map { gops[$0].copied } ?? false
                gops[index].copied = copiedBefore && copiedAfter
                gops[index].decodedToo = false
                if let before { gops[before].decodedToo = copiedBefore && !copiedAfter }
            }
            for index in gops.indices where gops[index].copied && gops[index].decodedToo && opensAfterDecodedLeading(gops, index) {
                gops[index].copied = false
                gops[index].decodedToo = false
                changed = true
            }
        }
        return gops
    }

    /// Whether copied GOP `index` comes right after leading pictures that are decoded.
    private static func opensAfterDecodedLeading(_ gops: [GOP], _ index: Int) -> Bool {
        index > 0 && gops[index - 1].leading && !gops[index - 1].copied
            && gops[index - 1].frames.upperBound == gops[index].frames.lowerBound
    }

    /// The frame position of a packet or picture stamped `pts`, rounded to the nearest frame.
    func position(ofPTS pts: Int64) -> Int {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return pts < origin ? -Int(Int32.max) : Int(Int32.max) }
        return Int((2 * numerator + denominator).floorDivided(by: 2 * denominator))
    }

    /// Where the copied packet stamped `pts` shows in the clip, or nil when it is decoded.
    func copiedTime(ofPTS pts: Int64) -> FrameTime? {
        if let gop = timedGOP(holdingPTS: pts) {
            guard gop.copied, let timed = gop.timed else { return nil }
            return timedTime(ofPTS: pts, key: timed.key, first: gop.frames.lowerBound)
        }
        let position = position(ofPTS: pts)
        return isCopied(position) ? FrameTime(frame: position) : nil
    }

    /// The timed GOP whose pictures' pts range holds `pts`.
    private func timedGOP(holdingPTS pts: Int64) -> GOP? {
        var low = 0, high = timedGOPs.count
        while low < high {
            let middle = (low + high) / 2
            if gops[timedGOPs[middle]].timed!.end <= pts { low = middle + 1 } else { high = middle }
        }
        guard low < timedGOPs.count, let timed = gops[timedGOPs[low]].timed, timed.key <= pts else { return nil }
        return gops[timedGOPs[low]]
    }

    /// The timed GOP that shows frame `position`, if it is copied.
    func copiedTimedGOP(showing position: Int) -> GOP? {
        gopIndex(containing: position).map { gops[$0] }.flatMap { $0.copied && $0.timed != nil ? $0 : nil }
    }

    /// Where the picture stamped `pts` of a timed GOP whose keyframe is
    /// stamped `key` and shows at frame `first` shows: as far after it as in the source.
    func timedTime(ofPTS pts: Int64, key: Int64, first: Int) -> FrameTime? {
        framesFraction(of: pts, from: key).map { FrameTime(frames: $0.numerator, over: $0.denominator).shifted(by: first) }
    }

    /// Whether `pts` lies within a quarter of a frame of a frame position: the
    /// `fps` filter puts such a picture on that position too (it rounds to the
    /// nearest), so phones' jittered capture times still copy.
    func isOnGrid(_ pts: Int64) -> Bool {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return false }
        return abs(numerator - Int64(position(ofPTS: pts)) * denominator) * 4 <= denominator
    }

    /// `pts` from the clip's origin (or `base`), in frames, as an exact fraction; nil when
    /// its terms would not fit in 64 bits with room to round (a time far from
    /// any picture of the clip: damaged).
    private func framesFraction(of pts: Int64, from base: Int64? = nil) -> (numerator: Int64, denominator: Int64)? {
        let ticks = pts.subtractingReportingOverflow(base ?? origin)
        let scale = Int64(timeBase.numerator).multipliedReportingOverflow(by: Int64(frameRate.numerator))
        let denominator = Int64(timeBase.denominator).multipliedReportingOverflow(by: Int64(frameRate.denominator))
        guard !ticks.overflow, !scale.overflow, !denominator.overflow, denominator.partialValue > 0 else { return nil }
        let numerator = ticks.partialValue.multipliedReportingOverflow(by: scale.partialValue)
        let limit = Int64.max / 8
        guard !numerator.overflow, (-limit..<limit).contains(numerator.partialValue), denominator.partialValue < limit else { return nil }
        return (numerator.partialValue, denominator.partialValue)
    }

    /// Whether the frame at `position` is copied.
    func isCopied(_ position: Int) -> Bool {
        gopIndex(containing: position).map { gops[$0].copied } ?? false
    }

    /// Whether the frame at `position` opens a run of copied GOPs: the output
    /// comes to it from other pictures (re-encoded, or another clip's).
    func startsCopiedRun(_ position: Int) -> Bool {
        guard let index = gopIndex(containing: position), gops[index].copied, gops[index].frames.lowerBound == position else {
            return false
        }
        return index == 0 || !gops[index - 1].copied || gops[index - 1].frames.upperBound != position || position == runStart
    }

    /// Whether the copied keyframe at `position` has leading pictures that are
    /// decoded: it goes to the decoder too, before them, which refer to it.
    func leadsDecodedPictures(_ position: Int) -> Bool {
        guard let index = gopIndex(containing: position), gops[index].frames.lowerBound == position else { return false }
        return gops[index].copied && ClipCopyPlan.opensAfterDecodedLeading(gops, index)
    }

    /// Whether the frame at `position` is a leading picture (see `GOP.leading`).
    func isLeading(_ position: Int) -> Bool {
        gopIndex(containing: position).map { gops[$0].leading } ?? false
    }

    /// Whether `position` is where a GOP's keyframe shows.
    func startsGOP(_ position: Int) -> Bool {
        gopIndex(containing: position).map { gops[$0].frames.lowerBound == position && !gops[$0].leading } ?? false
    }

    /// Whether the copied frame at `position` also goes to the decoder
    /// (decoded leading pictures after its GOP refer to its pictures).
    func isDecodedToo(_ position: Int) -> Bool {
        gopIndex(containing: position).map { gops[$0].copied && gops[$0].decodedToo } ?? false
    }

    private func gopIndex(containing position: Int) -> Int? {
        var low = 0, high = gops.count
        while low < high {
            let middle = (low + high) / 2
            if gops[middle].frames.upperBound <= position { low = middle + 1 } else { high = middle }
        }
        return low < gops.count && gops[low].frames.contains(position) ? low : nil
    }

    var copiedFrames: Int { gops.filter(\.copied).reduce(0) { $0 + $1.frames.count } }

    /// The source pictures copied: one per copied frame, a timed GOP's own count.
    var copiedPictures: Int { gops.filter(\.copied).reduce(0) { $0 + ($1.timed?.pictures ?? $1.frames.count) } }

    /// The pictures written for output frames `frames` of the clip: one per frame, a copied timed GOP's own count.
    func pictures(inFrames frames: Range<Int>) -> Int {
        var count = frames.count
        for gop in gops where gop.copied {
            guard let timed = gop.timed, frames.lowerBound <= gop.frames.lowerBound, gop.frames.upperBound <= frames.upperBound else { continue }
            count += timed.pictures - gop.frames.count
        }
        return count
    }

    /// Leading pictures re-encoded because a copied run starts at the keyframe after them.
    var reencodedLeadingPictures: Int {
        gops.indices.filter { gops[$0].copied && ClipCopyPlan.opensAfterDecodedLeading(gops, $0) }
            .reduce(0) { $0 + gops[$1 - 1].frames.count }
    }
}

private extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
