import ArgumentParser
import SegueKit

/// The operator's two choices about untrusted inputs, shared by `stitch` and
/// `probe`; everything else about input safety holds without a flag.
struct InputSafety: ParsableArguments {
    @Option(name: .customLong("input-root"), help: ArgumentHelp("Every local input (from the command line, a list, a manifest or --music) must lie in this folder after symlinks and .. are resolved; may be repeated.", valueName: "DIR"))
    var inputRoots: [String] = []

    @Flag(name: .customLong("no-remote"), help: "Refuse http(s) inputs anywhere; no request is made.")
    var noRemote = false

    /// The policy these flags ask for; a usage error names a root that doesn't exist.
    func policy() throws -> InputPolicy {
        try InputPolicy.confined(to: inputRoots, allowRemote: !noRemote)
    }
}
