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
    /// Output − exact where the stitched sound's sample `exact` is heard: a
    /// copied run's shift, or in a window what its map reads there.
    func shift(atExact exact: Int) -> Int {
        let size = SoundCopyPlanner.frameSize
        for index in 0...runs.count {
            let before = index > 0 ? runs[index - 1] : nil, after = index < runs.count ? runs[index] : nil
            let map = WindowMap(from: ((before?.slots.upperBound ?? 0) * size, before?.shift),
                                to: (after.map { $0.slots.lowerBound * size } ?? totalSamples, after?.shift), splices: splices)
            guard let after, exact + after.shift >= after.slots.lowerBound * size else { return map.shift(atExact: exact) }
            if exact + after.shift < after.slots.upperBound * size { return after.shift }
        }
        return 0
    }

    /// Samples of the stitched sound where it may jump without being heard
    /// (hard cuts, and the middle of a freeze's silence), in order: where a
    /// window moves from one run's shift to the next's.
    var splices: [Int] = []
}

/// `--smart`: copied AAC packets, with windows between them re-encoded by
/// one encoder whose stream runs from window to window.
///
/// A window is encoded from the stitched sound (the exact output), read so it
/// meets the copied runs on each side: a copied clip stands `shift` samples
/// from its exact place, so the window reads the sound `shift` samples late
/// next to each run, and moves from one run's shift to the next's where the
/// sound jumps anyway (`WindowMap`). Each window is fed from `preRoll` frames
/// early, on the same sound the copied frames before it decode to, to
/// `postRoll` frames past its end: the frames it keeps share their MDCT
/// overlap with the copied neighbours (both encoders saw the same sound
/// there). Its primed and extra frames are dropped. The first window keeps
/// the encoder's priming frame, so the track's edit list starts at sample 0
/// as in a full encode.
final class SmartSoundTrack: SoundTrack {
    static let preRoll = 4
    static let postRoll = 3
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

    /// A window under way: how its sound is read, how far it has been fed and written.
    private struct Window {
        /// The encoder's pts of the window's first sample.
        var origin: Int
        var map: WindowMap
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
                if piece / 2 < layout.runs.count { nextCopiedSlot = layout.runs[piece / 2].slots.lowerBound }
            } else if let slot = nextCopiedSlot {
                let run = layout.runs[piece / 2]
                guard let packet = copied.removeValue(forKey: slot) else { return }
                packet.pts = Int64(slot * frameSize)
                packet.dts = packet.pts
                packet.duration = Int64(frameSize)
                try muxer.write(packet, stream: stream)
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
        let upper = after.map { $0.slots.lowerBound * frameSize } ?? layout.totalSamples
        let map = WindowMap(from: (lower * frameSize, before?.shift), to: (upper, after?.shift), splices: layout.splices)
        let feedStart = before == nil ? 0 : max(0, lower * frameSize - SmartSoundTrack.preRoll * frameSize)
        // The last window runs to the stitched sound's end, moved as its map moves it.
        let feedEnd = after == nil ? layout.totalSamples + map.shift(atOutput: layout.totalSamples)
            : upper + SmartSoundTrack.postRoll * frameSize
        if encoder == nil { encoder = try makeEncoder() }
        window = Window(origin: encoderClock, map: map, firstSlot: lower, keepEnd: after == nil ? nil : upper,
                        feedStart: feedStart, fed: feedStart, feedEnd: feedEnd, isFirst: before == nil,
                        writtenEnd: lower * frameSize)
        trimExact(keepingFrom: map.earliestRead(fromOutput: feedStart))
    }

    /// Feeds the window's encoder every frame of sound that has arrived.
    private func feed(_ window: inout Window, into encoder: Encoder) throws {
        while window.fed < window.feedEnd {
            let count = min(frameSize, window.feedEnd - window.fed)
            if window.map.needsLags(before: window.fed + count) {
                guard ended || window.map.lagsNeedUpTo <= exactEnd else { return }
                window.map.chooseLags(reading: sample)
            }
            guard ended || window.map.lastRead(forOutput: window.fed + count - 1) < exactEnd else { return }
            var samples = [[Float]](repeating: [Float](repeating: 0, count: count), count: 2)
            for offset in 0..<count {
                for channel in 0..<2 {
                    samples[channel][offset] = window.map.sample(channel, atOutput: window.fed + offset, reading: sample)
                }
            }
            let block = try Frame.audio(sampleCount: count, channels: 2, sampleRate: sampleRate)
            block.setSamples(from: samples, start: 0)
            block.pts = Int64(encoderClock)
            encoderClock += count
            window.fed += count
            try encoder.send(block)
            try drain(&window, from: encoder)
            trimExact(keepingFrom: window.map.earliestRead(fromOutput: window.fed))
        }
    }

