/// Reads bits most significant first.
struct BitReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bit() -> Int? {
        guard position < bytes.count * 8 else { return nil }
        defer { position += 1 }
        return Int(bytes[position / 8] >> (7 - UInt8(position % 8))) & 1
    }

    /// u(n), n up to 32.
    mutating func bits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let bit = bit() else { return nil }
            value = value << 1 | bit
        }
        return value
    }

    mutating func skip(_ count: Int) -> Bool {
        position += count
        return position <= bytes.count * 8
    }

    /// ue(v).
    mutating func unsignedExpGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = bit() else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        var value = 0
        for _ in 0..<zeros {
            guard let bit = bit() else { return nil }
            value = value << 1 | bit
        }
        return (1 << zeros) - 1 + value
    }

    /// se(v): ue(v) codes 1, 2, 3, 4 … as 1, -1, 2, -2 ….
    mutating func signedExpGolomb() -> Int? {
        guard let code = unsignedExpGolomb() else { return nil }
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}

/// The bytes NAL units (H.264 and HEVC alike) insert so a payload never
/// holds a start code: 00 00 03 before any 00-03 after two zeros.
enum EmulationPrevention {
    /// A NAL unit's payload (its RBSP) with emulation-prevention bytes removed.
    static func removed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// A payload with emulation-prevention bytes put back where it needs them.
    static func added(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / 64 + 1)
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte <= 3 { out.append(3); zeros = 0 }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        if out.last == 0 { out.append(3) }
        return out
    }
}

/// Writes bits most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var position = 0

    mutating func write(_ value: Int, bits count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if position % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(position % 8) }
            position += 1
        }
    }

    /// ue(v).
    mutating func writeExpGolomb(_ value: Int) {
        let length = BitWriter.expGolombLength(value)
        write(value + 1, bits: length) // leading zeros come from the width
    }

    static func expGolombLength(_ value: Int) -> Int {
        2 * (Int.bitWidth - 1 - (value + 1).leadingZeroBitCount) + 1
    }

    mutating func copy(from reader: inout BitReader, bits count: Int) {
        for _ in 0..<count { write(reader.bit() ?? 0, bits: 1) }
    }

    mutating func alignWithZeros() { position = bytes.count * 8 }
}

/// SEI messages, alike in H.264 and HEVC after the NAL unit header.
enum SEI {
    /// The messages in an SEI unit's payload (emulation prevention removed): each one's type and payload bytes.
    static func messages(_ payload: [UInt8]) -> [(type: Int, payload: ArraySlice<UInt8>)] {
        var messages: [(type: Int, payload: ArraySlice<UInt8>)] = [], offset = 0
        func number() -> Int? { // ff ff … xx: 255 per ff byte, then the last
            var value = 0
            while offset < payload.count {
                let byte = Int(payload[offset])
                offset += 1
                value += byte
                if byte != 0xFF { return value }
            }
            return nil
        }
        while offset < payload.count, payload[offset] != 0x80 {
            guard let type = number(), let size = number() else { break }
            messages.append((type, payload[offset..<min(payload.count, offset + size)]))
            offset += size
        }
        return messages
    }

    /// The payload types of the messages in an SEI unit's payload.
    static func payloadTypes(_ payload: [UInt8]) -> [Int] { messages(payload).map(\.type) }
}
