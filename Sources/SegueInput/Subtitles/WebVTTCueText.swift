internal import SegueMedia
import SegueModel
/// A WebVTT cue's text as a browser shows it, by the W3C "WebVTT cue text
/// parsing rules": its tags tokenized and nested, then its text kept with
/// the styles of the `<b>`, `<i>` and `<u>` around it. A `<v Speaker>`'s name
/// and a `<lang>`'s language are not shown, nor are `<c.class>` classes;
/// timestamp tags (`<00:00:01.000>`) are dropped; a `<ruby>`'s annotation
/// (`<rt>`) follows its base in parentheses, as HTML's `<rp>` fallback shows
/// ruby where it can't be set above the line. Character references
/// (`&amp;`, `&#x2019;`) are HTML's. Lines are shown as CSS `pre-line` sets
/// them: blanks at a line's ends dropped, runs of them one space.
enum WebVTTCueText {
    /// The elements cue text may nest; any other tag name is ignored.
    enum Element: String {
        case c, i, b, u, ruby, rt, v, lang

        /// The style its text takes on.
        var style: TextStyle {
            switch self {
            case .b: return .bold
            case .i: return .italic
            case .u: return .underline
            default: return []
            }
        }
    }

    static func styled(_ text: String) -> (text: String, styles: [StyleRun]) {
        var out = StyledText()
        // The open elements, innermost last, each with the style inside it.
        var open: [(element: Element, style: TextStyle)] = []
        var tokens = Tokenizer(Array(text.unicodeScalars))
        while let token = tokens.next() {
            let style = open.last?.style ?? []
            switch token {
            case .text(let text):
                out.append(text, style)
            case .startTag(let name):
                // `rt` only inside a `ruby`.
                guard let element = Element(rawValue: name), element != .rt || open.last?.element == .ruby else { continue }
                if element == .rt { out.append("(", style) }
                open.append((element, style.union(element.style)))
            case .endTag(let name):
                if open.last?.element.rawValue == name {
                    close(&open, into: &out)
                } else if name == "ruby" && open.last?.element == .rt {
                    close(&open, into: &out)
                    close(&open, into: &out)
                }
            case .timestamp:
                break
            }
        }
        while !open.isEmpty { close(&open, into: &out) }
        return out.finished(blank: StyledText.isSpaceOrTab, collapsingBlanks: true)
    }

    /// Closes the innermost element; an annotation's closing parenthesis is in its style.
    private static func close(_ open: inout [(element: Element, style: TextStyle)], into out: inout StyledText) {
        let closed = open.removeLast()
        if closed.element == .rt { out.append(")", closed.style) }
    }

    /// A token of cue text: its text (character references resolved), or a tag.
    enum Token: Equatable {
        case text(String)
        case startTag(String)
        case endTag(String)
        case timestamp(String)
    }
}

extension WebVTTCueText {
    /// The "WebVTT cue text tokenizer". A start tag's classes and annotation
    /// (`<c.loud>`, `<v Joe>`) are read past, not kept: nothing shows them.
    struct Tokenizer {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        mutating func next() -> Token? {
            guard position < scalars.count else { return nil }
            guard scalars[position] == "<" else { return .text(readText()) }
            position += 1
            guard position < scalars.count else { return .startTag("") }
            let first = scalars[position]
            let token: Token
            if first == "/" {
                position += 1
                token = .endTag(read { $0 != ">" })
            } else if ("0"..."9").contains(first) {
                token = .timestamp(read { $0 != ">" })
            } else {
                token = .startTag(read { !Tokenizer.isTagNameEnd($0) })
            }
            _ = read { $0 != ">" }
            if position < scalars.count { position += 1 } // the `>`
            return token
        }

        /// The characters from `position` while `test` holds.
        private mutating func read(while test: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while position < scalars.count && test(scalars[position]) {
                text.append(scalars[position])
                position += 1
            }
            return String(text)
        }

        private static func isTagNameEnd(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\n" || scalar == "\u{0C}" || scalar == " " || scalar == "." || scalar == ">"
        }

        /// Text up to the next `<`, character references resolved.
        private mutating func readText() -> String {
            var text = String.UnicodeScalarView()
            while position < scalars.count && scalars[position] != "<" {
                if scalars[position] == "&", let resolved = HTMLCharacterReferences.consume(scalars, at: &position) {
                    text.append(contentsOf: resolved.unicodeScalars)
                } else {
                    text.append(scalars[position])
                    position += 1
                }
            }
            return String(text)
        }
    }
}