    /// A sample of the stitched sound; silence outside it.
    private func sample(_ channel: Int, _ position: Int) -> Float {
        let index = position - base
        return index >= 0 && index < exact[channel].count ? exact[channel][index] : 0
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
    private func trimExact(keepingFrom position: Int) {
        let drop = min(position - base, exact[0].count)
        guard drop > 1 << 15 else { return }
        for channel in exact.indices { exact[channel].removeFirst(drop) }
        base += drop
    }
}

/// Where a re-encoded window reads the stitched sound: `shift` samples late
/// next to a copied run (output − exact), moving from the run before's shift
/// to the run after's
/// - at a splice (a hard cut, or the middle of a freeze's silence) when the
///   window holds one. The cut itself stays as it is: the outgoing clip's
///   last sample, then the incoming clip's first. The move is shared between
///   the two clips' sides, each made as a crossfade between the sound and
///   itself a lag away (the outgoing clip's end repeats or skips a few
///   milliseconds, as does the incoming one's start, as WSOLA time-stretching
///   and packet-loss concealment do). The two lags add up to the move and are
///   chosen where the sound best matches itself (for a tone, whole periods),
///   so neither crossfade is heard;
/// - else (a crossfade between copied clips) by a linear time map over the
///   window, a tempo change of at most 1024 samples over the window's length;
/// - a window with a run on one side only keeps that run's shift (the first
///   window starts on the grid with the clip moved; the last one ends moved).
struct WindowMap {
    static let crossfade = 512
    /// The most either side's lag may be.
    static let search = 1536
    /// Samples kept between a crossfade and the cut.
    static let guardBand = 256
    /// How far around a splice its lags are measured: the sound must be there before the window passes it.
    static let reach = 4096
    /// How far a splice must lie from both ends of its window (one side's crossfade, search, guard band, and a frame).
    static let room = guardBand + search + crossfade + SoundCopyPlanner.frameSize

    private enum Kind {
        case shift(Int)
        case warp(from: (output: Int, exact: Int), to: (output: Int, exact: Int))
        case splice(seam: Int, before: Int, after: Int)
    }

    private let kind: Kind
    /// The splice's lags (outgoing side, incoming side), once chosen: they add up to after − before.
    private var lags: (outgoing: Int, incoming: Int)?

    init(from: (output: Int, shift: Int?), to: (output: Int, shift: Int?), splices: [Int]) {
        let before = from.shift ?? 0, after = to.shift ?? 0
        if before == after {
            kind = .shift(before)
        } else if let seam = splices.first(where: { $0 - WindowMap.room >= from.output && $0 + WindowMap.room <= to.output }) {
            // A splice far enough inside the window for both crossfades.
            kind = .splice(seam: seam, before: before, after: after)
        } else if from.shift == nil || to.shift == nil {
            kind = .shift(from.shift ?? to.shift ?? 0)
        } else {
            kind = .warp(from: (from.output, from.output - before), to: (to.output, to.output - after))
        }
    }

    /// Output − exact at output sample `x` (at the window's end, what moves the track's end).
    func shift(atOutput x: Int) -> Int {
        switch kind {
        case .shift(let shift): return shift
        case .warp(let from, let to): return x <= from.output ? from.output - from.exact : to.output - to.exact
        case .splice(let seam, let before, let after): return x < seam ? before : after
        }
    }

    /// Output − exact where exact sample `e` is heard (between a warp's anchors, as far as it has come).
    func shift(atExact e: Int) -> Int {
        switch kind {
        case .shift(let shift): return shift
        case .warp(let from, let to):
            let before = from.output - from.exact, after = to.output - to.exact
            guard to.exact > from.exact else { return after }
            let fraction = min(1, max(0, Double(e - from.exact) / Double(to.exact - from.exact)))
            return Int((Double(before) + fraction * Double(after - before)).rounded())
        case .splice(let seam, let before, let after): return e < seam ? before : after
        }
    }

    /// Whether the splice's lags must be chosen before output samples from `x` on can be made.
    func needsLags(before x: Int) -> Bool {
        guard case .splice(let seam, let before, _) = kind, lags == nil else { return false }
        return x > seam + before - WindowMap.reach
    }

    /// The exact sample the sound must have reached for the lags to be chosen.
    var lagsNeedUpTo: Int {
        guard case .splice(let seam, _, _) = kind else { return 0 }
        return seam + WindowMap.reach
    }

