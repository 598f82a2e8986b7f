import Foundation
internal import SegueMedia
import SegueModel

/// A WebVTT file read as browsers read it: the W3C WebVTT parser algorithm
/// (https://www.w3.org/TR/webvtt1/, "WebVTT file parsing"), not libavformat's
/// demuxer, which returns no cue from a file with a STYLE or REGION block.
/// The file is walked as UTF-8 bytes: every character the syntax names is
/// ASCII, and UTF-8 never uses an ASCII byte inside another character.
enum WebVTT {
    /// A cue as the parser collects it: times in milliseconds, its text still marked up.
    struct ParsedCue: Equatable {
        var identifier: String
        var start: Int
        var end: Int
        /// The cue settings after the times (`align:start line:0`): read by no one, as placement isn't kept.
        var settings: String
        var text: String
    }

    /// More cues than this in one file is damage, not subtitles (a feature film has about 2000).
    static let maxCues = 100_000

    /// The cues of a WebVTT file, in file order. Throws `BadInputReason.notWebVTT`
    /// when it doesn't begin with `WEBVTT` as the specification requires, and
    /// `tooManyCues` past `maxCues`.
    static func parse(_ data: Data) throws -> [ParsedCue] {
        var parser = Parser(bytes: normalised(data))
        return try parser.parse()
    }

    /// Whether a subtitle file is WebVTT: named `.vtt`, or beginning with `WEBVTT` (after a byte-order mark).
    static func isWebVTT(name: String, start: [UInt8]) -> Bool {
        let signature = Array("WEBVTT".utf8)
        return (name as NSString).pathExtension.lowercased() == "vtt"
            || start.starts(with: signature) || start.starts(with: [0xEF, 0xBB, 0xBF] + signature)
    }

    static let lineFeed: UInt8 = 0x0A

    /// The file's text as the parser reads it: decoded as UTF-8 (a bad byte
    /// becomes U+FFFD, a leading byte-order mark is dropped; a UTF-16 file with
    /// its byte-order mark is read too), NUL replaced by U+FFFD, and CR LF and
    /// CR each made one LF.
    static func normalised(_ data: Data) -> [UInt8] {
        let isUTF16 = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
        var text = isUTF16 ? String(data: data, encoding: .utf16) ?? "" : String(decoding: data, as: UTF8.self)
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var afterCR = false
        for byte in text.utf8 {
            defer { afterCR = byte == 0x0D }
            switch byte {
            case 0x0D: bytes.append(lineFeed)
            case lineFeed where afterCR: continue
            case 0: bytes += [0xEF, 0xBF, 0xBD]
            default: bytes.append(byte)
            }
        }
        return bytes
    }
}

extension WebVTT {
    /// The parser's walk over the whole file.
    struct Parser {
        let bytes: [UInt8]
        var position = 0
        /// Whether a cue has been read yet.
        var seenCue = false
        var cues: [ParsedCue] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The signature line, the header's block, then block after block.
        mutating func parse() throws -> [ParsedCue] {
            let signature = Array("WEBVTT".utf8)
            // "WEBVTT", then nothing, or a space, tab or line break and the rest of the line.
            guard bytes.starts(with: signature), bytes.count == 6 || [0x20, 0x09, lineFeed].contains(bytes[6]) else {
                throw BadInputReason.notWebVTT
            }
            position = 6
            skip { $0 != lineFeed }
            guard position < bytes.count else { return [] }
            position += 1
            guard position < bytes.count else { return [] }
            if bytes[position] != lineFeed {
                _ = collectBlock(inHeader: true)
            } else {
                position += 1
            }
            skip { $0 == lineFeed }
            while position < bytes.count {
                if let cue = collectBlock(inHeader: false) {
                    guard cues.count < maxCues else { throw BadInputReason.tooManyCues(limit: maxCues) }
                    cues.append(cue)
                }
                skip { $0 == lineFeed }
            }
            return cues
        }

        mutating func skip(while test: (UInt8) -> Bool) {
            while position < bytes.count && test(bytes[position]) { position += 1 }
        }
    }
}

