internal import SegueMedia
import SegueModel
import SegueCore

/// The one sound path: decodes a sound stream's packets, sends each decoded
/// block through a filter graph (resampling, layout, sample format, whatever
/// else its user adds) and hands on every block the graph gives, as it comes.
/// The clip source, the music bed and the loudness meter all read sound
/// through it, each with its own filters and clock; each brings its packets.
///
/// The graph is built on the first decoded block, whose real format it must match.
final class SoundReader {
    /// How a decoded block is timed for the graph, whose input time base is 1/its sample rate.
    enum Clock {
        /// The stream's own timestamps, moved so that `origin` (in `timeBase`)
        /// is 0: the graph can keep the sound in sync (gaps, a late start).
        /// A block without a timestamp keeps none.
        case stream(timeBase: Rational, origin: Int64)
        /// Samples counted from 0: for sound that only needs its samples in order.
        case counted
    }

    let decoder: Decoder
    private let filters: String
    private let clock: Clock
    private var graph: FilterGraph?
    private let decoded = Frame(), filtered = Frame()
    /// Where the latest timed block ends, in the graph's input time base (0 before any).
    private(set) var end: Int64 = 0
    /// The latest start of a timed block, in seconds from time 0.
    private(set) var latestStart = -Double.infinity

    /// Seconds from time 0 after which nothing is heard: blocks starting later are dropped.
    private let audibleUntil: Double?
    /// Gaps between timed blocks longer than this (seconds) are jumps, closed
    /// up: the graph fills a gap with silence in one block, which a damaged
    /// timestamp hours ahead would make gigabytes.
    static let maxGap = TimestampLine.maxGap

    /// `audibleUntil`: where the sound stops being heard (a clip's end), so
    /// blocks stamped past it are never filled up to.
    init(decoder: Decoder, filters: String, clock: Clock, audibleUntil: Double? = nil) {
        self.decoder = decoder
        self.filters = filters
        self.clock = clock
        self.audibleUntil = audibleUntil
    }

    /// Decodes one packet and sends its blocks through the graph; `take` gets
    /// each filtered block (a frame reused afterwards: copy what is kept).
    func decode(_ packet: Packet, into take: (Frame) throws -> Void) throws {
        precondition(packet.streamIndex == decoder.streamIndex, "a packet of another stream than the one decoded")
        try decoder.send(packet)
        try receive(into: take)
    }

    /// Tells the decoder no more packets come, and sends on the blocks it held back.
    func flush(into take: (Frame) throws -> Void) throws {
        try decoder.sendEndOfStream()
        try receive(into: take)
    }

    /// Reads the next packet of `demuxer` (into `packet`) and decodes it if it is this
    /// sound's; at the end of the file flushes and closes instead. False once ended.
    func readNext(from demuxer: Demuxer, into packet: Packet, take: (Frame) throws -> Void) throws -> Bool {
        guard try demuxer.read(into: packet) else {
            try flush(into: take)
            try close(into: take)
            return false
        }
        if packet.streamIndex == decoder.streamIndex { try decode(packet, into: take) }
        return true
    }

    /// Ends the graph's input at `pts` (by default where the latest timed
    /// block ends) and hands on what the graph still holds.
    func close(atPTS pts: Int64? = nil, into take: (Frame) throws -> Void) throws {
        guard let graph else { return }
        try graph.close(atPTS: pts ?? end)
        try drain(graph, into: take)
    }

    private func receive(into take: (Frame) throws -> Void) throws {
        while try decoder.receive(into: decoded) == .ready {
            let graph = try self.graph.madeOnFirstUse { try FilterGraph(audioLike: decoded, description: filters) }
            guard stamp(decoded) else { continue }
            try graph.push(decoded)
            try drain(graph, into: take)
        }
    }

    /// Sets a decoded block's timestamp in 1/its sample rate, and notes where
    /// it lies; false for a block that is never heard (past `audibleUntil`).
    private func stamp(_ block: Frame) -> Bool {
        var start: Int64
        switch clock {
        case .stream(let timeBase, let origin):
            guard let pts = block.pts else { return true }
            start = timeBase.rescale(pts - origin, to: Rational(1, block.sampleRate))
            if let audibleUntil, Double(start) / Double(block.sampleRate) > audibleUntil { return false }
            if latestStart > -.infinity, Double(start - end) / Double(block.sampleRate) > SoundReader.maxGap { start = end }
        case .counted:
            start = end
        }
        block.pts = start
        end = start + Int64(block.sampleCount)
        latestStart = max(latestStart, Double(start) / Double(block.sampleRate))
        return true
    }

    private func drain(_ graph: FilterGraph, into take: (Frame) throws -> Void) throws {
        while try graph.pull(into: filtered) == .ready {
            try take(filtered)
        }
    }
}
