import XCTest
@testable import SegueBitstream

/// Reading and writing bits, exp-Golomb codes and emulation prevention, as
/// H.264 and HEVC define them (H.264 7.2 and 9.1, HEVC 7.4.2): the table's
/// codes, what the writer writes the reader reads, and no start code inside a
/// payload.
final class BitsTests: XCTestCase {
    /// Bytes from a string of 0s and 1s, padded with 0s to whole bytes.
    func packed(_ bits: String) -> [UInt8] {
        var writer = BitWriter()
        for bit in bits { writer.write(bit == "1" ? 1 : 0, bits: 1) }
        return writer.bytes
    }

    func testExpGolombCodesReadAsTheSpecificationsTableGivesThem() {
        // H.264 table 9-2: 1 is 0, 010 is 1, 011 is 2, 00100 is 3, 00111 is 6, 0001000 is 7, 000011111 is 30.
        var reader = BitReader(packed("1" + "010" + "011" + "00100" + "00111" + "0001000" + "000011111" + "1"))
        XCTAssertEqual((0..<7).map { _ in reader.unsignedExpGolomb() }, [0, 1, 2, 3, 6, 7, 30])
        XCTAssertEqual(reader.position, 33)
        XCTAssertEqual(reader.bits(3), 0b100, "the stray 1, then the padding")
        XCTAssertNil(reader.unsignedExpGolomb(), "past the end")
        var long = BitReader([0, 0, 0, 0, 0xFF])
        XCTAssertNil(long.unsignedExpGolomb(), "over 31 leading zeros is no code")
        var cut = BitReader([0b0000_0001])
        XCTAssertNil(cut.unsignedExpGolomb(), "a code whose 7 bits of suffix are cut off")
    }

    func testTheReaderTakesBitsMostSignificantFirstAndSaysWhenTheyRunOut() {
        var reader = BitReader([0b1011_0010, 0xFF])
        XCTAssertEqual(reader.bit(), 1)
        XCTAssertEqual(reader.bits(3), 0b011)
        XCTAssertEqual(reader.bits(8), 0b0010_1111)
        XCTAssertTrue(reader.skip(4))
        XCTAssertNil(reader.bit())
        XCTAssertFalse(reader.skip(1), "nothing left to skip")
        var empty = BitReader([])
        XCTAssertEqual(empty.bits(0), 0)
        XCTAssertNil(empty.bits(1))
    }

    func testWhatTheWriterWritesTheReaderReads() {
        let values = Array(0...300) + [1023, 65_535, 1 << 20, (1 << 31) - 2]
        var writer = BitWriter()
        for (index, value) in values.enumerated() {
            writer.writeExpGolomb(value)
            writer.write(index & 0x1F, bits: 5)
        }
        XCTAssertEqual(writer.position, values.reduce(0) { $0 + BitWriter.expGolombLength($1) + 5 })
        var reader = BitReader(writer.bytes)
        for (index, value) in values.enumerated() {
            XCTAssertEqual(reader.unsignedExpGolomb(), value)
            XCTAssertEqual(reader.bits(5), index & 0x1F)
        }
        XCTAssertEqual([0, 1, 2, 3, 6, 7, 254, 255].map(BitWriter.expGolombLength), [1, 3, 3, 5, 5, 7, 15, 17])
    }

    func testTheWriterCopiesBitsAndAlignsWithZeros() {
        var writer = BitWriter()
        writer.write(0b101, bits: 3)
        XCTAssertEqual(writer.bytes, [0b1010_0000])
        var reader = BitReader([0b1100_1100, 0b1111_0000])
        writer.copy(from: &reader, bits: 9)
        XCTAssertEqual(writer.position, 12)
        XCTAssertEqual(writer.bytes, [0b1011_1001, 0b1001_0000])
        writer.alignWithZeros()
        XCTAssertEqual(writer.position, 16)
        writer.write(1, bits: 1)
        XCTAssertEqual(writer.bytes, [0b1011_1001, 0b1001_0000, 0b1000_0000], "the next bit starts a new byte")
    }

    func testEmulationPreventionGoesBeforeAnyByteUpTo3AfterTwoZerosAndComesOutAgain() {
        XCTAssertEqual(EmulationPrevention.added([0, 0, 0, 1]), [0, 0, 3, 0, 1])
        XCTAssertEqual(EmulationPrevention.added([0, 0, 1]), [0, 0, 3, 1])
        XCTAssertEqual(EmulationPrevention.added([0, 0, 2]), [0, 0, 3, 2])
        XCTAssertEqual(EmulationPrevention.added([0, 0, 3]), [0, 0, 3, 3], "a 3 of the payload is protected too")
        XCTAssertEqual(EmulationPrevention.added([0, 0, 4, 0, 0]), [0, 0, 4, 0, 0, 3], "a final zero gets a 3 after it")
        XCTAssertEqual(EmulationPrevention.added([0, 0, 0, 0, 0, 0x80]), [0, 0, 3, 0, 0, 3, 0, 0x80], "counting starts again after a 3")
        XCTAssertEqual(EmulationPrevention.removed([0, 0, 3, 0, 0, 3, 0, 0x80][...]), [0, 0, 0, 0, 0, 0x80])
        XCTAssertEqual(EmulationPrevention.removed([0, 0, 3, 3][...]), [0, 0, 3], "only the first 3 after two zeros goes")
        XCTAssertEqual(EmulationPrevention.removed([0, 3, 0, 3][...]), [0, 3, 0, 3], "a 3 after one zero is data")
    }

    func testAnyPayloadEndingInAStopBitSurvivesTheRoundTripWithNoStartCodeInside() {
        // Payloads of mostly zeros, as slices of flat pictures are, from a fixed seed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<500 {
            var payload = (0..<Int(next() % 64)).map { _ in next() % 3 == 0 ? UInt8(truncatingIfNeeded: next() % 5) : 0 }
            payload.append(0x80) // rbsp_stop_one_bit and its alignment
            let escaped = EmulationPrevention.added(payload)
            XCTAssertEqual(EmulationPrevention.removed(escaped[...]), payload, "\(payload)")
            for at in 0..<max(escaped.count - 2, 0) where escaped[at] == 0 && escaped[at + 1] == 0 {
                XCTAssertGreaterThan(escaped[at + 2], 2, "a start code (00 00 0\(escaped[at + 2])) inside \(escaped)")
            }
        }
    }
}
