/// What slice headers of one H.264 stream need from its parameter sets: the
/// SPS and PPS fields that size or gate a slice header's fields (H.264
/// 7.3.2.1.1, 7.3.2.2, 7.3.3), by parameter-set id.
package struct H264SliceSyntax: Sendable {
    /// An SPS, as far as slice headers depend on it.
    struct Sequence: Sendable {
        var separateColourPlanes: Bool
        /// ChromaArrayType: chroma_format_idc, or 0 with separate colour planes.
        var chromaArrayType: Int
        /// log2_max_frame_num_minus4 + 4: the width of frame_num.
        var frameNumBits: Int
        var pocType: Int
        /// log2_max_pic_order_cnt_lsb_minus4 + 4 with POC type 0, else 0.
        var pocLsbBits: Int
        var deltaPicOrderAlwaysZero: Bool
        var frameNumGapsAllowed: Bool
        var frameMbsOnly: Bool
    }

    /// A PPS, as far as slice headers depend on it. With slice groups the
    /// fields after num_slice_groups_minus1 are not read (and stay false).
    struct Picture: Sendable {
        var sequenceID: Int
        var cabac: Bool
        var bottomFieldPicOrderPresent: Bool
        var sliceGroups: Bool
        /// num_ref_idx_l0/l1_default_active_minus1 + 1.
        var referencesDefault = (list0: 1, list1: 1)
        var weightedPrediction = false
        var weightedBipredictionIdc = 0
        var deblockingFilterControl = false
        var redundantPicCountPresent = false
    }

    private(set) var sequences: [Int: Sequence] = [:]
    private(set) var pictures: [Int: Picture] = [:]

    /// `units`: the stream's SPS and PPS NAL units (each starting with its NAL header byte, emulation prevention in place),
    /// as an avcC lists them; other units are passed over. A later set with an id replaces an earlier one.
    /// nil when an SPS or PPS can't be read.
    package init?(parameterSets units: [[UInt8]]) {
        for unit in units {
            guard let first = unit.first else { continue }
            var reader = BitReader(EmulationPrevention.removed(unit.dropFirst()))
            switch Int(first & 0x1F) {
            case H264.sequenceParameterSet:
                guard let (id, sequence) = H264SliceSyntax.sequence(&reader) else { return nil }
                sequences[id] = sequence
            case H264.pictureParameterSet:
                guard let (id, picture) = H264SliceSyntax.picture(&reader) else { return nil }
                pictures[id] = picture
            default:
                continue
            }
        }
    }

}

/// The fields of an H.264 slice header (7.3.3) that say where a slice sits
/// among the stream's pictures.
package struct H264SliceHeader: Equatable, Sendable {
    /// nal_ref_idc from the NAL header: 0 for a picture nothing refers to.
    package var nalRefIdc: Int
    /// nal_unit_type 5.
    package var isIDR: Bool
    /// slice_type % 5: 0 P, 1 B, 2 I, 3 SP, 4 SI.
    package var sliceType: Int
    package var ppsID: Int
    package var frameNum: Int
    /// pic_order_cnt_lsb; nil unless pic_order_cnt_type is 0.
    package var pocLsb: Int?
    /// field_pic_flag.
    package var fieldPic: Bool

    package init(nalRefIdc: Int, isIDR: Bool, sliceType: Int, ppsID: Int, frameNum: Int, pocLsb: Int?, fieldPic: Bool) {
        self.nalRefIdc = nalRefIdc
        self.isIDR = isIDR
        self.sliceType = sliceType
        self.ppsID = ppsID
        self.frameNum = frameNum
        self.pocLsb = pocLsb
        self.fieldPic = fieldPic
    }

    static let intra = 2
}

/// A slice header read through its picture order count fields, and where in
/// the payload (the RBSP after the NAL header byte) the fields to rewrite sit.
private struct SliceStart {
    var header: H264SliceHeader
    var sequence: H264SliceSyntax.Sequence
    var picture: H264SliceSyntax.Picture
    var payload: [UInt8]
    /// Bit positions in `payload`.
    var frameNumAt: Int
    var idrPicIDAt: Int
    var pocLsbAt: Int?
    /// Past delta_pic_order_cnt_bottom or delta_pic_order_cnt[].
    var reader: BitReader
}

