import SegueCore

/// A constant speed change (an editor's timeline: EDL `M2`, OTIO
/// `LinearTimeWarp`, xmeml Time Remap). Output frame k of the clip, counted
/// from its in point, shows the picture its plain play shows at frame
/// floor(k × rate + phase), both at the canvas's rate: 2x shows every second
/// frame, 0.5x each frame twice, 0 holds the first (a freeze frame). The phase
/// (under one frame) lines the handles a transition plays before the source
/// range up with it, so the range's own first frame is shown exactly.
package struct PlaybackSpeed: Sendable, Equatable, Codable {
    /// Source frames per output frame, p/q with p ≥ 0 and q > 0.
    package var rate: Rational
    /// Added before flooring, as a fraction over `rate.denominator`.
    package var phaseNumerator: Int

    /// The fastest and slowest speeds kept with their sound; beyond, silence (with a warning).
    package static let audibleRange = 0.25...4.0
    /// The fastest speed a timeline may ask for.
    package static let fastest = 100.0

    package init(rate: Rational, phaseNumerator: Int = 0) {
        self.rate = rate
        self.phaseNumerator = phaseNumerator
    }

    /// `speed` as an exact fraction (to 1/100000), nil unless it is finite, ≥ 0 and at most `fastest`.
    package init?(_ speed: Double) {
        guard speed.isFinite, speed >= 0, speed <= Self.fastest else { return nil }
        rate = Rational(Int((speed * 100_000).rounded()), 100_000).reduced
        if rate.numerator == 0 { rate = Rational(0, 1) }
        phaseNumerator = 0
    }

    package var isFreeze: Bool { rate.numerator == 0 }
    /// Whether the clip's sound plays, time-stretched with its pitch kept.
    package var isAudible: Bool { !isFreeze && Self.audibleRange.contains(rate.value) }

    /// The plain frame that output frame `k` shows.
    package func sourceFrame(at k: Int64) -> Int64 {
        floorDivide(k * Int64(rate.numerator) + Int64(phaseNumerator), Int64(rate.denominator))
    }

    /// The first output frame that shows plain frame `m` (or a later one): nil when none does (a freeze past its frame).
    package func firstFrame(showing m: Int64) -> Int64? {
        let numerator = m * Int64(rate.denominator) - Int64(phaseNumerator)
        guard rate.numerator > 0 else { return numerator <= 0 ? 0 : nil }
        return -floorDivide(-numerator, Int64(rate.numerator))
    }

    /// Plain frames from the in point that `before` output frames of handle
    /// take, and the speed whose phase starts the source range's own frames
    /// on a whole plain frame after them.
    package func placingHandles(before: Int64) -> (frames: Int64, speed: PlaybackSpeed) {
        let scaled = before * Int64(rate.numerator) - Int64(phaseNumerator)
        let frames = -floorDivide(-scaled, Int64(rate.denominator))
        let phase = frames * Int64(rate.denominator) - scaled
        return (frames, PlaybackSpeed(rate: rate, phaseNumerator: Int(phase)))
    }

    /// The same speed from output frame `k` on: the plain frames it skips
    /// (`sourceFrame(at: k)`) and the phase that keeps every later frame as it was.
    package func skipping(_ k: Int64) -> (frames: Int64, speed: PlaybackSpeed) {
        let frames = sourceFrame(at: k)
        let phase = k * Int64(rate.numerator) + Int64(phaseNumerator) - frames * Int64(rate.denominator)
        return (frames, PlaybackSpeed(rate: rate, phaseNumerator: Int(phase)))
    }

    /// Plain frames the first `count` output frames reach (the source they use).
    package func sourceFrames(for count: Int64) -> Int64 {
        count <= 0 ? 0 : sourceFrame(at: count - 1) + 1
    }

    /// As an editor writes it: `2x`, `0.5x`, `freeze frame`.
    package var description: String {
        let rounded = (rate.value * 10_000).rounded() / 10_000
        return isFreeze ? "freeze frame" : "\(rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded))x"
    }

    private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
