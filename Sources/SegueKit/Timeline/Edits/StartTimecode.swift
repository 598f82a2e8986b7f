import SegueMedia

/// Where a medium's first frame counts from, as its file states it (a MOV/MP4
/// `tmcd` track, a `timecode` tag, MXF): an editor's source times count from
/// here. A file without one starts at 0.
public struct StartTimecode: Sendable, Equatable, Codable {
    /// As stored: `01:00:00:00`, or `01:00:00;00` for drop-frame.
    public var text: String
    /// The rate it counts frames at.
    public var rate: Rational
    /// The frame number it names (drop-frame numbers counted out).
    public var frames: Int64

    /// Seconds from midnight, at the real rate (01:00:00:00 at 24000/1001 is 3603.6 s).
    public var seconds: Double { rate.isValid ? Double(frames) / rate.value : 0 }

    /// Whether it skips frame numbers (`;` before the frames: 29.97 and 59.94 drop-frame).
    public var dropFrame: Bool { text.contains(";") }

    /// Reads `HH:MM:SS:FF` (`;` or `.` before FF for drop-frame) at `rate`; nil when it isn't one.
    public init?(text: String, rate: Rational) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(omittingEmptySubsequences: false, whereSeparator: { ":;.".contains($0) })
        guard parts.count == 4, rate.isValid, rate.value > 0 else { return nil }
        let numbers = parts.compactMap { Int64($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        let (hours, minutes, secs, frame) = (numbers[0], numbers[1], numbers[2], numbers[3])
        let nominal = Int64(rate.value.rounded())
        guard minutes < 60, secs < 60, frame < max(nominal, 1) else { return nil }
        self.text = trimmed
        self.rate = rate
        var count = ((hours * 60 + minutes) * 60 + secs) * nominal + frame
        if trimmed.contains(";") || trimmed.contains(".") {
            // Drop-frame: two numbers (four at 59.94) skipped each minute but every tenth.
            let dropped = nominal / 15
            let totalMinutes = hours * 60 + minutes
            count -= dropped * (totalMinutes - totalMinutes / 10)
        }
        frames = count
    }
}