/// The rest of a slice header (7.3.3): where dec_ref_pic_marking sits, its
/// operations, and where the header ends.
private struct SliceEnd {
    /// dec_ref_pic_marking's bits (empty when nal_ref_idc is 0).
    var marking: Range<Int>
    /// adaptive_ref_pic_marking_mode_flag.
    var adaptive = false
    /// memory_management_control_operation and its values, without the closing 0.
    var operations: [(operation: Int, values: [Int])] = []
    var headerEnd: Int
}

/// Bits that take the place of a range of a slice's payload.
private struct Replacement {
    var range: Range<Int>
    var bits: BitWriter
}

extension H264SliceSyntax {
    /// The header of a slice NAL unit (types 1 and 5); nil for other units or what can't be read.
    package func header(_ unit: [UInt8]) -> H264SliceHeader? { start(unit)?.header }

    /// `unit`, an I slice of a non-IDR picture, rewritten as a slice of an IDR picture: nal_unit_type 5 (nal_ref_idc kept,
    /// must be nonzero), frame_num 0, idr_pic_id `idrPicID`, pic_order_cnt_lsb 0 (POC type 0; type 2 has none), and
    /// dec_ref_pic_marking as an IDR's (no_output_of_prior_pics_flag 0, long_term_reference_flag 0). Every other header
    /// field kept, and the slice data after the header kept bit for bit: with CABAC (entropy_coding_mode_flag 1) the slice
    /// data starts byte-aligned after cabac_alignment_one_bit (re-padded with one bits to the new alignment); with CAVLC
    /// the remaining bits are shifted. Emulation prevention re-applied.
    /// nil when it can't be done exactly: not an I slice, an adaptive_ref_pic_marking with operations (MMCO) in it,
    /// POC type 1, field pictures (field_pic_flag 1), slice groups (num_slice_groups_minus1 > 0), an SPS/PPS id not
    /// known, anything unread.
    package func idrSlice(_ unit: [UInt8], idrPicID: Int = 0) -> [UInt8]? {
        guard (0...65535).contains(idrPicID), let start = start(unit), !start.header.isIDR,
              start.header.sliceType == H264SliceHeader.intra, start.header.nalRefIdc != 0, !start.header.fieldPic,
              start.sequence.pocType != 1, let end = end(start), end.operations.isEmpty else { return nil }
        var frameNum = BitWriter(), idrPicIDCode = BitWriter(), marking = BitWriter()
        frameNum.write(0, bits: start.sequence.frameNumBits)
        idrPicIDCode.writeExpGolomb(idrPicID)
        marking.write(0b00, bits: 2) // no_output_of_prior_pics_flag, long_term_reference_flag
        var replacements = [Replacement(range: start.frameNumAt..<(start.frameNumAt + start.sequence.frameNumBits), bits: frameNum),
                            Replacement(range: start.idrPicIDAt..<start.idrPicIDAt, bits: idrPicIDCode)]
        if let pocLsbAt = start.pocLsbAt {
            var pocLsb = BitWriter()
            pocLsb.write(0, bits: start.sequence.pocLsbBits)
            replacements.append(Replacement(range: pocLsbAt..<(pocLsbAt + start.sequence.pocLsbBits), bits: pocLsb))
        }
        replacements.append(Replacement(range: end.marking, bits: marking))
        guard let payload = rebuilt(start, end, replacing: replacements) else { return nil }
        return [unit[0] & 0xE0 | UInt8(H264.idrSlice)] + EmulationPrevention.added(payload)
    }

    /// `unit`, a slice of a non-IDR picture, with frame_num lowered by `frameNumBack` and pic_order_cnt_lsb by `pocLsbBack`
    /// (each modulo its range, MaxFrameNum = 2^(log2_max_frame_num_minus4+4), MaxPicOrderCntLsb likewise; `pocLsbBack`
    /// is ignored unless POC type 0); every other bit kept. A reference picture's memory management operations may still
    /// name pictures from before the new IDR: `withoutMarkingBeforeIDR` leaves those out.
    /// nil when it can't be read (or is an IDR slice).
    package func renumberedSlice(_ unit: [UInt8], frameNumBack: Int, pocLsbBack: Int) -> [UInt8]? {
        guard let start = start(unit), !start.header.isIDR else { return nil }
        var payload = start.payload
        func lowered(_ value: Int, by back: Int, bits: Int) -> Int {
            let range = 1 << bits
            return ((value - back) % range + range) % range
        }
        let bits = start.sequence.frameNumBits
        payload.setBits(at: start.frameNumAt, count: bits, to: lowered(start.header.frameNum, by: frameNumBack, bits: bits))
        if let pocLsbAt = start.pocLsbAt, let pocLsb = start.header.pocLsb {
            let bits = start.sequence.pocLsbBits
            payload.setBits(at: pocLsbAt, count: bits, to: lowered(pocLsb, by: pocLsbBack, bits: bits))
        }
        return [unit[0]] + EmulationPrevention.added(payload)
    }

