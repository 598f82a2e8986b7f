import SegueModel
internal import SegueMedia
/// The picture size a photo's header declares, read from its first bytes
/// before any decoder sees it: a PNG or JPEG "bomb" declares 65535x65535 in a
/// few kilobytes, and is refused by its header with its size named.
/// Decoders are bounded too (`max_pixels`); this only makes the message exact.
enum PictureHeader {
    /// Width and height of a PNG, JPEG, GIF, BMP or WebP picture, or nil for
    /// anything else (or a header cut short).
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? bmp(bytes) ?? webp(bytes)
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return bytes[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func starts(_ bytes: [UInt8], with signature: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + signature.count && Array(bytes[offset..<(offset + signature.count)]) == signature
    }

    /// PNG: the IHDR chunk comes first.
    private static func png(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard starts(bytes, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), starts(bytes, with: Array("IHDR".utf8), at: 12),
              let width = bigEndian(bytes, 16, 4), let height = bigEndian(bytes, 20, 4) else { return nil }
        return (width, height)
    }

    /// JPEG: the first start-of-frame marker, found by walking the segments
    /// (so an EXIF thumbnail's own markers inside APP1 are skipped).
    private static func jpeg(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard starts(bytes, with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue } // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            guard let length = bigEndian(bytes, offset + 2, 2), length >= 2 else { return nil }
            let startOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if startOfFrame {
                guard let height = bigEndian(bytes, offset + 5, 2), let width = bigEndian(bytes, offset + 7, 2) else { return nil }
                return (width, height)
            }
            if marker == 0xDA || marker == 0xD9 { return nil } // scan data before any frame header
            offset += 2 + length
        }
        return nil
    }

    private static func gif(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard starts(bytes, with: Array("GIF8".utf8)), let width = littleEndian(bytes, 6, 2),
              let height = littleEndian(bytes, 8, 2) else { return nil }
        return (width, height)
    }

    private static func bmp(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard starts(bytes, with: Array("BM".utf8)), let headerSize = littleEndian(bytes, 14, 4), headerSize >= 40,
              let width = littleEndian(bytes, 18, 4), let height = littleEndian(bytes, 22, 4) else { return nil }
        // Heights are signed (negative: stored top-down).
        return (abs(Int(Int32(truncatingIfNeeded: width))), abs(Int(Int32(truncatingIfNeeded: height))))
    }

    private static func webp(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard starts(bytes, with: Array("RIFF".utf8)), starts(bytes, with: Array("WEBP".utf8), at: 8) else { return nil }
        if starts(bytes, with: Array("VP8X".utf8), at: 12),
           let width = littleEndian(bytes, 24, 3), let height = littleEndian(bytes, 27, 3) {
            return (width + 1, height + 1)
        }
        if starts(bytes, with: Array("VP8L".utf8), at: 12), let bits = littleEndian(bytes, 21, 4) {
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        }
        if starts(bytes, with: Array("VP8 ".utf8), at: 12),
           let width = littleEndian(bytes, 26, 2), let height = littleEndian(bytes, 28, 2) {
            return (width & 0x3FFF, height & 0x3FFF)
        }
        return nil
    }
}
