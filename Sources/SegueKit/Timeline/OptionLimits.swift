import Foundation

/// A number option's allowed range, and how messages say it.
public struct Limit: Sendable {
    public var lower: Double
    public var upper: Double
    /// The lower bound itself is not allowed ("more than 0").
    public var excludesLower = false

    public func contains(_ value: Double) -> Bool {
        value <= upper && (excludesLower ? value > lower : value >= lower)
    }

    public func contains(_ value: Int) -> Bool { contains(Double(value)) }

    /// "from -40 to -5", or "more than 0 and at most 60".
    public var phrase: String {
        excludesLower ? "more than \(Plan.decimal(lower)) and at most \(Plan.decimal(upper))"
            : "from \(Plan.decimal(lower)) to \(Plan.decimal(upper))"
    }
}

/// Every option's range: the one definition the command line, manifests,
/// the request's checks and their messages read. (Defaults live in
/// `StitchSettings` and `NetworkSettings`.)
public enum OptionLimits {
    public static let transitionDuration = Limit(lower: 0, upper: 60, excludesLower: true)
    public static let crf = Limit(lower: 0, upper: 51)
    public static let stillDuration = Limit(lower: 0, upper: 3600, excludesLower: true)
    public static let loudness = Limit(lower: -40, upper: -5)
    public static let musicVolume = Limit(lower: -60, upper: 12)
    public static let duck = Limit(lower: 0, upper: 60)
    public static let timeout = Limit(lower: 0, upper: 3600, excludesLower: true)
    public static let retries = Limit(lower: 0, upper: 20)
    /// Each side of `--size`, in pixels (and even).
    public static let side = Limit(lower: 2, upper: 8192)
    /// `--fps`, frames a second.
    public static let frameRate = Limit(lower: 0.001, upper: 240)
    /// Each term of a frame rate written as a fraction: libav keeps them in 32 bits.
    public static let frameRateTerm = Limit(lower: 1, upper: Double(Int32.max))
    /// `--cache-max`, bytes (with a k, M, G or T suffix: binary multiples).
    public static let byteSize = Limit(lower: 1, upper: 0x1p62)
    /// `--audio-bitrate`, bits a second.
    public static let audioBitRate = Limit(lower: 8000, upper: 512_000)
    /// The presets libx264 and libx265 share.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
}

/// Each output option's names: its manifest key (`output.KEY`) and its
/// command-line flag, the one place the parser, the manifest reader and the
/// request's messages take them from.
public enum OutputOption: String, CaseIterable, Sendable {
    case size, fps, fit, transition, transitionDuration, mode, codec, crf, preset, audioBitrate, audio,
         stillDuration, stillMotion, loudness, music, musicVolume, duck, chapters, smart

    /// The manifest's key under `output`.
    public var key: String { rawValue }

    /// The long flag's name without its dashes: the key in kebab case
    /// (`transitionDuration` → `transition-duration`); `audio` is set off by `--no-audio`.
    public var flagName: String {
        if self == .audio { return "no-audio" }
        return rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }

    /// The flag as typed: `--transition-duration`.
    public var flag: String { "--" + flagName }
}
