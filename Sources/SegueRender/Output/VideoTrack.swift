internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// How pictures (and, in a laid-out track, copied packets) become the
/// output's video track: chosen once, when the sink is made.
protocol VideoTrack: AnyObject {
    /// Encodes a picture whose pts counts frames; `crf`, where the track
    /// re-encodes in stretches, says at what quality.
    func encode(_ picture: Frame, crf: Int?) throws
    /// Writes a copied packet to show at `time`, for a frame or until `end`.
    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws
    /// Flushes what the encoder holds.
    func finish() throws
}

/// Every picture encoded by one encoder, start to end.
final class EncodedTrack: VideoTrack {
    private let muxer: Muxer
    private let encoder: Encoder
    private let stream: Int
    private let packet = Packet()

    init(muxer: Muxer, encoder: Encoder, displayMatrix: [Int32]?) throws {
        self.muxer = muxer
        self.encoder = encoder
        stream = try muxer.addStream(for: encoder, displayMatrix: displayMatrix)
    }

    func encode(_ picture: Frame, crf: Int?) throws {
        try encoder.send(picture)
        try drain()
    }

    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws {
        throw SegueError(.writeFailed, detail: "a copied packet reached a track that re-encodes everything")
    }

    func finish() throws {
        try encoder.sendEndOfStream()
        try drain()
    }

    private func drain() throws {
        while try encoder.receive(into: packet) == .ready {
            // A picture lasts one tick of 1/fps; libx264 leaves it unset, and
            // the muxer needs it for the last frame's duration.
            if packet.duration == 0 { packet.duration = 1 }
            try muxer.write(packet, stream: stream)
        }
    }
}

/// A video track other than one encoder start to end, laid out by the room
/// that plans it (`--smart`'s copied packets and re-encoded stretches): the
/// sink has it make the track.
protocol VideoTrackLayout {
    /// Parameters every encoder of the track is given (`Encoder.video`'s `codecParams`).
    var encoderParams: String { get }
    /// How the track stores its pictures: the sink turns upright pictures so
    /// before encoding, and the track's display matrix turns them back.
    var orientation: DisplayOrientation { get }
    /// Whether the track holds full-range samples: the sink expands its limited-range pictures so.
    var fullRange: Bool { get }
    /// The track, added to `muxer`; `makeEncoder` makes an encoder at a CRF, with `encoderParams`.
    func makeTrack(muxer: Muxer, codec: VideoCodecChoice, crf: Int, makeEncoder: @escaping (Int) throws -> Encoder) throws -> any VideoTrack
}
