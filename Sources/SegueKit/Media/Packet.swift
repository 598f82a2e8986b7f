import CFFmpeg

/// An owning wrapper over one `AVPacket`, allocated once per stage and
/// unref'd per iteration.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Duration in the time base of whoever made the packet.
    var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    func unref() { av_packet_unref(pointer) }
}
