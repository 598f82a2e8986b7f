import Foundation
import SegueCore

/// One output option: its manifest key (`output.KEY`), its flag, the setting
/// it fills and how its value is read and checked. The table is
/// `OutputOption.all` (beside `StitchSettings`); the command line, manifests,
/// plan.json, the request's checks and help read only the table.
///
/// SAFETY (`@unchecked Sendable`): every stored property is immutable, and
/// the closures capture only key paths and readers, which are immutable too.
public struct OutputOption: @unchecked Sendable {
    /// The manifest's key under `output`, and plan.json's under `settings`.
    public let key: String
    /// The long flag's name without its dashes: the key in kebab case unless the table says.
    public let flagName: String
    /// What the value looks like in help (`DB`); nil for a flag that takes none.
    public let valueName: String?
    /// One line of help, ending with the default where there is one.
    public let help: String
    let path: PartialKeyPath<StitchSettings>
    /// A value from the command line's text: nil when taken, else the message naming the flag.
    let readText: (String, inout StitchSettings) -> String?
    /// A value the command line read as its type (`Int`, `Double`, an enumeration; plain for an optional setting): as `readText`.
    let readValue: (Any, inout StitchSettings) -> String?
    /// A value from JSON (a manifest, relative to its folder): nil when taken, else what was wrong.
    let readJSON: (Any, String, inout StitchSettings) -> String?
    /// The flag that takes no value sets this.
    let setFlag: ((inout StitchSettings) -> Void)?
    /// What is wrong with this option's value in `settings`, or nil.
    let problem: (StitchSettings) -> String?
    let copy: (StitchSettings, inout StitchSettings) -> Void
    let same: (StitchSettings, StitchSettings) -> Bool
    let encode: (StitchSettings, inout KeyedEncodingContainer<SettingKey>) throws -> Void
    let decode: (KeyedDecodingContainer<SettingKey>, inout StitchSettings) throws -> Void

    /// The flag as typed: `--transition-duration`.
    package var flag: String { "--" + flagName }

    /// The option named by a manifest key.
    public static func named(_ key: String) -> OutputOption? { all.first { $0.key == key } }

    /// One table entry. `flag`: the flag takes no value and sets this one.
    static func option<Value: Codable & Equatable & Sendable>(
        _ key: String, _ path: WritableKeyPath<StitchSettings, Value>, _ reader: OptionReader<Value>,
        valueName: String? = nil, flagName: String? = nil, flag: Value? = nil, help: String, defaultText: String? = nil
    ) -> OutputOption {
        let shown = defaultText ?? reader.describe(StitchSettings()[keyPath: path])
        let dashed = "--" + (flagName ?? kebab(key))
        // The command line's refusal of a text no value matches (of a value out of range: nil).
        let refusal = { (text: String?) in text.flatMap { t in reader.unknown.map { "\(dashed): \($0(t))" } } ?? "\(dashed) must be \(reader.expects)" }
        return OutputOption(
            key: key, flagName: flagName ?? kebab(key), valueName: flag == nil ? valueName : nil,
            help: flag == nil ? "\(help)\(reader.range.map { ", \($0)" } ?? "") (default: \(shown))." : help + ".", path: path,
            readText: { text, settings in
                guard let value = reader.text(text) else { return refusal(text) }
                settings[keyPath: path] = value
                return nil
            },
            readValue: { given, settings in
                guard let value = given as? Value else { preconditionFailure("\(dashed) takes \(Value.self), not \(type(of: given))") }
                guard reader.accepts(value) else { return refusal(nil) }
                settings[keyPath: path] = value
                return nil
            },
            readJSON: { json, folder, settings in
                guard let value = reader.json(json, folder) else { return reader.refusal(json as? String) }
                settings[keyPath: path] = value
                return nil
            },
            setFlag: flag.map { value in { $0[keyPath: path] = value } },
            problem: { reader.accepts($0[keyPath: path]) ? nil : reader.refusal(nil) },
            copy: { from, to in to[keyPath: path] = from[keyPath: path] },
            same: { $0[keyPath: path] == $1[keyPath: path] },
            encode: { settings, container in try container.encode(settings[keyPath: path], forKey: SettingKey(key)) },
            decode: { container, settings in
                let value = try container.decode(Value.self, forKey: SettingKey(key))
                guard reader.accepts(value) else { throw SettingError("settings.\(key): \(reader.refusal(nil))") }
                settings[keyPath: path] = value
            }
        )
    }

    /// A manifest key in kebab case: `musicVolume` → `music-volume`.
    private static func kebab(_ key: String) -> String {
        key.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }
}

