import Foundation

/// Expands command-line inputs into the clips they name. Media files and URLs
/// pass through; clip lists are read in place:
/// - `.txt`: one path per line, `#` comments, paths relative to the list's folder;
/// - `.ffconcat`, or a `.txt` whose first line is `ffconcat version 1.0`: ffmpeg's
///   concat script (`file`, `inpoint`, `outpoint`, `duration`);
/// - `.json`: a manifest (see `Manifest`);
/// - `.otio`, `.edl`, `.xml`: an editor's timeline (`EditTimeline`), its clips
///   found and placed by `EditTimelineResolver`.
/// The files are read in Input (`ClipList.expand`); here they are parsed.
package enum ClipList {
    /// What the inputs expand to.
    package struct Contents: Sendable {
        package var entries: [ClipEntry] = []
        package var bad: [BadInput] = []
        /// Output settings from the first manifest (or editor's timeline) that gives any.
        package var output: OutputOptions?
        /// What the user should know about the lists (an editor's timeline's notes).
        package var notices: [Warning] = []
        /// The editors' timelines' own sounds, in the list's order: the entries' `soundPlace` name them.
        package var sounds: [TimelineSound] = []

        package init() {}

        /// Appends `entries` of a timeline or a list read apart, whose `sounds` their places name.
        package mutating func append(_ entries: [ClipEntry], sounds added: [TimelineSound]) {
            let offset = sounds.count
            sounds += added
            self.entries += entries.map { entry in
                var entry = entry
                entry.soundPlace?.track += offset
                return entry
            }
        }
    }

    /// Whether `path` names a clip list: a local file (a `file:` URL too, not
    /// a remote one) named `.txt`, `.ffconcat` or `.json`, or an editor's
    /// timeline (`.otio`, `.edl`, `.xml`, `.fcpxml` or a `.fcpxmld` bundle).
    package static func isClipList(_ path: String) -> Bool {
        guard case .file = InputLocation(path) else { return false }
        let lowered = path.lowercased()
        return [".txt", ".ffconcat", ".json"].contains { lowered.hasSuffix($0) } || EditTimelineFormat(path) != nil
    }

    /// A clip list that can't be used, and where.
    package struct ListError: Error {
        package var message: String
    }

    /// Parses a plain list, or an ffconcat script when its first line says so.
    package static func parse(_ text: String, relativeTo folder: String) throws -> [ClipEntry] {
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

    /// What a list's entry names, as the opener takes it: a local file (a
    /// `file:` URL's path) relative to the list's folder; a URL, or a name
    /// read through another protocol (refused when opened), as written.
    static func resolve(_ path: String, relativeTo folder: String) -> String {
        guard case .file(let local) = InputLocation(path, relativeTo: folder) else { return path }
        if local.hasPrefix("/") || folder.isEmpty { return local }
        return (folder as NSString).appendingPathComponent(local)
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
