internal import SegueMedia
import SegueInput

/// Where the output's sound goes once heard: the output writer's sound track,
/// or a segment's own sound file (`SegmentSound`). Blocks come in order.
protocol SoundOutput: AnyObject {
    /// Takes the block of output sound that starts at output sample `start`.
    func write(_ block: [[Float]], at start: Int) throws
    /// Sends what is left.
    func finish() throws
}

/// The output writer's sound track: the blocks cut into the encoder's frame size, each stamped with its first sample.
final class WriterSound: SoundOutput {
    private let writer: OutputWriter
    private var chunker: AudioChunker

    init(writer: OutputWriter, sampleRate: Int) {
        self.writer = writer
        chunker = AudioChunker(frameSize: writer.audioFrameSize, sampleRate: sampleRate)
    }

    /// Samples handed to the writer so far.
    var samplesWritten: Int { chunker.samplesWritten }

    func write(_ block: [[Float]], at start: Int) throws {
        try chunker.append(block) { try writer.submit(sound: $0) }
    }

    /// Sends the last, short block.
    func finish() throws {
        try chunker.flush { try writer.submit(sound: $0) }
    }
}

extension SegmentSound: SoundOutput {}
