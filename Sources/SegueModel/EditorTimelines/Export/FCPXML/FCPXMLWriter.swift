import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as FCPXML (not written yet).
    func fcpxmlExport() throws -> TimelineExport {
        throw EditTimelineError("FCPXML export is not written yet")
    }
}
