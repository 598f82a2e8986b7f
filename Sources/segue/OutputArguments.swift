import ArgumentParser
import SegueKit

/// The output options' flags (`--transition fade`, `--crf=20`, `--smart`) as
/// an argument group made from the option table, their one definition: the
/// group's arguments are the table's rows, so parsing, help, completions and
/// `--experimental-dump-help` all come from the argument parser.
///
/// The argument parser finds a group's arguments by reflecting on it; this
/// group reflects as one argument per row instead of stored properties. That
/// is how swift-argument-parser 1.8 works, not its documented API: Package.swift
/// pins the version, and OptionTableTests parses every row through this group.
struct OutputArguments: ParsableArguments, CustomReflectable {
    /// What each flag was given, by manifest key: its text, or "" for a flag without value.
    private var given: [String: String] = [:]

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TableKey.self)
        for option in OutputOption.all {
            let key = TableKey(option.key)
            if option.valueName == nil {
                if try container.decode(Flag<Bool>.self, forKey: key).wrappedValue { given[option.key] = "" }
            } else if let text = try container.decode(Option<String?>.self, forKey: key).wrappedValue {
                given[option.key] = text
            }
        }
    }

    var customMirror: Mirror {
        Mirror(self, children: OutputOption.all.map { option in
            (label: "_" + option.key, value: Self.argument(for: option))
        })
    }

    /// The choices made, read by the table; a value it refuses is bad usage (exit 2).
    func options() throws -> OutputOptions {
        var chosen = OutputOptions()
        for option in OutputOption.all {
            guard let text = given[option.key] else { continue }
            if let problem = chosen.read(flag: option, value: option.valueName == nil ? nil : text) {
                throw ValidationError(problem)
            }
        }
        return chosen
    }

    /// The argument the parser reads for `option`: a flag, or an option whose
    /// value is taken as typed even when it starts with a dash (`--loudness -16`).
    private static func argument(for option: OutputOption) -> Any {
        let help = ArgumentHelp(option.help + " [\(option.key)]", valueName: option.valueName)
        if option.valueName == nil {
            return Flag<Bool>(wrappedValue: false, name: .customLong(option.flagName), help: help)
        }
        return Option<String?>(name: .customLong(option.flagName), parsing: .unconditional, help: help)
    }

    private struct TableKey: CodingKey {
        let stringValue: String
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
