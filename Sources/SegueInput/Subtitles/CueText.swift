import Foundation
internal import SegueMedia
import SegueModel

/// The text of an ASS event (what libavcodec's decoders turn SubRip,
/// mov_text and ASS cues into) as the soft track shows it: override blocks
/// read for bold, italic and underline and otherwise removed, `\N` and `\n`
/// line breaks, `\h` a space, `\{` `\}` braces; lines trimmed, empty ones dropped.
enum CueText {
    /// `ass` as text and style runs; `base` is the style its event names
    /// (what `\r` and a tag without a value go back to), `named` every style of
    /// the script, for `\rName`.
    static func styled(_ ass: String, base: TextStyle = [], named: [String: TextStyle] = [:]) -> (text: String, styles: [StyleRun]) {
        var out = StyledText(), style = base
        var scalars = ass.unicodeScalars.makeIterator()
        var block: String.UnicodeScalarView?
        while let scalar = scalars.next() {
            if block != nil {
                if scalar == "}" {
                    style = overridden(style, by: String(block!), base: base, named: named)
                    block = nil
                } else {
                    block!.append(scalar)
                }
                continue
            }
            switch scalar {
            case "{": block = String.UnicodeScalarView()
            case "\\":
                guard let next = scalars.next() else { out.append("\\", style); break }
                switch next {
                case "N", "n": out.append("\n", style)
                case "h": out.append(" ", style)
                case "{", "}": out.append(next, style)
                default:
                    out.append("\\", style)
                    out.append(next, style)
                }
            default: out.append(scalar, style)
            }
        }
        return out.finished(blank: StyledText.isWhitespace, collapsingBlanks: false)
    }

    /// `ass` as plain text.
    static func plain(_ ass: String) -> String {
        styled(ass).text
    }

    /// `style` after an override block's `\b`, `\i`, `\u` and `\r` tags; the
    /// other tags (`\bord2`, `\iclip`, `\pos`) don't change it. `\b1` or a
    /// weight of 700 or more is bold; `\i` and `\u` are on for any value but 0;
    /// a tag without a value goes back to `base`.
    static func overridden(_ style: TextStyle, by block: String, base: TextStyle, named: [String: TextStyle]) -> TextStyle {
        var style = style
        for tag in block.components(separatedBy: "\\").dropFirst() {
            let tag = tag.trimmingCharacters(in: .whitespaces)
            guard let name = tag.first else { continue }
            let argument = tag.dropFirst()
            if name == "r" {
                style = named[String(argument)] ?? base
                continue
            }
            let flag: TextStyle
            switch name {
            case "b": flag = .bold
            case "i": flag = .italic
            case "u": flag = .underline
            default: continue
            }
            guard argument.allSatisfy(\.isASCIIDigit) else { continue }
            let value = argument.isEmpty ? nil : Int(argument.prefix(9))
            let on = value.map { flag == .bold ? $0 == 1 || $0 >= 700 : $0 != 0 } ?? base.contains(flag)
            if on { style.insert(flag) } else { style.remove(flag) }
        }
        return style
    }

    /// The bold, italic and underline columns of an ASS script header's styles, by style name.
    static func styles(inHeader header: String) -> [String: TextStyle] {
        var columns: [String] = [], styles: [String: TextStyle] = [:], inStyles = false
        for line in header.split(whereSeparator: \.isNewline) {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inStyles = line.lowercased().hasSuffix("styles]")
                continue
            }
            guard inStyles, let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased()
            let fields = line[line.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if key == "format" { columns = fields.map { $0.lowercased() } }
            guard key == "style" else { continue }
            let field = { (column: String) in columns.firstIndex(of: column).flatMap { $0 < fields.count ? fields[$0] : nil } }
            guard let name = field("name") else { continue }
            var style: TextStyle = []
            for (flag, column) in [(TextStyle.bold, "bold"), (.italic, "italic"), (.underline, "underline")]
            where (field(column).flatMap { Int($0) } ?? 0) != 0 {
                style.insert(flag)
            }
            styles[name] = style
        }
        return styles
    }

    /// The style an ASS event (`Layer,Style,…`) names, from `named`; else the
    /// script's `Default`; else plain.
    static func style(ofEvent event: String, named: [String: TextStyle]) -> TextStyle {
        let fields = event.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        let name = fields.count > 1 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
        return named[name.hasPrefix("*") ? String(name.dropFirst()) : name] ?? named["Default"] ?? []
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
