import Foundation

/// The editors' timeline formats Segue reads, by file name.
package enum EditTimelineFormat: String, Sendable {
    /// OpenTimelineIO's JSON (`.otio`).
    case otio
    /// CMX 3600 EDL (`.edl`).
    case cmx3600
    /// Final Cut Pro 7 XML, an `xmeml` root (`.xml`).
    case fcp7xml
    /// Final Cut Pro X / DaVinci Resolve FCPXML (`.fcpxml`, or a `.fcpxmld` bundle holding `Info.fcpxml`).
    case fcpxml

    /// The file to read for `path`: a `.fcpxmld` bundle (a folder) is read through its `Info.fcpxml`.
    package static func document(_ path: String) -> String {
        var folder = path
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return (folder as NSString).pathExtension.lowercased() == "fcpxmld" ? folder + "/Info.fcpxml" : path
    }

    package init?(_ path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "otio": self = .otio
        case "edl": self = .cmx3600
        case "xml": self = .fcp7xml
        case "fcpxml", "fcpxmld": self = .fcpxml
        default: return nil
        }
    }
}
