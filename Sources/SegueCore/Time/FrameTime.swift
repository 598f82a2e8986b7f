/// A time on the output's frame grid: frame `frame`, or a fraction of a frame
/// after it (a copied picture of a variable-rate clip, shown at its own time).
package struct FrameTime: Hashable, Sendable, CustomStringConvertible {
    package var frame: Int
    /// Of a frame, at least 0 and below 1, in lowest terms (so equal times compare equal).
    package var fraction: Rational

    package init(frame: Int, fraction: Rational = Rational(0, 1)) {
        precondition(fraction.denominator > 0 && fraction.numerator >= 0 && fraction.numerator < fraction.denominator,
                     "a fraction of a frame lies in [0, 1)")
        self.frame = frame
        self.fraction = fraction.reduced
    }

    /// `numerator / denominator` frames (denominator above 0).
    package init(frames numerator: Int64, over denominator: Int64) {
        precondition(denominator > 0, "a time in frames over a positive count")
        var whole = numerator / denominator, rest = numerator % denominator
        if rest < 0 { whole -= 1; rest += denominator }
        self.init(frame: Int(whole), fraction: Rational(Int(rest), Int(denominator)))
    }

    /// The same time `frames` frames later.
    package func shifted(by frames: Int) -> FrameTime {
        FrameTime(frame: frame + frames, fraction: fraction)
    }

    /// The time in ticks, `ticksPerFrame` to a frame, rounded to the nearest (half up).
    package func ticks(_ ticksPerFrame: Int64) -> Int64 {
        let numerator = Int64(fraction.numerator), denominator = Int64(fraction.denominator)
        return Int64(frame) * ticksPerFrame + (2 * numerator * ticksPerFrame + denominator) / (2 * denominator)
    }

    package var description: String {
        fraction.numerator == 0 ? "frame \(frame)" : "frame \(frame) + \(fraction.numerator)/\(fraction.denominator)"
    }
}
