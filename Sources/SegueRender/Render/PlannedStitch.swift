import Foundation
import SegueInput
import SegueModel
internal import SegueMedia

/// A plan made ready to stitch, before anything is written: each clip's
/// loudness measured where the settings need it (the loudness pass), and
/// with `--smart` what is copied (every clip scanned). Whoever stitches makes
/// it once: `StitchJob`, `PlanJob` (for every segment), `RenderJob`.
package struct PlannedStitch: Sendable {
    /// The plan, its clips' loudness measured where `--loudness` or `--music` need it.
    package private(set) var plan: Plan
    package let settings: StitchSettings
    /// Opens every input of the run, clips and music alike, with its network settings and cache.
    package let access: InputAccess
    /// What `--smart` copies; nil without it.
    package let smart: SmartPlan?

    /// `copiesSound`: false for segments, whose sound is encoded on their own.
    package init(plan: Plan, settings: StitchSettings, access: InputAccess = InputAccess(), copiesSound: Bool = true) throws {
        self.plan = PlannedStitch.measuringLoudness(of: plan, settings: settings, access: access)
        self.settings = settings
        self.access = access
        smart = settings.smart ? try PlannedStitch.smartPlan(self.plan, settings: settings, access: access, copiesSound: copiesSound) : nil
    }

    /// `--loudness` and `--music` need each clip's measured loudness: clips
    /// the caller did not measure are measured here, never left as recorded.
    /// A timeline's own sound is measured as its mix (`measuringTimelineSounds`).
    static func measuringLoudness(of plan: Plan, settings: StitchSettings, access: InputAccess) -> Plan {
        guard settings.includeAudio, settings.loudness != nil || settings.music != nil else { return plan }
        var plan = plan
        if plan.clips.contains(where: { $0.info.facts.audio != nil && !$0.info.facts.isStill && $0.info.loudness == nil }) {
            let (measured, failures) = LoudnessMeter.measureAll(plan.clips.map(\.info), access: access)
            for index in plan.clips.indices { plan.clips[index].info = measured[index] }
            plan.notices += failures
        }
        if LoudnessMeter.timelineSoundsUnmeasured(plan) { plan = LoudnessMeter.measuringTimelineSounds(plan, access: access) }
        return plan
    }

    private static func smartPlan(_ plan: Plan, settings: StitchSettings, access: InputAccess, copiesSound: Bool) throws -> SmartPlan {
        // A freeze holds a clip's last picture and the next one's first: those GOPs are decoded.
        try SmartPlan(plan: plan, settings: settings, access: access, copiesSound: copiesSound, ownFrames: plan.ownFrames(of:),
                      heldEdges: plan.heldEdges(of:))
    }
}
