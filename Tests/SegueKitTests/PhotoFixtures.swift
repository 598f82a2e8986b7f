import Foundation
import XCTest

/// HEIF files assembled at test time from pictures coded by libheif's own
/// encoder (`heif-enc`, Debian's libheif-examples). heif-enc 1.15 writes one
/// coded picture per image (and a thumbnail with -t), but no grid and no
/// rotation or mirror: those files are assembled here, box by box (ISO/IEC
/// 23008-12), from heif-enc's coded pictures, so every tile is libheif's own.
enum HEIFFixture {
    /// One coded picture taken from a heif-enc file: its hvcC box, its size, its data.
    struct Coded {
        var hvcC: [UInt8]
        var width: Int
        var height: Int
        var data: [UInt8]
    }

    /// One item of an assembled file.
    struct Item {
        var id: Int
        var type: String
        var data: [UInt8]
        /// Whole property boxes (hvcC, ispe, irot, imir), in the order they apply.
        var properties: [[UInt8]]
        var hidden = false
    }

    /// Encodes `png` with heif-enc (extra options, e.g. ["-t", "64"]); fails the test if heif-enc is missing or fails.
    static func encode(_ png: String, to heic: String, options: [String] = []) throws {
        let result = try Tool.run("heif-enc", ["-q", "90"] + options + [png, "-o", heic])
        XCTAssertEqual(result.status, 0, "heif-enc (Scripts/setup installs libheif-examples): \(result.standardError)")
        guard result.status == 0 else { throw FixtureError.tool("heif-enc") }
    }

    /// The primary picture of a heif-enc file.
    static func coded(_ heic: String) throws -> Coded {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: heic)))
        guard let meta = boxes(bytes, 0, bytes.count).first(where: { $0.type == "meta" }) else { throw FixtureError.shape("no meta") }
        let children = boxes(bytes, meta.body + 4, meta.end)
        guard let iprp = children.first(where: { $0.type == "iprp" }),
              let ipco = boxes(bytes, iprp.body, iprp.end).first(where: { $0.type == "ipco" }),
              let iloc = children.first(where: { $0.type == "iloc" }) else { throw FixtureError.shape("no iprp/iloc") }
        let properties = boxes(bytes, ipco.body, ipco.end)
        guard let hvcC = properties.first(where: { $0.type == "hvcC" }),
              let ispe = properties.first(where: { $0.type == "ispe" }) else { throw FixtureError.shape("no hvcC/ispe") }
        // iloc: the primary (item 1, heif-enc's first) as its extents.
        let version = bytes[iloc.body]
        var at = iloc.body + 4
        let offsetSize = Int(bytes[at] >> 4), lengthSize = Int(bytes[at] & 15)
        let baseSize = Int(bytes[at + 1] >> 4), indexSize = version >= 1 ? Int(bytes[at + 1] & 15) : 0
        at += 2
        let itemCount = number(bytes, at, version < 2 ? 2 : 4)
        at += version < 2 ? 2 : 4
        for _ in 0..<itemCount {
            let id = number(bytes, at, version < 2 ? 2 : 4)
            at += version < 2 ? 2 : 4
            if version >= 1 { at += 2 } // construction method
            at += 2 // data reference index
            let base = number(bytes, at, baseSize)
            at += baseSize
            let extents = number(bytes, at, 2)
            at += 2
            var data: [UInt8] = []
            for _ in 0..<extents {
                at += indexSize
                let offset = number(bytes, at, offsetSize), length = number(bytes, at + offsetSize, lengthSize)
                at += offsetSize + lengthSize
                data += bytes[(base + offset)..<(base + offset + length)]
            }
            if id == 1 {
                return Coded(hvcC: Array(bytes[hvcC.start..<hvcC.end]), width: number(bytes, ispe.body + 4, 4),
                             height: number(bytes, ispe.body + 8, 4), data: data)
            }
        }
        throw FixtureError.shape("no item 1")
    }

    /// A HEIF file of `items`, `primary` shown, with `references` (type, from, to).
    static func file(primary: Int, items: [Item], references: [(type: String, from: Int, to: [Int])]) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + be(0, 4) + Array("mif1heicmiaf".utf8))
        let hdlr = fullBox("hdlr", be(0, 4) + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = fullBox("pitm", be(primary, 2))
        let infes = items.flatMap { item in
            fullBox("infe", be(item.id, 2) + be(0, 2) + Array(item.type.utf8) + [0], version: 2, flags: item.hidden ? 1 : 0)
        }
        let iinf = fullBox("iinf", be(items.count, 2) + infes)
        let iref = fullBox("iref", references.flatMap { reference in
            box(reference.type, be(reference.from, 2) + be(reference.to.count, 2) + reference.to.flatMap { be($0, 2) })
        })
        var ipco: [UInt8] = []
        var ipma = be(items.count, 4)
        var index = 0
        for item in items {
            ipma += be(item.id, 2) + [UInt8(item.properties.count)]
            for property in item.properties {
                ipco += property
                index += 1
                ipma += [UInt8(0x80 | index)] // essential, 1-based index
            }
        }
        let iprp = box("iprp", box("ipco", ipco) + fullBox("ipma", ipma))
        // iloc v0: 4-byte offsets and lengths, no base offset; offsets from the file's start.
        func meta(dataStart: Int) -> [UInt8] {
            var iloc = [UInt8(0x44), 0x00] + be(items.count, 2)
            var offset = dataStart
            for item in items {
                iloc += be(item.id, 2) + be(0, 2) + be(1, 2) + be(offset, 4) + be(item.data.count, 4)
                offset += item.data.count
            }
            return fullBox("meta", hdlr + pitm + fullBox("iloc", iloc) + iinf + (references.isEmpty ? [] : iref) + iprp)
        }
        let headerSize = ftyp.count + meta(dataStart: 0).count + 8
        return ftyp + meta(dataStart: headerSize) + box("mdat", items.flatMap(\.data))
    }

    /// The properties of a coded picture: its hvcC and its size.
    static func properties(_ coded: Coded) -> [[UInt8]] {
        [coded.hvcC, ispe(coded.width, coded.height)]
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be(width, 4) + be(height, 4)) }
    /// Rotation counter-clockwise by `quarters` x 90°.
    static func irot(_ quarters: Int) -> [UInt8] { box("irot", [UInt8(quarters & 3)]) }
    /// Mirror about a vertical (0) or horizontal (1) axis.
    static func imir(_ axis: Int) -> [UInt8] { box("imir", [UInt8(axis & 1)]) }
    /// A grid item's data: rows x columns tiles filling width x height.
    static func grid(rows: Int, columns: Int, width: Int, height: Int) -> [UInt8] {
        [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be(width, 2) + be(height, 2)
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(body.count + 8, 4) + Array(type.utf8) + body }
    static func fullBox(_ type: String, _ body: [UInt8], version: UInt8 = 0, flags: Int = 0) -> [UInt8] {
        box(type, [version] + be(flags, 3) + body)
    }
    static func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - $0))) } }

    private struct Box { var type: String; var start: Int; var body: Int; var end: Int }

    private static func boxes(_ bytes: [UInt8], _ start: Int, _ end: Int) -> [Box] {
        var found: [Box] = []
        var at = start
        while at + 8 <= end {
            let size = number(bytes, at, 4)
            guard size >= 8, at + size <= end else { break }
            found.append(Box(type: String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), start: at, body: at + 8, end: at + size))
            at += size
        }
        return found
    }

    private static func number(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }

    enum FixtureError: Error { case tool(String), shape(String) }
}

