/// What slice headers of one H.264 stream need from its parameter sets: the
/// SPS and PPS fields that size or gate a slice header's fields (H.264
/// 7.3.2.1.1, 7.3.2.2, 7.3.3), by parameter-set id.
package struct H264SliceSyntax: Sendable {
    /// An SPS, as far as slice headers depend on it.
    struct Sequence: Sendable {
        var separateColourPlanes: Bool
        /// log2_max_frame_num_minus4 + 4: the width of frame_num.
        var frameNumBits: Int
        var pocType: Int
        /// log2_max_pic_order_cnt_lsb_minus4 + 4 with POC type 0, else 0.
        var pocLsbBits: Int
        var deltaPicOrderAlwaysZero: Bool
        var frameMbsOnly: Bool
    }

    /// A PPS, as far as slice headers depend on it. With slice groups the
    /// fields after num_slice_groups_minus1 are not read (and stay false).
    struct Picture: Sendable {
        var sequenceID: Int
        var cabac: Bool
        var bottomFieldPicOrderPresent: Bool
        var sliceGroups: Bool
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

    /// seq_parameter_set_data up to frame_mbs_only_flag (H.264 7.3.2.1.1).
    private static func sequence(_ reader: inout BitReader) -> (Int, Sequence)? {
        guard let profile = reader.bits(8), reader.skip(16), let id = reader.unsignedExpGolomb(), id < 32 else { return nil }
        var separateColourPlanes = false
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let chromaFormat = reader.unsignedExpGolomb(), chromaFormat <= 3 else { return nil }
            if chromaFormat == 3 {
                guard let flag = reader.bit() else { return nil }
                separateColourPlanes = flag == 1
            }
            // Bit depths, qpprime_y_zero_transform_bypass_flag.
            guard reader.unsignedExpGolomb() != nil, reader.unsignedExpGolomb() != nil, reader.skip(1),
                  let scalingMatrix = reader.bit() else { return nil }
            if scalingMatrix == 1 {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard let present = reader.bit() else { return nil }
                    if present == 1, !skipScalingList(&reader, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard let frameNumBits = reader.unsignedExpGolomb().map({ $0 + 4 }), frameNumBits <= 16,
              let pocType = reader.unsignedExpGolomb(), pocType <= 2 else { return nil }
        var pocLsbBits = 0, deltaPicOrderAlwaysZero = false
        if pocType == 0 {
            guard let bits = reader.unsignedExpGolomb().map({ $0 + 4 }), bits <= 16 else { return nil }
            pocLsbBits = bits
        } else if pocType == 1 {
            // offset_for_non_ref_pic, offset_for_top_to_bottom_field, then the cycle's offsets.
            guard let flag = reader.bit(), reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil,
                  let cycle = reader.unsignedExpGolomb(), cycle <= 255 else { return nil }
            deltaPicOrderAlwaysZero = flag == 1
            for _ in 0..<cycle { guard reader.signedExpGolomb() != nil else { return nil } }
        }
        // max_num_ref_frames, gaps_in_frame_num_value_allowed_flag, width and height in macroblocks.
        guard reader.unsignedExpGolomb() != nil, reader.skip(1), reader.unsignedExpGolomb() != nil,
              reader.unsignedExpGolomb() != nil, let frameMbsOnly = reader.bit() else { return nil }
        return (id, Sequence(separateColourPlanes: separateColourPlanes, frameNumBits: frameNumBits, pocType: pocType,
                             pocLsbBits: pocLsbBits, deltaPicOrderAlwaysZero: deltaPicOrderAlwaysZero,
                             frameMbsOnly: frameMbsOnly == 1))
    }

    /// scaling_list(): its deltas are read, not kept (H.264 7.3.2.1.1.1).
    private static func skipScalingList(_ reader: inout BitReader, size: Int) -> Bool {
        var last = 8, next = 8
        for _ in 0..<size {
            if next != 0 {
                guard let delta = reader.signedExpGolomb() else { return false }
                next = ((last + delta) % 256 + 256) % 256
            }
            last = next == 0 ? last : next
        }
        return true
    }

    /// pic_parameter_set_rbsp up to redundant_pic_cnt_present_flag (H.264 7.3.2.2).
    private static func picture(_ reader: inout BitReader) -> (Int, Picture)? {
        guard let id = reader.unsignedExpGolomb(), id < 256, let sequenceID = reader.unsignedExpGolomb(), sequenceID < 32,
              let cabac = reader.bit(), let bottomField = reader.bit(), let groups = reader.unsignedExpGolomb() else { return nil }
        var picture = Picture(sequenceID: sequenceID, cabac: cabac == 1, bottomFieldPicOrderPresent: bottomField == 1,
                              sliceGroups: groups > 0)
        guard groups == 0 else { return (id, picture) } // slices of it are refused where slice groups matter
        // num_ref_idx_l0/l1_default_active_minus1, weighted_pred_flag, weighted_bipred_idc,
        // pic_init_qp_minus26, pic_init_qs_minus26, chroma_qp_index_offset.
        guard reader.unsignedExpGolomb() != nil, reader.unsignedExpGolomb() != nil, reader.skip(3),
              reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil,
              let deblocking = reader.bit(), reader.skip(1), let redundant = reader.bit() else { return nil }
        picture.deblockingFilterControl = deblocking == 1
        picture.redundantPicCountPresent = redundant == 1
        return (id, picture)
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
              start.sequence.pocType != 1, !start.picture.sliceGroups else { return nil }
        let payload = start.payload, sequence = start.sequence, picture = start.picture
        var reader = start.reader // parses ahead
        var source = BitReader(payload) // copies behind it
        var writer = BitWriter()
        func copy(upTo end: Int) { writer.copy(from: &source, bits: end - source.position) }
        func pass(to end: Int) { _ = source.skip(end - source.position) }

        copy(upTo: start.frameNumAt)
        writer.write(0, bits: sequence.frameNumBits)
        pass(to: start.frameNumAt + sequence.frameNumBits)
        copy(upTo: start.idrPicIDAt) // field_pic_flag, when the SPS has one
        writer.writeExpGolomb(idrPicID)
        if let pocLsbAt = start.pocLsbAt {
            writer.write(0, bits: sequence.pocLsbBits)
            pass(to: pocLsbAt + sequence.pocLsbBits) // delta_pic_order_cnt_bottom, if any, is copied with what follows
        }
        if picture.redundantPicCountPresent { guard reader.unsignedExpGolomb() != nil else { return nil } }
        // An I slice has no ref_pic_list_modification or pred_weight_table: dec_ref_pic_marking comes next.
        copy(upTo: reader.position)
        guard let adaptive = reader.bit() else { return nil }
        if adaptive == 1 {
            guard reader.unsignedExpGolomb() == 0 else { return nil } // memory_management_control_operation
        }
        pass(to: reader.position)
        writer.write(0b00, bits: 2) // no_output_of_prior_pics_flag, long_term_reference_flag
        // No cabac_init_idc in an I slice; slice_qp_delta; then the deblocking filter's fields.
        guard reader.signedExpGolomb() != nil else { return nil }
        if picture.deblockingFilterControl {
            guard let filter = reader.unsignedExpGolomb(), filter <= 2 else { return nil }
            if filter != 1 { guard reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil else { return nil } }
        }
        copy(upTo: reader.position)

        let body: [UInt8]
        if picture.cabac {
            while reader.position % 8 != 0 { guard reader.bit() == 1 else { return nil } } // cabac_alignment_one_bit
            while writer.position % 8 != 0 { writer.write(1, bits: 1) }
            body = writer.bytes + payload[(reader.position / 8)...]
        } else {
            guard let last = payload.lastIndex(where: { $0 != 0 }) else { return nil }
            let stopBit = last * 8 + 7 - payload[last].trailingZeroBitCount
            guard stopBit >= reader.position else { return nil }
            copy(upTo: stopBit)
            writer.write(1, bits: 1) // rbsp_stop_one_bit
            writer.alignWithZeros()
            body = writer.bytes
        }
        return [unit[0] & 0xE0 | UInt8(H264.idrSlice)] + EmulationPrevention.added(body)
    }

    /// `unit`, a slice of a non-IDR picture, with frame_num lowered by `frameNumBack` and pic_order_cnt_lsb by `pocLsbBack`
    /// (each modulo its range, MaxFrameNum = 2^(log2_max_frame_num_minus4+4), MaxPicOrderCntLsb likewise; `pocLsbBack`
    /// is ignored unless POC type 0); every other bit kept.
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