    /// `unit`, a slice of a picture copied after a new IDR picture, without the memory management operations that mark
    /// pictures from before that IDR unused: the copy doesn't hold those pictures, and a decoder told to mark one says
    /// so (FFmpeg: "mmco: unref short failure"). x264's first P picture after an open GOP's I picture marks the GOP
    /// before's references so. `referencesSinceIDR`: the reference pictures (nal_ref_idc nonzero) decoded from the IDR
    /// picture on, itself included, before this slice's picture; frame_num counts them one by one, so operation 1 names
    /// one of them when difference_of_pic_nums_minus1 + 1 is at most that. With no operation left, the slice says
    /// adaptive_ref_pic_marking_mode_flag 0: the sliding window then marks nothing, as the copy holds fewer reference
    /// pictures than the original did once its operations were done. The rest of the header and the slice data are
    /// kept as `idrSlice` keeps them. `unit` itself when there is nothing to leave out (no nal_ref_idc, no operations).
    /// nil when it can't be done exactly: an operation on long-term pictures (2), a picture from before the IDR made
    /// long-term (3), field pictures, frame_num gaps allowed, slice groups, or anything unread.
    package func withoutMarkingBeforeIDR(_ unit: [UInt8], referencesSinceIDR: Int) -> [UInt8]? {
        guard referencesSinceIDR >= 1, let start = start(unit), !start.header.fieldPic else { return nil }
        guard start.header.nalRefIdc != 0, !start.header.isIDR else { return unit }
        guard let end = end(start) else { return nil }
        guard end.adaptive else { return unit }
        var kept: [(operation: Int, values: [Int])] = []
        for entry in end.operations {
            switch entry.operation {
            case 1, 3:
                let beforeIDR = entry.values[0] + 1 > referencesSinceIDR
                if beforeIDR && entry.operation == 3 { return nil }
                if !beforeIDR { kept.append(entry) }
            case 2:
                return nil
            default:
                kept.append(entry)
            }
        }
        guard kept.count < end.operations.count else { return unit }
        guard !start.sequence.frameNumGapsAllowed, !start.picture.sliceGroups else { return nil }
        var marking = BitWriter()
        marking.write(kept.isEmpty ? 0 : 1, bits: 1)
        if !kept.isEmpty {
            for entry in kept + [(operation: 0, values: [])] {
                marking.writeExpGolomb(entry.operation)
                for value in entry.values { marking.writeExpGolomb(value) }
            }
        }
        guard let payload = rebuilt(start, end, replacing: [Replacement(range: end.marking, bits: marking)]) else { return nil }
        return [unit[0]] + EmulationPrevention.added(payload)
    }

    /// Reads a slice header from first_mb_in_slice through its picture order count fields.
    private func start(_ unit: [UInt8]) -> SliceStart? {
        guard unit.count >= 2 else { return nil }
        let type = Int(unit[0] & 0x1F)
        guard type == 1 || type == H264.idrSlice else { return nil }
        let payload = EmulationPrevention.removed(unit.dropFirst())
        var reader = BitReader(payload)
        guard reader.unsignedExpGolomb() != nil, let sliceType = reader.unsignedExpGolomb(), sliceType <= 9,
              let ppsID = reader.unsignedExpGolomb(), let picture = pictures[ppsID],
              let sequence = sequences[picture.sequenceID] else { return nil }
        if sequence.separateColourPlanes { guard reader.skip(2) else { return nil } } // colour_plane_id
        let frameNumAt = reader.position
        guard let frameNum = reader.bits(sequence.frameNumBits) else { return nil }
        var fieldPic = false
        if !sequence.frameMbsOnly {
            guard let flag = reader.bit() else { return nil }
            fieldPic = flag == 1
            if fieldPic { guard reader.skip(1) else { return nil } } // bottom_field_flag
        }
        let idrPicIDAt = reader.position
        if type == H264.idrSlice { guard reader.unsignedExpGolomb() != nil else { return nil } }
        var pocLsbAt: Int?, pocLsb: Int?
        if sequence.pocType == 0 {
            pocLsbAt = reader.position
            guard let lsb = reader.bits(sequence.pocLsbBits) else { return nil }
            pocLsb = lsb
            if picture.bottomFieldPicOrderPresent && !fieldPic { guard reader.signedExpGolomb() != nil else { return nil } }
        } else if sequence.pocType == 1 && !sequence.deltaPicOrderAlwaysZero {
            guard reader.signedExpGolomb() != nil else { return nil }
            if picture.bottomFieldPicOrderPresent && !fieldPic { guard reader.signedExpGolomb() != nil else { return nil } }
        }
        let header = H264SliceHeader(nalRefIdc: Int(unit[0] >> 5) & 3, isIDR: type == H264.idrSlice, sliceType: sliceType % 5,
                                     ppsID: ppsID, frameNum: frameNum, pocLsb: pocLsb, fieldPic: fieldPic)
        return SliceStart(header: header, sequence: sequence, picture: picture, payload: payload, frameNumAt: frameNumAt,
                          idrPicIDAt: idrPicIDAt, pocLsbAt: pocLsbAt, reader: reader)
    }

