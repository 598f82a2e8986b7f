internal import SegueMedia
import SegueInput
import SegueModel

/// How the stitched sound becomes the output's AAC track: chosen once, when the sink is made.
protocol SoundTrack: AnyObject {
    /// Takes the output's sound, a block whose pts counts samples, in order.
    func encode(_ block: Frame) throws
    /// Takes a copied AAC packet that stands as output frame `slot` (a layout's track only).
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
        try encoder.send(encoder.channels == 1 && block.channelCount == 2 ? MonoDownmix.block(block) : block)
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

/// A sound track other than one encoder start to end, laid out by the room
/// that plans it (`--smart`'s copied runs): the sink has it make the track.
protocol SoundTrackLayout {
    /// The track, writing to `stream` of `muxer`; `makeEncoder` makes an AAC encoder like the stream's.
    func makeTrack(muxer: Muxer, stream: Int, sampleRate: Int, makeEncoder: @escaping () throws -> Encoder) throws -> any SoundTrack
}
