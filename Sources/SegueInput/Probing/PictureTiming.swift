package import SegueMedia
import SegueModel
import SegueCore

/// What a clip's picture timestamps say, read from its packets (never
/// decoded): the rate they keep, when libavformat's guess of it is off, and
/// where the last picture an MP4's edit list shows begins.
///
/// libavformat's `r_frame_rate` is a guess: a phone clip whose every frame
/// lasts exactly 20/600 s can read as 30000/1001, and a 30 fps clip played at
/// 29.97 loses a frame every 33 s. And an edit list may end inside its last
/// picture (13 ms into it, on an iPhone): the ffmpeg CLI shows that picture,
/// so the clip lasts until that picture's end, not the edit's.
/// Pictures the demuxer marks as never shown (outside the edit list) don't count.
struct PictureTiming {
    /// Presentation times of the first shown pictures, in the stream's time base, sorted, without repeats.
    private(set) var head: [Int64] = []
    /// The latest presentation time of a shown picture, when the file's end was read.
    private(set) var lastShown: Int64?

    /// Pictures read from the start to learn the rate: 4 s at 30 fps, enough
    /// to tell 30 from 29.97 on a 1/600 s clock (they part by 2.4 ticks).
    static let headPictures = 120
    /// Packets of any stream read from the start at most (sound can come well ahead of pictures).
    static let headPackets = 20_000
    /// Pictures that can come out of order in decoding (H.264 allows 16).
    static let reorderWindow = 16
    /// Seconds before the picture's stated end that the tail is read from.
    static let tailSeconds = 3.0

    /// Reads the first pictures' times of `video` and, when `tailFrom` is
    /// given (seconds on the container's clock), the last shown picture's
    /// time from the packets after that point. `reopen` opens the clip
    /// afresh. Damage ends a read (what was read counts); a lost connection
    /// is thrown.
    static func read(video: StreamInfo, tailFrom: Double?, reopen: () throws -> Demuxer) throws -> PictureTiming {
        var timing = PictureTiming()
        let demuxer: Demuxer
        do { demuxer = try reopen() } catch where Prober.isTransport(error) { throw error } catch { return timing }
        let packet = Packet()
        var packets = 0
        var times: [Int64] = []
        var atEnd = false
        while times.count < headPictures && packets < headPackets {
            guard try Prober.readUnlessDamaged(demuxer, into: packet) else { atEnd = true; break }
            packets += 1
            if let pts = shownTime(packet, of: video) {
                times.append(pts)
                timing.lastShown = max(timing.lastShown ?? .min, pts)
            }
        }
        // Read in decoding order: the last pictures read may come before
        // others still to be read (B-frames), so those past the reorder window are left out.
        let sorted = Array(Set(times)).sorted()
        timing.head = atEnd ? sorted : Array(sorted.dropLast(reorderWindow))
        guard let tailFrom else {
            timing.lastShown = nil
            return timing
        }
        if !atEnd {
            guard (try? demuxer.seek(toSeconds: max(0, tailFrom - tailSeconds))) != nil else {
                timing.lastShown = nil
                return timing
            }
            while try Prober.readUnlessDamaged(demuxer, into: packet) {
                if let pts = shownTime(packet, of: video) { timing.lastShown = max(timing.lastShown ?? .min, pts) }
            }
        }
        return timing
    }

    /// The rate the first pictures keep, when it is not `guess` but within 1 %
    /// of it: every picture lies within a tick of an even grid at that rate,
    /// and not on one at `guess`. Nil when `guess` fits, when the pictures
    /// keep no even rate (a variable rate, a gap), or when too few were read.
    /// The grid's rate is the most common step between pictures when it
    /// fits (600/20 = 30/1), else the closest standard rate that fits.
    func rate(near guess: Rational, timeBase: Rational) -> Rational? {
        guard head.count >= 10, guess.isValid, guess.value > 0, timeBase.isValid, timeBase.value > 0 else { return nil }
        if fits(guess, timeBase: timeBase) { return nil }
        var steps: [Int64: Int] = [:]
        for (earlier, later) in zip(head, head.dropFirst()) { steps[later - earlier, default: 0] += 1 }
        var candidates: [Rational] = []
        if let step = steps.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key, step > 0,
           step <= Int64(Int32.max) / Int64(timeBase.numerator) {
            let exact = Rational(timeBase.denominator, timeBase.numerator * Int(step)).reduced
            if exact.denominator <= 1001 { candidates.append(exact) }
        }
        let mean = Double(head.count - 1) / (Double(head.last! - head.first!) * timeBase.value)
        candidates += Rational.standardRates.sorted { abs($0.value - mean) < abs($1.value - mean) }
        return candidates.first { abs($0.value - guess.value) <= 0.01 * guess.value && fits($0, timeBase: timeBase) }
    }

    /// Whether every picture read lies within one tick of the grid at `rate` from the first.
    private func fits(_ rate: Rational, timeBase: Rational) -> Bool {
        let step = 1 / (rate.value * timeBase.value)
        guard let first = head.first else { return false }
        for (index, time) in head.enumerated() where abs(Double(time - first) - Double(index) * step) > 1.000_001 {
            return false
        }
        return true
    }

    /// Where the last shown picture ends, in seconds on the stream's clock, a
    /// picture lasting one frame at `rate`; nil when the tail wasn't read.
    func lastPictureEnd(rate: Rational, timeBase: Rational) -> Double? {
        guard let lastShown, rate.isValid, rate.value > 0 else { return nil }
        return Double(lastShown) * timeBase.value + 1 / rate.value
    }

    /// The presentation time of `packet` when it is a shown picture of `video`.
    private static func shownTime(_ packet: Packet, of video: StreamInfo) -> Int64? {
        guard packet.streamIndex == video.index, !packet.isDiscarded else { return nil }
        return packet.pts
    }
}

extension Prober.Length {
    /// Lengthens the picture to `end` (seconds from its start) when that
    /// lies past its measured end by no more than one `frame` (seconds):
    /// a last picture that starts inside an edit list is shown whole.
    /// The clip follows when it lasts as long as its picture.
    mutating func extendPicture(to end: Double, frame: Double) {
        guard end > picture + 1e-6, end <= picture + frame + 1e-6 else { return }
        if clip == picture { clip = end }
        picture = end
        if let sound, sound > picture + Prober.holdThreshold { clip = sound }
    }
}

extension ClipInfo {
    /// The clip's time 0 (its in point) in `stream`'s time base: where its
    /// pictures and sound start counting.
    package func origin(in stream: StreamInfo) -> Int64 {
        (facts.timing.videoStart ?? stream.startTime ?? 0) + stream.timeBase.ticks(seconds: use.inPoint)
    }
}
