import Foundation
internal import SegueMedia
import SegueInput
import SegueModel

/// A segment's sound, encoded where it is rendered: the AAC packets of the
/// whole stitch's sound that fall in the segment's stretch of the AAC frame
/// grid (the segment's `audioStart..<audioEnd`), written to an M4A of
/// its own for the join to copy.
///
/// The stretch is one `AACWindowEncoder` window on the whole output's grid.
/// Its pre-roll is long (`preRollBlocks`): the encoder's rate control and
/// masking settle over seconds, and only that much of the real sound before
/// the stretch makes the packets after a seam match one process's. The first
/// segment keeps the priming packet, the last one everything to the end.
final class SegmentSound {
    static let blockSize = AACWindowEncoder.frameSize
    static let preRollBlocks = 128

    private let encoder: AACWindowEncoder
    private let muxer: Muxer
    private let stream: Int
    private let window: AACWindowEncoder.Window
    /// The output sample the encoder's first block starts at (on the grid).
    var feedStart: Int { window.feedStart }
    /// The output sample feeding stops at (exclusive); nil: the end of the output.
    var feedEnd: Int? { window.feedEnd }
    private var pending: [[Float]] = [[], []]
    /// The output sample `pending` starts at.
    private var pendingStart: Int
    private(set) var packetsKept = 0

    /// Keeps the packets whose blocks start in `kept` (output samples on the AAC frame grid; the
    /// last segment's runs to `Int.max`); needs the output's sound from `feedStart` to `feedEnd`, handed over in order.
    init(path: String, keeping kept: Range<Int>, sampleRate: Int, channels: Int, bitRate: Int) throws {
        let muxer = try Muxer(path: path, format: "mp4")
        let encoder = try Encoder.aac(sampleRate: sampleRate, channels: channels, bitRate: bitRate, globalHeader: muxer.needsGlobalHeader)
        self.encoder = AACWindowEncoder(encoder: encoder, sampleRate: sampleRate)
        stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader(options: [:])
        self.muxer = muxer
        window = AACWindowEncoder.Window(keeping: kept,
                                         preRoll: SegmentSound.preRollBlocks, soundEnd: nil)
        self.encoder.start(window)
        pendingStart = window.feedStart
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
        try encoder.flush(keep: writeKept)
        try muxer.finish()
    }

    private func encodeBlock(count: Int) throws {
        try encoder.encode(pending, from: 0, count: count, keep: writeKept)
        for channel in 0..<2 { pending[channel].removeFirst(count) }
        pendingStart += count
    }

    /// Writes a kept packet as the encoder stamped it: the join times it.
    private func writeKept(_ packet: Packet, at start: Int) throws {
        packetsKept += 1
        try muxer.write(packet, stream: stream)
    }
}
