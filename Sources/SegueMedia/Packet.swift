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

    /// Presentation time in the time base of whoever made the packet; nil when unknown.
    package var pts: Int64? {
        get { pointer.pointee.pts == cffmpeg_nopts_value() ? nil : pointer.pointee.pts }
        set { pointer.pointee.pts = newValue ?? cffmpeg_nopts_value() }
    }

    /// Decoding time, as `pts`.
    package var dts: Int64? {
        get { pointer.pointee.dts == cffmpeg_nopts_value() ? nil : pointer.pointee.dts }
        set { pointer.pointee.dts = newValue ?? cffmpeg_nopts_value() }
    }

    /// The payload, as stored (for MP4 video: length-prefixed NAL units).
    package var bytes: [UInt8] {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
    }

    package func unref() { av_packet_unref(pointer) }
}

extension Packet {
    /// A new packet that takes over this one's data (`av_packet_move_ref`),
    /// leaving this one blank for the next read.
    package func takeOver() -> Packet {
        let moved = Packet()
        av_packet_move_ref(moved.pointer, pointer)
        return moved
    }

    /// Bytes of payload, for bounding queues.
    package var size: Int { Int(pointer.pointee.size) }

    /// The track header (an avcC record, for H.264) that takes effect at this
    /// packet when its file changes sample description midway, as the MP4
    /// demuxer says with `AV_PKT_DATA_NEW_EXTRADATA`; nil for most packets.
    package var newTrackHeader: [UInt8]? {
        var size = 0
        guard let data = av_packet_get_side_data(pointer, AV_PKT_DATA_NEW_EXTRADATA, &size), size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Walks the packet's length-prefixed NAL units (MP4 H.264): `body(type, copy)`
    /// for each, where `copy()` gives the unit's bytes when the caller wants
    /// them; false when the lengths don't add up to the packet.
    @discardableResult
    package func forEachH264Unit(lengthSize: Int, _ body: (Int, () -> [UInt8]) -> Void) -> Bool {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return false }
        return H264.forEachUnit(in: UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)),
                                lengthSize: lengthSize) { type, unit in body(type) { Array(unit) } }
    }
}

extension Packet {
    /// Rewrites an Annex B payload (NAL units after 00 00 01 start codes, as
    /// libx264 gives them) as MP4 stores it: each unit after its 4-byte length.
    /// The MP4 muxer does this itself only while a track's header is Annex B too.
    package func convertAnnexBToLengthPrefixed() {
        let units = AVCRecord.annexBUnits(bytes)
        guard !units.isEmpty else { return }
        var converted: [UInt8] = []
        converted.reserveCapacity(size + 4 * units.count)
        for unit in units {
            let length = UInt32(unit.count)
            converted += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            converted += unit
        }
        guard let replacement = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        var temporary: UnsafeMutablePointer<AVPacket>? = replacement
        defer { av_packet_free(&temporary) }
        guard av_new_packet(replacement, Int32(converted.count)) >= 0,
              av_packet_copy_props(replacement, pointer) >= 0 else { fatalError("av_new_packet: out of memory") }
        replacement.pointee.data.update(from: converted, count: converted.count)
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, replacement)
    }
}
