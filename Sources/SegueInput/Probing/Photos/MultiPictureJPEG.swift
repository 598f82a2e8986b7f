import SegueModel

/// A JPEG that carries more than its own picture: an Ultra HDR photo (Android
/// 14+: a gain-map JPEG appended, indexed by an MPF APP2 segment), an MPO
/// (stereo or multi-view, MPF too) or a Motion Photo (an MP4 appended, named in
/// its XMP). libavformat reads the appended pictures as frames of a video; such
/// a file is a photo of its first (primary) picture. Read from the first
/// picture's header segments only, bounds-checked at every step.
package struct MultiPictureJPEG: Equatable, Sendable {
    /// The pictures the MPF index lists (the primary first), as offsets from the
    /// file's start and sizes; empty without an index.
    package var pictures: [(offset: Int, size: Int)]
    /// Whether its XMP names an appended video (Google's `MotionPhoto` or `MicroVideo`).
    package var isMotionPhoto: Bool

    /// The most pictures an index may list: phones write 2 (a gain map), MPO cameras a few views.
    package static let maxPictures = 64

    package static func == (a: MultiPictureJPEG, b: MultiPictureJPEG) -> Bool {
        a.isMotionPhoto == b.isMotionPhoto && a.pictures.elementsEqual(b.pictures) { $0 == $1 }
    }

    /// The JPEG's extra pictures as its header states them, nil for a JPEG
    /// with none (or anything not a JPEG). A broken index (pictures past the
    /// file's end, too many, cut short) is a reason to refuse the file.
    package static func read(_ head: [UInt8], fileSize: Int) throws -> MultiPictureJPEG? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        var found = MultiPictureJPEG(pictures: [], isMotionPhoto: false)
        var offset = 2
        while offset + 4 <= head.count {
            guard head[offset] == 0xFF else { break }
            let marker = head[offset + 1]
            if marker == 0xFF { offset += 1; continue } // fill byte
            if marker == 0xDA || marker == 0xD9 { break } // the picture's data: no more header segments
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = Int(head[offset + 2]) << 8 | Int(head[offset + 3])
            guard length >= 2 else { break }
            let body = offset + 4, end = min(offset + 2 + length, head.count)
            if marker == 0xE2, end - body >= 4, head[body..<body + 4].elementsEqual([0x4D, 0x50, 0x46, 0x00]) { // "MPF\0"
                found.pictures = try index(head, tiff: body + 4, end: end, fileSize: fileSize)
            } else if marker == 0xE1, contains(head[body..<end], "MotionPhoto") || contains(head[body..<end], "MicroVideo") {
                found.isMotionPhoto = true
            }
            offset += 2 + length
        }
        return found.pictures.count > 1 || found.isMotionPhoto ? found : nil
    }

    /// The MP entries of an MPF segment whose TIFF header starts at `tiff`.
    private static func index(_ bytes: [UInt8], tiff: Int, end: Int, fileSize: Int) throws -> [(offset: Int, size: Int)] {
        func broken(_ why: String) -> BadInputReason {
            .unreadablePhoto("its multi-picture index (MPF) \(why) (a damaged or hostile JPEG)")
        }
        guard tiff + 8 <= end else { throw broken("is cut short") }
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw broken("has no byte order")
        }
        func number(_ at: Int, _ count: Int) throws -> Int {
            guard at >= tiff, at + count <= end else { throw broken("points outside its segment") }
            let field = bytes[at..<at + count]
            return (little ? Array(field.reversed()) : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        let directory = tiff + (try number(tiff + 4, 4))
        let entries = try number(directory, 2)
        var list: (at: Int, bytes: Int)?
        for entry in 0..<entries {
            let field = directory + 2 + entry * 12
            guard try number(field, 2) == 0xB002 else { continue } // MPEntry
            let bytes = try number(field + 4, 4)
            list = (bytes <= 4 ? field + 8 : tiff + (try number(field + 8, 4)), bytes)
        }
        guard let list else { return [] }
        let count = list.bytes / 16
        guard count <= maxPictures else { throw broken("lists \(count) pictures, over the \(maxPictures) a photo may hold") }
        return try (0..<count).map { picture in
            let at = list.at + picture * 16
            let size = try number(at + 4, 4), start = picture == 0 ? 0 : tiff + (try number(at + 8, 4))
            guard start + size <= fileSize else {
                throw broken("puts picture \(picture + 1) at bytes \(start)-\(start + size), past the file's end (\(fileSize) bytes)")
            }
            return (start, size)
        }
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        var at = bytes.startIndex
        while at + needle.count <= bytes.endIndex {
            if bytes[at] == needle[0], bytes[at..<at + needle.count].elementsEqual(needle) { return true }
            at += 1
        }
        return false
    }
}