extension WebVTT.Parser {
    /// One block: its lines up to a blank line (or a line holding `-->` that
    /// starts the next cue). It is a cue when its first line, or its second
    /// after an identifier, holds timings that parse. STYLE, REGION and NOTE
    /// blocks need no case of their own: holding no `-->` where a cue's timings
    /// go, they give no cue, and their contents are of no use to a text track.
    mutating func collectBlock(inHeader: Bool) -> WebVTT.ParsedCue? {
        var lineCount = 0, previousPosition = position, seenArrow = false
        var buffer: [UInt8] = [], cue: WebVTT.ParsedCue?
        while true {
            let lineStart = position
            skip { $0 != WebVTT.lineFeed }
            let line = bytes[lineStart..<position]
            lineCount += 1
            let seenEndOfFile = position >= bytes.count
            if !seenEndOfFile { position += 1 }
            if WebVTT.containsArrow(line) {
                guard !inHeader && (lineCount == 1 || lineCount == 2 && !seenArrow) else {
                    // The line starts the next block.
                    position = previousPosition
                    break
                }
                seenArrow = true
                previousPosition = position
                if let timing = WebVTT.timings(line) {
                    cue = WebVTT.ParsedCue(identifier: String(decoding: buffer, as: UTF8.self), start: timing.start,
                                           end: timing.end, settings: timing.settings, text: "")
                    buffer = []
                    seenCue = true
                } else {
                    cue = nil
                }
            } else if line.isEmpty {
                break
            } else {
                if !buffer.isEmpty { buffer.append(WebVTT.lineFeed) }
                buffer += line
                previousPosition = position
            }
            if seenEndOfFile { break }
        }
        cue?.text = String(decoding: buffer, as: UTF8.self)
        return cue
    }
}

extension WebVTT {
    static func containsArrow(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while let dash = line[index...].firstIndex(of: 0x2D) {
            if line[dash...].starts(with: [0x2D, 0x2D, 0x3E]) { return true }
            index = dash + 1
        }
        return false
    }

    /// A cue's timings line (`00:01.000 --> 00:02.500 align:start`): its
    /// times in milliseconds and the settings after them; nil when it doesn't
    /// parse. An end at or before the start still parses: such a cue never shows.
    static func timings(_ line: ArraySlice<UInt8>) -> (start: Int, end: Int, settings: String)? {
        var cursor = line.startIndex
        func skipWhitespace() {
            while cursor < line.endIndex && isASCIIWhitespace(line[cursor]) { cursor += 1 }
        }
        skipWhitespace()
        guard let start = timestamp(line, at: &cursor) else { return nil }
        skipWhitespace()
        guard line[cursor...].starts(with: [0x2D, 0x2D, 0x3E]) else { return nil }
        cursor += 3
        skipWhitespace()
        guard let end = timestamp(line, at: &cursor) else { return nil }
        return (start, end, String(decoding: line[cursor...], as: UTF8.self))
    }

    /// Tab, line feed, form feed, carriage return and space.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// A WebVTT timestamp at `cursor` in milliseconds, `cursor` moved past it:
    /// `[hours:]mm:ss.ttt`, hours of any number of digits (any but two, or two
    /// over 59, mean hours), minutes and seconds of two under 60, thousandths of three.
    static func timestamp<Bytes: Collection<UInt8>>(_ bytes: Bytes, at cursor: inout Bytes.Index) -> Int? {
        func digits() -> (value: Int, count: Int)? {
            var value = 0, count = 0
            while cursor < bytes.endIndex, (0x30...0x39).contains(bytes[cursor]) {
                // Hours past a million years are as good as never; the value stops growing there.
                value = min(value * 10 + Int(bytes[cursor] - 0x30), 1 << 40)
                count += 1
                cursor = bytes.index(after: cursor)
            }
            return count > 0 ? (value, count) : nil
        }
        func consume(_ byte: UInt8) -> Bool {
            guard cursor < bytes.endIndex, bytes[cursor] == byte else { return false }
            cursor = bytes.index(after: cursor)
            return true
        }
        guard let first = digits() else { return nil }
        let firstIsHours = first.count != 2 || first.value > 59
        guard consume(0x3A), let second = digits(), second.count == 2 else { return nil }
        var hours = 0, minutes = first.value, seconds = second.value
        if firstIsHours || cursor < bytes.endIndex && bytes[cursor] == 0x3A {
            guard consume(0x3A), let third = digits(), third.count == 2 else { return nil }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
        }
        guard consume(0x2E), let thousandths = digits(), thousandths.count == 3 else { return nil }
        guard minutes <= 59, seconds <= 59 else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + thousandths.value
    }
}

extension WebVTT {
    /// The cues of a WebVTT file as a text track shows them, on the file's
    /// clock, by start: their text as a browser shows it, with its styles; an
    /// ASS event of the same (for burn-in). Cues that never show (an end at
    /// or before the start) or show nothing (no text) are left out.
    static func cues(_ data: Data) throws -> [Cue] {
        let cues = try parse(data).compactMap { parsed -> Cue? in
            guard parsed.end > parsed.start else { return nil }
            let (text, styles) = WebVTTCueText.styled(parsed.text)
            guard !text.isEmpty else { return nil }
            return Cue(start: Double(parsed.start) / 1000, end: Double(parsed.end) / 1000, text: text,
                       event: "0,Default,,0,0,0,," + StyledText.assText(text, styles: styles), styles: styles)
        }
        return cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }
}