/// How one option's value is read from text or JSON and checked, and how
/// messages and help describe it.
struct OptionReader<Value: Sendable>: Sendable {
    /// What a good value looks like: "a number from -60 to 12 (dB)".
    let expects: String
    let text: @Sendable (String) -> Value?
    let json: @Sendable (Any, _ folder: String) -> Value?
    let accepts: @Sendable (Value) -> Bool
    let describe: @Sendable (Value) -> String
    /// A message for a string no value matches, when "expected …" says too little.
    var unknown: (@Sendable (String) -> String)?
    /// The range help shows ("from -60 to 12"), for numbers.
    var range: String?

    /// What was wrong with `given` (a string the reader refused, if it was one).
    func refusal(_ given: String?) -> String {
        if let given, let unknown { return unknown(given) }
        return "expected \(expects)"
    }

    /// The same reading for an optional setting: nil is a value (off, or "from the first clip").
    var optional: OptionReader<Value?> {
        // A refused value is nil outside: the reading failed, it did not read "none".
        OptionReader<Value?>(expects: expects, text: { text($0).map(Optional.some) }, json: { json($0, $1).map(Optional.some) },
                             accepts: { $0.map(accepts) ?? true }, describe: { $0.map(describe) ?? "none" },
                             unknown: unknown, range: range)
    }
}

extension OptionReader where Value == Double {
    static func number(_ limit: Limit, unit: String = "") -> OptionReader {
        OptionReader(expects: "a number \(limit.phrase)\(unit.isEmpty ? "" : " (\(unit))")",
                     text: { Double($0).flatMap { limit.contains($0) ? $0 : nil } },
                     json: { value, _ in JSONValue.number(value).flatMap { limit.contains($0) ? $0 : nil } },
                     accepts: { limit.contains($0) }, describe: { Plan.decimal($0) }, range: limit.phrase)
    }

    static func seconds(_ limit: Limit) -> OptionReader { number(limit, unit: "seconds") }
}

extension OptionReader where Value == Int {
    static func wholeNumber(_ limit: Limit) -> OptionReader {
        OptionReader(expects: "a whole number \(limit.phrase)",
                     text: { Int($0).flatMap { limit.contains($0) ? $0 : nil } },
                     json: { value, _ in
                         guard JSONValue.isNumber(value), let number = value as? Int, limit.contains(number) else { return nil }
                         return number
                     },
                     accepts: { limit.contains($0) }, describe: { "\($0)" }, range: limit.phrase)
    }

    static var bitRate: OptionReader {
        let limit = OptionLimits.audioBitRate
        return OptionReader(expects: "like 128k or 128000, \(Int(limit.lower) / 1000)k to \(Int(limit.upper) / 1000)k bits a second",
                            text: OutputValues.bitRate, json: { value, _ in JSONValue.text(value).flatMap(OutputValues.bitRate) },
                            accepts: { limit.contains($0) }, describe: { "\($0 / 1000)k" })
    }
}

extension OptionReader where Value == Bool {
    /// true or false in a manifest; on the command line the flag alone.
    static var yesNo: OptionReader {
        OptionReader(expects: "true or false", text: { Bool($0) },
                     json: { value, _ in JSONValue.isNumber(value) ? nil : value as? Bool },
                     accepts: { _ in true }, describe: { "\($0)" })
    }
}

extension OptionReader where Value == String {
    static var preset: OptionReader {
        let presets = OptionLimits.presets
        return OptionReader(expects: "one of \(presets.joined(separator: ", "))",
                            text: { presets.contains($0) ? $0 : nil },
                            json: { value, _ in (value as? String).flatMap { presets.contains($0) ? $0 : nil } },
                            accepts: { presets.contains($0) }, describe: { $0 },
                            unknown: { "unknown preset '\($0)' (\(presets.joined(separator: ", ")))" })
    }

    /// A file path or URL; a manifest's is relative to the manifest's folder.
    static var path: OptionReader {
        OptionReader(expects: "a file path or URL", text: { $0.isEmpty ? nil : $0 },
                     json: { value, folder in
                         guard let text = value as? String, !text.isEmpty else { return nil }
                         return ClipList.resolve(text, relativeTo: folder)
                     },
                     accepts: { !$0.isEmpty }, describe: { $0 })
    }

    /// An ISO 639-2 language code: three lowercase letters.
    static var language: OptionReader {
        let isCode: @Sendable (String) -> Bool = { $0.count == 3 && $0.unicodeScalars.allSatisfy { ("a"..."z").contains($0) } }
        return OptionReader(expects: "an ISO 639-2 language code (three lowercase letters, e.g. eng)",
                            text: { isCode($0) ? $0 : nil }, json: { value, _ in (value as? String).flatMap { isCode($0) ? $0 : nil } },
                            accepts: isCode, describe: { $0 })
    }
}

