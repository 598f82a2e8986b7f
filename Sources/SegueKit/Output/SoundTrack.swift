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
    /// Copied output frames (slots of 1024 samples), run by run, in order.
    var runs: [Range<Int>]
    /// The stitched sound's length in samples.
    var totalSamples: Int
}

/// `--smart`: copied AAC packets, with windows between them re-encoded by
/// one encoder whose stream runs from window to window.
///
/// The stitched sound already holds each copied clip where its packets put
/// it (`ClipSound` moves it by its run's shift), so a window is encoded from
/// the stitched sound as it is. Each window is fed from `preRoll` frames
/// early, on the same sound the copied frames before it decode to, to
/// `postRoll` frames past its end: the frames it keeps share their MDCT
/// overlap with the copied neighbours (both encoders saw the same sound
/// there). Its primed and extra frames are dropped. The first window keeps
/// the encoder's priming frame, so the track's edit list starts at sample 0
/// as in a full encode.
final class SmartSoundTrack: SoundTrack {
    static let preRoll = 4
    static let postRoll = 3
    private let frameSize = OutputAudio.frameSize

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
    private var window: Window?
    /// One encoder for every window, its stream running on from one window's
    /// post-roll into the next one's pre-roll (both dropped): a fresh encoder
    /// per window cost half as much again (its start and its flush).
    private var encoder: Encoder?
    /// The encoder's pts for the next sample it is sent.
    private var encoderClock = 0
    private var nextCopiedSlot: Int?
    private let packet = Packet()

    /// A window under way: how far it has been fed and written.
    private struct Window {
        /// The encoder's pts of the window's first sample.
        var origin: Int
        /// The first output slot it writes, and the end of what it writes (nil: the track's end).
        var firstSlot: Int
        var keepEnd: Int?
        /// Output samples: where its feed starts, the next one to feed, where it stops.
        var feedStart: Int
        var fed: Int
        var feedEnd: Int
        var isFirst: Bool
        /// The end of the packets written so far (output samples).
        var writtenEnd: Int
    }

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
        guard window == nil, piece > 2 * layout.runs.count else {
            throw SegueError(.writeFailed, detail: "copied sound packets never came (output sound frame \(nextCopiedSlot ?? -1))")
        }
    }

    /// Does as much as what has arrived allows: feeds the window under way,
    /// finishes it, writes the copied run after it, starts the next window.
    private func advance() throws {
        while piece <= 2 * layout.runs.count {
            if var current = window, let encoder {
                try feed(&current, into: encoder)
                window = current
                guard current.fed >= current.feedEnd else { return }
                if let keepEnd = current.keepEnd {
                    // The post-roll has pushed out every kept packet (the encoder holds one frame back).
                    guard current.writtenEnd >= keepEnd else {
                        throw SegueError(.writeFailed, detail: "the sound encoder held back a seam's last frame")
                    }
                } else {
                    try encoder.sendEndOfStream()
                    try drain(&current, from: encoder)
                }
                window = nil
                piece += 1
                if piece / 2 < layout.runs.count { nextCopiedSlot = layout.runs[piece / 2].lowerBound }
            } else if let slot = nextCopiedSlot {
                let run = layout.runs[piece / 2]
                guard let packet = copied.removeValue(forKey: slot) else { return }
                packet.pts = Int64(slot * frameSize)
                packet.dts = packet.pts
                packet.duration = Int64(frameSize)
                try muxer.write(packet, stream: stream)
                nextCopiedSlot = slot + 1 < run.upperBound ? slot + 1 : nil
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
        let lower = before?.upperBound ?? 0
        let upper = after.map { $0.lowerBound * frameSize } ?? layout.totalSamples
        let feedStart = before == nil ? 0 : max(0, lower * frameSize - SmartSoundTrack.preRoll * frameSize)
        // The last window runs to the stitched sound's end.
        let feedEnd = after == nil ? layout.totalSamples : upper + SmartSoundTrack.postRoll * frameSize
        if encoder == nil { encoder = try makeEncoder() }
        window = Window(origin: encoderClock, firstSlot: lower, keepEnd: after == nil ? nil : upper,
                        feedStart: feedStart, fed: feedStart, feedEnd: feedEnd, isFirst: before == nil,
                        writtenEnd: lower * frameSize)
        trimStitched(keepingFrom: feedStart)
    }

    /// Feeds the window's encoder every frame of sound that has arrived.
    private func feed(_ window: inout Window, into encoder: Encoder) throws {
        while window.fed < window.feedEnd {
            let count = min(frameSize, window.feedEnd - window.fed)
            guard ended || window.fed + count <= stitchedEnd else { return }
            let samples = stitched.map { channel -> [Float] in
                let from = window.fed - base, available = max(0, min(count, channel.count - from))
                return Array(channel[from..<(from + available)]) + [Float](repeating: 0, count: count - available)
            }
            let block = try Frame.audio(sampleCount: count, channels: OutputAudio.channels, sampleRate: sampleRate)
            block.setSamples(from: samples, start: 0)
            block.pts = Int64(encoderClock)
            encoderClock += count
            window.fed += count
            try encoder.send(block)
            try drain(&window, from: encoder)
            trimStitched(keepingFrom: window.fed)
        }
    }

    /// Writes the window's packets that fall in its slots (the first window
    /// also its priming frame); drops the rest (the previous window's last
    /// post-roll frame comes out here too, before this window's origin: dropped).
    private func drain(_ window: inout Window, from encoder: Encoder) throws {
        while try encoder.receive(into: packet) == .ready {
            guard let pts = packet.pts else { continue }
            let start = Int(pts) - window.origin + window.feedStart
            let keep = start >= window.firstSlot * frameSize || (window.isFirst && start == -frameSize)
            guard keep, window.keepEnd.map({ start < $0 }) ?? true else {
                packet.unref()
                continue
            }
            packet.pts = Int64(start)
            packet.dts = Int64(start)
            try muxer.write(packet, stream: stream)
            window.writtenEnd = start + frameSize
        }
    }

    /// Forgets the stitched sound before `position` (in batches).
    private func trimStitched(keepingFrom position: Int) {
        let drop = min(position - base, stitched[0].count)
        guard drop > 1 << 15 else { return }
        for channel in stitched.indices { stitched[channel].removeFirst(drop) }
        base += drop
    }
}
