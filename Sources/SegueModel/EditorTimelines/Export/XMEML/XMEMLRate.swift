import Foundation
import SegueCore

/// A frame rate as xmeml says it: a whole `timebase`, made NTSC (× 1000/1001)
/// by `ntsc` TRUE: 23.976 is 24 TRUE, 29.97 is 30 TRUE, 25 is 25 FALSE.
struct XMEMLRate: Equatable {
    let timebase: Int
    let ntsc: Bool

    /// `rate` as a timebase, or nil when xmeml can't say it (12.5 fps has no whole timebase).
    init?(_ rate: Rational) {
        let reduced = rate.reduced
        guard reduced.isValid else { return nil }
        if reduced.denominator == 1 {
            (timebase, ntsc) = (reduced.numerator, false)
        } else if reduced.denominator == 1001, reduced.numerator % 1000 == 0 {
            (timebase, ntsc) = (reduced.numerator / 1000, true)
        } else {
            return nil
        }
    }

    /// The timeline's rate, or an error naming it when xmeml can't say it.
    static func sequence(_ rate: Rational) throws -> XMEMLRate {
        guard let said = XMEMLRate(rate) else {
            throw EditTimelineError("xmeml can't say \(EditReading.number(rate.value)) fps (\(rate)): its timebase must be a whole "
                                    + "number of frames a second, NTSC rates its 1000/1001 (render at another --fps)")
        }
        return said
    }

    /// The rate it says, exactly.
    var rational: Rational { ntsc ? Rational(timebase * 1000, 1001) : Rational(timebase, 1) }

    /// `<rate><timebase>30</timebase><ntsc>TRUE</ntsc></rate>`.
    var node: XMLNode {
        XMLNode("rate", children: [.leaf("timebase", String(timebase)), .leaf("ntsc", ntsc ? "TRUE" : "FALSE")])
    }

    /// A `<timecode>` at this rate naming frame `frames`: its label (drop-frame when `dropFrame`
    /// and the rate counts so), the frame number and its display format.
    func timecode(_ frames: Int64, dropFrame: Bool) -> XMLNode {
        let counter = Timecode(rate: rational, dropFrame: dropFrame)
        return XMLNode("timecode", children: [
            node, .leaf("string", counter.label(max(frames, 0))), .leaf("frame", String(frames)),
            .leaf("displayformat", counter.dropFrame ? "DF" : "NDF"),
        ])
    }
}

extension XMLNode {
    /// A number as xmeml's parameters write it: `50`, `33.333333`, never `1e-05`.
    static func decimal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.9f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
