import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as xmeml (not written yet).
    func xmemlExport() throws -> TimelineExport {
        throw EditTimelineError("xmeml export is not written yet")
    }
}
