/// An H.264 decoder configuration record (ISO/IEC 14496-15 `avcC`): the
/// parameter sets an MP4 track's samples refer to, stored once per track.
/// One record can list several SPS and PPS, told apart by their ids.
package struct AVCRecord: Equatable, Sendable {
    package var profile: UInt8
    package var compatibility: UInt8
    package var level: UInt8
    /// Bytes of each NAL unit's length prefix in the samples (1, 2 or 4).
    package var lengthSize: Int
    /// Whole NAL units, header byte included.
    package var sequenceParameterSets: [[UInt8]]
    package var pictureParameterSets: [[UInt8]]
    /// The High-profile tail: chroma format and bit depths, when present.
    package var chromaFormat: UInt8 = 1
    package var lumaBitDepth: UInt8 = 8
    package var chromaBitDepth: UInt8 = 8

    /// Reads an avcC record, or parameter sets in Annex B form (start codes,
    /// as libx264 gives its global header); nil when `bytes` is neither.
    package init?(_ bytes: [UInt8]) {
        guard let record = bytes.first == 1 ? AVCRecord(record: bytes) : AVCRecord.fromAnnexB(bytes) else { return nil }
        self = record
    }

    private static func fromAnnexB(_ bytes: [UInt8]) -> AVCRecord? {
        let units = AVCRecord.annexBUnits(bytes)
        let sequences = units.filter { $0.first.map { Int($0 & 0x1F) } == H264.sequenceParameterSet }
        let pictures = units.filter { $0.first.map { Int($0 & 0x1F) } == H264.pictureParameterSet }
        guard let first = sequences.first, first.count >= 4, !pictures.isEmpty else { return nil }
        return AVCRecord(profile: first[1], compatibility: first[2], level: first[3],
                         sequenceParameterSets: sequences, pictureParameterSets: pictures)
    }

    private init?(record bytes: [UInt8]) {
        guard bytes.count >= 7, bytes[0] == 1 else { return nil }
        profile = bytes[1]
        compatibility = bytes[2]
        level = bytes[3]
        lengthSize = Int(bytes[4] & 3) + 1
        var offset = 5
        func units(count: Int) -> [[UInt8]]? {
            var found: [[UInt8]] = []
            for _ in 0..<count {
                guard offset + 2 <= bytes.count else { return nil }
                let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                offset += 2
                guard length > 0, offset + length <= bytes.count else { return nil }
                found.append(Array(bytes[offset..<(offset + length)]))
                offset += length
            }
            return found
        }
        offset = 6 // byte 5 holds the SPS count
        guard let sequences = units(count: Int(bytes[5] & 0x1F)), offset < bytes.count else { return nil }
        let ppsCount = Int(bytes[offset])
        offset += 1
        guard let pictures = units(count: ppsCount) else { return nil }
        sequenceParameterSets = sequences
        pictureParameterSets = pictures
        if [100, 110, 122, 144].contains(profile), offset + 3 <= bytes.count {
            chromaFormat = bytes[offset] & 3
            lumaBitDepth = (bytes[offset + 1] & 7) + 8
            chromaBitDepth = (bytes[offset + 2] & 7) + 8
        }
    }

    package init(profile: UInt8, compatibility: UInt8, level: UInt8, sequenceParameterSets: [[UInt8]],
                 pictureParameterSets: [[UInt8]]) {
        self.profile = profile
        self.compatibility = compatibility
        self.level = level
        lengthSize = 4
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
    }

    /// NAL units between start codes (00 00 01 or 00 00 00 01).
    package static func annexBUnits(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append((index > 0 && bytes[index - 1] == 0 ? index - 1 : index, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.indices.compactMap { at in
            let end = at + 1 < starts.count ? starts[at + 1].code : bytes.count
            return starts[at].payload < end ? Array(bytes[starts[at].payload..<end]) : nil
        }
    }

    /// Whether the record's fields can hold its parameter sets: at most 31
    /// SPS and 255 PPS, each under 64 KB (a stream's own sets may be bigger).
    package var isWritable: Bool {
        sequenceParameterSets.count <= 31 && pictureParameterSets.count <= 255
            && (sequenceParameterSets + pictureParameterSets).allSatisfy { $0.count <= 0xFFFF }
            && (1...4).contains(lengthSize)
    }

    /// The record as an MP4 muxer stores it; check `isWritable` first (what
    /// doesn't fit is cut to its field, never a trap).
    package var bytes: [UInt8] {
        var out: [UInt8] = [1, profile, compatibility, level, 0xFC | UInt8(truncatingIfNeeded: lengthSize - 1) & 3,
                            0xE0 | UInt8(truncatingIfNeeded: sequenceParameterSets.count) & 0x1F]
        for unit in sequenceParameterSets { out += BigEndian.length16(unit) }
        out.append(UInt8(truncatingIfNeeded: pictureParameterSets.count))
        for unit in pictureParameterSets { out += BigEndian.length16(unit) }
        if [100, 110, 122, 144].contains(profile) {
            out += [0xFC | chromaFormat, 0xF8 | (lumaBitDepth - 8), 0xF8 | (chromaBitDepth - 8), 0]
        }
        return out
    }
}

/// Just enough of H.264's syntax to tell parameter sets and pictures apart.
package enum H264 {
    package static let sequenceParameterSet = 7
    package static let pictureParameterSet = 8
    package static let idrSlice = 5
    package static let nonIDRSlice = 1
    package static let supplementalEnhancement = 6
    /// The SEI payload type of a recovery point: decoding may start at the picture it comes with.
    package static let recoveryPoint = 6

    /// The recovery_frame_cnt of an SEI unit's recovery point: how many
    /// pictures after it decoding from it takes to show them right (0: from
    /// it on). nil when it holds none, or it can't be read.
    package static func recoveryFrameCount(_ unit: [UInt8]) -> Int? {
        guard unit.count > 1, Int(unit[0] & 0x1F) == supplementalEnhancement else { return nil }
        guard let message = SEI.messages(EmulationPrevention.removed(unit.dropFirst())).first(where: { $0.type == recoveryPoint }) else {
            return nil
        }
        var reader = BitReader(Array(message.payload))
        return reader.unsignedExpGolomb()
    }

    /// The id a parameter set is referred to by: `seq_parameter_set_id` of an
    /// SPS, `pic_parameter_set_id` of a PPS; nil if it can't be read.
    package static func parameterSetID(_ unit: [UInt8]) -> Int? {
        guard let first = unit.first else { return nil }
        var reader = BitReader(EmulationPrevention.removed(unit.dropFirst().prefix(64))) // ids sit in the first bytes
        switch Int(first & 0x1F) {
        case sequenceParameterSet:
            guard reader.skip(24) else { return nil } // profile, constraint flags, level
            return reader.unsignedExpGolomb()
        case pictureParameterSet:
            return reader.unsignedExpGolomb()
        default:
            return nil
        }
    }

    /// Walks a sample's length-prefixed NAL units: `body(header, unit)` for
    /// each, `header` being the unit's first byte.
    /// False when the lengths don't add up to the sample.
    @discardableResult
    package static func forEachUnit(in sample: UnsafeBufferPointer<UInt8>, lengthSize: Int,
                                    _ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var offset = 0
        while offset + lengthSize <= sample.count {
            var length = 0
            for index in 0..<lengthSize { length = length << 8 | Int(sample[offset + index]) }
            offset += lengthSize
            guard length > 0, offset + length <= sample.count else { return false }
            let unit = UnsafeBufferPointer(rebasing: sample[offset..<(offset + length)])
            body(unit[0], unit)
            offset += length
        }
        return offset == sample.count
    }
}

enum BigEndian {
    /// `unit` after its length in two bytes, both cut to 16 bits.
    static func length16(_ unit: [UInt8]) -> [UInt8] {
        let kept = unit.prefix(0xFFFF)
        return [UInt8(truncatingIfNeeded: kept.count >> 8), UInt8(truncatingIfNeeded: kept.count)] + kept
    }
}
