import CFFmpeg

/// An exact fraction, as FFmpeg uses for frame rates and time bases.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    public var inverted: Rational { Rational(denominator, numerator) }
    public var isValid: Bool { numerator > 0 && denominator > 0 }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    /// Reduced to lowest terms.
    public var reduced: Rational {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
        let divisor = Swift.max(gcd(numerator, denominator), 1)
        return Rational(numerator / divisor, denominator / divisor)
    }
}

extension Rational {
    /// `value` counted in this time base, counted in `other` instead: exact
    /// integer maths (`av_rescale_q`), rounded to nearest.
    public func rescale(_ value: Int64, to other: Rational) -> Int64 {
        av_rescale_q(value, avRational, other.avRational)
    }

    /// `seconds` counted in this time base, rounded to nearest.
    public func ticks(seconds: Double) -> Int64 {
        Int64((seconds * Double(denominator) / Double(numerator)).rounded())
    }

    var avRational: AVRational { AVRational(num: Int32(numerator), den: Int32(denominator)) }
}
