import XCTest
@testable import SegueBitstream

/// Finding NAL units: between Annex B start codes, in length-prefixed MP4
/// samples, and the few fields of them Segue reads (unit types, parameter-set
/// ids, SEI payload types), on real encoders' units and bytes built to the
/// specification; then HEVC's ids rewritten and back.
final class UnitTests: XCTestCase {
    func testAnnexBUnitsAreSplitAtThreeAndFourByteStartCodes() {
        let stream: [UInt8] = [0xFF, 0, 0, 1, 0x67, 0xAA, 0, 0, 0, 1, 0x68, 0xBB, 0, 0, 1, 0, 0, 1, 0x65, 0, 0, 3, 1]
        XCTAssertEqual(AVCRecord.annexBUnits(stream), [[0x67, 0xAA], [0x68, 0xBB], [0x65, 0, 0, 3, 1]],
                       "bytes before the first start code and empty units are dropped; a 4-byte code's zero is not the unit's")
        XCTAssertEqual(AVCRecord.annexBUnits([0, 0, 1]), [])
        XCTAssertEqual(AVCRecord.annexBUnits([0x67, 0xAA]), [], "no start code, no unit")
    }

    func testASamplesLengthPrefixedUnitsAreWalkedAndLengthsThatDontAddUpSaid() {
        func walk(_ sample: [UInt8], lengthSize: Int = 4) -> (units: [[UInt8]], complete: Bool) {
            var units: [[UInt8]] = []
            let complete = sample.withUnsafeBufferPointer { buffer in
                H264.forEachUnit(in: buffer, lengthSize: lengthSize) { header, unit in
                    XCTAssertEqual(header, unit[0])
                    units.append(Array(unit))
                }
            }
            return (units, complete)
        }
        let sample: [UInt8] = [0, 0, 0, 2, 0x65, 0xAA, 0, 0, 0, 1, 0x06]
        XCTAssertEqual(walk(sample).units, [[0x65, 0xAA], [0x06]])
        XCTAssertTrue(walk(sample).complete)
        XCTAssertEqual(walk([0, 2, 0x65, 0xAA, 0, 1, 0x06], lengthSize: 2).units, [[0x65, 0xAA], [0x06]])
        XCTAssertFalse(walk(sample + [0, 0]).complete, "bytes left over")
        XCTAssertFalse(walk([0, 0, 0, 9, 0x65, 0xAA]).complete, "a length past the sample's end")
        XCTAssertFalse(walk([0, 0, 0, 0, 0x65]).complete, "an empty unit")
    }

    func testParameterSetIDsAreReadFromRealEncodersUnits() {
        XCTAssertEqual(H264.parameterSetID(EncoderUnits.h264Sequence), 3)
        XCTAssertEqual(H264.parameterSetID(EncoderUnits.h264Picture), 3)
        XCTAssertEqual([EncoderUnits.hevcVideo, EncoderUnits.hevcSequence, EncoderUnits.hevcPicture].map(HEVC.parameterSetID), [0, 0, 0])
        XCTAssertEqual([EncoderUnits.hevcVideo, EncoderUnits.hevcSequence, EncoderUnits.hevcPicture, EncoderUnits.hevcSlice]
                        .map(HEVC.unitType), [HEVC.videoParameterSet, HEVC.sequenceParameterSet, HEVC.pictureParameterSet, 20])
        XCTAssertTrue(HEVC.isRandomAccess(HEVC.unitType(EncoderUnits.hevcSlice)))
        XCTAssertNil(HEVC.parameterSetID(EncoderUnits.hevcSlice), "a slice is no parameter set")
        XCTAssertNil(H264.parameterSetID([0x65, 0x88, 0x84]), "nor is an IDR slice")
        XCTAssertNil(H264.parameterSetID([]))
        XCTAssertNil(HEVC.parameterSetID([0x42, 0x01]))
    }

