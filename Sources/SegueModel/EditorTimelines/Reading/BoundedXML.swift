import Foundation

/// An XML element as the timeline parsers need it: name, attributes, child
/// elements and its own text (CDATA included, entities decoded).
struct ParsedXMLElement: Sendable {
    var name: String
    var attributes: [String: String] = [:]
    var children: [ParsedXMLElement] = []
    var text = ""

    /// The first child element called `name`.
    func child(_ name: String) -> ParsedXMLElement? { children.first { $0.name == name } }
    /// Every child element called `name`, in order.
    func children(_ name: String) -> [ParsedXMLElement] { children.filter { $0.name == name } }
    /// The trimmed text of the element at `path` (child names joined by `/`).
    func text(_ path: String) -> String? {
        var element = self
        for name in path.split(separator: "/") {
            guard let next = element.child(String(name)) else { return nil }
            element = next
        }
        return element.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A small XML reader with bounds: nesting at most `maxDepth`, at most
/// `maxElements` elements, one pass over the bytes. Comments, processing
/// instructions and the DOCTYPE are skipped; only the five predefined entities
/// and character references are decoded (no external or declared entities).
struct BoundedXMLReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let maxDepth: Int
    let maxElements: Int
    private let bytes: [UInt8]
    private var index = 0
    private var elements = 0

    init(_ data: Data, maxDepth: Int = 64, maxElements: Int = 4_000_000) {
        bytes = Array(data)
        self.maxDepth = maxDepth
        self.maxElements = maxElements
    }

    /// The root element.
    mutating func read() throws -> ParsedXMLElement {
        var stack: [ParsedXMLElement] = []
        var root: ParsedXMLElement?
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let text = try readText()
                if !stack.isEmpty { stack[stack.count - 1].text += text }
                else if !text.allSatisfy(\.isWhitespace) { throw failure("text outside the root element") }
                continue
            }
            if try skipMarkup(into: &stack) { continue }
            if starts(with: "</") {
                let name = try readClosingTag()
                guard let open = stack.popLast(), open.name == name else { throw failure("</\(name)> closes nothing open") }
                if stack.isEmpty { root = open } else { stack[stack.count - 1].children.append(open) }
                continue
            }
            let (element, selfClosing) = try readOpeningTag()
            guard root == nil else { throw failure("more than one root element") }
            elements += 1
            guard elements <= maxElements else { throw failure("more than \(maxElements) elements") }
            if selfClosing {
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            } else {
                guard stack.count < maxDepth else { throw failure("elements nested more than \(maxDepth) deep") }
                stack.append(element)
            }
        }
        guard stack.isEmpty else { throw failure("<\(stack.last!.name)> is never closed") }
        guard let root else { throw failure("no root element") }
        return root
    }

    /// Skips a comment, processing instruction or DOCTYPE, or reads CDATA into the open element; false if none is here.
    private mutating func skipMarkup(into stack: inout [ParsedXMLElement]) throws -> Bool {
        if starts(with: "<!--") { try skip(past: "-->"); return true }
        if starts(with: "<?") { try skip(past: "?>"); return true }
        if starts(with: "<![CDATA[") {
            index += 9
            let start = index
            try skip(past: "]]>")
            let text = String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
            guard !stack.isEmpty else { throw failure("CDATA outside the root element") }
            stack[stack.count - 1].text += text
            return true
        }
        if starts(with: "<!") {
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "[") { depth += 1 } else if byte == UInt8(ascii: "]") { depth -= 1 }
                else if byte == UInt8(ascii: ">"), depth <= 0 { return true }
            }
            throw failure("unclosed <! declaration")
        }
        return false
    }

    private mutating func readOpeningTag() throws -> (ParsedXMLElement, selfClosing: Bool) {
        index += 1
        var element = ParsedXMLElement(name: try readName())
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("<\(element.name) is never finished") }
            if bytes[index] == UInt8(ascii: ">") { index += 1; return (element, false) }
            if starts(with: "/>") { index += 2; return (element, true) }
            let name = try readName()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw failure("attribute \(name) has no value") }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure("attribute \(name)'s value isn't quoted")
            }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            guard index < bytes.count else { throw failure("attribute \(name)'s value is never closed") }
            element.attributes[name] = Self.decode(bytes[start..<index])
            index += 1
        }
    }

    private mutating func readClosingTag() throws -> String {
        index += 2
        let name = try readName()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw failure("</\(name) is never finished") }
        index += 1
        return name
    }

    private mutating func readName() throws -> String {
        let start = index
        while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
        guard index > start else { throw failure("a tag without a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readText() throws -> String {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
        return Self.decode(bytes[start..<index])
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] } }
    }

    private mutating func skip(past end: StaticString) throws {
        while index < bytes.count {
            if starts(with: end) { index += end.utf8CodeUnitCount; return }
            index += 1
        }
        throw failure("'\(end)' never comes")
    }

    private func failure(_ message: String) -> Failure {
        let line = bytes[..<min(index, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        return Failure(description: "XML line \(line): \(message)")
    }

    /// Text with `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and `&#…;` decoded; other `&` left as written.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = "", rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else { result += "&"; rest = rest.dropFirst(); continue }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            if let decoded = decodeEntity(entity) {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func decodeEntity(_ entity: Substring) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}

extension BoundedXMLReader {
    /// The root element of an editor's timeline in XML, after a pass over its
    /// bytes refuses more than `EditReading.maxItems` elements named
    /// `itemTags` (before any tree is built); refused unless the root is `<root>`
    /// (`format` names the file in the message).
    static func timelineRoot(_ data: Data, root: String, format: String, itemTags: [String]) throws -> ParsedXMLElement {
        let tags = itemTags.map { Array($0.utf8) }
        let count = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
            guard var cursor = bytes.baseAddress else { return 0 }
            let end = cursor + bytes.count
            var count = 0
            // memchr finds each '<'; memcmp asks whether an item's tag (then a space, '/' or '>') follows.
            while count <= EditReading.maxItems, let found = memchr(cursor, Int32(UInt8(ascii: "<")), end - cursor) {
                let next = UnsafeRawPointer(found) + 1
                if tags.contains(where: { tag in
                    end - next > tag.count && memcmp(next, tag, tag.count) == 0
                        && [0x20, 0x2F, 0x3E, 0x0A, 0x09, 0x0D].contains(next.load(fromByteOffset: tag.count, as: UInt8.self))
                }) { count += 1 }
                cursor = next
            }
            return count
        }
        guard count <= EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) items") }
        var xml = BoundedXMLReader(data, maxDepth: EditReading.maxDepth)
        let element: ParsedXMLElement
        do {
            element = try xml.read()
        } catch let failure as BoundedXMLReader.Failure {
            throw EditTimelineError(failure.description)
        }
        guard element.name == root else { throw EditTimelineError("not \(format) (its root is <\(element.name)>, not <\(root)>)") }
        return element
    }
}
