import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as CMX3600 (not written yet).
    func cmx3600Export() throws -> TimelineExport {
        throw EditTimelineError("CMX3600 export is not written yet")
    }
}
