import Foundation
import SegueMedia

/// A segment's sound, encoded where it is rendered: the AAC packets of the
/// whole stitch's sound that fall in the segment's stretch of the AAC frame
/// grid (`SegmentPlan.Segment.audioStart..<audioEnd`), written to an M4A of
/// its own for the join to copy.
///
/// The encoder is fed on the whole output's 1024-sample grid, from
/// `preRollBlocks` blocks of the real sound before the stretch (so its MDCT
/// overlap, window choices, masking and rate control at the seam come from
/// the same samples as in one process: measured, 4 blocks left the packets
/// after a seam 30-70 dB from the plain stitch's, 128 blocks (2.7 s) make most
/// of them bit-identical and the rest at least 45 dB under the sound), to `postRollBlocks` blocks after it (each
/// packet's window reaches one block ahead); the packets outside the stretch,
/// the encoder's own priming among them, are dropped. The first segment keeps
/// the priming packet, the last one everything to the end.
final class SegmentSound {
    static let blockSize = OutputAudio.frameSize
    static let preRollBlocks = 128
    static let postRollBlocks = 3

    private let encoder: Encoder
    private let muxer: Muxer
    private let stream: Int
    private let packet = Packet()
    /// The output sample the encoder's first block starts at (on the grid).
    let feedStart: Int
    /// The output sample feeding stops at (exclusive); nil: the end of the output.
    let feedEnd: Int?
    /// Packets kept are those whose decoded block starts in this range (output samples).
    private let keep: Range<Int>
    private var pending: [[Float]] = [[], []]
    /// The output sample `pending` starts at.
    private var pendingStart: Int
    private(set) var packetsKept = 0
    private let sampleRate: Int

    /// Needs the output's sound from `feedStart(for:)` to `feedEnd(for:)`, handed over in order.
    init(path: String, segment: SegmentPlan.Segment, isLast: Bool, sampleRate: Int, bitRate: Int) throws {
        self.sampleRate = sampleRate
        let muxer = try Muxer(path: path, format: "mp4")
        encoder = try Encoder.aac(sampleRate: sampleRate, channels: OutputAudio.channels, bitRate: bitRate, globalHeader: muxer.needsGlobalHeader)
        precondition(encoder.frameSize == SegmentSound.blockSize, "AAC frames of \(encoder.frameSize) samples")
        stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader(options: [:])
        self.muxer = muxer
        feedStart = SegmentSound.feedStart(for: segment)
        feedEnd = isLast ? nil : SegmentSound.feedEnd(for: segment)
        pendingStart = feedStart
        // The first segment keeps the encoder's priming packet (decoded block -1024).
        keep = (segment.audioStart == 0 ? -SegmentSound.blockSize : segment.audioStart)..<(isLast ? Int.max : segment.audioEnd)
    }

    static func feedStart(for segment: SegmentPlan.Segment) -> Int {
        max(0, segment.audioStart - preRollBlocks * blockSize)
    }

    static func feedEnd(for segment: SegmentPlan.Segment) -> Int {
        segment.audioEnd + postRollBlocks * blockSize
    }

    /// Whether the sound up to the end of the feed has been given (the segment may stop).
    var isFed: Bool { feedEnd.map { pendingStart + pending[0].count >= $0 } ?? false }

    /// Takes the output's sound starting at output sample `start` (any stretch of
    /// it; what lies outside the feed is ignored).
    func write(_ sound: [[Float]], at start: Int) throws {
        precondition(sound.count == OutputAudio.channels && sound.hasEqualChannels, "a segment's sound is stereo")
        let end = start + sound[0].count
        let from = max(start, pendingStart + pending[0].count), to = min(end, feedEnd ?? .max)
        guard from < to else { return }
        precondition(from == pendingStart + pending[0].count, "the segment's sound has a gap before sample \(from)")
        for channel in 0..<2 { pending[channel] += sound[channel][(from - start)..<(to - start)] }
        while pending[0].count >= SegmentSound.blockSize { try encodeBlock(count: SegmentSound.blockSize) }
    }

    /// Encodes what is left (the output's short last block, as the whole stitch
    /// does: the last segment's, or a post-roll cut short by the output's end),
    /// flushes the encoder, and closes the file.
    func finish() throws {
        if !pending[0].isEmpty { try encodeBlock(count: pending[0].count) }
        try encoder.sendEndOfStream()
        try drain()
        try muxer.finish()
    }

    private func encodeBlock(count: Int) throws {
        let block = try Frame.audio(sampleCount: count, channels: OutputAudio.channels, sampleRate: sampleRate)
        block.setSamples(from: pending, start: 0)
        block.pts = Int64(pendingStart - feedStart)
        for channel in 0..<2 { pending[channel].removeFirst(count) }
        pendingStart += count
        try encoder.send(block)
        try drain()
    }

    private func drain() throws {
        while try encoder.receive(into: packet) == .ready {
            guard let pts = packet.pts, keep.contains(feedStart + Int(pts)) else {
                packet.unref()
                continue
            }
            packetsKept += 1
            try muxer.write(packet, stream: stream)
        }
    }
}
