import Foundation
import SegueMedia

/// Expands command-line inputs into the clips they name. Media files and URLs
/// pass through; clip lists are read in place:
/// - `.txt`: one path per line, `#` comments, paths relative to the list's folder;
/// - `.ffconcat`, or a `.txt` whose first line is `ffconcat version 1.0`: ffmpeg's
///   concat script (`file`, `inpoint`, `outpoint`, `duration`);
/// - `.json`: a manifest (see `Manifest`).
public enum ClipList {
    /// What the inputs expand to.
    public struct Contents: Sendable {
        public var entries: [ClipEntry] = []
        public var bad: [BadInput] = []
        /// Output settings from the first manifest that gives any.
        public var output: OutputOptions?
    }

    public static func isClipList(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return !path.contains("://") && [".txt", ".ffconcat", ".json"].contains { lowered.hasSuffix($0) }
    }

    /// Lists may name lists; these bound what a crafted one can ask for.
    static let deepestNesting = 16
    static let mostClips = 100_000
    static let largestListBytes = 16 << 20

    /// The clips `inputs` name, lists read through `access` (so confined to
    /// its input roots) and lists they name expanded in place.
    public static func expand(_ inputs: [String], access: InputAccess = InputAccess()) -> Contents {
        var contents = Contents()
        for input in inputs {
            guard isClipList(input) else {
                contents.entries.append(ClipEntry(path: input))
                continue
            }
            var entries: [ClipEntry] = []
            do {
                try expand(list: input, within: [], access: access, into: &entries, output: &contents.output)
                contents.entries += entries
            } catch let reason as BadInputReason {
                contents.bad.append(BadInput(path: input, cause: reason))
            } catch {
                contents.bad.append(BadInput(path: input, cause: .cantOpen("\(error)")))
            }
        }
        return contents
    }

    /// Appends the clips of list `path` to `entries`; `within` holds the real
    /// paths of the lists that led here, so a list that includes itself is
    /// found, not followed forever. The first manifest's output settings win.
    private static func expand(list path: String, within: [String], access: InputAccess, into entries: inout [ClipEntry],
                               output: inout OutputOptions?) throws {
        let (text, resolvedPath) = try read(list: path, access: access)
        guard !within.contains(resolvedPath) else { throw BadInputReason.listIncludesItself(within + [resolvedPath]) }
        guard within.count < deepestNesting else {
            throw BadInputReason.badList("lists nest more than \(deepestNesting) deep")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var listed: [ClipEntry]
        do {
            if path.lowercased().hasSuffix(".json") {
                let manifest = try Manifest.parse(Data(text.utf8), relativeTo: folder)
                listed = manifest.entries
                if output == nil { output = manifest.output }
            } else {
                listed = try parse(text, relativeTo: folder)
            }
        } catch let error as ListError {
            throw BadInputReason.badList(within.isEmpty ? error.message : "\(path): \(error.message)")
        }
        if listed.isEmpty { throw within.isEmpty ? BadInputReason.emptyList : BadInputReason.badList("\(path): names no clips") }
        for entry in listed {
            if isClipList(entry.path) {
                try expand(list: entry.path, within: within + [resolvedPath], access: access, into: &entries, output: &output)
            } else {
                entries.append(entry)
            }
            guard entries.count <= mostClips else { throw BadInputReason.badList("names more than \(mostClips) clips") }
        }
    }

    /// The text of list `path` and its real path, read through `access`.
    private static func read(list path: String, access: InputAccess) throws -> (String, String) {
        do {
            guard case .file(let local) = try access.location(of: path) else { throw BadInputReason.unreadableList("not a file") }
            let file = try access.openFile(local)
            guard let data = file.contents(limit: largestListBytes) else {
                throw BadInputReason.badList("larger than \(largestListBytes >> 20) MB; not a clip list")
            }
            guard let text = String(data: data, encoding: .utf8) else { throw BadInputReason.unreadableList("not UTF-8 text") }
            return (text, file.resolvedPath)
        } catch let error as FFmpegError {
            guard let code = error.posixCode else { throw BadInputReason.unreadableList(error.message) }
            throw BadInputReason.unreadableList(code == ENOENT ? "no such file" : String(cString: strerror(code)))
        } catch BadInputReason.notRegularFile {
            throw BadInputReason.unreadableList("not a regular file")
        }
    }

    /// A clip list that can't be used, and where.
    struct ListError: Error {
        var message: String
    }

    /// Parses a plain list, or an ffconcat script when its first line says so.
    static func parse(_ text: String, relativeTo folder: String) throws -> [ClipEntry] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        let firstLine = lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
        if firstLine?.trimmingCharacters(in: .whitespaces).hasPrefix("ffconcat version") == true {
            return try parseConcat(lines, relativeTo: folder)
        }
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { ClipEntry(path: resolve($0, relativeTo: folder)) }
    }

