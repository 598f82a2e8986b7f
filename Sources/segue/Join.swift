import ArgumentParser
import Foundation
import SegueKit

/// `segue join`: the rendered segments of a plan, checked and copied into its output.
struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the rendered segments of a plan into its output MP4 (a copy), or name them in its HLS playlists: nothing is re-encoded.",
        discussion: """
        Checks every segment first (rendered, its frame count, its checksum). If any is
        missing or damaged it exits 1 naming each, and writes nothing. The plan's -y
        decides whether an existing output is replaced.
        """
    )

    @Argument(help: ArgumentHelp("The work folder holding plan.json and the segments.", valueName: "DIR"))
    var work: String
    @Option(help: ArgumentHelp("Write a JSON report: each segment's frames, render time and host, and the join's time.", valueName: "FILE.json"))
    var report: String?
    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let stop = StopRequest()
        let signals = stop.raise(on: [SIGINT, SIGTERM])
        defer { signals.cancel() }
        let result = try JoinJob(work: work, reportPath: report).run(stop: stop) { event in
            if case .warning(let text) = event, !quiet { Terminal.warning(text) }
        }
        if !quiet { Terminal.write(result.summary + "\n") }
    }
}