    func testAnIDAfterAnEmulationPreventionByteIsReadWithoutIt() {
        // profile 0, constraints 0, level 1 (00 00 03 01 in the unit), then ue 00101: id 4.
        XCTAssertEqual(H264.parameterSetID([0x67, 0x00, 0x00, 0x03, 0x01, 0b0010_1000]), 4)
        // 00 00 03 00 00 01 is 00 00 00 00 01 once the 3 is out: 39 zeros before the code's 1, no code.
        XCTAssertNil(H264.parameterSetID([0x68, 0x00, 0x00, 0x03, 0x00, 0x00, 0x01]), "over 31 leading zeros")
    }

    func testPrefixSEIPayloadTypesAreCountedPastFFBytesAndEmulationPrevention() {
        let lightAndMastering: [UInt8] = [0x4E, 0x01, 0x89, 0x02, 0xAA, 0xBB, 0x90, 0x01, 0xCC, 0x80]
        XCTAssertEqual(HEVC.seiPayloadTypes(lightAndMastering), [137, 144])
        XCTAssertEqual(HEVC.seiPayloadTypes([0x4E, 0x01, 0xFF, 0x05, 0x01, 0xAA, 0x80]), [260], "255 + 5")
        // A payload of 00 00 01 is 00 00 03 01 in the unit: its size counts three bytes, not four.
        XCTAssertEqual(HEVC.seiPayloadTypes([0x4E, 0x01, 0x05, 0x03, 0x00, 0x00, 0x03, 0x01, 0x04, 0x01, 0x00, 0x80]), [5, 4])
        XCTAssertEqual(HEVC.seiPayloadTypes([0x50, 0x01, 0x89, 0x00, 0x80]), [], "a suffix SEI is not read")
        XCTAssertEqual(HEVC.seiPayloadTypes(EncoderUnits.hevcPicture), [])
    }

    func testRenumberingRewritesAnEncodersIDsKeepsItsSliceAlignedAndComesBack() throws {
        let units = [EncoderUnits.hevcVideo, EncoderUnits.hevcSequence, EncoderUnits.hevcPicture, EncoderUnits.hevcSlice]
        let renumbering = HEVCRenumbering(videoSet: (0, 3), sequenceSet: (0, 5), pictureSet: (0, 17))
        let renumbered = try units.map { try XCTUnwrap(renumbering.apply($0)) }
        XCTAssertEqual(renumbered.prefix(3).map(HEVC.parameterSetID), [3, 5, 17])
        // The slice: first_slice_segment_in_pic_flag, no_output_of_prior_pics_flag, then its PPS id, now 17 (9 bits, not 1).
        let slice = renumbered[3]
        var reader = BitReader(EmulationPrevention.removed(slice.dropFirst(2)))
        XCTAssertTrue(reader.skip(2))
        XCTAssertEqual(reader.unsignedExpGolomb(), 17)
        XCTAssertEqual(slice.count, EncoderUnits.hevcSlice.count + 1, "one byte longer: the slice data moved whole bytes")
        XCTAssertEqual(Array(slice.suffix(5)), Array(EncoderUnits.hevcSlice.suffix(5)), "the slice data itself unchanged")
        let back = HEVCRenumbering(videoSet: (3, 0), sequenceSet: (5, 0), pictureSet: (17, 0))
        XCTAssertEqual(try renumbered.map { try XCTUnwrap(back.apply($0)) }, units, "back again gives the encoder's own bytes")
        XCTAssertNil(back.apply(EncoderUnits.hevcVideo), "a VPS with another id is not the encoder's")
        let sei: [UInt8] = [0x4E, 0x01, 0x05, 0x01, 0xAA, 0x80]
        XCTAssertEqual(renumbering.apply(sei), sei, "other units pass unchanged")
        XCTAssertEqual(HEVCRenumbering.pictureSetIDs(replacing: 0), [0] + Array(15...30), "codes 1 or 9 bits long")
        XCTAssertEqual(HEVCRenumbering.pictureSetIDs(replacing: 1), [1, 2] + Array(31...62), "codes 3 or 11 bits long")
    }
}
