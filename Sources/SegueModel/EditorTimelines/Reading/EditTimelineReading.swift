import Foundation
import SegueCore

/// What the three timeline parsers share: their bounds, rates and timecode.
enum EditReading {
    /// Items (clips, gaps, transitions, markers) or EDL events a timeline may hold.
    static let maxItems = 100_000
    /// How deeply JSON brackets or XML elements may nest.
    static let maxDepth = 64
    /// The longest time a range may say, in seconds (ten days): beyond it a value is a mistake or an attack.
    static let maxSeconds = 864_000.0

    /// A frame rate written as a number (OTIO, xmeml's ntsc rates): near-standard
    /// values snap to the exact fraction (23.976 → 24000/1001); nil unless finite and positive.
    static func rational(_ rate: Double) -> Rational? {
        guard rate.isFinite, rate > 0, rate < 1_000_000 else { return nil }
        if rate == rate.rounded() { return Rational(Int(rate), 1) }
        let fraction = Rational(Int((rate * 1_000_000).rounded()), 1_000_000).reduced
        return fraction.snappedToStandard
    }

    /// `rate` snapped as `rational` does, as OTIO's RationalTime holds it.
    static func snapped(_ rate: Double) -> Double {
        rational(rate)?.value ?? rate
    }

    /// A time whose value and rate are finite, the rate positive, the time
    /// within `maxSeconds` either side of zero; `what` names it in the error.
    static func checkedTime(value: Double, rate: Double, _ what: String) throws -> EditTime {
        guard rate.isFinite, rate > 0 else { throw EditTimelineError("\(what) has rate \(number(rate))") }
        guard value.isFinite else { throw EditTimelineError("\(what) has value \(number(value))") }
        let time = EditTime(value: value, rate: snapped(rate))
        guard abs(time.seconds) <= maxSeconds else {
            throw EditTimelineError("\(what) is \(number(time.seconds)) s, beyond \(Int(maxSeconds)) s")
        }
        return time
    }

    /// Every time in the timeline within `maxSeconds` (the EDL and xmeml
    /// parsers count frames unchecked; OTIO checks each time as it reads it).
    static func checkBounds(_ timeline: EditTimeline) throws {
        func check(_ time: EditTime, _ what: @autoclosure () -> String) throws {
            guard time.value.isFinite, abs(time.seconds) <= maxSeconds else {
                throw EditTimelineError("\(what()): \(number(time.seconds)) s is beyond \(Int(maxSeconds)) s")
            }
        }
        // A sequence nested in many places is checked each time: the items visited are bounded as the stacker bounds them.
        var visited = 0
        func checkItems(_ items: [EditItem], in track: String, depth: Int) throws {
            guard depth <= maxDepth else { throw EditTimelineError("sequences nested more than \(maxDepth) deep") }
            visited += items.count
            guard visited <= maxItems else {
                throw EditTimelineError("the tracks hold more than \(maxItems) items (a nested sequence counts each time it is used)")
            }
            for (index, item) in items.enumerated() {
                switch item {
                case .clip(let clip):
                    try check(clip.source.start, "\(track)clip \(index + 1)")
                    try check(EditTime(value: clip.source.start.value + clip.source.duration.value, rate: clip.source.start.rate),
                              "\(track)clip \(index + 1)")
                case .gap(let duration): try check(duration, "\(track)gap \(index + 1)")
                case .fill(let fill): try check(fill.duration, "\(track)generator \(index + 1)")
                case .transition(let transition):
                    try check(transition.before, "\(track)transition \(index + 1)")
                    try check(transition.after, "\(track)transition \(index + 1)")
                case .nested(let nested):
                    let what = "\(track)nested sequence \(index + 1)"
                    try check(nested.source.start, what)
                    try check(EditTime(value: nested.source.start.value + nested.source.duration.value, rate: nested.source.start.rate), what)
                    for (number, inner) in nested.tracks.enumerated() {
                        try checkItems(inner.items, in: "\(what): video track \(number + 1): ", depth: depth + 1)
                    }
                }
            }
        }
        try checkItems(timeline.items, in: "", depth: 0)
        for (number, track) in timeline.videoTracks.enumerated() {
            try checkItems(track.items, in: "video track \(number + 1): ", depth: 0)
        }
        for (number, track) in timeline.audioTracks.enumerated() {
            for (index, item) in track.items.enumerated() {
                let what = "audio track \(number + 1): item \(index + 1)"
                switch item {
                case .clip(let sound):
                    let source = sound.clip.source
                    try check(source.start, what)
                    try check(EditTime(value: source.start.value + source.duration.value, rate: source.start.rate), what)
                case .gap(let duration): try check(duration, what)
                case .transition(let transition):
                    try check(transition.before, what)
                    try check(transition.after, what)
                }
            }
        }
        for marker in timeline.markers { try check(marker.time, "marker '\(marker.name)'") }
        if let start = timeline.start { try check(start, "the timeline's start") }
    }