extension OptionReader where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's names.
    static func choice() -> OptionReader {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return OptionReader(expects: "one of \(names)", text: { Value(rawValue: $0) },
                            json: { value, _ in (value as? String).flatMap(Value.init(rawValue:)) },
                            accepts: { _ in true }, describe: { $0.rawValue },
                            unknown: { "'\($0)' is not one of \(names)" })
    }
}

extension OptionReader where Value == TransitionKind {
    static var transition: OptionReader {
        OptionReader(expects: "a transition's name", text: { TransitionKind(name: $0) },
                     json: { value, _ in (value as? String).flatMap(TransitionKind.init(name:)) },
                     accepts: { _ in true }, describe: { $0.rawValue }, unknown: TransitionCatalogue.unknown)
    }
}

extension OptionReader where Value == Size {
    static var size: OptionReader {
        OptionReader(expects: "WxH with even numbers \(OptionLimits.side.phrase), e.g. 1280x720",
                     text: OutputValues.size, json: { value, _ in (value as? String).flatMap(OutputValues.size) },
                     accepts: { OutputValues.size($0.description) == $0 }, describe: { $0.description })
    }
}

extension OptionReader where Value == Rational {
    static var frameRate: OptionReader {
        OptionReader(expects: "a number or fraction \(OptionLimits.frameRate.phrase), e.g. 30 or 30000/1001 (terms up to \(Int32.max))",
                     text: OutputValues.frameRate, json: { value, _ in JSONValue.text(value).flatMap(OutputValues.frameRate) },
                     accepts: { rate in
                         rate.isValid && [rate.numerator, rate.denominator].allSatisfy(OptionLimits.frameRateTerm.contains)
                             && OptionLimits.frameRate.contains(rate.value)
                     },
                     describe: { $0.description })
    }
}

/// Some output options chosen, the others left to the next source: the
/// command line's over a manifest's over the defaults. Set one as a setting:
/// `options.transition = .fade`.
@dynamicMemberLookup
public struct OutputOptions: Sendable, Equatable {
    /// The defaults, with the chosen options' values.
    private(set) var values = StitchSettings()
    /// The keys of the options chosen.
    private(set) var chosen: Set<String> = []
    /// A manifest's `output.hls`: the output is to be an HLS ladder (`-o DIR/master.m3u8`).
    package var asksForHLS = false

    public init() {}

    public subscript<Value>(dynamicMember path: WritableKeyPath<StitchSettings, Value>) -> Value {
        get { values[keyPath: path] }
        set {
            values[keyPath: path] = newValue
            if let option = OutputOption.all.first(where: { $0.path == path }) { chosen.insert(option.key) }
        }
    }

    /// Whether the option was chosen here.
    package func chose(_ option: OutputOption) -> Bool { chosen.contains(option.key) }

    /// Reads `option` from the command line's text; nil when taken, else the message naming the flag.
    mutating func read(_ option: OutputOption, text: String) -> String? {
        let problem = option.readText(text, &values)
        if problem == nil { chosen.insert(option.key) }
        return problem
    }

    /// Takes `value` as the command line read it (`20` for `--crf 20`): as `read(flag:value:)` its text.
    public mutating func read<Value>(_ option: OutputOption, typed value: Value) -> String? {
        let problem = option.readValue(value, &values)
        if problem == nil { chosen.insert(option.key) }
        return problem
    }

    /// Reads `option` from a manifest's JSON value; nil when taken, else what was wrong.
    mutating func read(_ option: OutputOption, json: Any, folder: String) -> String? {
        let problem = option.readJSON(json, folder, &values)
        if problem == nil { chosen.insert(option.key) }
        return problem
    }

    /// Sets a flag that takes no value (`--smart`).
    package mutating func set(_ option: OutputOption) {
        guard let set = option.setFlag else { return }
        set(&values)
        chosen.insert(option.key)
    }

    /// Reads one flag as the command line gives it: the value, or none for a
    /// flag that takes none. Nil when taken, else the message for the user.
    public mutating func read(flag option: OutputOption, value: String?) -> String? {
        if option.setFlag != nil {
            if let value { return "\(option.flag) takes no value (got '\(value)')" }
            set(option)
            return nil
        }
        guard let value else { return "\(option.flag) needs a value" }
        return read(option, text: value)
    }

    /// These choices, with `fallback`'s where these make none.
    package func overriding(_ fallback: OutputOptions?) -> OutputOptions {
        guard let fallback else { return self }
        var merged = self
        for option in OutputOption.all where !chose(option) && fallback.chose(option) {
            option.copy(fallback.values, &merged.values)
            merged.chosen.insert(option.key)
        }
        return merged
    }

