internal import CFFmpeg
internal import SegueBitstream

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
        get { Timestamp.plausibleDuration(pointer.pointee.duration) }
        set { pointer.pointee.duration = newValue }
    }

    /// Presentation time in the time base of whoever made the packet; nil when unknown.
    package var pts: Int64? {
        get { Timestamp.plausible(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? cffmpeg_nopts_value() }
    }

    /// Decoding time, as `pts`.
    package var dts: Int64? {
        get { Timestamp.plausible(pointer.pointee.dts) }
        set { pointer.pointee.dts = newValue ?? cffmpeg_nopts_value() }
    }

    /// Whether the demuxer marks it as decoded but never shown
    /// (`AV_PKT_FLAG_DISCARD`: an MP4 sample outside the track's edit list).
    package var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

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

    /// A new packet referring to this one's data (`av_packet_ref`): the
    /// payload is shared, not copied; this one is left as it is.
    package func clone() -> Packet {
        let copy = Packet()
        guard av_packet_ref(copy.pointer, pointer) == 0 else { fatalError("av_packet_ref: out of memory") }
        return copy
    }

    /// Whether the packet carries side data (AAC priming or end trimming among it).
    package var hasSideData: Bool { pointer.pointee.side_data_elems > 0 }

    /// Drops the packet's side data: a copied packet stands somewhere else in the output.
    package func removeSideData() { av_packet_free_side_data(pointer) }

    /// Bytes of payload, for bounding queues.
    package var size: Int { Int(pointer.pointee.size) }

    /// The track header (an avcC or hvcC record) that takes effect at this
    /// packet when its file changes sample description midway, as the MP4
    /// demuxer says with `AV_PKT_DATA_NEW_EXTRADATA`; nil for most packets.
    package var newTrackHeader: [UInt8]? {
        var size = 0
        guard let data = av_packet_get_side_data(pointer, AV_PKT_DATA_NEW_EXTRADATA, &size), size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Walks the packet's length-prefixed NAL units (MP4 H.264 or HEVC):
    /// `body(header, copy)` for each, where `header` is the unit's first byte
    /// and `copy(atMost)` gives the unit's first `atMost` bytes (`.max`: all of
    /// them; a header's reader needs only the first few) when the caller wants
    /// them; false when the lengths don't add up to the packet.
    @discardableResult
    package func forEachNALUnit(lengthSize: Int, _ body: (UInt8, _ copy: (_ atMost: Int) -> [UInt8]) -> Void) -> Bool {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return false }
        return H264.forEachUnit(in: UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)),
                                lengthSize: lengthSize) { header, unit in body(header) { Array(unit.prefix($0)) } }
    }

    /// Rewrites each length-prefixed NAL unit through `transform` (which
    /// returns nil to keep a unit as it is); the packet keeps its properties.
    package func rewriteNALUnits(lengthSize: Int, _ transform: ([UInt8]) throws -> [UInt8]?) rethrows {
        var units: [[UInt8]] = []
        var changed = false
        forEachNALUnit(lengthSize: lengthSize) { _, unit in units.append(unit(.max)) }
        for index in units.indices {
            if let replacement = try transform(units[index]) {
                units[index] = replacement
                changed = true
            }
        }
        if changed { replacePayload(lengthPrefixed(units)) }
    }

    /// Removes the length-prefixed NAL units whose first byte `drops` names;
    /// the packet keeps its properties (and its bytes, when none is dropped).
    package func removeNALUnits(lengthSize: Int, where drops: (UInt8) -> Bool) {
        var units: [[UInt8]] = []
        var dropped = false
        forEachNALUnit(lengthSize: lengthSize) { header, unit in
            if drops(header) { dropped = true } else { units.append(unit(.max)) }
        }
        if dropped { replacePayload(lengthPrefixed(units)) }
    }
}

extension Packet {
    /// Rewrites an Annex B payload (NAL units after 00 00 01 start codes, as
    /// libx264 gives them) as MP4 stores it: each unit after its 4-byte length.
    /// The MP4 muxer does this itself only while a track's header is Annex B too.
    package func convertAnnexBToLengthPrefixed() { convertAnnexBToLengthPrefixed { $0 } }

    /// The same, with each unit rewritten by `transform` on the way.
    package func convertAnnexBToLengthPrefixed(_ transform: ([UInt8]) throws -> [UInt8]) rethrows {
        let units = try AVCRecord.annexBUnits(bytes).map(transform)
        guard !units.isEmpty else { return }
        replacePayload(lengthPrefixed(units))
    }

    private func lengthPrefixed(_ units: [[UInt8]]) -> [UInt8] {
        var converted: [UInt8] = []
        converted.reserveCapacity(units.reduce(0) { $0 + 4 + $1.count })
        for unit in units {
            let length = UInt32(unit.count)
            converted += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            converted += unit
        }
        return converted
    }

    /// Gives the packet a new payload, keeping its timestamps and flags.
    private func replacePayload(_ payload: [UInt8]) {
        guard let replacement = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        var temporary: UnsafeMutablePointer<AVPacket>? = replacement
        defer { av_packet_free(&temporary) }
        guard av_new_packet(replacement, Int32(payload.count)) >= 0,
              av_packet_copy_props(replacement, pointer) >= 0 else { fatalError("av_new_packet: out of memory") }
        replacement.pointee.data.update(from: payload, count: payload.count)
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, replacement)
    }
}