    /// `timeline` checked (`checkBounds`) and its video tracks stacked into the one Segue renders.
    static func finished(_ timeline: EditTimeline) throws -> EditTimeline {
        try checkBounds(timeline)
        var stacked = timeline
        try stacked.stackTracks()
        return stacked
    }

    /// What a disabled item is said to be: a gap, the tracks below showing through it.
    static func disabledNote(_ label: String) -> String {
        "\(label): disabled, so not drawn (what lies below it shows through; without tracks below, black and silent)"
    }

    /// A number as users write it: `24`, not `24.0`.
    static func number(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// SMPTE timecode `HH:MM:SS:FF` counted out to frames at a rate: drop-frame
/// (`;` before the frames, or when the caller says so) skips frame numbers
/// 0 and 1 (0 to 3 at 59.94) each minute but every tenth, as 29.97 and 59.94 count.
struct Timecode {
    /// Frames a second the labels count (30 for 29.97).
    let nominal: Int
    /// Whether the rate is 29.97 or 59.94, the rates drop-frame labels exist for.
    let dropRate: Bool
    /// Whether labels skip numbers even when written with `:`.
    let dropFrame: Bool

    init(rate: Rational, dropFrame: Bool) {
        nominal = max(Int(rate.value.rounded()), 1)
        dropRate = (nominal == 30 || nominal == 60) && rate.denominator == 1001
        self.dropFrame = dropFrame && dropRate
    }

    /// The frame field of an `HH:MM:SS:FF` label, whatever its value.
    func frameField(_ text: Substring) -> Int? {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == ";" || $0 == "." }
        guard parts.count == 4, let last = parts.last, (1...3).contains(last.count), last.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(last)
    }

    /// The frame count a label names; a bare frame number is taken as is. Nil when it isn't a timecode.
    func frames(_ text: Substring) -> Int64? {
        if text.allSatisfy(\.isASCIIDigit), text.count <= 12 { return Int64(text) }
        let parts = text.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == ";" || $0 == "." }
        guard parts.count == 4, parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]), let frame = Int(parts[3]),
              minutes < 60, seconds < 60, frame < nominal else { return nil }
        let skipped = dropRate && (dropFrame || text.contains(";")) ? nominal / 15 : 0
        if skipped > 0, seconds == 0, minutes % 10 != 0, frame < skipped { return nil }
        let totalMinutes = hours * 60 + minutes
        let labels = Int64((totalMinutes * 60 + seconds) * nominal + frame)
        return labels - Int64(skipped * (totalMinutes - totalMinutes / 10))
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Timecode {
    /// Labels a day of timecode holds at this rate: 24:00:00:00 and beyond can't be written.
    var framesPerDay: Int64 {
        let skipped = dropFrame ? Int64(nominal / 15) * (24 * 60 - 24 * 6) : 0
        return Int64(nominal) * 86_400 - skipped
    }

    /// The label frame `frames` has, the inverse of `frames(_:)`: `HH:MM:SS:FF`,
    /// or `HH:MM:SS;FF` when counting drop-frame (frame numbers 0 and 1, or 0
    /// to 3 at 59.94, skipped each minute but every tenth). Hours run on past
    /// 23: a caller that writes a day's labels refuses `framesPerDay` and beyond first.
    func label(_ frames: Int64) -> String {
        precondition(frames >= 0, "a timecode label counts from 00:00:00:00")
        let fps = Int64(nominal)
        var number = frames
        if dropFrame {
            let skipped = fps / 15, perMinute = fps * 60 - skipped, perTenMinutes = fps * 600 - 9 * skipped
            let tens = number / perTenMinutes, rest = number % perTenMinutes
            number += 9 * skipped * tens + skipped * max(0, (rest - skipped) / perMinute)
        }
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let seconds = number / fps
        return two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) + (dropFrame ? ";" : ":") + two(number % fps)
    }
}
