import SegueCore

/// How a clip's own time (its `start`, its connected clips' offsets) maps
/// to its media's: as it is, or through a `timeMap` whose points make one
/// constant speed (several points in a line too); a map that changes speed,
/// runs backwards or goes past `PlaybackSpeed.fastest` is refused.
struct FCPXMLTiming {
    /// The constant speed; nil at the media's own speed.
    private(set) var speed: PlaybackSpeed?
    private var time = 0.0
    private var value = 0.0
    private var slope = 1.0

    init(_ element: ParsedXMLElement, _ label: String, rate: Rational, notes: inout [String]) throws {
        guard let map = element.child("timeMap") else {
            Self.noteConform(element, label, rate: rate, notes: &notes)
            return
        }
        let points = try map.children("timept").map { point -> (Double, Double) in
            guard let time = try FCPXMLValues.seconds(point, "time", "\(label): timeMap"),
                  let value = try FCPXMLValues.seconds(point, "value", "\(label): timeMap") else {
                throw EditTimelineError("\(label): a timeMap point without a time or a value")
            }
            return (time, value)
        }
        guard let first = points.first else { return }
        (time, value) = first
        guard points.count > 1 else { return }
        var slopes: [Double] = []
        for (earlier, later) in zip(points, points.dropFirst()) {
            guard later.0 > earlier.0 else { throw EditTimelineError("\(label): its timeMap's points aren't in time order") }
            slopes.append((later.1 - earlier.1) / (later.0 - earlier.0))
        }
        slope = slopes[0]
        guard slopes.allSatisfy({ abs($0 - slope) <= 1e-6 * max(1, abs(slope)) }) else {
            throw EditTimelineError("\(label): its timeMap changes speed (a speed ramp), which can't be rendered")
        }
        guard slope >= 0 else { throw EditTimelineError("\(label): reverse speed (its timeMap runs backwards) can't be rendered") }
        guard let speed = PlaybackSpeed(slope) else {
            throw EditTimelineError("\(label): its timeMap's speed \(EditReading.number(slope))x is beyond \(Int(PlaybackSpeed.fastest))x")
        }
        if speed.rate.numerator != speed.rate.denominator { self.speed = speed }
    }

    /// The media's time at the clip's own time `local`.
    func map(_ local: Double) -> Double { value + (local - time) * slope }

    /// A `conform-rate` asking for media of another rate to be conformed, without a timeMap to say how: noted, not followed.
    private static func noteConform(_ element: ParsedXMLElement, _ label: String, rate: Rational, notes: inout [String]) {
        guard let conform = element.child("conform-rate"), conform.attributes["scaleEnabled"] != "0",
              let text = conform.attributes["srcFrameRate"], let source = Double(text), source > 0,
              abs(source - rate.value) > 0.002 * rate.value, abs(source - rate.value.rounded()) > 0.002 * rate.value else { return }
        notes.append("\(label): conform-rate asks for its \(text.prefix(10)) fps media to be conformed to \(EditReading.number((rate.value * 1000).rounded() / 1000)) fps; played at its own speed instead")
    }
}
