import Foundation

/// Reel names for an EDL's media: at most 8 of A–Z, 0–9 and `_`, taken from
/// the file's name (or the reel the timeline read), one per medium and
/// different for different media; never `AX`, `BL`, `BLACK` or `BARS`,
/// which name no reel (`AX` is written only for a clip that names no media).
struct CMX3600Reels {
    static let length = 8
    private var byLocation: [String: String] = [:]
    private var taken: Set<String> = ["AX", "BL", "BLACK", "BARS"]

    /// The reel `media` goes by in this EDL.
    mutating func reel(for media: EditMedia) -> String {
        guard let location = media.location else { return "AX" }
        if let known = byLocation[location] { return known }
        let file = EditTimeline.decodedLocation(location).split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let base = Self.sanitized(media.reel ?? (file as NSString).deletingPathExtension)
        var reel = String(base.prefix(Self.length)), number = 1
        while taken.contains(reel) {
            number += 1
            let suffix = "_\(number)"
            reel = String(base.prefix(Self.length - suffix.count)) + suffix
        }
        taken.insert(reel)
        byLocation[location] = reel
        return reel
    }

    /// Upper-case letters and digits kept, anything else `_`, no `_` at either end; `CLIP` when nothing is left.
    static func sanitized(_ name: String) -> String {
        let mapped = String(name.uppercased().unicodeScalars.map { scalar -> Character in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
        let trimmed = mapped.drop { $0 == "_" }.reversed().drop { $0 == "_" }.reversed()
        return trimmed.isEmpty ? "CLIP" : String(trimmed)
    }
}

extension String {
    /// On one line, as an EDL comment or title holds text: control characters
    /// (line breaks, tabs) and Unicode line and paragraph separators as spaces.
    var oneLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 ? " " : scalar
        }))
    }
}
