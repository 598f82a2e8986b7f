internal import SegueMedia
import SegueInput
import SegueModel

/// `--smart`: which output AAC frames are copied packets. The rest are
/// re-encoded in windows between the copied runs.
struct SmartSound: Sendable, SoundTrackLayout {
    /// Copied output frames (slots of 1024 samples), run by run, in order.
    var runs: [Range<Int>]
    /// The stitched sound's length in samples.
    var totalSamples: Int

    func makeTrack(muxer: Muxer, stream: Int, sampleRate: Int, makeEncoder: @escaping () throws -> Encoder) throws -> any SoundTrack {
        try SmartSoundTrack(muxer: muxer, stream: stream, layout: self, sampleRate: sampleRate, makeEncoder: makeEncoder)
    }
}

/// `--smart`: copied AAC packets, with windows between them re-encoded by
/// one `AACWindowEncoder`.
///
/// The stitched sound already holds each copied clip where its packets put
/// it (its sound is moved by its run's shift), so a window is encoded from
/// the stitched sound as it is: its pre-roll is the sound the copied frames
/// before it decode to, and the frames it keeps share their MDCT overlap with
/// the copied neighbours. The first window keeps the encoder's priming
/// frame; the last one runs to the stitched sound's end.
final class SmartSoundTrack: SoundTrack {
    static let preRoll = 4
    private let frameSize = AACWindowEncoder.frameSize

    private let muxer: Muxer
    private let stream: Int
    private let layout: SmartSound
    private let makeEncoder: () throws -> Encoder
    private let sampleRate: Int

    /// The stitched sound from `base` on (what windows may still read).
    private var stitched: [[Float]] = [[], []]
    private var base = 0
    private var stitchedEnd: Int { base + stitched[0].count }
    private var ended = false
    /// Copied packets waiting for their turn, by slot.
    private var copied: [Int: Packet] = [:]
    /// The piece under way: even 2k is window k (before run k), odd 2k+1 is run k.
    private var piece = 0
    /// Whether the window of the piece under way is being fed.
    private var windowOpen = false
    /// One encoder for every window: a fresh one per window would pay its start and flush each time.
    private var encoder: AACWindowEncoder?
    private var nextCopiedSlot: Int?

    init(muxer: Muxer, stream: Int, layout: SmartSound, sampleRate: Int, makeEncoder: @escaping () throws -> Encoder) throws {
        precondition(layout.runs.allSatisfy { !$0.isEmpty }, "an empty copied run")
        self.muxer = muxer
        self.stream = stream
        self.layout = layout
        self.sampleRate = sampleRate
        self.makeEncoder = makeEncoder
        try startWindow()
    }

    func encode(_ block: Frame) throws {
        guard let pts = block.pts, Int(pts) == stitchedEnd else {
            throw SegueError(.writeFailed, detail: "the stitched sound reached the track out of order")
        }
        block.appendSamples(to: &stitched)
        try advance()
    }

    func copy(_ packet: Packet, slot: Int) throws {
        packet.removeSideData()
        copied[slot] = packet
        try advance()
    }

    func finish() throws {
        ended = true
        try advance()
        guard !windowOpen, piece > 2 * layout.runs.count else {
            throw SegueError(.writeFailed, detail: "copied sound packets never came (output sound frame \(nextCopiedSlot ?? -1))")
        }
    }

    /// Does as much as what has arrived allows: feeds the window under way,
    /// finishes it, writes the copied run after it, starts the next window.
    private func advance() throws {
        while piece <= 2 * layout.runs.count {
            if windowOpen, let encoder, let window = encoder.window {
                try feed(encoder)
                guard encoder.isFed else { return }
                try endWindow(window, of: encoder)
            } else if let slot = nextCopiedSlot {
                guard try writeCopied(slot) else { return }
            } else {
                return
            }
        }
    }

    /// Ends the window fed to its end, and turns to the copied run after it.
    private func endWindow(_ window: AACWindowEncoder.Window, of encoder: AACWindowEncoder) throws {
        if window.keep.upperBound != .max {
            // The post-roll has pushed out every kept packet (the encoder holds one frame back).
            guard encoder.keptEnd >= window.keep.upperBound else {
                throw SegueError(.writeFailed, detail: "the sound encoder held back a seam's last frame")
            }
        } else {
            try encoder.flush(keep: writeEncoded)
        }
        windowOpen = false
        piece += 1
        if piece / 2 < layout.runs.count { nextCopiedSlot = layout.runs[piece / 2].lowerBound }
    }

    /// Writes the copied packet for `slot` if it has come (false if not);
    /// after a run's last, starts the next window.
    private func writeCopied(_ slot: Int) throws -> Bool {
        let run = layout.runs[piece / 2]
        guard let packet = copied.removeValue(forKey: slot) else { return false }
        packet.pts = Int64(slot * frameSize)
        packet.dts = packet.pts
        packet.duration = Int64(frameSize)
        try muxer.write(packet, stream: stream)
        nextCopiedSlot = slot + 1 < run.upperBound ? slot + 1 : nil
        if nextCopiedSlot == nil {
            piece += 1
            try startWindow()
        }
        return true
    }

    /// Starts window `piece / 2`: between the run before it (if any) and the one after (if any).
    private func startWindow() throws {
        let index = piece / 2
        let lower = index > 0 ? layout.runs[index - 1].upperBound * frameSize : 0
        let upper = index < layout.runs.count ? layout.runs[index].lowerBound * frameSize : Int.max
        let window = AACWindowEncoder.Window(keeping: lower..<upper, preRoll: SmartSoundTrack.preRoll, soundEnd: layout.totalSamples)
        if encoder == nil { encoder = AACWindowEncoder(encoder: try makeEncoder(), sampleRate: sampleRate) }
        encoder!.start(window)
        windowOpen = true
        trimStitched(keepingFrom: window.feedStart)
    }

    /// Feeds the window's encoder every frame of sound that has arrived.
    private func feed(_ encoder: AACWindowEncoder) throws {
        guard let feedEnd = encoder.window?.feedEnd else { return }
        while encoder.fed < feedEnd {
            let count = min(frameSize, feedEnd - encoder.fed)
            guard ended || encoder.fed + count <= stitchedEnd else { return }
            let from = encoder.fed - base
            let samples = stitched.map { channel -> [Float] in
                let available = max(0, min(count, channel.count - from))
                return Array(channel[from..<(from + available)]) + [Float](repeating: 0, count: count - available)
            }
            try encoder.encode(samples, from: 0, count: count, keep: writeEncoded)
            trimStitched(keepingFrom: encoder.fed)
        }
    }

    /// Writes a window's kept packet at the output sample its frame starts at.
    private func writeEncoded(_ packet: Packet, at start: Int) throws {
        packet.pts = Int64(start)
        packet.dts = Int64(start)
        try muxer.write(packet, stream: stream)
    }

    /// Forgets the stitched sound before `position` (in batches).
    private func trimStitched(keepingFrom position: Int) {
        let drop = min(position - base, stitched[0].count)
        guard drop > 1 << 15 else { return }
        for channel in stitched.indices { stitched[channel].removeFirst(drop) }
        base += drop
    }
}
