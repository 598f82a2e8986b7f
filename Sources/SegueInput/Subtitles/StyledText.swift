import Foundation
internal import SegueMedia
import SegueModel

/// Cue text as a reader builds it: each Unicode scalar with the style it
/// is shown in. `finished` gives the text the soft track shows and its runs.
struct StyledText {
    private var scalars: [Unicode.Scalar] = []
    private var styles: [TextStyle] = []

    mutating func append(_ scalar: Unicode.Scalar, _ style: TextStyle) {
        scalars.append(scalar)
        styles.append(style)
    }

    mutating func append(_ text: String, _ style: TextStyle) {
        for scalar in text.unicodeScalars { append(scalar, style) }
    }

    /// The text, one line per "\n", each line without the `blank` scalars at
    /// its ends and empty lines left out; with `collapsingBlanks`, a run of
    /// blanks inside a line becomes one (as CSS `white-space: pre-line` shows
    /// text). The style runs are the stretches whose style isn't plain.
    func finished(blank: (Unicode.Scalar) -> Bool, collapsingBlanks: Bool) -> (text: String, styles: [StyleRun]) {
        var text = String.UnicodeScalarView(), kept: [TextStyle] = []
        var lineStart = 0
        while lineStart <= scalars.count {
            let lineEnd = scalars[lineStart...].firstIndex(of: "\n") ?? scalars.count
            var from = lineStart, to = lineEnd
            while from < to && blank(scalars[from]) { from += 1 }
            while to > from && blank(scalars[to - 1]) { to -= 1 }
            if from < to {
                if !text.isEmpty {
                    text.append("\n")
                    kept.append([])
                }
                for index in from..<to where !(collapsingBlanks && blank(scalars[index]) && blank(scalars[index - 1])) {
                    text.append(blank(scalars[index]) && collapsingBlanks ? " " : scalars[index])
                    kept.append(styles[index])
                }
            }
            lineStart = lineEnd + 1
        }
        return (String(text), StyledText.runs(kept))
    }

    /// The stretches of `styles` (one per scalar) that aren't plain, each as long as it can be.
    static func runs(_ styles: [TextStyle]) -> [StyleRun] {
        var runs: [StyleRun] = []
        for (index, style) in styles.enumerated() where !style.isEmpty {
            if let last = runs.last, last.end == index, last.style == style {
                runs[runs.count - 1].end = index + 1
            } else {
                runs.append(StyleRun(start: index, end: index + 1, style: style))
            }
        }
        return runs
    }

    /// Space and tab: the blanks CSS collapses and trims in WebVTT cue text.
    static func isSpaceOrTab(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    /// What ASS text's lines were always trimmed of: Unicode's spaces and tab.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.whitespaces.contains(scalar)
    }
}

extension StyledText {
    /// `text` with `styles` as the text of an ASS event (for burn-in): its
    /// styles as `{\b1}` … `{\b0}` overrides, line breaks as `\N`, and the
    /// characters ASS would read as markup made literal.
    static func assText(_ text: String, styles: [StyleRun]) -> String {
        var out = "", current: TextStyle = [], index = 0, run = 0
        for scalar in text.unicodeScalars {
            while run < styles.count && styles[run].end <= index { run += 1 }
            let style = run < styles.count && styles[run].start <= index ? styles[run].style : []
            if style != current {
                out += overrides(from: current, to: style)
                current = style
            }
            switch scalar {
            case "\n": out += "\\N"
            case "{", "}": out += "\\" + String(scalar)
            // A word joiner after a backslash, so `\N` in the text stays two characters.
            case "\\": out += "\\\u{2060}"
            default: out.unicodeScalars.append(scalar)
            }
            index += 1
        }
        return out + overrides(from: current, to: [])
    }

    private static func overrides(from old: TextStyle, to new: TextStyle) -> String {
        let tags = [(TextStyle.bold, "b"), (.italic, "i"), (.underline, "u")].compactMap { style, tag in
            old.contains(style) == new.contains(style) ? nil : "\\\(tag)\(new.contains(style) ? 1 : 0)"
        }
        return tags.isEmpty ? "" : "{" + tags.joined() + "}"
    }
}
