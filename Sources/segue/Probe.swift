import ArgumentParser
import Foundation
import SegueKit

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what Segue sees in each clip, and whether it can use it.",
        discussion: """
        One row per clip: container, video codec, coded size, display size (after
        rotation and pixel aspect), rotation, frame rate (VFR when variable),
        duration, audio, dynamic range (SDR, HLG, PQ), colour matrix, range,
        scan (progressive or interlaced), and a verdict.

        Examples:
          segue probe clips.txt
          segue probe a.mp4 b.mov --json
          segue probe edit.otio --media-root /srv/footage

        Exit codes: 0 all usable; 2 some input is not usable.
        """
    )

    @Argument(help: "Media files and clip lists.")
    var inputs: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup(title: "Untrusted inputs")
    var safety: InputSafety

    @OptionGroup(title: "Editors' timelines")
    var timelines: TimelineMedia

    func run() throws {
        let results = try ProbeJob.run(inputs, policy: safety.policy(), mediaRoots: timelines.mediaRoots)
        print(json ? try ProbeJob.json(results) : ProbeJob.table(results))
        if results.contains(where: { if case .failure = $0 { true } else { false } }) { throw ExitCode(2) }
    }
}
