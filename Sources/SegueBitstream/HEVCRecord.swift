/// An HEVC decoder configuration record (ISO/IEC 14496-15 `hvcC`): the
/// parameter sets an MP4 track's samples refer to, in arrays by NAL unit type.
/// One record can hold several VPS, SPS and PPS, told apart by their ids.
package struct HEVCRecord: Equatable, Sendable {
    /// The 22 bytes before the arrays: profile, tier, level, chroma format,
    /// bit depths, frame rate, length size.
    package var header: [UInt8]
    /// Whole NAL units, 2-byte header included, in the record's order.
    package var units: [[UInt8]]

    package var level: UInt8 {
        get { header[12] }
        set { header[12] = newValue }
    }
    package var chromaFormat: Int { Int(header[16] & 3) }

    /// The RFC 6381 codecs parameter of an `hvc1` track (ISO/IEC 14496-15, E.3): profile space and
    /// profile, the compatibility flags bit-reversed in hex, tier and level, the constraint bytes
    /// without their trailing zeros; e.g. `hvc1.2.4.L120.B0` for Main 10 at level 4.
    package var codecs: String {
        let space = ["", "A", "B", "C"][Int(header[1] >> 6)]
        let tier = (header[1] >> 5) & 1 == 1 ? "H" : "L"
        let flags = header[2...5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var constraints = Array(header[6...11])
        while constraints.last == 0 { constraints.removeLast() }
        return "hvc1.\(space)\(header[1] & 0x1F).\(String(flags.bitReversed, radix: 16, uppercase: true)).\(tier)\(header[12])"
            + constraints.map { "." + String($0, radix: 16, uppercase: true) }.joined()
    }
    package var lumaBitDepth: Int { Int(header[17] & 7) + 8 }
    /// Bytes of each NAL unit's length prefix in the samples (1, 2 or 4).
    package var lengthSize: Int { Int(header[21] & 3) + 1 }

    /// Reads an hvcC record, or parameter sets in Annex B form (start codes,
    /// as libx265 gives its global header); nil when `bytes` is neither.
    package init?(_ bytes: [UInt8]) {
        guard let record = bytes.first == 1 ? HEVCRecord(record: bytes) : HEVCRecord.fromAnnexB(bytes) else { return nil }
        self = record
    }

    package init(header: [UInt8], units: [[UInt8]]) {
        self.header = header
        self.units = units
    }

    private init?(record bytes: [UInt8]) {
        guard bytes.count >= 23 else { return nil }
        header = Array(bytes[0..<22])
        units = []
        var offset = 23
        for _ in 0..<Int(bytes[22]) {
            guard offset + 3 <= bytes.count else { return nil }
            let count = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= bytes.count else { return nil }
                let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                offset += 2
                guard length >= 2, offset + length <= bytes.count else { return nil }
                units.append(Array(bytes[offset..<(offset + length)]))
                offset += length
            }
        }
    }

    /// A record around Annex B parameter sets: profile, tier and level come
    /// from the SPS; 4:2:0 8-bit, 4-byte lengths, one temporal layer.
    private static func fromAnnexB(_ bytes: [UInt8]) -> HEVCRecord? {
        let units = AVCRecord.annexBUnits(bytes).filter { $0.count >= 2 }
        guard let sps = units.first(where: { HEVC.unitType($0) == HEVC.sequenceParameterSet }) else { return nil }
        let payload = EmulationPrevention.removed(sps.dropFirst(2))
        guard payload.count >= 13 else { return nil }
        // SPS byte 0: vps id, sub-layers, nesting; bytes 1-12: the general profile_tier_level.
        let header: [UInt8] = [1] + payload[1...12] + [0xF0, 0x00, 0xFC, 0xFD, 0xF8, 0xF8, 0x00, 0x00, 0x0F]
        return HEVCRecord(header: header, units: units)
    }

    /// The record as an MP4 muxer stores it: one array per unit type, in the
    /// order VPS, SPS, PPS, then any other, each marked complete when no
    /// sample carries parameter sets of its own (as `hvc1` requires).
    package var bytes: [UInt8] { bytes(complete: true) }

    /// Whether the record's fields can hold its units: at most 255 types and
    /// 65,535 units of each, each under 64 KB.
    package var isWritable: Bool {
        Set(units.map(HEVC.unitType)).count <= 255 && units.allSatisfy { $0.count <= 0xFFFF }
            && Dictionary(grouping: units, by: HEVC.unitType).values.allSatisfy { $0.count <= 0xFFFF }
    }

    package func bytes(complete: Bool) -> [UInt8] {
        var types: [Int] = []
        for unit in units where !types.contains(HEVC.unitType(unit)) { types.append(HEVC.unitType(unit)) }
        types.sort { ($0 < 32 ? 99 : $0) < ($1 < 32 ? 99 : $1) }
        var out = header
        out[21] = (out[21] & 0xFC) | 3
        out.append(UInt8(truncatingIfNeeded: types.count))
        for type in types {
            let ofType = units.filter { HEVC.unitType($0) == type }
            out += [(complete ? 0x80 : 0) | UInt8(truncatingIfNeeded: type) & 0x3F,
                    UInt8(truncatingIfNeeded: ofType.count >> 8), UInt8(truncatingIfNeeded: ofType.count)]
            for unit in ofType { out += BigEndian.length16(unit) }
        }
        return out
    }
}