    /// ffmpeg's concat script. `duration` without an `outpoint` ends the clip
    /// that long after its in point.
    static func parseConcat(_ lines: [String], relativeTo folder: String) throws -> [ClipEntry] {
        var entries: [ClipEntry] = []
        var durations: [Double?] = []
        var sawVersion = false
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (directive, argument) = split(line)
            func fail(_ message: String) -> ListError { ListError(message: "line \(number + 1): \(message)") }
            func time() throws -> Double {
                guard let seconds = TimeValue.seconds(unquote(argument)), seconds >= 0 else {
                    throw fail("'\(directive)' needs a time such as 12.5 or 00:00:12.500, not '\(argument)'")
                }
                return seconds
            }
            func needFile() throws {
                if entries.isEmpty { throw fail("'\(directive)' before any 'file' line") }
            }
            switch directive {
            case "ffconcat":
                guard !sawVersion, argument == "version 1.0" else { throw fail("expected 'ffconcat version 1.0'") }
                sawVersion = true
            case "file":
                guard !argument.isEmpty else { throw fail("'file' needs a path") }
                entries.append(ClipEntry(path: resolve(unquote(argument), relativeTo: folder)))
                durations.append(nil)
            case "inpoint":
                try needFile()
                entries[entries.count - 1].inPoint = try time()
            case "outpoint":
                try needFile()
                entries[entries.count - 1].outPoint = try time()
            case "duration":
                try needFile()
                durations[entries.count - 1] = try time()
            case "file_packet_metadata", "file_packet_meta", "option", "stream", "exact_stream_id", "stream_meta",
                 "stream_codec", "stream_extradata", "chapter":
                continue // about streams and metadata, not which pictures play
            default:
                throw fail("unknown directive '\(directive)'")
            }
        }
        for index in entries.indices {
            entries[index].duration = durations[index]
            if entries[index].outPoint == nil, let duration = durations[index] {
                entries[index].outPoint = (entries[index].inPoint ?? 0) + duration
            }
        }
        return entries
    }

    private static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (line, "") }
        return (String(line[..<space]), line[space...].trimmingCharacters(in: .whitespaces))
    }

    static func resolve(_ path: String, relativeTo folder: String) -> String {
        var path = path
        if path.hasPrefix("file:") && !path.hasPrefix("file://") { path.removeFirst("file:".count) }
        if path.hasPrefix("/") || path.contains("://") || folder.isEmpty { return path }
        return (folder as NSString).appendingPathComponent(path)
    }

    /// ffconcat's quoting: 'single quotes' and backslash escapes.
    static func unquote(_ text: String) -> String {
        var result = ""
        var inQuotes = false
        var escaped = false
        for character in text {
            if escaped { result.append(character); escaped = false }
            else if character == "\\" && !inQuotes { escaped = true }
            else if character == "'" { inQuotes.toggle() }
            else { result.append(character) }
        }
        return result
    }
}
