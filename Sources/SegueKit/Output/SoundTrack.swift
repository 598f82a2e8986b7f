import SegueMedia

/// How the stitched sound becomes the output's AAC track: chosen once, when the sink is made.
protocol SoundTrack: AnyObject {
    /// Takes the output's sound, a block whose pts counts samples, in order.
    func encode(_ block: Frame) throws
    /// Takes a copied AAC packet that stands as output frame `slot` (`--smart` only).
    func copy(_ packet: Packet, slot: Int) throws
    /// Flushes what is held.
    func finish() throws
}

/// Every sample encoded by one encoder, start to end.
final class EncodedSound: SoundTrack {
    private let muxer: Muxer
    private let encoder: Encoder
    private let stream: Int
    private let packet = Packet()

    init(muxer: Muxer, encoder: Encoder, stream: Int) {
        self.muxer = muxer
        self.encoder = encoder
        self.stream = stream
    }

    func encode(_ block: Frame) throws {
        try encoder.send(block)
        try drain()
    }

    func copy(_ packet: Packet, slot: Int) throws {
        throw SegueError(.writeFailed, detail: "a copied sound packet reached a track that encodes everything")
    }

    func finish() throws {
        try encoder.sendEndOfStream()
        try drain()
    }

    private func drain() throws {
        while try encoder.receive(into: packet) == .ready { try muxer.write(packet, stream: stream) }
    }
}

/// `--smart`: which output AAC frames are copied packets. The rest are
/// re-encoded in windows between the copied runs.
struct SmartSound: Sendable {
    /// Copied output frames (slots of 1024 samples) and the samples the copied
    /// clip's sound moved by to stand on the grid (output − exact), in order.
    struct Run: Sendable, Equatable {
        var slots: Range<Int>
        var shift: Int
    }

    var runs: [Run]
    /// The stitched sound's length in samples.
    var totalSamples: Int
}

/// `--smart`: copied AAC packets, with windows between them re-encoded by
/// encoders of their own.
///
/// A window is encoded from the stitched sound (the exact output), laid so it
/// meets the copied runs on each side: a copied clip stands `shift` samples
/// from its exact place, so the window's sound is read through a time map
/// that moves linearly from the run before's shift to the run after's (a
/// window is at least 16 frames, so the tempo changes by at most 1024 samples
/// in 16384, 6 %, and only in clips' first and last frames). Each window's
/// encoder starts `preRoll` frames early, on the same sound the copied frames
/// before it decode to, and runs `postRoll` frames past its end: the frames it
/// keeps share their MDCT overlap with the copied neighbours. Its primed and
/// extra frames are dropped. The first window keeps the encoder's priming
/// frame, so the track's edit list starts at sample 0 as in a full encode.
final class SmartSoundTrack: SoundTrack {
    static let preRoll = 8
    static let postRoll = 4
    private let frameSize = SoundCopyPlanner.frameSize

    private let muxer: Muxer
    private let stream: Int
    private let layout: SmartSound
    private let makeEncoder: () throws -> Encoder
    private let sampleRate: Int

    /// The stitched sound from `base` on (what windows may still read).
    private var exact: [[Float]] = [[], []]
    private var base = 0
    private var exactEnd: Int { base + exact[0].count }
    private var ended = false
    /// Copied packets waiting for their turn, by slot.
    private var copied: [Int: Packet] = [:]
    /// The piece under way: window k is before run k (the last after every run).
    private var piece = 0
    private var window: Window?
    private var nextCopiedSlot: Int?
    private let packet = Packet()
    /// Frames written: copied and encoded.
    private(set) var framesCopied = 0
    private(set) var framesEncoded = 0

    /// A window under way: its encoder and how far it has been fed.
    private struct Window {
        var encoder: Encoder
        /// Output slots it writes; the last window's upper bound is open.
        var slots: Range<Int>
        /// Output sample its feed starts at, and the next one to feed.
        var feedStart: Int
        var fed: Int
        var feedEnd: Int
        /// The time map's two anchors: output sample → exact sample.
        var from: (output: Int, exact: Int)
        var to: (output: Int, exact: Int)
        var isLast: Bool
        var isFirst: Bool

        /// Where output sample `x` reads the stitched sound.
        func exactPosition(_ x: Int) -> Double {
            if x <= from.output { return Double(x - (from.output - from.exact)) }
            if x >= to.output { return Double(x - (to.output - to.exact)) }
            let span = Double(to.output - from.output)
            return Double(from.exact) + Double(x - from.output) * Double(to.exact - from.exact) / span
        }
    }

    init(muxer: Muxer, stream: Int, layout: SmartSound, sampleRate: Int, makeEncoder: @escaping () throws -> Encoder) throws {
        precondition(layout.runs.allSatisfy { abs($0.shift) <= SoundCopyPlanner.frameSize / 2 && !$0.slots.isEmpty },
                     "copied runs moved more than half a frame")
        self.muxer = muxer
        self.stream = stream
        self.layout = layout
        self.sampleRate = sampleRate
        self.makeEncoder = makeEncoder
        try startWindow()
    }

    func encode(_ block: Frame) throws {
        guard let pts = block.pts, Int(pts) == exactEnd else {
            throw SegueError(.writeFailed, detail: "the stitched sound reached the track out of order")
        }
        block.appendSamples(to: &exact)
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
        guard window == nil, piece > 2 * layout.runs.count else {
            throw SegueError(.writeFailed, detail: "copied sound packets never came (output frame \(nextCopiedSlot ?? -1))")
        }
    }

