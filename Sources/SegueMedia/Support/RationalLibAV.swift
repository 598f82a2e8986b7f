internal import CFFmpeg
import SegueCore

extension Rational {
    /// `value` counted in this time base, counted in `other` instead: exact
    /// integer maths (`av_rescale_q`), rounded to nearest.
    /// Saturates at ±`Timestamp.limit` where the result doesn't fit.
    package func rescale(_ value: Int64, to other: Rational) -> Int64 {
        guard isValid, other.isValid else { return 0 }
        let rounding = AVRounding(AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue)
        let result = av_rescale_q_rnd(value, avRational, other.avRational, rounding)
        // av_rescale_q_rnd answers INT64_MIN when the result doesn't fit.
        if result == Int64.min { return (value < 0) != (numerator < 0) ? -Timestamp.limit : Timestamp.limit }
        return Swift.min(Swift.max(result, -Timestamp.limit), Timestamp.limit)
    }

    /// `seconds` counted in this time base, rounded to nearest (saturating).
    package func ticks(seconds: Double) -> Int64 {
        Int64(saturatingSeconds: seconds * Double(denominator) / Double(numerator))
    }

    /// libav's fraction; terms beyond 32 bits (never from libav, refused as options) are clamped.
    var avRational: AVRational { AVRational(num: Int32(clamping: numerator), den: Int32(clamping: denominator)) }
}
