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
