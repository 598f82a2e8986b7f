// The parts of H.264's SPS and PPS that slice headers depend on (`H264SliceSyntax`).

extension H264SliceSyntax {
    /// seq_parameter_set_data up to frame_mbs_only_flag (H.264 7.3.2.1.1).
    static func sequence(_ reader: inout BitReader) -> (Int, Sequence)? {
        guard let profile = reader.bits(8), reader.skip(16), let id = reader.unsignedExpGolomb(), id < 32 else { return nil }
        var separateColourPlanes = false, chromaFormat = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let format = reader.unsignedExpGolomb(), format <= 3 else { return nil }
            chromaFormat = format
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
        guard reader.unsignedExpGolomb() != nil, let gaps = reader.bit(), reader.unsignedExpGolomb() != nil,
              reader.unsignedExpGolomb() != nil, let frameMbsOnly = reader.bit() else { return nil }
        return (id, Sequence(separateColourPlanes: separateColourPlanes, chromaArrayType: separateColourPlanes ? 0 : chromaFormat,
                             frameNumBits: frameNumBits, pocType: pocType, pocLsbBits: pocLsbBits,
                             deltaPicOrderAlwaysZero: deltaPicOrderAlwaysZero, frameNumGapsAllowed: gaps == 1,
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
    static func picture(_ reader: inout BitReader) -> (Int, Picture)? {
        guard let id = reader.unsignedExpGolomb(), id < 256, let sequenceID = reader.unsignedExpGolomb(), sequenceID < 32,
              let cabac = reader.bit(), let bottomField = reader.bit(), let groups = reader.unsignedExpGolomb() else { return nil }
        var picture = Picture(sequenceID: sequenceID, cabac: cabac == 1, bottomFieldPicOrderPresent: bottomField == 1,
                              sliceGroups: groups > 0)
        guard groups == 0 else { return (id, picture) } // slices of it are refused where slice groups matter
        // pic_init_qp_minus26, pic_init_qs_minus26, chroma_qp_index_offset, then constrained_intra_pred_flag.
        guard let list0 = reader.unsignedExpGolomb(), list0 < 32, let list1 = reader.unsignedExpGolomb(), list1 < 32,
              let weighted = reader.bit(), let bipredicted = reader.bits(2),
              reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil,
              let deblocking = reader.bit(), reader.skip(1), let redundant = reader.bit() else { return nil }
        picture.referencesDefault = (list0 + 1, list1 + 1)
        picture.weightedPrediction = weighted == 1
        picture.weightedBipredictionIdc = bipredicted
        picture.deblockingFilterControl = deblocking == 1
        picture.redundantPicCountPresent = redundant == 1
        return (id, picture)
    }
}
