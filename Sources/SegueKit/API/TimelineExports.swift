import Foundation
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// One editor's timeline a stitch writes when it is done: `--export-timeline`
/// (the format from the extension) or `--export-otio` (OTIO whatever the name).
public struct TimelineExportTarget: Sendable, Equatable {
    public let path: String
    package let kind: TimelineExportFormat

    /// `--export-timeline FILE`: nil when the extension names no format.
    public init?(path: String) {
        guard let kind = TimelineExportFormat(path: path) else { return nil }
        self.init(path: path, kind: kind)
    }

    private init(path: String, kind: TimelineExportFormat) {
        self.path = path
        self.kind = kind
    }

    /// `--export-otio FILE`.
    public static func otio(_ path: String) -> TimelineExportTarget {
        TimelineExportTarget(path: path, kind: .otio)
    }
}

/// Writes the timelines a stitch asked for: checked before rendering (what a
/// format can't hold is a usage error, exit 2), written atomically after it.
struct TimelineExporter {
    let targets: [TimelineExportTarget]
    /// `--export-relative`: media paths relative to each export's folder.
    let relative: Bool
    /// `--cache`: remote clips named by their kept copies.
    let cacheFolder: String?
    let access: InputAccess

    /// Each target's document, from what `plan` renders; throws a usage error naming what doesn't fit.
    func documents(_ plan: Plan, settings: StitchSettings) throws -> [(target: TimelineExportTarget, export: TimelineExport)] {
        try targets.map { target in
            let timeline = rendered(plan, settings: settings, for: target)
            do {
                return (target, try timeline.exported(as: target.kind))
            } catch let error as EditTimelineError {
                throw SegueError.usage("--export-timeline \(target.path): \(error.message)")
            }
        }
    }

    /// Writes each document atomically; `onWarning` hears what a format could not hold.
    func write(_ plan: Plan, settings: StitchSettings, onWarning: (String) -> Void) throws {
        for (target, export) in try documents(plan, settings: settings) {
            export.warnings.forEach(onWarning)
            do {
                try OutputFile.writeAtomically(export.data, to: target.path)
            } catch {
                throw OutputFile.writeFailure(error, output: target.path, doing: "can't write the exported timeline")
            }
        }
    }

    private func rendered(_ plan: Plan, settings: StitchSettings, for target: TimelineExportTarget) -> EditTimeline {
        let cache = cacheFolder
        let paths = ExportPaths(
            currentFolder: FileManager.default.currentDirectoryPath,
            relativeTo: relative ? URL(fileURLWithPath: target.path).standardizedFileURL.deletingLastPathComponent().path : nil,
            cachedCopy: { url in cache.map { "\($0)/\(RemoteCache.key(for: url)).media" } })
        var timeline = EditTimeline.rendered(from: plan, settings: settings, paths: paths)
        if settings.includeAudio, let music = settings.music {
            timeline.music = MusicBed.asPlayed(music, plan: plan, settings: settings, access: access, location: paths.location(of:))
        }
        return timeline
    }
}
