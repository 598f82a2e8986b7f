internal import SegueMedia
import SegueModel
import SegueCore

/// Packet timestamps laid on one continuous line, for containers whose clock
/// may wrap or jump mid-file (MPEG transport and program streams: a 33-bit
/// clock, broadcast splices, recordings joined end to end).
///
/// Between two packets of a stream, decoding time may step forward by up to
/// `maxGap` or back by up to `maxStepBack` (reordered pictures carry earlier
/// presentation times, never earlier decoding times). A step across the
/// clock's width is a wrap and is read modulo it; any other bigger step is a
/// discontinuity: every stream is shifted so that the one that jumped carries
/// on right after its previous packet, as the ffmpeg CLI does. So a clip
/// lasts as long as its packets hold, never as long as a jump says.
///
/// The prober and the clip source lay the same packets on the same line, so
/// what is measured is what plays.
struct TimestampLine {
    /// A forward step longer than this (seconds) is a jump, not a gap in the recording.
    static let maxGap = 10.0
    /// A backward step longer than this (seconds) is a jump.
    static let maxStepBack = 1.0

    private struct Clock {
        var timeBase: Rational
        /// Timestamps wrap after this many ticks (nil: they don't).
        var width: Int64?
    }

    private let clocks: [Int: Clock]
    /// The time base `shift` counts in.
    private let reference: Rational
    /// Added to every stream's timestamps (counted in `reference`).
    private var shift: Int64 = 0
    /// Each stream's previous packet on the line: its decoding time and duration.
    private var previous: [Int: (dts: Int64, duration: Int64)] = [:]
    /// The latest decoding time placed on the line, in `reference` (nil before any).
    private var latest: Int64?
    /// Discontinuities met so far (wraps are not counted).
    private(set) var jumps = 0

    /// A line for `streams`; packets of other streams pass through untouched.
    init(streams: [StreamInfo]) {
        var clocks: [Int: Clock] = [:]
        for stream in streams {
            clocks[stream.index] = Clock(timeBase: stream.timeBase,
                                         width: stream.timestampBits < 63 ? Int64(1) << stream.timestampBits : nil)
        }
        self.clocks = clocks
        reference = streams.first?.timeBase ?? Rational(1, 90_000)
    }

    /// Moves `packet`'s pts and dts onto the line.
    mutating func place(_ packet: Packet) {
        let index = packet.streamIndex
        guard let clock = clocks[index], let raw = packet.dts ?? packet.pts else { return }
        var placed = raw.saturatingAdd(reference.rescale(shift, to: clock.timeBase))
        if let last = previous[index] {
            var step = placed - last.dts
            if let width = clock.width { step = Self.folded(step, width: width) }
            let seconds = Double(step) * clock.timeBase.value
            let target: Int64
            if seconds > Self.maxGap || seconds < -Self.maxStepBack {
                jumps += 1
                target = last.dts + max(last.duration, 0)
            } else {
                target = last.dts + step
            }
            if target != placed {
                shift = shift.saturatingAdd(clock.timeBase.rescale(target - placed, to: reference))
                placed = target
            }
        } else if let now = latest {
            // A stream's first packet lies near where the others are: one
            // that starts hours away jumped before it began.
            var step = placed - reference.rescale(now, to: clock.timeBase)
            if let width = clock.width { step = Self.folded(step, width: width) }
            let seconds = Double(step) * clock.timeBase.value
            if seconds > Self.maxGap || seconds < -Self.maxGap {
                jumps += 1
                let target = reference.rescale(now, to: clock.timeBase)
                shift = shift.saturatingAdd(clock.timeBase.rescale(target - placed, to: reference))
                placed = target
            }
        }
        latest = max(latest ?? .min, clock.timeBase.rescale(placed, to: reference))
        let offset = placed - raw
        if let pts = packet.pts { packet.pts = pts + offset }
        if let dts = packet.dts { packet.dts = dts + offset }
        previous[index] = (placed, packet.duration)
    }

    /// Presents `packet` at its decoding time when its presentation time is
    /// implausibly far from it: reordering moves a picture by a few frames,
    /// never by more than `maxGap` forward or `maxStepBack` back, so a larger
    /// difference is damage (a flipped bit in a 33-bit PTS said 3.3 hours),
    /// and must not stretch a clip. For any container; the prober and the clip
    /// source both apply it, so what is measured is what plays.
    static func repairReorder(_ packet: Packet, in stream: StreamInfo) {
        guard let pts = packet.pts, let dts = packet.dts else { return }
        var difference = pts - dts
        if stream.timestampBits < 63 { difference = folded(difference, width: Int64(1) << stream.timestampBits) }
        let seconds = Double(difference) * stream.timeBase.value
        if seconds > maxGap || seconds < -maxStepBack { packet.pts = dts }
    }

    /// `step` read modulo `width`, as the shortest step: in [-width/2, width/2).
    static func folded(_ step: Int64, width: Int64) -> Int64 {
        var step = step % width
        if step >= width / 2 { step -= width } else if step < -width / 2 { step += width }
        return step
    }
}
