import Foundation

/// A JSON clip list, for what ffconcat can't say:
///
/// ```json
/// {
///   "clips": [
///     "intro.mp4",
///     {"path": "beach.mov", "in": 2.5, "out": "00:00:09.000", "join": {"transition": "slide-up", "duration": 0.4}},
///     {"path": "sunset.mp4"}
///   ],
///   "output": {"size": "1280x720", "fps": 30, "transition": "fade"}
/// }
/// ```
///
/// A clip's `join` says how it meets the next clip. Unknown keys and wrong
/// types are errors that name the key's path, e.g. `clips[1].in`.
package enum Manifest {
    package static let clipKeys: Set<String> = ["path", "in", "out", "join", "duration", "title", "caption", "fit", "subtitles"]
    /// A text card's keys: `{"text": "Day one", "duration": 2.5, "background": "#202020"}`.
    package static let cardKeys: Set<String> = ["text", "duration", "background", "join", "title", "caption"]
    package static let joinKeys: Set<String> = ["transition", "duration", "easing"]
    package static let outputKeys = Set(OutputOption.all.map(\.key))

    package static func parse(_ data: Data, relativeTo folder: String) throws -> (entries: [ClipEntry], output: OutputOptions?) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ClipList.ListError(message: "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "parse error"))")
        }
        let object = try dictionary(root, at: "the top level")
        try checkKeys(object, allowed: ["clips", "output"], at: "")
        guard let clipsValue = object["clips"] else { throw fail("clips", "missing (a list of clips)") }
        guard let clips = clipsValue as? [Any] else { throw fail("clips", "expected a list") }
        var entries: [ClipEntry] = []
        for (index, value) in clips.enumerated() {
            let path = "clips[\(index)]"
            if let file = value as? String {
                entries.append(ClipEntry(path: ClipList.resolve(file, relativeTo: folder)))
                continue
            }
            entries.append(try entry(try dictionary(value, at: path), at: path, relativeTo: folder))
        }
        let output = try object["output"].map { try parseOutput($0, relativeTo: folder) }
        return (entries, output)
    }

    /// One clip given as an object: a file with its trim, or a text card; with its title, caption, fit and join.
    private static func entry(_ clip: [String: Any], at path: String, relativeTo folder: String) throws -> ClipEntry {
        var entry: ClipEntry
        if let text = clip["text"] {
            try checkKeys(clip, allowed: cardKeys, at: path)
            guard let text = text as? String, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail("\(path).text", "expected the card's text")
            }
            var card = TextCard(text: text)
            if let background = clip["background"] {
                guard let colour = background as? String, TextCard.isColour(colour) else {
                    throw fail("\(path).background", "expected a colour such as \"#202020\"")
                }
                card.background = colour
            }
            entry = ClipEntry(path: "")
            entry.card = card
        } else {
            try checkKeys(clip, allowed: clipKeys, at: path)
            guard let file = clip["path"] as? String, !file.isEmpty else { throw fail("\(path).path", "expected a file path or URL") }
            entry = ClipEntry(path: ClipList.resolve(file, relativeTo: folder))
            entry.inPoint = try clip["in"].map { try time($0, at: "\(path).in") }
            entry.outPoint = try clip["out"].map { try time($0, at: "\(path).out") }
            if let inPoint = entry.inPoint, let outPoint = entry.outPoint, outPoint <= inPoint {
                throw fail("\(path).out", "must be after in (\(inPoint) s)")
            }
            entry.fit = try clip["fit"].map { try choice($0, at: "\(path).fit", Fit.init(rawValue:)) }
            entry.subtitles = try clip["subtitles"].map { ClipList.resolve(try text($0, at: "\(path).subtitles"), relativeTo: folder) }
        }
        entry.duration = try clip["duration"].map { try number($0, at: "\(path).duration", in: OptionLimits.stillSeconds) }
        if entry.card == nil, entry.outPoint == nil, let duration = entry.duration { entry.outPoint = (entry.inPoint ?? 0) + duration }
        entry.title = try clip["title"].map { try text($0, at: "\(path).title") }
        entry.caption = try clip["caption"].map { try text($0, at: "\(path).caption") }
        if let joinValue = clip["join"] {
            let join = try dictionary(joinValue, at: "\(path).join")
            try checkKeys(join, allowed: joinKeys, at: "\(path).join")
            var choice = JoinChoice()
            choice.transition = try join["transition"].map { try transition($0, at: "\(path).join.transition") }
            choice.duration = try join["duration"].map { try positive($0, at: "\(path).join.duration") }
            choice.easing = try join["easing"].map { try easing($0, at: "\(path).join.easing") }
            entry.join = choice
        }
        return entry
    }

    private static func easing(_ value: Any, at path: String) throws -> Easing {
        switch Easing.parse(try text(value, at: path)) {
        case .success(let easing): return easing
        case .failure(let error): throw fail(path, error.message)
        }
    }

    private static func text(_ value: Any, at path: String) throws -> String {
        guard let text = value as? String, !text.isEmpty else { throw fail(path, "expected a non-empty string") }
        return text
    }

    private static func choice<T>(_ value: Any, at path: String, _ make: (String) -> T?) throws -> T {
        guard let text = value as? String else { throw fail(path, "expected a string") }
        guard let result = make(text) else { throw fail(path, "'\(text)' is not a valid value") }
        return result
    }

    private static func parseOutput(_ value: Any, relativeTo folder: String) throws -> OutputOptions {
        let object = try dictionary(value, at: "output")
        try checkKeys(object, allowed: outputKeys.union(["hls"]), at: "output")
        var output = OutputOptions()
        for option in OutputOption.all {
            guard let json = object[option.key] else { continue }
            if let problem = output.read(option, json: json, folder: folder) { throw fail("output.\(option.key)", problem) }
        }
        if let hls = object["hls"] { try parseHLS(hls, beside: object, into: &output, relativeTo: folder) }
        return output
    }

    /// `"hls": {"ladder": [1080, 720, 360], "time": 4}`: the HLS output asked for, its settings in one
    /// place (as the flat `ladder` and `hlsTime` give them, not both; `hlsTime` is taken for `time` too).
    private static func parseHLS(_ value: Any, beside object: [String: Any], into output: inout OutputOptions,
                                 relativeTo folder: String) throws {
        let hls = try dictionary(value, at: "output.hls")
        try checkKeys(hls, allowed: ["ladder", "time", "hlsTime"], at: "output.hls")
        if hls["time"] != nil && hls["hlsTime"] != nil { throw fail("output.hls.time", "given twice (output.hls.hlsTime says it too)") }
        for (key, flat) in [("ladder", "ladder"), ("time", "hlsTime"), ("hlsTime", "hlsTime")] {
            guard let json = hls[key], let option = OutputOption.named(flat) else { continue }
            if object[flat] != nil { throw fail("output.hls.\(key)", "given twice (output.\(flat) says it too)") }
            if let problem = output.read(option, json: json, folder: folder) { throw fail("output.hls.\(key)", problem) }
        }
        output.asksForHLS = true
    }

    // MARK: Checks that name the key

    private static func fail(_ path: String, _ message: String) -> ClipList.ListError {
        ClipList.ListError(message: "\(path): \(message)")
    }

    private static func dictionary(_ value: Any, at path: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw fail(path, "expected an object") }
        return object
    }

    private static func checkKeys(_ object: [String: Any], allowed: Set<String>, at path: String) throws {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            let prefix = path.isEmpty ? "" : "\(path)."
            throw fail("\(prefix)\(unknown)", "unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private static func time(_ value: Any, at path: String) throws -> Double {
        if JSONValue.isNumber(value), let seconds = (value as? NSNumber)?.doubleValue, seconds >= 0 { return seconds }
        if let text = value as? String, let seconds = TimeValue.seconds(text), seconds >= 0 { return seconds }
        throw fail(path, "expected seconds (a number, or a time such as \"00:01:02.5\")")
    }

    private static func positive(_ value: Any, at path: String) throws -> Double {
        guard JSONValue.isNumber(value), let seconds = (value as? NSNumber)?.doubleValue, OptionLimits.transitionSeconds.contains(seconds) else {
            throw fail(path, "expected seconds, \(OptionLimits.transitionSeconds.phrase)")
        }
        return seconds
    }

    /// A number within `limit`.
    private static func number(_ value: Any, at path: String, in limit: Limit) throws -> Double {
        guard JSONValue.isNumber(value), let number = (value as? NSNumber)?.doubleValue, limit.contains(number) else {
            throw fail(path, "expected a number \(limit.phrase)")
        }
        return number
    }

    private static func transition(_ value: Any, at path: String) throws -> TransitionKind {
        guard let text = value as? String else { throw fail(path, "expected a string") }
        guard let kind = TransitionKind(name: text) else { throw fail(path, TransitionCatalogue.unknown(text)) }
        return kind
    }
}
