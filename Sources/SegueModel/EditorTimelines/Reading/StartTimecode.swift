import SegueCore

/// Where a medium's first frame counts from, as its file states it (a MOV/MP4
/// `tmcd` track, a `timecode` tag, MXF): an editor's source times count from
/// here. A file without one starts at 0.
package struct StartTimecode: Sendable, Equatable, Codable {
    /// As stored: `01:00:00:00`, or `01:00:00;00` for drop-frame.
    package var text: String
    /// The rate it counts frames at.
    package var rate: Rational
    /// The frame number it names (drop-frame numbers counted out).
    package var frames: Int64

    /// Seconds from midnight, at the real rate (01:00:00:00 at 24000/1001 is 3603.6 s).
    package var seconds: Double { rate.isValid ? Double(frames) / rate.value : 0 }

    /// Whether it skips frame numbers (`;` before the frames: 29.97 and 59.94 drop-frame).
    package var dropFrame: Bool { text.contains(";") }

    /// Reads `HH:MM:SS:FF` (`;` before FF for drop-frame) at `rate`, counted
    /// as the timeline readers count timecode; nil when it isn't one.
    package init?(text: String, rate: Rational) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard rate.isValid, rate.value > 0,
              let frames = Timecode(rate: rate, dropFrame: trimmed.contains(";")).frames(Substring(trimmed)) else { return nil }
        self.text = trimmed
        self.rate = rate
        self.frames = frames
    }
}
