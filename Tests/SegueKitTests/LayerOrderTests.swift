import Foundation
import XCTest

/// The rooms of Sources/SegueKit depend one way (docs/architecture.md, Layout): a file may
/// name the types of its own room and of the rooms below it, never a type of
/// a room above. Read from the sources: each room's types are the ones its
/// files declare at the top level (struct, class, enum, protocol, typealias,
/// actor; an extension declares nothing, and a nested type is reached through
/// its parent's name); a file names a type when the type's name stands as a
/// whole word in its code, outside comments and string literals (an
/// interpolation is code), not after a dot.
final class LayerOrderTests: XCTestCase {
    /// The rooms from the bottom up, one tier a line. A room may use the rooms
    /// before it. Within a tier the order is the way the arrows run: Audio
    /// reads through Input, Decode uses Audio's readers; Smart plans for the
    /// Output writer, Segments cut Smart's plan, and the Stitcher renders a
    /// Segments window.
    static let order: [[String]] = [
        ["Support"],
        ["Timeline"],
        ["Input", "Audio", "Decode"],
        ["Output", "Smart", "Segments", "Stitch"],
        ["API"],
    ]

    /// Upward arrows that stay for now, each with why. An entry that no longer
    /// occurs fails the test as well: the list only shrinks.
    static let allowed: [(file: String, type: String)] = []

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    func testNoRoomNamesATypeOfARoomAboveIt() throws {
        let library = LayerOrderTests.sources.appendingPathComponent("SegueKit")
        let rank = Dictionary(uniqueKeysWithValues: LayerOrderTests.order.joined().enumerated().map { ($1, $0) })
        let files = try SwiftFile.all(in: library)
        XCTAssertFalse(files.isEmpty, "no sources under \(library.path)")
        for room in Set(files.map(\.room)) where rank[room] == nil {
            XCTFail("Sources/SegueKit/\(room) has no place in LayerOrderTests.order: give it one")
        }
        var roomOf: [String: String] = [:]
        for file in files {
            for type in file.topLevelTypes {
                if let other = roomOf[type], other != file.room {
                    XCTFail("\(type) is declared in both \(other) and \(file.room)")
                }
                roomOf[type] = file.room
            }
        }
        var seen: Set<String> = []
        for file in files {
            guard let own = rank[file.room] else { continue }
            for name in file.namedTypes.subtracting(file.allDeclaredTypes) {
                guard let room = roomOf[name], let theirs = rank[room], theirs > own else { continue }
                if LayerOrderTests.allowed.contains(where: { $0.file == file.path && $0.type == name }) {
                    seen.insert("\(file.path) \(name)")
                    continue
                }
                XCTFail("\(file.path) names \(name), a type of \(room), which is above \(file.room)")
            }
        }
        for (path, name) in LayerOrderTests.allowed where !seen.contains("\(path) \(name)") {
            XCTFail("the allowance for \(path) naming \(name) is no longer needed: remove it")
        }
    }

    func testNoFolderInSourcesHoldsMoreThanTwelveFiles() throws {
        let folders = FileManager.default.enumerator(at: LayerOrderTests.sources, includingPropertiesForKeys: [.isDirectoryKey])!
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        for folder in folders + [LayerOrderTests.sources] {
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            XCTAssertLessThanOrEqual(files.count, 12, "\(folder.path) holds \(files.count) files")
        }
    }

    func testTheCodeScannerSeesOnlyCode() {
        let source = """
            struct Kept { let a = "Quoted \\(Interpolated(x: ")")) text", b = #"Raw "Quoted""#, c = \\Keyed.path }
            /* Block /* Nested */ Comment */ // Line Comment
            let d = \"""
                Multi "Line" \\(Inner)
                \""" + String(Other.self)
            """
        let file = SwiftFile(path: "Room/File.swift", source: source)
        XCTAssertEqual(file.namedTypes, ["Kept", "Interpolated", "Keyed", "Inner", "String", "Other"])
        XCTAssertEqual(file.topLevelTypes, ["Kept"])
    }
}

