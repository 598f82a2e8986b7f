import SegueModel
import SegueRuntime

extension CoverMaker {
    /// The cover and poster of a segmented render, made by its join from the output it wrote
    /// (read back from `source`), where the segments' scouts together place them; nil when neither is asked for.
    static func joined(record: SegmentPlan, plan: Plan, manifests: [SegmentManifest],
                       source: (Range<Int>) throws -> Source) throws -> StitchReport.Cover? {
        let settings = record.settings
        guard settings.cover != nil || settings.poster != nil else { return nil }
        let noNotes = CoverNotes(change: [], firstGrid: [], lastGrid: [])
        let scout = CoverScout(segments: zip(record.segments, manifests).map { ($1.cover ?? noNotes, $0.frames) })
        do {
            return try CoverMaker(settings: settings, canvas: plan.canvas).make(total: plan.totalFrames, scout: scout, source: source)
        } catch let error as SegueError {
            throw error
        } catch {
            throw OutputFile.writeFailure(error, output: settings.cover ?? settings.poster ?? record.output, doing: "can't write the cover")
        }
    }
}
