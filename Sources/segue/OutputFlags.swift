import Foundation
import SegueKit

/// The output options' flags (`--transition fade`, `--crf=20`, `--smart`),
/// read from the option table, which is their one definition: `stitch` and
/// `plan` take them out of the arguments before the argument parser reads
/// the rest, and their help is the table's.
enum OutputFlags {
    /// What the command line chose; read once, before any command runs.
    nonisolated(unsafe) static var chosen = OutputOptions()

    /// The subcommands that take the output options; the default subcommand is `stitch`.
    static let commands: Set<String> = ["stitch", "plan"]
    static let otherCommands: Set<String> = ["probe", "transitions", "render", "join", "help"]

    /// Takes the output flags out of `arguments` (the process's, without the
    /// program's name) when the command takes them, into `chosen`; returns
    /// the rest. Throws the message for a value the table refuses.
    static func extract(_ arguments: [String]) throws -> [String] {
        guard let first = arguments.first, !otherCommands.contains(first) else { return arguments }
        let byFlag = Dictionary(uniqueKeysWithValues: OutputOption.all.map { ($0.flag, $0) })
        var rest: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            // After `--` everything is an input.
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            let (name, attached) = split(argument)
            guard let option = byFlag[name] else {
                rest.append(argument)
                continue
            }
            var value = attached
            // A value may start with a dash (`--loudness -16`): the next argument is taken as it is.
            if value == nil, option.valueName != nil, index < arguments.endIndex {
                value = arguments[index]
                index += 1
            }
            if let problem = chosen.read(flag: option, value: value) { throw OutputFlagError(message: problem) }
        }
        return rest
    }

    /// `--crf=20` → ("--crf", "20"); `--crf` → ("--crf", nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The options' help, from the table, as `stitch --help` shows it.
    static var help: String {
        var lines = ["Output options (each also a key of a manifest's \"output\", in camel case):"]
        for option in OutputOption.all {
            let usage = "  " + option.flag + (option.valueName.map { " <\($0)>" } ?? "")
            let manifest = option.key
            lines += wrap(option.help + " [\(manifest)]", first: usage, indent: 26, width: 79)
        }
        return lines.joined(separator: "\n")
    }

    /// `text` wrapped to `width`, after `first` padded to `indent` (or on its own line when longer).
    private static func wrap(_ text: String, first: String, indent: Int, width: Int) -> [String] {
        var lines: [String] = []
        var line = first.padding(toLength: indent, withPad: " ", startingAt: 0)
        if first.count >= indent - 1 {
            lines.append(first)
            line = String(repeating: " ", count: indent)
        }
        var lineHasWords = false
        for word in text.split(separator: " ") {
            if lineHasWords && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWords = false
            }
            line += (lineHasWords ? " " : "") + word
            lineHasWords = true
        }
        lines.append(line)
        return lines
    }
}

/// An output flag's value the table refused: bad usage, exit 2.
struct OutputFlagError: Error {
    let message: String
}
