/// What a HEIF file says of its primary image before libheif reads it: its
/// item type and how many images it is built from (a grid's tiles, an
/// overlay's layers). Read from the boxes in pure Swift, bounds-checked at
/// every step, so a file that claims thousands of tiles is refused before a
/// single tile is decoded (libheif 1.15 would decode each one).
package struct HEIFLayout: Equatable, Sendable {
    /// The primary item's type: "hvc1" (one coded picture), "grid", "iovl", "av01"…
    package var primaryType: String
    /// The images the primary is assembled from (its `dimg` references); 0 for one coded picture.
    package var tileCount: Int

    /// The brands (`ftyp` major brand) of HEIF photos: HEVC-coded (iPhone, Android) and generic.
    package static let brands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Whether the bytes begin as a HEIF photo does: an `ftyp` box with a HEIF brand.
    package static func isHEIF(_ head: [UInt8]) -> Bool {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return false }
        return brands.contains(String(decoding: head[8..<12], as: UTF8.self))
    }

    /// The primary image's layout, or nil when the boxes don't say (no `meta`,
    /// no `pitm`, cut short): libheif then judges the file.
    package static func read(_ bytes: [UInt8]) -> HEIFLayout? {
        guard let meta = boxes(in: bytes, from: 0, to: bytes.count).first(where: { $0.type == "meta" }) else { return nil }
        let children = boxes(in: bytes, from: meta.body + 4, to: meta.end) // meta is a full box
        guard let pitm = children.first(where: { $0.type == "pitm" }),
              let version = byte(bytes, pitm.body),
              let primary = number(bytes, pitm.body + 4, version == 0 ? 2 : 4) else { return nil }
        let type = children.first { $0.type == "iinf" }.flatMap { itemType(bytes, iinf: $0, item: primary) } ?? ""
        let tiles = children.first { $0.type == "iref" }.map { references(bytes, iref: $0, from: primary) } ?? 0
        return HEIFLayout(primaryType: type, tileCount: tiles)
    }

    struct Box {
        var type: String
        /// Where the box's contents start (after its size and type).
        var body: Int
        var end: Int
    }

    /// The boxes laid end to end between `start` and `end`; stops at the first one that doesn't fit.
    static func boxes(in bytes: [UInt8], from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset + 8 <= end, found.count < 10_000 {
            guard let size32 = number(bytes, offset, 4) else { break }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            var body = offset + 8
            var size = size32
            if size32 == 1 { // a 64-bit size follows the type
                guard let large = number(bytes, offset + 8, 8) else { break }
                size = large
                body += 8
            } else if size32 == 0 { // to the end
                size = end - offset
            }
            guard size >= body - offset, size <= end - offset else { break }
            found.append(Box(type: type, body: body, end: offset + size))
            offset += size
        }
        return found
    }

    /// The item type `infe` gives `item` (versions 2 and 3 name it), or nil.
    private static func itemType(_ bytes: [UInt8], iinf: Box, item: Int) -> String? {
        guard let version = byte(bytes, iinf.body) else { return nil }
        let entries = boxes(in: bytes, from: iinf.body + 4 + (version == 0 ? 2 : 4), to: iinf.end)
        for infe in entries where infe.type == "infe" {
            guard let infeVersion = byte(bytes, infe.body), infeVersion >= 2 else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            guard number(bytes, infe.body + 4, idSize) == item else { continue }
            let at = infe.body + 4 + idSize + 2 // the protection index, then the type
            guard at + 4 <= infe.end else { return nil }
            return String(decoding: bytes[at..<at + 4], as: UTF8.self)
        }
        return nil
    }

    /// How many images `item` is derived from: its `dimg` reference counts, summed.
    private static func references(_ bytes: [UInt8], iref: Box, from item: Int) -> Int {
        guard let version = byte(bytes, iref.body) else { return 0 }
        let idSize = version == 0 ? 2 : 4
        var count = 0
        for reference in boxes(in: bytes, from: iref.body + 4, to: iref.end) where reference.type == "dimg" {
            guard number(bytes, reference.body, idSize) == item,
                  let references = number(bytes, reference.body + idSize, 2) else { continue }
            count += references
        }
        return count
    }

    private static func byte(_ bytes: [UInt8], _ at: Int) -> UInt8? {
        at >= 0 && at < bytes.count ? bytes[at] : nil
    }

    /// A big-endian unsigned number of `count` bytes at `at`, or nil past the end (or past Int's range).
    private static func number(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, count <= bytes.count, at <= bytes.count - count else { return nil }
        let value = bytes[at..<at + count].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value <= UInt64(Int.max / 2) ? Int(value) : nil
    }
}
