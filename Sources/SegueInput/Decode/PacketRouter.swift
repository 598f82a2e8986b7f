package import SegueMedia
import SegueModel

/// Reads a clip's file and hands each stream its packets in order: a packet
/// of the other stream met on the way is kept for it (compressed, so a long
/// stretch of one stream costs little while the other is searched). Packets
/// are laid on the continuous timestamp line the probe measured first.
package final class PacketRouter {
    /// The sound stream a clip is heard from, and its time 0 in its own time base.
    struct Sound {
        var stream: StreamInfo
        var origin: Int64
    }

    private let demuxer: Demuxer
    private let packet = Packet()
    private let videoStream: Int
    private let video: StreamInfo
    private let sound: Sound?
    private let damage: DamagePolicy
    /// Lays packets on the continuous line the probe measured (MPEG-TS/PS); nil for other containers.
    private var timestampLine: TimestampLine?
    private var videoPackets = PacketQueue()
    private var soundPackets = PacketQueue()
    /// The demuxer has nothing more (end of file, or a damaged stretch ending it).
    private var endOfInput = false

    init(demuxer: Demuxer, video: StreamInfo, sound: Sound?, damage: DamagePolicy) {
        self.demuxer = demuxer
        self.videoStream = video.index
        self.video = video
        self.sound = sound
        self.damage = damage
        let timed = [video] + (sound.map { [$0.stream] } ?? [])
        timestampLine = demuxer.timestampsMayJump ? TimestampLine(streams: timed) : nil
    }

    /// Whether as much video is kept as may be while looking for sound: a
    /// badly interleaved file (or sound starting late) can't fill memory.
    var isVideoBacklogFull: Bool { videoPackets.isFull }

    /// The video needs no more packets: none are kept for it from here.
    func endVideo() { videoPackets.close() }

    /// The sound needs no more packets: none are kept for it from here.
    func endSound() { soundPackets.close() }

    /// The next packet of the video (or sound) stream, from what was read
    /// ahead or from the file; packets of the other stream read on the way are
    /// kept for it. Nil at the end of the file, or of its readable part.
    package func nextPacket(video: Bool) throws -> Packet? {
        if let queued = video ? videoPackets.pop() : soundPackets.pop() { return queued }
        while !endOfInput {
            var more = false
            guard try damage.survives({ more = try demuxer.read(into: packet) }), more else { break }
            if packet.streamIndex == videoStream { TimestampLine.repairReorder(packet, in: self.video) }
            timestampLine?.place(packet)
            if packet.streamIndex == videoStream {
                if video { return packet.takeOver() }
                if !videoPackets.isClosed { videoPackets.push(packet.takeOver()) }
            } else if let sound, packet.streamIndex == sound.stream.index {
                // Sound from well before the first picture is never heard: not kept, not decoded.
                if let pts = packet.pts,
                   Double(pts - sound.origin) * sound.stream.timeBase.value < -1 { continue }
                if !video { return packet.takeOver() }
                if !soundPackets.isClosed { soundPackets.push(packet.takeOver()) }
            }
        }
        endOfInput = true
        return nil
    }
}

/// Packets of one stream read ahead of need, oldest first. Full at 32 MB or
/// 2,000 packets: past that, the stream being looked for is given up on for
/// now. Closed once its stream needs no more: it then holds none.
private struct PacketQueue {
    private var packets: [Packet] = []
    private var head = 0
    private var bytes = 0
    private(set) var isClosed = false

    var isFull: Bool { bytes > 32 << 20 || packets.count - head > 2_000 }

    mutating func push(_ packet: Packet) {
        bytes += packet.size
        packets.append(packet)
    }

    mutating func pop() -> Packet? {
        guard head < packets.count else { return nil }
        let packet = packets[head]
        bytes -= packet.size
        head += 1
        if head > 256 && head * 2 > packets.count {
            packets.removeFirst(head)
            head = 0
        }
        return packet
    }

    /// Drops what is kept and keeps nothing more.
    mutating func close() {
        packets = []
        head = 0
        bytes = 0
        isClosed = true
    }
}
