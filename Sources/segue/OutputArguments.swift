import ArgumentParser
import SegueKit

/// The output options' flags (`--transition fade`, `--crf=20`, `--smart`): one
/// argument per row of the option table (`OutputOption.all`, their one
/// definition), in its order. Each declaration names its row (`row:`) and
/// takes the row's flag, value name and help from it; the value is taken as
/// typed even when it starts with a dash (`--loudness -16`).
///
/// Values are read as their own type where it is plain (`Int`, `Double`, an
/// enumeration); the table reads the others (`WxH`, `30000/1001`, `128k`, a
/// path) and checks every value in `options()`, in its own words: the
/// commands' `validate()` (`Stitch`'s, after its own flags, as it always has)
/// refuses a value with them (exit 2).
///
/// A property is named as its row's key: the argument parser names a flag's
/// value after it (`--experimental-dump-help`).
struct OutputArguments: ParsableArguments {
    @Option(row: "transition") var transition: Typed<TransitionKind>?
    @Option(row: "transitionDuration") var transitionDuration: Typed<Double>?
    @Option(row: "easing") var easing: TableText?
    @Option(row: "mode") var mode: Typed<TransitionMode>?
    @Option(row: "size") var size: TableText?
    @Option(row: "fps") var fps: TableText?
    @Option(row: "fit") var fit: Typed<Fit>?
    @Option(row: "codec") var codec: Typed<VideoCodecChoice>?
    @Option(row: "hdr") var hdr: Typed<HDRChoice>?
    @Option(row: "crf") var crf: Typed<Int>?
    @Option(row: "preset") var preset: TableText?
    @Option(row: "audioBitrate") var audioBitrate: TableText?
    /// `--no-audio`.
    @Flag(row: "audio") var audio = false
    @Flag(row: "smart") var smart = false
    @Option(row: "stillDuration") var stillDuration: Typed<Double>?
    @Option(row: "stillMotion") var stillMotion: Typed<StillMotion>?
    @Option(row: "loudness") var loudness: Typed<Double>?
    @Option(row: "music") var music: TableText?
    @Option(row: "musicVolume") var musicVolume: Typed<Double>?
    @Option(row: "duck") var duck: Typed<Double>?
    @Flag(row: "chapters") var chapters = false
    @Option(row: "overlay") var overlay: TableText?
    @Option(row: "overlayPosition") var overlayPosition: Typed<OverlayPosition>?
    @Option(row: "overlayWidth") var overlayWidth: Typed<Double>?
    @Option(row: "overlayOpacity") var overlayOpacity: Typed<Double>?
    @Option(row: "font") var font: TableText?
    @Option(row: "subtitles") var subtitles: Typed<SubtitleMode>?
    @Option(row: "subtitleLanguage") var subtitleLanguage: TableText?
    @Option(row: "ladder") var ladder: TableText?
    @Option(row: "hlsTime") var hlsTime: Typed<Double>?
    @Option(row: "cover") var cover: TableText?
    @Option(row: "poster") var poster: TableText?
    @Option(row: "coverAt") var coverAt: Typed<Double>?

    /// Every argument given, in the table's order: the first refused is the one reported.
    private var given: [(any OutputArgument)?] {
        [transition, transitionDuration, easing, mode, size, fps, fit, codec, hdr, crf, preset, audioBitrate,
         audio ? TableFlag(row: "audio") : nil, smart ? TableFlag(row: "smart") : nil,
         stillDuration, stillMotion, loudness, music, musicVolume, duck, chapters ? TableFlag(row: "chapters") : nil,
         overlay, overlayPosition, overlayWidth, overlayOpacity, font, subtitles, subtitleLanguage, ladder, hlsTime,
         cover, poster, coverAt]
    }

    /// The choices made, checked by the table; a value it refuses is bad usage (exit 2).
    func options() throws -> OutputOptions {
        var chosen = OutputOptions()
        for argument in given.compactMap({ $0 }) {
            if let problem = argument.choose(in: &chosen) { throw ValidationError(problem) }
        }
        return chosen
    }
}

/// One output option as the command line gave it, handed to its row of the table.
protocol OutputArgument {
    /// Chooses the value in `options`: nil when taken, else the table's message naming the flag.
    func choose(in options: inout OutputOptions) -> String?
}

/// A value read as its own type (`Int`, `Double`, an enumeration); text that
/// doesn't read as one is kept, for the table to refuse in its own words.
struct Typed<Value>: OutputArgument {
    let row: OutputOption
    let text: String
    let value: Value?

    func choose(in options: inout OutputOptions) -> String? {
        guard let value else { return options.read(flag: row, value: text) }
        return options.read(row, typed: value)
    }
}

/// A value only the table reads: a size, a rate, a bit rate, a preset, a path, a language, a list.
struct TableText: OutputArgument {
    let row: OutputOption
    let text: String

    func choose(in options: inout OutputOptions) -> String? { options.read(flag: row, value: text) }
}

/// A flag without value that was given (`--smart`).
struct TableFlag: OutputArgument {
    let row: OutputOption

    init(row key: String) { row = .row(key) }

    func choose(in options: inout OutputOptions) -> String? { options.read(flag: row, value: nil) }
}

extension Option {
    /// The argument of the table's row `key`, its value read as `T` where it reads as one.
    init<T: ExpressibleByArgument>(row key: String) where Value == Typed<T>? {
        let row = OutputOption.row(key)
        self.init(name: .customLong(row.flagName), parsing: .unconditional, help: row.argumentHelp, completion: .default,
                  transform: { Typed(row: row, text: $0, value: T(argument: $0)) })
    }

    /// The argument of the table's row `key`, its value read by the table.
    init(row key: String) where Value == TableText? {
        let row = OutputOption.row(key)
        self.init(name: .customLong(row.flagName), parsing: .unconditional, help: row.argumentHelp, completion: .default,
                  transform: { TableText(row: row, text: $0) })
    }
}

extension Flag where Value == Bool {
    /// The flag of the table's row `key`, which takes no value.
    init(wrappedValue: Bool, row key: String) {
        let row = OutputOption.row(key)
        self.init(wrappedValue: wrappedValue, name: .customLong(row.flagName), help: row.argumentHelp)
    }
}

extension OutputOption {
    /// The row of `key`; a key the table lacks is a mistake in this file.
    static func row(_ key: String) -> OutputOption {
        guard let row = named(key) else { preconditionFailure("OutputArguments: no row '\(key)' in OutputOption.all") }
        return row
    }

    /// The row's help line, naming its manifest key: `Output size (default: ...). [size]`.
    var argumentHelp: ArgumentHelp { ArgumentHelp(help + " [\(key)]", valueName: valueName) }
}

// The plain types the output options are read as, each as the table names its values.
extension TransitionKind: ExpressibleByArgument {
    /// `slide` is read as `slide-left`, as the table reads it.
    public init?(argument: String) { self.init(name: argument) }
}

extension TransitionMode: ExpressibleByArgument {}
extension Fit: ExpressibleByArgument {}
extension VideoCodecChoice: ExpressibleByArgument {}
extension HDRChoice: ExpressibleByArgument {}
extension StillMotion: ExpressibleByArgument {}
extension OverlayPosition: ExpressibleByArgument {}
extension SubtitleMode: ExpressibleByArgument {}
