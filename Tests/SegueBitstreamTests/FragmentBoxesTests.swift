import XCTest
@testable import SegueBitstream

/// A CMAF segment rendered on its own, moved to its place in the whole:
/// built box by box as ISO/IEC 14496-12 lays them out, then read back.
final class FragmentBoxesTests: XCTestCase {
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(UInt64(body.count + 8), 4) + Array(type.utf8) + body }
    func be(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) } }

    /// styp, sidx (version 1), moof (mfhd, traf with tfhd and a tfdt of `version`), mdat.
    func segment(decodeTime: UInt64, tfdtVersion: UInt8 = 1, sequence: UInt32 = 1) -> [UInt8] {
        let tfdt = box("tfdt", [tfdtVersion, 0, 0, 0] + be(decodeTime, tfdtVersion == 1 ? 8 : 4))
        let traf = box("traf", box("tfhd", [0, 2, 0, 0] + be(1, 4)) + tfdt)
        let moof = box("moof", box("mfhd", [0, 0, 0, 0] + be(UInt64(sequence), 4)) + traf)
        let sidx = box("sidx", [1, 0, 0, 0] + be(1, 4) + be(15360, 4) + be(decodeTime, 8) + be(0, 8) + [0, 0, 0, 1] + be(100, 4) + be(15360, 4) + be(0x9000_0000, 4))
        return box("styp", Array("msdhmsdhmsix".utf8)) + sidx + moof + box("mdat", [1, 2, 3])
    }

    func testASegmentIsMovedOnAndNumberedAfterTheOnesBefore() throws {
        let moved = try FragmentBoxes.shifted(segment(decodeTime: 512), by: 46_080, sequence: 4)
        XCTAssertEqual(FragmentBoxes.baseDecodeTime(of: moved), 46_592)
        XCTAssertEqual(moved.count, segment(decodeTime: 0).count, "only values change")
        // The sidx's earliest presentation time moves too, and the fragment takes number 4.
        XCTAssertEqual(moved, segment(decodeTime: 46_592, sequence: 4))
        XCTAssertEqual(try FragmentBoxes.shifted(segment(decodeTime: 7, tfdtVersion: 0), by: 3, sequence: 1),
                       segment(decodeTime: 10, tfdtVersion: 0))
    }

    func testWhatDoesntFitOrIsCutShortIsAProblem() {
        XCTAssertThrowsError(try FragmentBoxes.shifted(segment(decodeTime: 1, tfdtVersion: 0), by: UInt64(UInt32.max), sequence: 1),
                             "a 32-bit tfdt can't hold it")
        var cut = segment(decodeTime: 0)
        cut.removeLast(2)
        XCTAssertThrowsError(try FragmentBoxes.shifted(cut, by: 1, sequence: 1), "the mdat runs past the end")
    }

    func testAnInitSegmentSaysItsTimescaleAndItsCodecsRecord() {
        let avcC: [UInt8] = [1, 0x64, 0, 0x1F, 0xFF, 0xE1]
        let entry = box("avc1", [UInt8](repeating: 0, count: 78) + box("avcC", avcC))
        let stbl = box("stbl", box("stsd", [0, 0, 0, 0] + be(1, 4) + entry))
        let mdhd = box("mdhd", [0, 0, 0, 0] + be(0, 4) + be(0, 4) + be(15360, 4) + be(0, 4) + [0x55, 0xC4, 0, 0])
        let initSegment = box("ftyp", Array("isom".utf8) + be(512, 4)) + box("moov", box("trak", box("mdia", mdhd + box("minf", stbl))))
        XCTAssertEqual(FragmentBoxes.timescale(ofInit: initSegment), 15360)
        XCTAssertEqual(FragmentBoxes.codecConfiguration(ofInit: initSegment)?.type, "avcC")
        XCTAssertEqual(FragmentBoxes.codecConfiguration(ofInit: initSegment)?.record, avcC)
        XCTAssertEqual(FragmentBoxes.sampleDescription(ofInit: initSegment)?.count, 16 + entry.count)
        XCTAssertEqual(FragmentBoxes.topLevelEnd(of: ["ftyp", "moov"], in: initSegment + segment(decodeTime: 0)), initSegment.count)
    }
}