    /// Reads the rest of a slice header (7.3.3 from redundant_pic_cnt): nil with slice groups or what can't be read.
    private func end(_ start: SliceStart) -> SliceEnd? {
        guard !start.picture.sliceGroups else { return nil }
        let sliceType = start.header.sliceType, picture = start.picture
        var reader = start.reader
        if picture.redundantPicCountPresent { guard reader.unsignedExpGolomb() != nil else { return nil } }
        if sliceType == 1 { guard reader.skip(1) else { return nil } } // direct_spatial_mv_pred_flag
        guard skipReferenceLists(&reader, start) else { return nil }
        guard var end = readMarking(&reader, start) else { return nil }
        if picture.cabac && sliceType != 2 && sliceType != 4 { guard reader.unsignedExpGolomb() != nil else { return nil } }
        guard reader.signedExpGolomb() != nil else { return nil } // slice_qp_delta
        if sliceType == 3 { guard reader.skip(1) else { return nil } } // sp_for_switch_flag
        if sliceType == 3 || sliceType == 4 { guard reader.signedExpGolomb() != nil else { return nil } } // slice_qs_delta
        if picture.deblockingFilterControl {
            guard let filter = reader.unsignedExpGolomb(), filter <= 2 else { return nil }
            if filter != 1 { guard reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil else { return nil } }
        }
        end.headerEnd = reader.position
        if picture.cabac { // the slice data starts after cabac_alignment_one_bit: a header misread shows here
            while reader.position % 8 != 0 { guard reader.bit() == 1 else { return nil } }
        }
        return end
    }

    /// Reads past num_ref_idx_active_override, ref_pic_list_modification() and pred_weight_table() (7.3.3 to 7.3.3.2).
    private func skipReferenceLists(_ reader: inout BitReader, _ start: SliceStart) -> Bool {
        let sliceType = start.header.sliceType, picture = start.picture
        let predicted = sliceType == 0 || sliceType == 3, bipredicted = sliceType == 1
        var references = picture.referencesDefault
        if predicted || bipredicted {
            guard let override = reader.bit() else { return false } // num_ref_idx_active_override_flag
            if override == 1 {
                guard let list0 = reader.unsignedExpGolomb(), list0 < 32 else { return false }
                references.list0 = list0 + 1
                if bipredicted {
                    guard let list1 = reader.unsignedExpGolomb(), list1 < 32 else { return false }
                    references.list1 = list1 + 1
                }
            }
            // ref_pic_list_modification(): per list, a flag, then entries up to modification_of_pic_nums_idc 3.
            for _ in 0..<(bipredicted ? 2 : 1) {
                guard let modified = reader.bit() else { return false }
                while modified == 1 {
                    guard let idc = reader.unsignedExpGolomb(), idc <= 3 else { return false }
                    if idc == 3 { break }
                    guard reader.unsignedExpGolomb() != nil else { return false }
                }
            }
        }
        if (picture.weightedPrediction && predicted) || (picture.weightedBipredictionIdc == 1 && bipredicted) {
            guard skipPredictionWeights(&reader, chroma: start.sequence.chromaArrayType != 0,
                                        lists: bipredicted ? [references.list0, references.list1] : [references.list0]) else {
                return false
            }
        }
        return true
    }

