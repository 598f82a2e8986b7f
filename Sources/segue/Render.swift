import ArgumentParser
import Foundation
import SegueKit

/// `segue render`: one segment of a plan; the index from --segment or the array-job engine.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one segment of a plan made by `segue plan`.",
        discussion: """
        Without --segment, the segment is the first of $SLURM_ARRAY_TASK_ID,
        $JOB_COMPLETION_INDEX (Kubernetes Indexed Job) and $AWS_BATCH_JOB_ARRAY_INDEX
        that is set. A segment already rendered from this plan exits 0 at once.

        Exit codes: 0 done (or already done); 1 failed (the clip and the reason are
        named); 2 bad usage (no segment given, no plan); 130/143 stopped.
        """
    )

    @Argument(help: ArgumentHelp("The work folder holding plan.json.", valueName: "DIR"))
    var work: String
    @Option(help: ArgumentHelp("The segment to render, from 0.", valueName: "K"))
    var segment: Int?
    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        guard let index = try segment ?? RenderJob.segmentFromEnvironment() else {
            throw SegueError.usage("no segment given: pass --segment K, or run under an array job that sets "
                                   + RenderJob.indexVariables.map { "$" + $0 }.joined(separator: ", "))
        }
        let progress = ProgressPrinter(enabled: !quiet)
        let stop = StopRequest()
        let signals = stop.raise(on: [SIGINT, SIGTERM])
        defer {
            signals.cancel()
            progress.clear()
        }
        let outcome: RenderOutcome
        do {
            outcome = try RenderJob(work: work, segment: index).run(stop: stop) { progress.update($0) }
        } catch let error as SegueError where error.exitCode == 1 {
            progress.clear()
            Terminal.error("segment \(index) failed (nothing of it was kept):")
            throw error
        }
        progress.clear()
        guard !quiet else { return }
        if outcome.alreadyDone {
            Terminal.write("segment \(index): already rendered\n")
        } else {
            Terminal.write(String(format: "segment %d: %d frames rendered in %.1f s\n", index, outcome.frames, outcome.wallSeconds))
        }
    }
}
