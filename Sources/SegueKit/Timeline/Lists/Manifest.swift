import Foundation
import SegueMedia

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
public enum Manifest {
    public static let clipKeys: Set<String> = ["path", "in", "out", "join", "duration", "title"]
    public static let joinKeys: Set<String> = ["transition", "duration"]
    public static let outputKeys = Set(OutputOption.allCases.map(\.key))

    static func parse(_ data: Data, relativeTo folder: String) throws -> (entries: [ClipEntry], output: OutputOptions?) {
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
            let clip = try dictionary(value, at: path)
            try checkKeys(clip, allowed: clipKeys, at: path)
            guard let file = clip["path"] as? String, !file.isEmpty else { throw fail("\(path).path", "expected a file path or URL") }
            var entry = ClipEntry(path: ClipList.resolve(file, relativeTo: folder))
            entry.inPoint = try clip["in"].map { try time($0, at: "\(path).in") }
            entry.outPoint = try clip["out"].map { try time($0, at: "\(path).out") }
            if let inPoint = entry.inPoint, let outPoint = entry.outPoint, outPoint <= inPoint {
                throw fail("\(path).out", "must be after in (\(inPoint) s)")
            }
            entry.duration = try clip["duration"].map { try number($0, at: "\(path).duration", in: OptionLimits.stillDuration) }
            if entry.outPoint == nil, let duration = entry.duration { entry.outPoint = (entry.inPoint ?? 0) + duration }
            if let title = clip["title"] {
                guard let text = title as? String, !text.isEmpty else { throw fail("\(path).title", "expected a non-empty string") }
                entry.title = text
            }
            if let joinValue = clip["join"] {
                let join = try dictionary(joinValue, at: "\(path).join")
                try checkKeys(join, allowed: joinKeys, at: "\(path).join")
                var choice = JoinChoice()
                choice.transition = try join["transition"].map { try transition($0, at: "\(path).join.transition") }
                choice.duration = try join["duration"].map { try positive($0, at: "\(path).join.duration") }
                entry.join = choice
            }
            entries.append(entry)
        }
        let output = try object["output"].map { try parseOutput($0, relativeTo: folder) }
        return (entries, output)
    }

    private static func parseOutput(_ value: Any, relativeTo folder: String) throws -> OutputOptions {
        let object = try dictionary(value, at: "output")
        try checkKeys(object, allowed: outputKeys, at: "output")
        var output = OutputOptions()
        if let size = object["size"] {
            guard let text = size as? String, let parsed = OutputValues.size(text) else {
                throw fail("output.size", "expected \"WxH\" with even numbers, e.g. \"1280x720\"")
            }
            output.size = parsed
        }
        if let fps = object["fps"] {
            let text = (fps as? String) ?? (isNumber(fps) ? "\(fps)" : nil)
            guard let text, let rate = OutputValues.frameRate(text) else {
                throw fail("output.fps", "expected a frame rate \(OptionLimits.frameRate.phrase), such as 30 or \"30000/1001\"")
            }
            output.frameRate = rate
        }
        output.fit = try object["fit"].map { try choice($0, at: "output.fit", Fit.init(rawValue:)) }
        output.transition = try object["transition"].map { try transition($0, at: "output.transition") }
        output.transitionDuration = try object["transitionDuration"].map { try positive($0, at: "output.transitionDuration") }
        output.mode = try object["mode"].map { try choice($0, at: "output.mode", TransitionMode.init(rawValue:)) }
        output.codec = try object["codec"].map { try choice($0, at: "output.codec", VideoCodecChoice.init(rawValue:)) }
        if let crf = object["crf"] {
            guard isNumber(crf), let value = crf as? Int, OptionLimits.crf.contains(value) else {
                throw fail("output.crf", "expected a whole number \(OptionLimits.crf.phrase)")
            }
            output.crf = value
        }
        output.preset = try object["preset"].map { try choice($0, at: "output.preset") { OptionLimits.presets.contains($0) ? $0 : nil } }
        if let bitRate = object["audioBitrate"] {
            let text = (bitRate as? String) ?? (isNumber(bitRate) ? "\(bitRate)" : nil)
            guard let text, let value = OutputValues.bitRate(text) else { throw fail("output.audioBitrate", "expected e.g. \"128k\" or 128000, \(OptionLimits.audioBitRate.phrase) bits a second") }
            output.audioBitRate = value
        }
        if let audio = object["audio"] {
            guard !isNumber(audio), let flag = audio as? Bool else { throw fail("output.audio", "expected true or false") }
            output.audio = flag
        }
        output.stillDuration = try object["stillDuration"].map { try number($0, at: "output.stillDuration", in: OptionLimits.stillDuration) }
        output.stillMotion = try object["stillMotion"].map { try choice($0, at: "output.stillMotion", StillMotion.init(rawValue:)) }
        output.loudness = try object["loudness"].map { try number($0, at: "output.loudness", in: OptionLimits.loudness) }
        if let music = object["music"] {
            guard let text = music as? String, !text.isEmpty else { throw fail("output.music", "expected a file path or URL") }
            output.music = ClipList.resolve(text, relativeTo: folder)
        }
        output.musicVolume = try object["musicVolume"].map { try number($0, at: "output.musicVolume", in: OptionLimits.musicVolume) }
        output.duck = try object["duck"].map { try number($0, at: "output.duck", in: OptionLimits.duck) }
        if let chapters = object["chapters"] {
            guard !isNumber(chapters), let flag = chapters as? Bool else { throw fail("output.chapters", "expected true or false") }
            output.chapters = flag
        }
        if let smart = object["smart"] {
            guard !isNumber(smart), let flag = smart as? Bool else { throw fail("output.smart", "expected true or false") }
            output.smart = flag
        }
        return output
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

    /// JSONSerialization turns true into an NSNumber too; this tells them apart.
    private static func isNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) != "c" && type(of: number) != type(of: NSNumber(value: true))
    }

    private static func time(_ value: Any, at path: String) throws -> Double {
        if isNumber(value), let seconds = (value as? NSNumber)?.doubleValue, seconds >= 0 { return seconds }
        if let text = value as? String, let seconds = TimeValue.seconds(text), seconds >= 0 { return seconds }
        throw fail(path, "expected seconds (a number, or a time such as \"00:01:02.5\")")
    }

    private static func positive(_ value: Any, at path: String) throws -> Double {
        guard isNumber(value), let seconds = (value as? NSNumber)?.doubleValue, OptionLimits.transitionDuration.contains(seconds) else {
            throw fail(path, "expected seconds, \(OptionLimits.transitionDuration.phrase)")
        }
        return seconds
    }

    /// A number within `limit`.
    private static func number(_ value: Any, at path: String, in limit: Limit) throws -> Double {
        guard isNumber(value), let number = (value as? NSNumber)?.doubleValue, limit.contains(number) else {
            throw fail(path, "expected a number \(limit.phrase)")
        }
        return number
    }

    private static func transition(_ value: Any, at path: String) throws -> TransitionKind {
        guard let text = value as? String else { throw fail(path, "expected a string") }
        guard let kind = TransitionKind(name: text) else { throw fail(path, TransitionCatalogue.unknown(text)) }
        return kind
    }

    private static func choice<T>(_ value: Any, at path: String, _ make: (String) -> T?) throws -> T {
        guard let text = value as? String else { throw fail(path, "expected a string") }
        guard let result = make(text) else { throw fail(path, "'\(text)' is not a valid value") }
        return result
    }
}