/// One source file of SegueKit, as the layer check reads it.
struct SwiftFile {
    /// Relative to Sources/SegueKit: "Room/…/Name.swift".
    var path: String
    var room: String { String(path.prefix { $0 != "/" }) }
    /// The code: comments and string literals blanked, interpolations kept.
    var code: String
    /// Types declared at the top level.
    var topLevelTypes: Set<String> = []
    /// Types declared at any depth (a nested name a file uses is its own).
    var allDeclaredTypes: Set<String> = []

    init(path: String, source: String) {
        self.path = path
        code = SwiftFile.code(of: source)
        let declaration = try! NSRegularExpression(pattern:
            #"^([ \t]*)(?:(?:@\w+(?:\([^)\n]*\))?|public|private|fileprivate|internal|package|final|indirect|open|nonisolated)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)"#,
            options: [.anchorsMatchLines])
        let text = code as NSString
        for match in declaration.matches(in: code, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 2))
            allDeclaredTypes.insert(name)
            if match.range(at: 1).length == 0 { topLevelTypes.insert(name) }
        }
    }

    /// Capitalised whole words of the code not after a dot: the types (and
    /// other capitalised names) it names.
    var namedTypes: Set<String> {
        let word = try! NSRegularExpression(pattern: #"(?<![\w.])[A-Z]\w*"#)
        let text = code as NSString
        return Set(word.matches(in: code, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range) })
    }

    static func all(in library: URL) throws -> [SwiftFile] {
        let names = FileManager.default.enumerator(atPath: library.path)?.compactMap { $0 as? String } ?? []
        return try names.filter { $0.hasSuffix(".swift") && $0.contains("/") }.sorted().map { name in
            SwiftFile(path: name, source: try String(contentsOf: library.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// `source` with comments and string literals replaced by spaces (lines
    /// kept), the code of their interpolations kept.
    static func code(of source: String) -> String {
        var scanner = Scanner(bytes: Array(source.utf8))
        scanner.scanCode(untilClosingParenthesis: false)
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        mutating func blank(_ count: Int = 1) {
            for _ in 0..<count where index < bytes.count {
                output.append(bytes[index] == UInt8(ascii: "\n") ? UInt8(ascii: "\n") : UInt8(ascii: " "))
                index += 1
            }
        }

        /// Code, up to the end or (in an interpolation) the parenthesis that closes it.
        mutating func scanCode(untilClosingParenthesis: Bool) {
            var depth = 0
            while let byte = peek() {
                if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "/") {
                    while let next = peek(), next != UInt8(ascii: "\n") { blank() }
                } else if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                    scanBlockComment()
                } else if let hashes = stringStart() {
                    scanString(hashes: hashes)
                } else if untilClosingParenthesis && byte == UInt8(ascii: "(") {
                    depth += 1
                    output.append(byte)
                    index += 1
                } else if untilClosingParenthesis && byte == UInt8(ascii: ")") {
                    if depth == 0 { blank(); return }
                    depth -= 1
                    output.append(byte)
                    index += 1
                } else {
                    output.append(byte)
                    index += 1
                }
            }
        }

        /// Block comments nest in Swift.
        mutating func scanBlockComment() {
            var depth = 0
            while peek() != nil {
                if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                    depth += 1
                    blank(2)
                } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                    depth -= 1
                    blank(2)
                    if depth == 0 { return }
                } else {
                    blank()
                }
            }
        }

        /// The number of `#`s when a string literal starts here.
        func stringStart() -> Int? {
            var hashes = 0
            while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
            return peek(hashes) == UInt8(ascii: "\"") ? hashes : nil
        }

        mutating func scanString(hashes: Int) {
            blank(hashes)
            let triple = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
            blank(triple ? 3 : 1)
            let delimiter = [UInt8](repeating: UInt8(ascii: "\""), count: triple ? 3 : 1)
                + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
            while peek() != nil {
                if peek() == UInt8(ascii: "\\") && (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                    blank(1 + hashes)
                    if peek() == UInt8(ascii: "(") {
                        blank()
                        scanCode(untilClosingParenthesis: true)
                    } else {
                        blank()
                    }
                } else if delimiter.indices.allSatisfy({ peek($0) == delimiter[$0] }) {
                    blank(delimiter.count)
                    return
                } else {
                    blank()
                }
            }
        }
    }
}
