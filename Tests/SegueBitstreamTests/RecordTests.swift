import XCTest
@testable import SegueBitstream

/// The decoder configuration records (ISO/IEC 14496-15 `avcC`, `hvcC`) read
/// from an encoder's Annex B header or a file's record, written as an MP4
/// muxer stores them, and read back the same; bytes that are no record read as
/// none, and sets too big for a record's fields say so instead of trapping.
final class RecordTests: XCTestCase {
    let avcUnits = [EncoderUnits.h264Sequence, EncoderUnits.h264Picture]
    let hevcUnits = [EncoderUnits.hevcVideo, EncoderUnits.hevcSequence, EncoderUnits.hevcPicture]

    func testAnAVCRecordFromAnAnnexBHeaderIsWrittenAsAvcCAndReadsBackTheSame() throws {
        let record = try XCTUnwrap(AVCRecord(EncoderUnits.annexB(avcUnits)))
        XCTAssertEqual([record.profile, record.compatibility, record.level], [66, 0xC0, 10], "from the SPS's first bytes")
        XCTAssertEqual(record.lengthSize, 4)
        XCTAssertEqual(record.sequenceParameterSets, [EncoderUnits.h264Sequence])
        XCTAssertEqual(record.pictureParameterSets, [EncoderUnits.h264Picture])
        // Version 1, profile, compatibility, level, 6 reserved bits and lengthSize - 1, 3 reserved bits and one SPS,
        // its 16-bit length and bytes, one PPS the same way; Baseline has no chroma tail.
        XCTAssertEqual(record.bytes, [1, 66, 0xC0, 10, 0xFF, 0xE1, 0, 23] + EncoderUnits.h264Sequence
                       + [1, 0, 5] + EncoderUnits.h264Picture)
        XCTAssertEqual(AVCRecord(record.bytes), record)
    }

    func testAHighProfileRecordKeepsItsChromaFormatBitDepthsAndLengthSize() throws {
        var record = AVCRecord(profile: 100, compatibility: 0, level: 40, sequenceParameterSets: [EncoderUnits.h264Sequence],
                               pictureParameterSets: [EncoderUnits.h264Picture, [0x68, 0xCE, 0x3C, 0x80]])
        record.chromaFormat = 2
        record.lumaBitDepth = 10
        record.chromaBitDepth = 9
        record.lengthSize = 2
        let bytes = record.bytes
        XCTAssertEqual(bytes[4], 0xFD, "lengthSize 2 is stored as 1")
        XCTAssertEqual(Array(bytes.suffix(4)), [0xFE, 0xFA, 0xF9, 0], "4:2:2, 10-bit luma, 9-bit chroma, no SPS extensions")
        let read = try XCTUnwrap(AVCRecord(bytes))
        XCTAssertEqual(read, record)
        XCTAssertEqual(read.pictureParameterSets.count, 2)
    }

    func testAnHEVCRecordFromAnAnnexBHeaderTakesItsProfileFromTheSPSAndRoundTrips() throws {
        let record = try XCTUnwrap(HEVCRecord(EncoderUnits.annexB(hevcUnits)))
        XCTAssertEqual(record.units, hevcUnits)
        // The SPS's profile_tier_level with its emulation-prevention bytes taken out: Main, level 1.0 (30).
        XCTAssertEqual(Array(record.header[1...12]), [0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0x1E])
        XCTAssertEqual(record.level, 30)
        XCTAssertEqual(record.chromaFormat, 1)
        XCTAssertEqual(record.lumaBitDepth, 8)
        XCTAssertEqual(record.lengthSize, 4)
        XCTAssertEqual(HEVCRecord(record.bytes), record)
    }

