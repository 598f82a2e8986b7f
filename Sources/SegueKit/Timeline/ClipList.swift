import Foundation

/// Expands command-line inputs into the clips they name: media files pass
/// through, clip lists (`.txt`: one path per line, `#` comments, paths relative
/// to the list's folder) are read in place.
public enum ClipList {
    public static func isClipList(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".txt") || lowered.hasSuffix(".ffconcat")
    }

    /// The clips named by `inputs`, in order. Lists that can't be read become bad inputs.
    public static func expand(_ inputs: [String]) -> (clips: [String], bad: [BadInput]) {
        var clips: [String] = []
        var bad: [BadInput] = []
        for input in inputs {
            guard isClipList(input) else {
                clips.append(input)
                continue
            }
            do {
                let text = try String(contentsOfFile: input, encoding: .utf8)
                let entries = try parse(text, relativeTo: (input as NSString).deletingLastPathComponent)
                if entries.isEmpty { bad.append(BadInput(path: input, reason: "clip list names no clips")) }
                clips += entries
            } catch let error as ClipListError {
                bad.append(BadInput(path: input, reason: error.message))
            } catch {
                bad.append(BadInput(path: input, reason: "can't read clip list (\(Self.reason(for: error, path: input)))"))
            }
        }
        return (clips, bad)
    }

    struct ClipListError: Error { var message: String }

    /// Parses a plain list or an ffconcat script's `file` lines.
    static func parse(_ text: String, relativeTo folder: String) throws -> [String] {
        var clips: [String] = []
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        let isConcat = lines.first.map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("ffconcat version") } ?? false
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            var path = line
            if isConcat {
                if number == 0 { continue }
                guard line.hasPrefix("file ") else {
                    throw ClipListError(message: "line \(number + 1): only 'file' lines are supported so far: \(line)")
                }
                path = unquote(String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces))
            }
            clips.append(resolve(path, relativeTo: folder))
        }
        return clips
    }

    static func resolve(_ path: String, relativeTo folder: String) -> String {
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

    static func reason(for error: Error, path: String) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if FileManager.default.fileExists(atPath: path) == false { return "no such file" }
        return nsError.localizedDescription
    }
}
