import CFFmpeg

/// An owning wrapper over one `AVPacket`, allocated once per stage and
/// unref'd per iteration.
package final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    package init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    package var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Duration in the time base of whoever made the packet.
    package var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    package func unref() { av_packet_unref(pointer) }
}

extension Packet {
    /// Presentation time in the stream's time base, nil when unknown.
    package var presentationTime: Int64? {
        pointer.pointee.pts == cffmpeg_nopts_value() ? nil : pointer.pointee.pts
    }

    /// A new packet that takes over this one's data (`av_packet_move_ref`),
    /// leaving this one blank for the next read.
    package func takeOver() -> Packet {
        let moved = Packet()
        av_packet_move_ref(moved.pointer, pointer)
        return moved
    }

    /// Bytes of payload, for bounding queues.
    package var size: Int { Int(pointer.pointee.size) }
}