/// Just enough of HEVC's syntax to tell parameter sets and pictures apart,
/// and to give an encoder's parameter sets other ids.
package enum HEVC {
    package static let videoParameterSet = 32
    package static let sequenceParameterSet = 33
    package static let pictureParameterSet = 34
    package static let cleanRandomAccess = 21
    package static let brokenLinkWithoutLeading = 18

    package static func unitType(_ unit: [UInt8]) -> Int { unitType(firstByte: unit.first ?? 0) }
    package static func unitType(firstByte: UInt8) -> Int { Int(firstByte >> 1) & 0x3F }

    /// A picture from which decoding needs nothing earlier (BLA, IDR, CRA).
    package static func isRandomAccess(_ type: Int) -> Bool { (16...21).contains(type) }
    package static func isSlice(_ type: Int) -> Bool { type < 32 }

    /// The id a parameter set is referred to by; nil if it isn't one or can't be read.
    package static func parameterSetID(_ unit: [UInt8]) -> Int? {
        guard unit.count > 2 else { return nil }
        var reader = BitReader(EmulationPrevention.removed(unit.dropFirst(2)))
        switch unitType(unit) {
        case videoParameterSet:
            return reader.bits(4)
        case sequenceParameterSet:
            guard skipToSequenceID(&reader) != nil else { return nil }
            return reader.unsignedExpGolomb()
        case pictureParameterSet:
            return reader.unsignedExpGolomb()
        default:
            return nil
        }
    }

    package static let prefixSEI = 39

    /// The payload types of a prefix SEI unit's messages (empty for any other unit).
    package static func seiPayloadTypes(_ unit: [UInt8]) -> [Int] {
        guard unit.count > 2, unitType(unit) == prefixSEI else { return [] }
        return SEI.payloadTypes(EmulationPrevention.removed(unit.dropFirst(2)))
    }

    /// How many pictures an SPS lets decoding run ahead of output
    /// (`sps_max_num_reorder_pics` of its highest sub-layer); nil if it can't be read.
    package static func reorderDepth(_ sps: [UInt8]) -> Int? {
        guard sps.count > 2, unitType(sps) == sequenceParameterSet else { return nil }
        var reader = BitReader(EmulationPrevention.removed(sps.dropFirst(2)))
        guard let subLayers = skipToSequenceID(&reader), reader.unsignedExpGolomb() != nil,
              let chromaFormat = reader.unsignedExpGolomb() else { return nil }
        if chromaFormat == 3 { guard reader.skip(1) else { return nil } } // separate_colour_plane_flag
        guard reader.unsignedExpGolomb() != nil, reader.unsignedExpGolomb() != nil, let window = reader.bit() else { return nil }
        if window == 1 { for _ in 0..<4 { guard reader.unsignedExpGolomb() != nil else { return nil } } }
        // Bit depths, log2_max_pic_order_cnt_lsb_minus4.
        for _ in 0..<3 { guard reader.unsignedExpGolomb() != nil else { return nil } }
        guard let perLayer = reader.bit() else { return nil }
        var depth: Int?
        for _ in (perLayer == 1 ? 0 : subLayers)...subLayers {
            guard reader.unsignedExpGolomb() != nil, let reorder = reader.unsignedExpGolomb(), reader.unsignedExpGolomb() != nil else {
                return nil
            }
            depth = reorder
        }
        return depth
    }

    /// Reads an SPS up to its own id: vps id, sub-layers, profile_tier_level.
    /// Returns the number of sub-layers less one.
    fileprivate static func skipToSequenceID(_ reader: inout BitReader) -> Int? {
        guard reader.skip(4), let subLayers = reader.bits(3), reader.skip(1), reader.skip(96) else { return nil }
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            guard let profile = reader.bit(), let level = reader.bit() else { return nil }
            profilePresent.append(profile == 1)
            levelPresent.append(level == 1)
        }
        if subLayers > 0 { guard reader.skip(2 * (8 - subLayers)) else { return nil } }
        for layer in 0..<subLayers {
            guard reader.skip((profilePresent[layer] ? 88 : 0) + (levelPresent[layer] ? 8 : 0)) else { return nil }
        }
        return subLayers
    }
}

