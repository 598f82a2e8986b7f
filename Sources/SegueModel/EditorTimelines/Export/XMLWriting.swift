import Foundation

/// An XML element as an export writes it: attributes in the order given,
/// then its text or its children, every value escaped. The XML writers
/// (FCPXML, xmeml, MLT) build documents of these.
struct XMLNode: Sendable, Equatable {
    var name: String
    var attributes: [(String, String)]
    var text: String?
    var children: [XMLNode]

    init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, children: [XMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    static func == (lhs: XMLNode, rhs: XMLNode) -> Bool {
        lhs.name == rhs.name && lhs.attributes.elementsEqual(rhs.attributes, by: ==) && lhs.text == rhs.text && lhs.children == rhs.children
    }

    /// A leaf holding `text` (`<name>text</name>`).
    static func leaf(_ name: String, _ text: String) -> XMLNode { XMLNode(name, text: text) }

    /// The whole document: the XML declaration, an optional `<!DOCTYPE ...>` line, this element.
    func document(doctype: String? = nil) -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        if let doctype { out += doctype + "\n" }
        write(into: &out, depth: 0)
        return Data(out.utf8)
    }

    private func write(into out: inout String, depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        out += indent + "<" + name
        for (key, value) in attributes { out += " \(key)=\"\(Self.escape(value))\"" }
        if let text {
            out += ">" + Self.escape(text) + "</\(name)>\n"
        } else if children.isEmpty {
            out += "/>\n"
        } else {
            out += ">\n"
            children.forEach { $0.write(into: &out, depth: depth + 1) }
            out += indent + "</\(name)>\n"
        }
    }

    /// `text` as XML may hold it in text or a quoted attribute: the five
    /// entities escaped, and characters XML 1.0 forbids (controls other
    /// than tab, newline, return; unpaired surrogates can't occur in a
    /// Swift string; U+FFFE, U+FFFF) replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                let forbidden = scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                out.unicodeScalars.append(forbidden ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}

extension EditTimeline {
    /// A file URL for a local path (`file:///a%20b/c.mp4`), a relative path percent-encoded as a
    /// relative URL reference, a URL as it is: what `pathurl`, `media-rep src` and MLT's `resource` hold.
    static func fileURL(_ location: String) -> String {
        if location.contains("://") { return location }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#%")
        let encoded = location.addingPercentEncoding(withAllowedCharacters: allowed) ?? location
        return location.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