/// Multi-picture JPEGs as Android 14+ writes Ultra HDR photos: a primary JPEG
/// with an MPF APP2 index right after its SOI, and a second JPEG appended.
enum MultiPictureFixture {
    /// `primary` with an MPF index listing it and `appended`, then `appended`.
    /// `claimedSize` overrides the second picture's size in the index (a hostile file).
    static func ultraHDR(primary: [UInt8], appended: [UInt8], claimedSize: Int? = nil) -> [UInt8] {
        let segmentLength = 2 + 4 + 8 + 2 + 3 * 12 + 4 + 32 // length field, "MPF\0", TIFF header, IFD, entries
        let primaryLength = primary.count + 2 + segmentLength
        let tiff = 2 + 4 + 4 // SOI, marker and length, "MPF\0"
        func be(_ value: Int, _ count: Int) -> [UInt8] { HEIFFixture.be(value, count) }
        var segment = [UInt8(0xFF), 0xE2] + be(segmentLength, 2) + Array("MPF".utf8) + [0]
        segment += Array("MM".utf8) + [0, 0x2A] + be(8, 4) // big-endian TIFF header; the IFD at 8
        segment += be(3, 2)
        segment += be(0xB000, 2) + be(7, 2) + be(4, 4) + Array("0100".utf8) // MPFVersion
        segment += be(0xB001, 2) + be(4, 2) + be(1, 4) + be(2, 4) // NumberOfImages
        segment += be(0xB002, 2) + be(7, 2) + be(32, 4) + be(8 + 2 + 36 + 4, 4) // MPEntry, after the IFD
        segment += be(0, 4) // no next IFD
        segment += be(0x2003_0000, 4) + be(primaryLength, 4) + be(0, 4) + be(0, 4) // primary: baseline, offset 0
        segment += be(0, 4) + be(claimedSize ?? appended.count, 4) + be(primaryLength - tiff, 4) + be(0, 4)
        return Array(primary[0..<2]) + segment + Array(primary[2...]) + appended
    }
}
