import ArgumentParser
import Foundation
import SegueKit

/// `segue plan`: the stitch's inputs and flags, planned and cut into segments in --work.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan a stitch and cut it into segments for `segue render` (any machine, any array-job engine) and `segue join`.",
        discussion: """
        Takes every flag of `segue stitch`. Writes DIR/plan.json (absolute paths, the
        settings, the planned timeline, the segments) and prints "segments: N" last.
        With --export-timeline FILE it writes the planned cut as an editor's timeline
        too, without rendering.

        Examples:
          segue plan clips.txt -o /shared/out.mp4 --work /shared/job --transition fade
          sbatch --array=0-$((N-1)) --wrap "segue render /shared/job"
          segue join /shared/job
        """
    )

    @OptionGroup var stitch: Stitch

    func validate() throws {
        guard stitch.work != nil else { throw ValidationError("plan needs --work DIR, the folder the segments are rendered into") }
        guard stitch.jobs == nil else { throw ValidationError("--jobs is stitch's: plan only writes the plan") }
    }

    func run() throws {
        let plan = try stitch.plan(writesExports: true)
        if !stitch.quiet {
            Terminal.write(String(format: "planned %d frames (%.2f s) in %@\n", plan.totalFrames,
                                  Double(plan.totalFrames) / plan.canvas.frameRate.value, SegmentPlan.path(work: stitch.work!)))
        }
        print("segments: \(plan.segments.count)")
    }
}