/// Parsing of output values shared by the command line and manifests.
public enum OutputValues {
    /// Bytes from "500M", "2G", "1500k" or a plain number, within `OptionLimits.byteSize`.
    public static func byteSize(_ text: String) -> Int? {
        let units: [Character: Double] = ["k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40]
        let lowered = text.lowercased().replacingOccurrences(of: "b", with: "")
        if let whole = Int(lowered) { return OptionLimits.byteSize.contains(whole) ? whole : nil }
        guard let last = lowered.last, let unit = units[last], let value = Double(lowered.dropLast()) else { return nil }
        let bytes = (value * unit).rounded()
        guard bytes.isFinite, OptionLimits.byteSize.contains(bytes) else { return nil }
        return Int(bytes)
    }

    public static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              OptionLimits.side.contains(width), OptionLimits.side.contains(height), width % 2 == 0, height % 2 == 0 else { return nil }
        return (width, height)
    }

    /// A frame rate within `OptionLimits.frameRate`, whose terms fit the 32 bits libav keeps them in.
    public static func frameRate(_ text: String) -> Rational? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        var rate: Rational?
        let term = OptionLimits.frameRateTerm
        if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
           term.contains(numerator), term.contains(denominator) {
            rate = Rational(numerator, denominator)
        } else if parts.count == 1, let value = Double(parts[0]), OptionLimits.frameRate.contains(value) {
            // 29.97 and friends mean the NTSC fractions.
            let ntsc = [23.976: Rational(24000, 1001), 29.97: Rational(30000, 1001), 59.94: Rational(60000, 1001)]
            rate = ntsc.first { abs($0.key - value) < 0.005 }?.value ?? Rational(Int((value * 1000).rounded()), 1000).reduced
        }
        guard let rate, rate.isValid, OptionLimits.frameRate.contains(rate.value) else { return nil }
        return rate.reduced
    }

    public static func bitRate(_ text: String) -> Int? {
        let lowered = text.lowercased()
        let thousands = lowered.hasSuffix("k")
        guard let number = Int(thousands ? lowered.dropLast() : lowered[...]) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: thousands ? 1000 : 1)
        guard !overflow, OptionLimits.audioBitRate.contains(value) else { return nil }
        return value
    }
}
