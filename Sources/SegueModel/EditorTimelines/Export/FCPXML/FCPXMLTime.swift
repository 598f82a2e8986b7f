import Foundation
import SegueCore

/// A time as FCPXML writes one: `value/timebase` seconds, exact (Apple's
/// DTD: a 64-bit numerator over a 32-bit denominator). Each is made once
/// from whole frames (`FCPXMLClock`) or samples and only ever added, so
/// 1001-based rates stay exact.
struct FCPXMLTime: Equatable {
    var value: Int64
    var timebase: Int64

    static let zero = FCPXMLTime(value: 0, timebase: 1)

    /// As Final Cut Pro writes times: `0s`, whole seconds as `5s`, else over
    /// the timebase (`2400/2500s`, `1001/30000s`), not reduced.
    var text: String {
        if value == 0 { return "0s" }
        if value % timebase == 0 { return "\(value / timebase)s" }
        return "\(value)/\(timebase)s"
    }

    var seconds: Double { Double(value) / Double(timebase) }

    static func + (a: FCPXMLTime, b: FCPXMLTime) -> FCPXMLTime {
        if a.timebase == b.timebase { return FCPXMLTime(value: a.value + b.value, timebase: a.timebase) }
        let base = a.timebase / gcd(a.timebase, b.timebase) * b.timebase
        return FCPXMLTime(value: a.value * (base / a.timebase) + b.value * (base / b.timebase), timebase: base).fitted
    }

    static func - (a: FCPXMLTime, b: FCPXMLTime) -> FCPXMLTime {
        a + FCPXMLTime(value: -b.value, timebase: b.timebase)
    }

    /// This time times an exact fraction (a speed), kept over a timebase a 32-bit denominator holds.
    func scaled(by factor: Rational) -> FCPXMLTime {
        FCPXMLTime(value: value * Int64(factor.numerator), timebase: timebase * Int64(factor.denominator)).fitted
    }

    /// Reduced when the timebase outgrows 32 bits; past that (a speed of many digits), to the nearest microsecond.
    private var fitted: FCPXMLTime {
        guard timebase > Self.largestTimebase else { return self }
        let divisor = Self.gcd(value, timebase)
        let reduced = FCPXMLTime(value: value / divisor, timebase: timebase / divisor)
        guard reduced.timebase > Self.largestTimebase else { return reduced }
        return FCPXMLTime(value: Int64((reduced.seconds * 1_000_000).rounded()), timebase: 1_000_000)
    }

    static let largestTimebase = Int64(Int32.max)

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }
}

/// Whole frames at one rate as FCPXML times: frame k is k frame durations,
/// the frame duration as Final Cut Pro writes it (`100/2500s` at 25,
/// `1001/30000s` at 29.97).
struct FCPXMLClock: Equatable {
    let rate: Rational
    let frameDuration: FCPXMLTime

    /// Nil when `rate` is no frame rate or its frame duration needs a timebase past 32 bits.
    init?(rate: Rational) {
        let reduced = rate.reduced
        guard reduced.isValid else { return nil }
        let scale: Int64 = reduced.denominator == 1 ? 100 : 1
        let duration = FCPXMLTime(value: Int64(reduced.denominator) * scale, timebase: Int64(reduced.numerator) * scale)
        guard duration.timebase <= FCPXMLTime.largestTimebase else { return nil }
        self.rate = reduced
        frameDuration = duration
    }

    func time(_ frames: Int64) -> FCPXMLTime {
        FCPXMLTime(value: frames * frameDuration.value, timebase: frameDuration.timebase)
    }

    /// Whether `time` counts frames at this clock's nominal rate (timecode counts 23.976 at 24).
    func counts(_ time: EditTime) -> Bool {
        time.rate.rounded() == rate.value.rounded() && abs(time.rate - rate.value) < 0.1
    }
}

/// Numbers as FCPXML's adjustments write them: plain decimals (no exponent), at most six places.
enum FCPXMLNumber {
    static func text(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// `0.5 0.5`.
    static func pair(_ x: Double, _ y: Double) -> String { text(x) + " " + text(y) }
}