    /// Does as much as what has arrived allows: feeds the window under way,
    /// finishes it, writes the copied run after it, starts the next window.
    private func advance() throws {
        while piece <= 2 * layout.runs.count {
            if var current = window {
                try feed(&current)
                window = current
                guard current.fed >= current.feedEnd || (ended && current.isLast) else { return }
                try finishWindow(current)
                window = nil
                piece += 1
                if piece / 2 < layout.runs.count { nextCopiedSlot = layout.runs[piece / 2].slots.lowerBound }
            } else if let slot = nextCopiedSlot {
                let run = layout.runs[piece / 2]
                guard let packet = copied.removeValue(forKey: slot) else { return }
                packet.pts = Int64(slot * frameSize)
                packet.dts = packet.pts
                packet.duration = Int64(frameSize)
                try muxer.write(packet, stream: stream)
                framesCopied += 1
                nextCopiedSlot = slot + 1 < run.slots.upperBound ? slot + 1 : nil
                if nextCopiedSlot == nil {
                    piece += 1
                    try startWindow()
                }
            } else {
                return
            }
        }
    }

    /// Starts window `piece / 2`: between the run before it (if any) and the one after (if any).
    private func startWindow() throws {
        let index = piece / 2
        let before = index > 0 ? layout.runs[index - 1] : nil
        let after = index < layout.runs.count ? layout.runs[index] : nil
        let lower = before?.slots.upperBound ?? 0
        let fromOutput = lower * frameSize, fromShift = before?.shift ?? 0
        let toOutput = after.map { $0.slots.lowerBound * frameSize } ?? layout.totalSamples
        let toShift = after?.shift ?? 0
        let feedStart = before == nil ? 0 : max(0, fromOutput - SmartSoundTrack.preRoll * frameSize)
        let feedEnd = after == nil ? Int.max : toOutput + SmartSoundTrack.postRoll * frameSize
        window = Window(encoder: try makeEncoder(), slots: lower..<(after?.slots.lowerBound ?? Int.max),
                        feedStart: feedStart, fed: feedStart, feedEnd: feedEnd,
                        from: (fromOutput, fromOutput - fromShift), to: (toOutput, toOutput - toShift),
                        isLast: after == nil, isFirst: before == nil)
        trimExact(keepingFrom: Int(window!.exactPosition(feedStart).rounded(.down)) - 1)
    }

    /// Feeds the window's encoder every whole frame of sound that has arrived.
    private func feed(_ window: inout Window) throws {
        while window.fed < window.feedEnd {
            let remaining = ended && window.isLast ? layout.totalSamples - window.fed : frameSize
            let count = min(frameSize, window.feedEnd - window.fed, remaining)
            guard count > 0 else { return }
            // The last sample read, and the one after it (interpolation).
            let needed = Int(window.exactPosition(window.fed + count - 1).rounded(.down)) + 2
            guard needed <= exactEnd || ended else { return }
            let block = try Frame.audio(sampleCount: count, channels: 2, sampleRate: sampleRate)
            var samples: [[Float]] = [[Float](repeating: 0, count: count), [Float](repeating: 0, count: count)]
            for offset in 0..<count {
                let position = window.exactPosition(window.fed + offset)
                let whole = Int(position.rounded(.down)), fraction = Float(position - Double(whole))
                for channel in 0..<2 {
                    let a = sample(channel, whole), b = fraction == 0 ? a : sample(channel, whole + 1)
                    samples[channel][offset] = a + (b - a) * fraction
                }
            }
            block.setSamples(from: samples, start: 0)
            block.pts = Int64(window.fed - window.feedStart)
            window.fed += count
            try window.encoder.send(block)
            try drain(window)
            trimExact(keepingFrom: Int(window.exactPosition(window.fed).rounded(.down)) - 1)
            if count < frameSize { return }
        }
    }

    /// A sample of the stitched sound; silence outside it.
    private func sample(_ channel: Int, _ position: Int) -> Float {
        let index = position - base
        return index >= 0 && index < exact[channel].count ? exact[channel][index] : 0
    }

    private func finishWindow(_ window: Window) throws {
        try window.encoder.sendEndOfStream()
        try drain(window)
        ProcessPolicy.heapIsQuiet()
        // Only what the next window's pre-roll may read stays.
        if let last = layout.runs.indices.contains(piece / 2) ? layout.runs[piece / 2] : nil {
            let nextFeed = max(0, last.slots.upperBound * frameSize - SmartSoundTrack.preRoll * frameSize)
            trimExact(keepingFrom: nextFeed - last.shift - 1)
        }
    }

    /// Writes the window's packets that fall in its slots (the first window
    /// also its priming frame); drops the rest.
    private func drain(_ window: Window) throws {
        while try window.encoder.receive(into: packet) == .ready {
            guard let pts = packet.pts else { continue }
            let start = Int(pts) + window.feedStart
            let keep = start >= window.slots.lowerBound * frameSize
                || (window.isFirst && start == -frameSize)
            guard keep, window.isLast || start < window.slots.upperBound * frameSize else {
                packet.unref()
                continue
            }
            packet.pts = Int64(start)
            packet.dts = Int64(start)
            try muxer.write(packet, stream: stream)
            framesEncoded += 1
        }
    }

    /// Forgets the stitched sound before `position`.
    private func trimExact(keepingFrom position: Int) {
        let drop = min(position - base, exact[0].count)
        guard drop > 1 << 15 else { return }
        for channel in exact.indices { exact[channel].removeFirst(drop) }
        base += drop
    }
}
