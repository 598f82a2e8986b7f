package import SegueMedia
import SegueModel
import SegueCore

// What a clip source needs of `--smart`, which copies a clip's encoded
// packets instead of decoding them. The room that plans the copy (Smart)
// gives these; Decode names none of its types.

/// What `--smart` copies of one clip, handed to its source when it opens:
/// the frames whose packets go on undecoded, and how its sound is moved.
/// Without `--smart` (or for a clip it doesn't copy) both are nil.
package struct ClipCopying: Sendable {
    package var video: (any VideoCopy)?
    package var sound: (any SoundMove)?

    package init(video: (any VideoCopy)? = nil, sound: (any SoundMove)? = nil) {
        self.video = video
        self.sound = sound
    }
}

/// The frames of a clip whose encoded packets are handed on undecoded.
package protocol VideoCopy: Sendable {
    /// Whether the frame at clip position `position` is copied.
    func isCopied(_ position: Int) -> Bool
    /// What hands the copied packets on as the clip is read: it reads through
    /// `router` and decodes on `video` what comes before a copied run.
    func runs(demuxer: Demuxer, router: PacketRouter, video: VideoNormaliser, damage: DamagePolicy) throws -> any CopiedPackets
}

/// A clip's copied packets, met as its file is read.
package protocol CopiedPackets: AnyObject {
    /// Whether a copied packet waits to be taken: no picture comes before it is.
    var isHolding: Bool { get }
    /// Keeps `packet` if it is copied, ending the decoded stretch before it
    /// (its leading pictures, met next, are decoded first); false for a packet to decode.
    func holdIfCopied(_ packet: Packet) throws -> Bool
    /// The copied packets that belong to the clip's frame `position`, in
    /// decoding order, each with where it shows: one per frame, but a
    /// variable-rate clip's pictures copied at their own times may be none or
    /// several (each before the frame after `position`, or the rest of their GOP at its last).
    func take(at position: Int) throws -> [CopiedPacket]
}

/// A copied packet, as it is, and where it shows in its clip.
package struct CopiedPacket {
    package var packet: Packet
    package var time: FrameTime
    /// Until when it shows, where that is not a frame later (the last of a
    /// variable-rate clip's GOP copied at its own times: to the GOP's end).
    package var end: FrameTime?

    package init(packet: Packet, time: FrameTime, end: FrameTime? = nil) {
        self.packet = packet
        self.time = time
        self.end = end
    }
}

/// How a clip's sound is moved to meet its copied AAC packets.
package protocol SoundMove: Sendable {
    /// Takes over `sound`, before any of it is read.
    func moving(_ sound: ClipSound) -> any MovedSound
}

/// A clip's sound as it is moved (`SoundMove`): late or early by its shift,
/// with what plays at its edges.
package protocol MovedSound: AnyObject {
    /// Samples the sound stands late (negative: early).
    var shift: Int { get }
    /// Samples still to play before the clip's own sound (silence, or a lead-in).
    var delay: Int { get }
    /// Exactly `count` samples per channel.
    func next(_ count: Int) throws -> [[Float]]
    /// Exactly `count` samples past what was handed out, the sound continued
    /// where it has ended: what runs on into the next clip at a cut.
    func runOn(_ count: Int) throws -> [[Float]]
    /// At a cut: `outgoing`'s sound running on plays before this one's own.
    /// Throws only what reading `outgoing` throws.
    func leadIn(from outgoing: any MovedSound) throws
    /// The copied packets met since the last call, in order, each with the output sound frame it stands as.
    func takeCopied() -> [(packet: Packet, slot: Int)]
}