    /// The first chosen value outside its option's range, as a message naming the flag.
    package func problem() -> String? {
        for option in OutputOption.all where chose(option) {
            if let problem = option.problem(values) { return "\(option.flag): \(problem)" }
        }
        return nil
    }

    public static func == (a: OutputOptions, b: OutputOptions) -> Bool {
        a.chosen == b.chosen && OutputOption.all.allSatisfy { !a.chose($0) || $0.same(a.values, b.values) }
    }
}

// MARK: plan.json

/// A key of plan.json's settings: an option's key, or `sampleRate`.
struct SettingKey: CodingKey {
    let stringValue: String
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }

    static let sampleRate = SettingKey("sampleRate")
}

/// A setting a file holds that isn't one Segue writes.
struct SettingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Stored by the option table: every option by its manifest key, each
/// present (null where unset), read back strictly: an unknown or missing
/// key, or a value outside its range, is an error naming it.
extension StitchSettings: Codable {
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: SettingKey.self)
        for option in OutputOption.all { try option.encode(self, &container) }
        try container.encode(sampleRate, forKey: .sampleRate)
    }

    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        let known = Set(OutputOption.all.map(\.key) + [SettingKey.sampleRate.stringValue])
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw SettingError("settings.\(unknown): unknown setting")
        }
        if let missing = known.sorted().first(where: { !container.contains(SettingKey($0)) }) {
            throw SettingError("settings.\(missing): missing")
        }
        self.init()
        for option in OutputOption.all { try option.decode(container, &self) }
        sampleRate = try container.decode(Int.self, forKey: .sampleRate)
        guard [44_100, 48_000].contains(sampleRate) else { throw SettingError("settings.sampleRate: expected 44100 or 48000") }
    }
}

// MARK: values

/// How JSONSerialization's values are told apart.
enum JSONValue {
    /// JSONSerialization turns true into an NSNumber too; this tells them apart.
    static func isNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) != "c" && type(of: number) != type(of: NSNumber(value: true))
    }

    static func number(_ value: Any) -> Double? {
        isNumber(value) ? (value as? NSNumber)?.doubleValue : nil
    }

    /// A string, or a number written as text (`30`, `128000`).
    static func text(_ value: Any) -> String? {
        (value as? String) ?? (isNumber(value) ? "\(value)" : nil)
    }
}

/// Parsing of values the command line and manifests share.
public enum OutputValues {
    /// Bytes from a whole number (`1500000`) or a number and a unit of 1024s
    /// (`500M`, `1.5G`, `1500k`): k, M, G or T in either case, alone or with
    /// B or iB after it (`500MB`, `500MiB`); `B` alone is bytes. Anything
    /// else (`5bbG`, `1e3k`, ` 5M`, `-1`) is refused, as is a size outside
    /// `OptionLimits.byteSize`.
    public static func byteSize(_ text: String) -> Int? {
        let powers: [Character: Double] = ["k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40]
        var number = Substring(text.lowercased())
        var unit = 1.0
        if number.hasSuffix("b") {
            number = number.dropLast()
            if number.hasSuffix("i") {
                number = number.dropLast()
                guard let last = number.last, powers[last] != nil else { return nil }
            }
        }
        if let last = number.last, let power = powers[last] {
            unit = power
            number = number.dropLast()
        }
        // Digits, with at most one point between digits: no sign, exponent, space, inf or nan.
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }) else {
            return nil
        }
        if parts.count == 1, unit == 1 {
            guard let whole = Int(number) else { return nil }
            return OptionLimits.byteSize.contains(whole) ? whole : nil
        }
        guard parts.count == 1 || unit > 1, let value = Double(number) else { return nil }
        let bytes = (value * unit).rounded()
        guard bytes.isFinite, OptionLimits.byteSize.contains(bytes) else { return nil }
        return Int(bytes)
    }

    package static func size(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              OptionLimits.side.contains(width), OptionLimits.side.contains(height), width % 2 == 0, height % 2 == 0 else { return nil }
        return Size(width: width, height: height)
    }

    /// A frame rate within `OptionLimits.frameRate`, whose terms fit the 32 bits libav keeps them in.
    package static func frameRate(_ text: String) -> Rational? {
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

    package static func bitRate(_ text: String) -> Int? {
        let lowered = text.lowercased()
        let thousands = lowered.hasSuffix("k")
        guard let number = Int(thousands ? lowered.dropLast() : lowered[...]) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: thousands ? 1000 : 1)
        guard !overflow, OptionLimits.audioBitRate.contains(value) else { return nil }
        return value
    }
}
