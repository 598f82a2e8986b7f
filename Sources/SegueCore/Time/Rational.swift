/// An exact fraction, as FFmpeg uses for frame rates and time bases.
public struct Rational: Hashable, Sendable, Codable, CustomStringConvertible {
    package var numerator: Int
    package var denominator: Int

    package init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    package var inverted: Rational { Rational(denominator, numerator) }
    package var isValid: Bool { numerator > 0 && denominator > 0 }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    /// Reduced to lowest terms.
    package var reduced: Rational {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
        let divisor = Swift.max(gcd(numerator, denominator), 1)
        return Rational(numerator / divisor, denominator / divisor)
    }

    /// The standard rates a camera or encoder means when it writes one nearly:
    /// film, PAL, NTSC and their multiples.
    package static let standardRates: [Rational] = [
        Rational(24000, 1001), Rational(24, 1), Rational(25, 1), Rational(30000, 1001), Rational(30, 1),
        Rational(48000, 1001), Rational(48, 1), Rational(50, 1), Rational(60000, 1001), Rational(60, 1),
        Rational(15, 1), Rational(12, 1), Rational(10, 1), Rational(100, 1), Rational(120000, 1001),
        Rational(120, 1), Rational(240, 1),
    ]

    /// The standard rate within 0.1 % of this one (29.97 becomes 30000/1001), or this rate.
    package var snappedToStandard: Rational {
        guard isValid else { return self }
        let candidates = Rational.standardRates.filter { abs($0.value - value) <= 0.001 * $0.value }
        return candidates.min { abs($0.value - value) < abs($1.value - value) } ?? self
    }
}
