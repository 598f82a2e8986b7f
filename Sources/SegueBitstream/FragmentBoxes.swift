/// The boxes of a fragmented MP4 (ISO/IEC 14496-12) that say where a CMAF
/// segment sits on its track's time line: `tfdt` (the decode time of the
/// fragment's first sample), `sidx` (its earliest presentation time) and
/// `mfhd` (the fragment's sequence number). A segment rendered on its own
/// starts its time line at 0; moved by these, it takes its place in the whole.
package enum FragmentBoxes {
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The containers walked into: a box of another type is left as it is.
    private static let containers: Set<String> = ["moov", "trak", "mdia", "moof", "traf"]

    /// The timescale of the (first) track an init segment describes: its `mdhd`'s.
    package static func timescale(ofInit bytes: [UInt8]) -> Int? {
        guard let mdhd = find("mdhd", in: bytes, 0..<bytes.count) else { return nil }
        // version, flags; then creation and modification times (4 or 8 bytes each), then the timescale.
        let at = mdhd.lowerBound + 8 + 4 + (bytes[mdhd.lowerBound + 8] == 1 ? 16 : 8)
        guard at + 4 <= mdhd.upperBound else { return nil }
        return Int(read(bytes, at: at, size: 4))
    }

    /// An init segment's sample description (`stsd`, whole): two segments' samples decode
    /// alike only when these are equal.
    package static func sampleDescription(ofInit bytes: [UInt8]) -> [UInt8]? {
        find("stsd", in: bytes, 0..<bytes.count).map { Array(bytes[$0]) }
    }

    /// The codec configuration record in an init segment's sample description: `avcC` or `hvcC`
    /// and its body (the record itself).
    package static func codecConfiguration(ofInit bytes: [UInt8]) -> (type: String, record: [UInt8])? {
        guard let stsd = find("stsd", in: bytes, 0..<bytes.count) else { return nil }
        // Inside the sample entry, after its fixed fields: found by its type, checked by its size.
        for at in stsd.lowerBound..<(stsd.upperBound - 8) {
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            guard type == "avcC" || type == "hvcC" else { continue }
            let size = Int(read(bytes, at: at, size: 4))
            guard size >= 8, at + size <= stsd.upperBound else { continue }
            return (type, Array(bytes[(at + 8)..<(at + size)]))
        }
        return nil
    }

    /// The decode time of a media segment's first fragment (its first `tfdt`).
    package static func baseDecodeTime(of bytes: [UInt8]) -> UInt64? {
        guard let tfdt = find("tfdt", in: bytes, 0..<bytes.count) else { return nil }
        let wide = bytes[tfdt.lowerBound + 8] == 1
        return read(bytes, at: tfdt.lowerBound + 12, size: wide ? 8 : 4)
    }

    /// Where the leading top-level boxes of `types` in `bytes` end (an init segment's `ftyp` and `moov`
    /// before a fragment); nil when `bytes` doesn't start with one.
    package static func topLevelEnd(of types: Set<String>, in bytes: [UInt8]) -> Int? {
        var at = 0
        while at + 8 <= bytes.count, let box = box(in: bytes, at: at, end: bytes.count), types.contains(box.type) {
            at = box.range.upperBound
        }
        return at > 0 ? at : nil
    }

    /// `bytes` (a media segment) with every decode and presentation time moved
    /// `ticks` later, and its fragments numbered on from `sequence`.
    package static func shifted(_ bytes: [UInt8], by ticks: UInt64, sequence: UInt32) throws -> [UInt8] {
        var out = bytes
        var next = sequence
        try walk(&out, 0..<out.count, ticks: ticks, sequence: &next)
        return out
    }

    private static func walk(_ bytes: inout [UInt8], _ range: Range<Int>, ticks: UInt64, sequence: inout UInt32) throws {
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            guard let box = box(in: bytes, at: at, end: range.upperBound) else {
                throw Problem(description: "a box at byte \(at) runs past its container")
            }
            let body = box.range.lowerBound + box.header
            switch box.type {
            case let type where containers.contains(type):
                try walk(&bytes, body..<box.range.upperBound, ticks: ticks, sequence: &sequence)
            case "tfdt":
                try add(ticks, in: &bytes, at: body + 4, wide: bytes[body] == 1, box: "tfdt")
            case "sidx":
                // version, flags, reference id, timescale; then the earliest presentation time.
                try add(ticks, in: &bytes, at: body + 12, wide: bytes[body] == 1, box: "sidx")
            case "mfhd":
                write(UInt64(sequence), into: &bytes, at: body + 4, size: 4)
                sequence &+= 1
            default:
                break
            }
            at = box.range.upperBound
        }
    }

    private static func add(_ ticks: UInt64, in bytes: inout [UInt8], at: Int, wide: Bool, box: String) throws {
        let size = wide ? 8 : 4
        guard at + size <= bytes.count else { throw Problem(description: "a \(box) box is cut short") }
        let (sum, overflow) = read(bytes, at: at, size: size).addingReportingOverflow(ticks)
        guard !overflow, wide || sum <= UInt64(UInt32.max) else {
            throw Problem(description: "a \(box) time moved \(ticks) ticks no longer fits its box")
        }
        write(sum, into: &bytes, at: at, size: size)
    }

    private struct Box {
        var type: String
        var range: Range<Int>
        var header: Int
    }

    private static func box(in bytes: [UInt8], at: Int, end: Int) -> Box? {
        var size = Int(read(bytes, at: at, size: 4)), header = 8
        if size == 1 {
            guard at + 16 <= end else { return nil }
            size = Int(clamping: read(bytes, at: at + 8, size: 8))
            header = 16
        } else if size == 0 {
            size = end - at
        }
        guard size >= header, at + size <= end else { return nil }
        let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
        return Box(type: type, range: at..<(at + size), header: header)
    }

    /// The whole first box of `type` inside `range`, looking into containers.
    private static func find(_ type: String, in bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var at = range.lowerBound
        while at + 8 <= range.upperBound, let box = box(in: bytes, at: at, end: range.upperBound) {
            if box.type == type { return box.range }
            if containers.contains(box.type) || box.type == "minf" || box.type == "stbl",
               let found = find(type, in: bytes, (box.range.lowerBound + box.header)..<box.range.upperBound) {
                return found
            }
            at = box.range.upperBound
        }
        return nil
    }

    private static func read(_ bytes: [UInt8], at: Int, size: Int) -> UInt64 {
        bytes[at..<(at + size)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func write(_ value: UInt64, into bytes: inout [UInt8], at: Int, size: Int) {
        for index in 0..<size { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - index))) }
    }
}
