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

/// Where an editor's timeline's media may be found when it isn't where the
/// timeline says; shared by `stitch` and `probe`.
struct TimelineMedia: ParsableArguments {
    @Option(name: .customLong("media-root"), help: ArgumentHelp("Look for an editor's timeline's media (.otio, .edl, .xml, .fcpxml) that isn't where the timeline says by its file name (an EDL's: its clip name, then its reel) under this folder; may be repeated.", valueName: "DIR"))
    var mediaRoots: [String] = []
}
