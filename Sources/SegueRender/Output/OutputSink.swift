internal import SegueMedia
import SegueCore

/// Where the encoder thread's pictures and sound go: one MP4 or WebM
/// (`EncodingSink`) or an HLS ladder (`LadderSink`). Used from one thread.
protocol OutputSink: AnyObject {
    /// Samples per sound block the sink takes (1024 for AAC).
    var audioFrameSize: Int { get }
    /// Encodes an upright canvas picture whose pts counts frames; `crf` (`--smart`) starts a stretch at that quality.
    func encode(picture: Frame, crf: Int?) throws
    /// Encodes planar-float sound whose pts counts samples.
    func encode(sound block: Frame) throws
    /// Flushes the encoders and completes what was written.
    func finish() throws
}

/// A sink that also takes packets copied from the clips (`--smart`) between what it encodes.
protocol CopyingSink: OutputSink {
    /// Writes a copied packet to show at `time`, for a frame or until `end`.
    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws
    /// Writes a copied AAC packet as output sound frame `slot`.
    func copy(sound packet: Packet, slot: Int) throws
}

extension EncodingSink: CopyingSink {}