    func testAnHVCCWritesOneArrayPerTypeParameterSetsFirstAndMarksThemComplete() throws {
        let sei: [UInt8] = [0x4E, 0x01, 0x05, 0x01, 0xAA, 0x80]
        let header = try XCTUnwrap(HEVCRecord(EncoderUnits.annexB(hevcUnits))).header
        let record = HEVCRecord(header: header,
                                units: [EncoderUnits.hevcPicture, sei, EncoderUnits.hevcVideo, EncoderUnits.hevcSequence])
        let bytes = record.bytes
        XCTAssertEqual(bytes[21] & 3, 3, "4-byte lengths")
        XCTAssertEqual(bytes[22], 4, "four arrays")
        XCTAssertEqual(Array(bytes[23..<28]), [0x80 | 32, 0, 1, 0, UInt8(EncoderUnits.hevcVideo.count)], "the VPS array first, complete")
        XCTAssertEqual(HEVCRecord(bytes)?.units, [EncoderUnits.hevcVideo, EncoderUnits.hevcSequence, EncoderUnits.hevcPicture, sei])
        XCTAssertEqual(record.bytes(complete: false)[23], 32, "in-band sets: not complete")
    }

    func testBytesThatAreNoRecordReadAsNone() {
        let avc = AVCRecord(EncoderUnits.annexB(avcUnits))!.bytes
        for length in 0..<avc.count {
            XCTAssertNil(AVCRecord(Array(avc.prefix(length))), "avcC cut to \(length) bytes")
        }
        let hevc = HEVCRecord(EncoderUnits.annexB(hevcUnits))!.bytes
        for length in 0..<hevc.count {
            XCTAssertNil(HEVCRecord(Array(hevc.prefix(length))), "hvcC cut to \(length) bytes")
        }
        XCTAssertNil(AVCRecord(EncoderUnits.annexB([EncoderUnits.h264Sequence])), "an SPS without a PPS")
        XCTAssertNil(AVCRecord(EncoderUnits.annexB([EncoderUnits.h264Picture])), "a PPS without an SPS")
        XCTAssertNil(HEVCRecord(EncoderUnits.annexB([EncoderUnits.hevcVideo, EncoderUnits.hevcPicture])), "no SPS")
        XCTAssertNil(AVCRecord([0x47, 0x40, 0x11, 0x10]), "a transport stream packet")
    }

    func testARecordWhoseParameterSetsDontFitSaysSoAndWritesWithoutTrapping() {
        let huge = [UInt8(0x67)] + [UInt8](repeating: 0xAA, count: 70_000)
        let picture = [UInt8(0x68), 0xCE, 0x3C, 0x80]
        var record = AVCRecord(profile: 100, compatibility: 0, level: 40, sequenceParameterSets: [huge],
                               pictureParameterSets: [picture])
        XCTAssertFalse(record.isWritable)
        XCTAssertGreaterThan(record.bytes.count, 0xFFFF, "written cut to its field, not trapped on")
        record.sequenceParameterSets = [Array(huge.prefix(20))]
        XCTAssertTrue(record.isWritable)
        record.pictureParameterSets = Array(repeating: picture, count: 300)
        XCTAssertFalse(record.isWritable, "300 PPS don't fit the count's 8 bits")
        let hevc = HEVCRecord(header: [UInt8](repeating: 0, count: 22), units: [[0x40, 0x01] + [UInt8](repeating: 1, count: 70_000)])
        XCTAssertFalse(hevc.isWritable)
        XCTAssertGreaterThan(hevc.bytes.count, 22)
    }

    func testTheCodecsParameterIsTheRecordsProfileTierAndLevelAsRFC6381WritesThem() {
        var header = [UInt8](repeating: 0, count: 22)
        header[0] = 1
        header[1] = 0x02 // profile space 0, main tier, Main 10
        header[2] = 0x20 // compatible with profile 2 (flag 2, the third bit)
        header[6] = 0xB0 // progressive, non-packed, frame only
        header[12] = 120
        XCTAssertEqual(HEVCRecord(header: header, units: []).codecs, "hvc1.2.4.L120.B0")
        header[1] = 0x21 // high tier, Main
        header[2] = 0x60 // compatible with 1 and 2
        header[7] = 0x01
        header[12] = 153
        XCTAssertEqual(HEVCRecord(header: header, units: []).codecs, "hvc1.1.6.H153.B0.1")
    }
}
