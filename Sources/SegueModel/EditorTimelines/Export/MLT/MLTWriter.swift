import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as MLT (not written yet).
    func mltExport() throws -> TimelineExport {
        throw EditTimelineError("MLT export is not written yet")
    }
}
