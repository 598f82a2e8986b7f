internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Which of one clip's frames are copied from its own encoded packets, in
/// whole GOPs (a picture decoding can start at, and every picture up to the
/// next such), and how its packets' timestamps map to the clip's frame positions.
struct ClipCopyPlan: Sendable {
    /// A run of frame positions that starts where decoding can start and ends before the next.
    struct GOP: Sendable {
        var frames: Range<Int>
        var copied: Bool
    }

    /// Source pts of clip position 0 (the in point), in `timeBase`.
    let origin: Int64
    let timeBase: Rational
    let frameRate: Rational
    let syntax: CopySyntax
    /// Every GOP of the source, in order; copied ones lie wholly in the clip's own frames.
    let gops: [GOP]
    /// HEVC: new ids for the clip's parameter sets and slices, when its own
    /// collide with another copied clip's.
    var renumbering: HEVCRenumbering?

    /// The frame position of a packet or picture stamped `pts`, rounded to the nearest frame.
    func position(ofPTS pts: Int64) -> Int {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return pts < origin ? -Int(Int32.max) : Int(Int32.max) }
        return Int((2 * numerator + denominator).floorDivided(by: 2 * denominator))
    }

    /// Whether `pts` lies within a quarter of a frame of a frame position: the
    /// `fps` filter puts such a picture on that position too (it rounds to the
    /// nearest), so phones' jittered capture times still copy.
    func isOnGrid(_ pts: Int64) -> Bool {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return false }
        return abs(numerator - Int64(position(ofPTS: pts)) * denominator) * 4 <= denominator
    }

    /// `pts` from the clip's origin, in frames, as an exact fraction; nil when
    /// its terms would not fit in 64 bits with room to round (a time far from
    /// any picture of the clip: damaged).
    private func framesFraction(of pts: Int64) -> (numerator: Int64, denominator: Int64)? {
        let ticks = pts.subtractingReportingOverflow(origin)
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
        return index == 0 || !gops[index - 1].copied || gops[index - 1].frames.upperBound != position
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
}

private extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
