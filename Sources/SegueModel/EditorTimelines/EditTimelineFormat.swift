import Foundation

/// The editors' timeline formats Segue reads, by file name.
package enum EditTimelineFormat: String, Sendable {
    /// OpenTimelineIO's JSON (`.otio`).
    case otio
    /// CMX 3600 EDL (`.edl`).
    case cmx3600
    /// Final Cut Pro 7 XML, an `xmeml` root (`.xml`).
    case fcp7xml

    package init?(_ path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "otio": self = .otio
        case "edl": self = .cmx3600
        case "xml": self = .fcp7xml
        default: return nil
        }
    }
}