    /// dec_ref_pic_marking() (7.3.3.3): where it lies and, when adaptive, its operations.
    private func readMarking(_ reader: inout BitReader, _ start: SliceStart) -> SliceEnd? {
        let markingAt = reader.position
        var end = SliceEnd(marking: markingAt..<markingAt, headerEnd: 0)
        if start.header.nalRefIdc != 0 {
            if start.header.isIDR {
                guard reader.skip(2) else { return nil } // no_output_of_prior_pics_flag, long_term_reference_flag
            } else {
                guard let adaptive = reader.bit() else { return nil }
                end.adaptive = adaptive == 1
                while end.adaptive {
                    guard let operation = reader.unsignedExpGolomb(), operation <= 6 else { return nil }
                    if operation == 0 { break }
                    // 1 and 3: difference_of_pic_nums_minus1; 2: long_term_pic_num; 3 and 6: long_term_frame_idx;
                    // 4: max_long_term_frame_idx_plus1; 5: none.
                    let count = [1: 1, 2: 1, 3: 2, 4: 1, 5: 0, 6: 1][operation] ?? 0
                    var values: [Int] = []
                    for _ in 0..<count {
                        guard let value = reader.unsignedExpGolomb() else { return nil }
                        values.append(value)
                    }
                    end.operations.append((operation, values))
                }
            }
        }
        end.marking = markingAt..<reader.position
        return end
    }

    /// pred_weight_table() (7.3.3.2), read past: denominators, then per reference and list optional weights and offsets.
    private func skipPredictionWeights(_ reader: inout BitReader, chroma: Bool, lists: [Int]) -> Bool {
        guard reader.unsignedExpGolomb() != nil else { return false } // luma_log2_weight_denom
        if chroma { guard reader.unsignedExpGolomb() != nil else { return false } }
        for references in lists {
            for _ in 0..<references {
                guard let luma = reader.bit() else { return false }
                if luma == 1 { guard reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil else { return false } }
                guard chroma else { continue }
                guard let chromaWeights = reader.bit() else { return false }
                if chromaWeights == 1 { for _ in 0..<4 { guard reader.signedExpGolomb() != nil else { return false } } }
            }
        }
        return true
    }

    /// A slice's payload with `replacements` (in order, within the header) made, then its slice data: with CABAC from
    /// the byte after cabac_alignment_one_bit, re-padded with one bits; with CAVLC shifted to follow the header, then
    /// rbsp_stop_one_bit and alignment afresh.
    private func rebuilt(_ start: SliceStart, _ end: SliceEnd, replacing replacements: [Replacement]) -> [UInt8]? {
        let payload = start.payload
        var source = BitReader(payload), writer = BitWriter()
        for replacement in replacements {
            guard replacement.range.lowerBound >= source.position, replacement.range.upperBound <= end.headerEnd else { return nil }
            writer.copy(from: &source, bits: replacement.range.lowerBound - source.position)
            var bits = BitReader(replacement.bits.bytes)
            writer.copy(from: &bits, bits: replacement.bits.position)
            _ = source.skip(replacement.range.count)
        }
        writer.copy(from: &source, bits: end.headerEnd - source.position)
        if start.picture.cabac {
            while source.position % 8 != 0 { guard source.bit() == 1 else { return nil } } // cabac_alignment_one_bit
            while writer.position % 8 != 0 { writer.write(1, bits: 1) }
            return writer.bytes + payload[(source.position / 8)...]
        }
        guard let last = payload.lastIndex(where: { $0 != 0 }) else { return nil }
        let stopBit = last * 8 + 7 - payload[last].trailingZeroBitCount
        guard stopBit >= source.position else { return nil }
        writer.copy(from: &source, bits: stopBit - source.position)
        writer.write(1, bits: 1) // rbsp_stop_one_bit
        writer.alignWithZeros()
        return writer.bytes
    }
}

extension [UInt8] {
    /// Writes `value` in `count` bits from bit `position`, most significant first.
    fileprivate mutating func setBits(at position: Int, count: Int, to value: Int) {
        for index in 0..<count {
            let at = position + index, mask = UInt8(0x80) >> UInt8(at % 8)
            if (value >> (count - 1 - index)) & 1 == 1 { self[at / 8] |= mask } else { self[at / 8] &= ~mask }
        }
    }
}