    /// Picks the two lags: the pair, adding up to the move, at which both
    /// clips' sound best matches itself where its crossfade will be.
    mutating func chooseLags(reading sample: (Int, Int) -> Float) {
        guard case .splice(let seam, let before, let after) = kind else { return }
        let move = after - before, search = WindowMap.search, length = WindowMap.crossfade
        // The sound around the seam, both channels interleaved, read once.
        let origin = seam - WindowMap.reach
        var sound = [Float](repeating: 0, count: 4 * WindowMap.reach)
        for index in 0..<(2 * WindowMap.reach) {
            sound[2 * index] = sample(0, origin + index)
            sound[2 * index + 1] = sample(1, origin + index)
        }
        // How well `length` samples from `start` match those `lag` earlier (negative: later),
        // eight samples at a time (this runs on the writer's thread, for ~3000 lags a side).
        func matches(_ start: (Int) -> Int) -> [Double] {
            sound.withUnsafeBytes { sound in
                (-search...search).map { lag in
                    let from = 2 * (start(lag) - origin), shift = 2 * lag
                    var dot = SIMD8<Float>(), energy = SIMD8<Float>(), reference = SIMD8<Float>()
                    for index in stride(from: from, to: from + 2 * length, by: 8) {
                        let a = sound.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
                        let b = sound.loadUnaligned(fromByteOffset: (index - shift) * 4, as: SIMD8<Float>.self)
                        dot += a * b
                        energy += b * b
                        reference += a * a
                    }
                    let product = energy.sum() * reference.sum()
                    return product < 1e-12 ? 1 : Double(dot.sum()) / Double(product).squareRoot()
                }
            }
        }
        // The outgoing side reads its samples `lag` earlier before the cut; the incoming side, `-lag` later after it.
        let outgoing = matches { seam - WindowMap.guardBand - length - max(0, -$0) }
        let incoming = matches { seam + WindowMap.guardBand + max(0, $0) }
        var best = (outgoing: 0, incoming: move, score: -Double.infinity)
        // Between the two crossfades the sound stands at most a frame from its exact place.
        for lag in -search...search where abs(move - lag) <= search && abs(before + lag) <= SoundCopyPlanner.frameSize {
            let other = move - lag
            let score = outgoing[lag + search] + incoming[-other + search]
                - 1e-4 * Double(abs(lag) + abs(other)) / Double(SoundCopyPlanner.frameSize)
            if score > best.score { best = (lag, other, score) }
        }
        lags = (best.outgoing, best.incoming)
    }

    /// The last exact sample reading output sample `x` needs.
    func lastRead(forOutput x: Int) -> Int {
        switch kind {
        case .shift(let shift): return x - shift
        case .warp: return Int(exactPosition(x).rounded(.down)) + 1
        case .splice(_, let before, let after):
            guard let lags else { return needsLags(before: x + 1) ? lagsNeedUpTo : x - before }
            return x - min(before, before + lags.outgoing, after)
        }
    }

    /// The earliest exact sample reading from output sample `x` on may need.
    func earliestRead(fromOutput x: Int) -> Int {
        switch kind {
        case .shift(let shift): return x - shift - 1
        case .warp: return Int(exactPosition(x).rounded(.down)) - 1
        case .splice(let seam, let before, let after):
            guard let lags else { return min(x - before, seam - WindowMap.reach) - 1 }
            return x - max(before, before + lags.outgoing, after) - 1
        }
    }

    private func exactPosition(_ x: Int) -> Double {
        guard case .warp(let from, let to) = kind else { return Double(x - shift(atOutput: x)) }
        if x <= from.output { return Double(x - (from.output - from.exact)) }
        if x >= to.output { return Double(x - (to.output - to.exact)) }
        let slope = Double(to.exact - from.exact) / Double(to.output - from.output)
        return Double(from.exact) + Double(x - from.output) * slope
    }

    /// Output sample `x` of channel `channel`.
    func sample(_ channel: Int, atOutput x: Int, reading sample: (Int, Int) -> Float) -> Float {
        switch kind {
        case .shift(let shift):
            return sample(channel, x - shift)
        case .warp:
            let position = exactPosition(x)
            let whole = Int(position.rounded(.down)), fraction = Float(position - Double(whole))
            let a = sample(channel, whole)
            return fraction == 0 ? a : a + (sample(channel, whole + 1) - a) * fraction
        case .splice(let seam, let before, let after):
            guard let lags else { return sample(channel, x - before) }
            let middle = before + lags.outgoing // the shift both sides of the cut
            func crossfade(from first: Int, to second: Int, over start: Int) -> Float {
                if x < start { return sample(channel, x - first) }
                if x >= start + WindowMap.crossfade { return sample(channel, x - second) }
                let weight = (Float(x - start) + 0.5) / Float(WindowMap.crossfade)
                return sample(channel, x - first) * (1 - weight) + sample(channel, x - second) * weight
            }
            if x < seam + middle {
                // The outgoing clip: its crossfade ends a guard band before its last sample (on both readings).
                let end = seam + before - WindowMap.guardBand - max(0, -lags.outgoing)
                return crossfade(from: before, to: middle, over: end - WindowMap.crossfade)
            }
            // The incoming clip: its crossfade starts a guard band after its first sample (on both readings).
            let start = seam + after + WindowMap.guardBand + max(0, -lags.incoming)
            return crossfade(from: middle, to: after, over: start)
        }
    }
}
