import Foundation
import XCTest

/// What a newcomer holds in their head at once stays small: no Swift file in
/// Sources/ over 450 lines, no function (func, init, deinit, subscript) over
/// 60 lines from its declaration to its closing brace, and no Python function
/// in Scripts/ over 60 lines from `def` to its last line. The folders' limit
/// (12 files) is LayerOrderTests'.
final class SourceSizeTests: XCTestCase {
    static let fileLimit = 450
    static let functionLimit = 60

    func testNoSwiftFileOrFunctionIsOverItsLimit() throws {
        let sources = LayerOrderTests.sources
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertFalse(files.isEmpty, "no Swift files under \(sources.path)")
        var over: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.replacingOccurrences(of: LayerOrderTests.root.path + "/", with: "")
            let lines = text.filter { $0 == "\n" }.count
            if lines > Self.fileLimit {
                over.append("file \(name): \(lines) lines (limit \(Self.fileLimit))")
            }
            for (function, start, length) in try Self.functions(in: text) where length > Self.functionLimit {
                over.append("function \(name):\(start) \(function): \(length) lines (limit \(Self.functionLimit))")
            }
        }
        XCTAssertEqual(over, [], over.joined(separator: "\n"))
    }

    func testNoPythonFunctionInScriptsIsOverItsLimit() throws {
        // Scripts/'s Python files: *.py and those whose first line names python; functions as ast sees them.
        let program = """
            import ast, pathlib, sys
            for path in sorted(p for p in pathlib.Path(sys.argv[1]).iterdir() if p.is_file()):
                first = path.open(errors="replace").readline()
                if path.suffix == ".py" or (first.startswith("#!") and "python" in first):
                    for node in ast.walk(ast.parse(path.read_text(), str(path))):
                        length = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and length > \(Self.functionLimit):
                            print(f"function Scripts/{path.name}:{node.lineno} {node.name}: {length} lines")
            """
        let scripts = LayerOrderTests.root.appendingPathComponent("Scripts").path
        let result = try Tool.run("python3", ["-c", program, scripts])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, "", "over \(Self.functionLimit) lines:\n" + result.standardOutput)
    }

    /// Comments and string literals (a """ block before a "string"): braces in them are not code.
    static let notCode = try! NSRegularExpression(
        pattern: #"//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*""#, options: [.dotMatchesLineSeparators])
    static let declaration = try! NSRegularExpression(pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"#
        + #"(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|"#
        + #"nonmutating|convenience|required|nonisolated|@\w+)\s+)*(func\s+[^\s(<]+|init\??|deinit|subscript)\b"#)
    static let continuedBy = ["->", "throws", "rethrows", "async", "where", "{", ")"]

    /// (name, first line, line count) of every function in Swift source. A
    /// declaration's body is the first brace after its signature outside
    /// parentheses: a default argument's closure (`progress: (Double) -> Void
    /// = { _ in }`) sits inside them.
    static func functions(in text: String) throws -> [(String, Int, Int)] {
        let lines = text.components(separatedBy: "\n")
        let whole = text as NSString
        var code = ""
        var last = 0
        for match in notCode.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            code += whole.substring(with: NSRange(location: last, length: match.range.location - last))
            code += String(repeating: "\n", count: whole.substring(with: match.range).filter { $0 == "\n" }.count)
            last = match.range.location + match.range.length
        }
        code += whole.substring(from: last)
        let leftParen = UInt16(UInt8(ascii: "(")), rightParen = UInt16(UInt8(ascii: ")"))
        let leftBrace = UInt16(UInt8(ascii: "{")), rightBrace = UInt16(UInt8(ascii: "}"))
        var found: [(String, Int, Int)] = []
        var open: [(name: String, start: Int, depth: Int)] = []
        var depth = 0, parens = 0
        var pending: (name: String, start: Int)?   // a declaration seen, its body's brace not yet
        for (index, line) in code.components(separatedBy: "\n").enumerated() {
            let number = index + 1, units = Array(line.utf16)
            var signature = 0   // where this line's declaration starts: braces before it are not its body
            if let match = declaration.firstMatch(in: line, range: NSRange(location: 0, length: units.count)),
               !units[..<match.range(at: 1).location].contains(leftBrace) {
                pending = ((line as NSString).substring(with: match.range(at: 1)), number)
                parens = 0
                signature = match.range(at: 1).location
            }
            for (column, unit) in units.enumerated() {
                if pending != nil && column >= signature && (unit == leftParen || unit == rightParen) {
                    parens += unit == leftParen ? 1 : -1
                } else if unit == leftBrace {
                    depth += 1
                    if let declared = pending, parens == 0, column >= signature {
                        open.append((declared.name, declared.start, depth))
                        pending = nil
                    }
                } else if unit == rightBrace {
                    if let innermost = open.last, innermost.depth == depth {
                        open.removeLast()
                        found.append((innermost.name, innermost.start, number - innermost.start + 1))
                    }
                    depth -= 1
                }
            }
            // A declaration without a body (a protocol's requirement) ends where its
            // line ends and the next line doesn't go on with it.
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending != nil, parens == 0, !["(", ",", "->", "throws", "rethrows", "async"].contains(where: trimmed.hasSuffix) {
                let following = index + 1 < lines.count ? lines[index + 1].trimmingCharacters(in: .whitespaces) : ""
                if !continuedBy.contains(where: following.hasPrefix) {
                    pending = nil
                }
            }
        }
        return found
    }
}
