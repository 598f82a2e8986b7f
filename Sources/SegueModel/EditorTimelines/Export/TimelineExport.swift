import Foundation
import SegueCore

/// The editors' formats `--export-timeline` writes, told by the file's extension.
package enum TimelineExportFormat: String, Sendable, CaseIterable {
    /// OpenTimelineIO JSON (`.otio`), what `--export-otio` writes.
    case otio
    /// FCPXML 1.10 for Final Cut Pro 10.6+ and DaVinci Resolve 18+ (`.fcpxml`).
    case fcpxml
    /// Final Cut Pro 7 / Premiere Pro XML, xmeml version 5 (`.xml`).
    case xmeml
    /// CMX 3600 EDL of the video track (`.edl`).
    case edl
    /// MLT XML for Shotcut, Kdenlive and `melt` (`.mlt`).
    case mlt

    /// The format a file name's extension names (case-insensitive); nil for any other.
    package init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "otio": self = .otio
        case "fcpxml": self = .fcpxml
        case "xml": self = .xmeml
        case "edl": self = .edl
        case "mlt": self = .mlt
        default: return nil
        }
    }

    /// The extensions, as a usage error lists them.
    package static let extensions = ".fcpxml, .xml, .edl, .mlt or .otio"
}

/// A written timeline and what it could not hold (warnings, each naming the item).
package struct TimelineExport: Sendable {
    package var data: Data
    package var warnings: [String]

    package init(data: Data, warnings: [String] = []) {
        self.data = data
        self.warnings = warnings
    }
}

extension EditTimeline {
    /// The timeline written in `format`. Throws `EditTimelineError` naming
    /// what the format cannot hold (a record time past an EDL's 24 hours, a
    /// rate it lacks), so a stitch can refuse before rendering.
    package func exported(as format: TimelineExportFormat) throws -> TimelineExport {
        var export: TimelineExport
        switch format {
        case .otio: export = TimelineExport(data: try otioJSON(), warnings: exportNotes(dropped: "OpenTimelineIO"))
        case .fcpxml: export = try fcpxmlExport()
        case .xmeml: export = try xmemlExport()
        case .edl: export = try cmx3600Export()
        case .mlt: export = try mltExport()
        }
        export.warnings = variableRateNotes() + export.warnings
        return export
    }

    /// One warning per variable-frame-rate medium: editors place it at its average rate.
    private func variableRateNotes() -> [String] {
        var seen = Set<String>()
        let clips = (videoTracks.isEmpty ? items : videoTracks.flatMap(\.items)).compactMap { item -> EditClip? in
            if case .clip(let clip) = item { return clip } else { return nil }
        }
        return clips.compactMap { clip in
            guard let facts = clip.media.facts, facts.variableRate, let location = clip.media.location,
                  seen.insert(location).inserted else { return nil }
            return "\(location): a variable frame rate; the export places it at its average rate, \(Plan.decimal(facts.rate.value)) fps"
        }
    }

    /// What the OTIO writer leaves out (it keeps today's `--export-otio` shape): titles and the music bed.
    private func exportNotes(dropped format: String) -> [String] {
        var notes: [String] = []
        if !titles.isEmpty { notes.append("\(format) export: \(titles.count) title(s) and caption(s) are not written (gaps under them)") }
        if music != nil { notes.append("\(format) export: the music bed is not written") }
        return notes
    }
}