/// New ids for one encoder's parameter sets (all its VPS, SPS and PPS carry
/// the same old ids), applied to its parameter sets and slices, so they can
/// stand beside other streams' sets in one `hvcC`.
package struct HEVCRenumbering: Sendable, Equatable {
    package var videoSet: (from: Int, to: Int)
    package var sequenceSet: (from: Int, to: Int)
    package var pictureSet: (from: Int, to: Int)

    package init(videoSet: (from: Int, to: Int), sequenceSet: (from: Int, to: Int), pictureSet: (from: Int, to: Int)) {
        self.videoSet = videoSet
        self.sequenceSet = sequenceSet
        self.pictureSet = pictureSet
    }

    /// The new ids, as a report says them.
    package var newIDs: String { "VPS \(videoSet.to), SPS \(sequenceSet.to), PPS \(pictureSet.to)" }

    package static func == (a: HEVCRenumbering, b: HEVCRenumbering) -> Bool {
        a.videoSet == b.videoSet && a.sequenceSet == b.sequenceSet && a.pictureSet == b.pictureSet
    }

    /// PPS ids a slice's `from` id can become without moving the slice data
    /// off its byte alignment: their code is a whole number of bytes longer or shorter.
    package static func pictureSetIDs(replacing from: Int) -> [Int] {
        (0...63).filter { (BitWriter.expGolombLength($0) - BitWriter.expGolombLength(from)) % 8 == 0 }
    }

    /// The unit with its ids replaced; other units unchanged; nil when it can't be read.
    package func apply(_ unit: [UInt8]) -> [UInt8]? {
        guard unit.count > 2 else { return unit }
        let type = HEVC.unitType(unit)
        guard HEVC.isSlice(type) || (32...34).contains(type) else { return unit }
        let payload = EmulationPrevention.removed(unit.dropFirst(2))
        var reader = BitReader(payload)
        var writer = BitWriter()
        switch type {
        case HEVC.videoParameterSet:
            guard reader.bits(4) == videoSet.from else { return nil }
            writer.write(videoSet.to, bits: 4)
            return finishParameterSet(unit, payload, reader: reader, writer: writer)
        case HEVC.sequenceParameterSet:
            guard reader.bits(4) == videoSet.from else { return nil }
            writer.write(videoSet.to, bits: 4)
            var probe = BitReader(payload)
            guard HEVC.skipToSequenceID(&probe) != nil else { return nil }
            writer.copy(from: &reader, bits: probe.position - reader.position)
            guard reader.unsignedExpGolomb() == sequenceSet.from else { return nil }
            writer.writeExpGolomb(sequenceSet.to)
            return finishParameterSet(unit, payload, reader: reader, writer: writer)
        case HEVC.pictureParameterSet:
            guard reader.unsignedExpGolomb() == pictureSet.from, reader.unsignedExpGolomb() == sequenceSet.from else { return nil }
            writer.writeExpGolomb(pictureSet.to)
            writer.writeExpGolomb(sequenceSet.to)
            return finishParameterSet(unit, payload, reader: reader, writer: writer)
        default:
            // first_slice_segment_in_pic_flag, no_output_of_prior_pics_flag (IRAP only), slice_pic_parameter_set_id.
            writer.copy(from: &reader, bits: (16...23).contains(type) ? 2 : 1)
            guard reader.unsignedExpGolomb() == pictureSet.from else { return nil }
            writer.writeExpGolomb(pictureSet.to)
            // The rest moves by whole bytes, so the slice data stays aligned: copy every bit.
            guard writer.position % 8 == reader.position % 8 else { return nil }
            writer.copy(from: &reader, bits: (8 - reader.position % 8) % 8)
            return Array(unit[0..<2]) + EmulationPrevention.added(writer.bytes + payload[(reader.position / 8)...])
        }
    }

    /// Copies the rest of a parameter set up to its stop bit, then ends it afresh.
    private func finishParameterSet(_ unit: [UInt8], _ payload: [UInt8], reader: BitReader, writer: BitWriter) -> [UInt8]? {
        guard let last = payload.lastIndex(where: { $0 != 0 }) else { return nil }
        let stopBit = last * 8 + 7 - payload[last].trailingZeroBitCount
        var reader = reader, writer = writer
        guard stopBit >= reader.position else { return nil }
        writer.copy(from: &reader, bits: stopBit - reader.position)
        writer.write(1, bits: 1)
        writer.alignWithZeros()
        return Array(unit[0..<2]) + EmulationPrevention.added(writer.bytes)
    }
}

extension UInt32 {
    /// The bits in the opposite order (bit 0 becomes bit 31).
    var bitReversed: UInt32 {
        (0..<32).reduce(UInt32(0)) { reversed, bit in reversed << 1 | (self >> bit) & 1 }
    }
}
