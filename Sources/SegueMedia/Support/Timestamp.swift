internal import CFFmpeg
import SegueCore

/// A time read from a file or computed from one: ticks of a time base.
///
/// A file may state any 64-bit number, and adding or multiplying those traps
/// in Swift. So every time that comes out of libav is checked where it enters
/// (`Timestamp.plausible`): beyond ±2^60 ticks (36,000 years at 1 GHz) it is
/// not a time any file means, and reads as missing, which the pipeline already
/// handles as damage. Sums and differences of a few plausible times then fit
/// in 64 bits; rescaling goes through `av_rescale_q_rnd` and saturates.
package struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var ticks: Int64
    package var timeBase: Rational

    package init(_ ticks: Int64, _ timeBase: Rational) {
        self.ticks = ticks
        self.timeBase = timeBase
    }

    /// The largest magnitude a time from a file may have.
    package static let limit: Int64 = 1 << 60

    /// `raw` if it is a time a file can mean, else nil (treated as missing).
    package static func plausible(_ raw: Int64) -> Int64? {
        raw == cffmpeg_nopts_value() || raw > limit || raw < -limit ? nil : raw
    }

    /// A duration from a file: negative or implausible reads as 0 (unknown).
    package static func plausibleDuration(_ raw: Int64) -> Int64 {
        raw > 0 && raw <= limit ? raw : 0
    }

    /// This time counted in `other`, rounded to nearest (half away from
    /// zero); saturates at ±`limit` instead of overflowing.
    package func rescaled(to other: Rational) -> Timestamp {
        Timestamp(timeBase.rescale(ticks, to: other), other)
    }

    package var seconds: Double { Double(ticks) * timeBase.value }

    package static func + (left: Timestamp, right: Timestamp) -> Timestamp {
        Timestamp(left.ticks.saturatingAdd(right.rescaled(to: left.timeBase).ticks), left.timeBase)
    }

    package static func - (left: Timestamp, right: Timestamp) -> Timestamp {
        Timestamp(left.ticks.saturatingAdd(-right.rescaled(to: left.timeBase).ticks), left.timeBase)
    }

    package static func < (left: Timestamp, right: Timestamp) -> Bool {
        (left - right).ticks < 0
    }

    package var description: String { "\(ticks)×\(timeBase)" }
}

extension Int64 {
    /// The sum, held at ±`Timestamp.limit` rather than overflowing.
    package func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? Timestamp.limit : -Timestamp.limit }
        return Swift.min(Swift.max(sum, -Timestamp.limit), Timestamp.limit)
    }

    /// `seconds` as a whole number, rounded to nearest, held at ±`Timestamp.limit`; NaN is 0.
    package init(saturatingSeconds value: Double) {
        guard !value.isNaN else { self = 0; return }
        let limit = Double(Timestamp.limit)
        self = Int64(Swift.min(Swift.max(value.rounded(), -limit), limit))
    }
}
