import Foundation
internal import SegueMedia
import SegueRender
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// `segue plan`: probes, measures loudness where asked, plans, cuts the plan
/// into segments of about `segmentSeconds`, and writes `DIR/plan.json`.
/// Planning again with the same inputs and flags writes the same plan, so the
/// segments already rendered stay good (a rerun resumes); a different plan
/// makes them stale (each receipt names the plan it was made from).
public final class PlanJob {
    package let request: StitchRequest
    package let work: String
    package let segmentSeconds: Double
    /// Write the request's timeline exports now, from the plan (`segue plan --export-timeline`);
    /// otherwise they are only checked, and `JoinJob` writes them once the output is.
    package let writesExports: Bool

    public static let defaultSegmentSeconds = 60.0
    public static let segmentSecondsLimit = Limit(lower: 0.1, upper: 86_400)

    public init(_ request: StitchRequest, work: String, segmentSeconds: Double = PlanJob.defaultSegmentSeconds, writesExports: Bool = false) {
        self.request = request
        self.work = work
        self.segmentSeconds = segmentSeconds
        self.writesExports = writesExports
    }

    public func run(onEvent: (StitchJob.Event) -> Void = { _ in }) throws -> SegmentPlan {
        guard PlanJob.segmentSecondsLimit.contains(segmentSeconds) else {
            throw SegueError.usage("--segment-duration must be \(PlanJob.segmentSecondsLimit.phrase) seconds")
        }
        guard !work.isEmpty else { throw SegueError.usage("--work needs a folder") }
        if request.outputContainer == .webm {
            // A join lays each segment's AAC frames end to end on one grid; Opus has none such here.
            throw SegueError.usage("\(request.output): segmented renders (plan, render and join; --jobs, --work) write MP4 or HLS, not WebM: "
                                   + "their join copies each segment's AAC sound on one frame grid, and WebM's sound is Opus; "
                                   + "stitch it in one process")
        }
        let job = StitchJob(request)
        let (plan, settings, access, joins) = try job.prepare(outputFolderMayBeMade: true, onEvent: onEvent)
        let exporter = job.timelineExporter(access: access)
        _ = try exporter.documents(plan, settings: settings)
        // The loudness pass runs once, here; every segment plays with its results.
        let planned = try PlannedStitch(plan: plan, settings: settings, access: access, copiesSound: false)
        // --smart: a boundary inside a copied GOP moves to the nearer end of it, so the GOP stays copied.
        let boundary = { (frame: Int) -> Int in
            guard let gop = planned.smart?.copiedGOP(strictlyHolding: frame) else { return frame }
            return frame - gop.lowerBound <= gop.upperBound - frame ? gop.lowerBound : gop.upperBound
        }
        let segments = SegmentPlan(plan: planned.plan, settings: settings, joins: joins, run: request.runOptions, network: request.network, policy: access.policy,
                                   segmentSeconds: segmentSeconds,
                                   boundary: boundary)
        try segments.write(work: work)
        if writesExports { try exporter.write(planned.plan, settings: settings) { onEvent(.warning($0)) } }
        return segments
    }
}

/// What `RenderJob` did.
public struct RenderOutcome: Sendable {
    package var segment: Int
    /// The segment was already rendered (from this plan): nothing was done.
    public var alreadyDone: Bool
    public var frames: Int
    public var wallSeconds: Double
}

/// `segue render`: renders one segment of a plan. Idempotent: a segment
/// already rendered from this plan returns at once; a render writes its
/// files under names of its own and commits them with its receipt (a
/// rename), so overlapping runs of one segment can't corrupt it.
public final class RenderJob {
    package let work: String
    package let segment: Int

    /// The array-job engines' index variables, in the order they are asked.
    public static let indexVariables = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]

    /// The segment an array-job engine gave this task: the first variable of
    /// `indexVariables` that is set. Nil when none is; a usage error when it isn't a number.
    public static func segmentFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
        for name in indexVariables {
            guard let value = environment[name], !value.isEmpty else { continue }
            guard let index = Int(value.trimmingCharacters(in: .whitespaces)), index >= 0 else {
                throw SegueError.usage("$\(name) is '\(value)', not a segment number")
            }
            return index
        }
        return nil
    }

    public init(work: String, segment: Int) {
        self.work = work
        self.segment = segment
    }

    public func run(stop: StopRequest = StopRequest(), progress: (StitchProgress) -> Void = { _ in }) throws -> RenderOutcome {
        let rendered = try SegmentRender(work: work, segment: segment).run(stop: stop, progress: progress)
        return RenderOutcome(segment: segment, alreadyDone: rendered.alreadyDone, frames: rendered.frames,
                             wallSeconds: rendered.wallSeconds)
    }

    /// Whether segment `segment` of the plan in `work` is rendered (from that plan, its files all there).
    public static func isRendered(segment: Int, work: String) -> Bool {
        SegmentRender.isRendered(segment: segment, work: work)
    }
}

/// What a join did, for its summary line and `--report`.
public struct JoinReport: Sendable {
    public struct Segment: Sendable {
        package var index: Int
        package var frames: Int
        package var wallSeconds: Double
        package var host: String
    }

    package var output: String
    package var canvas: Canvas
    package var frames: Int
    package var audioSamples: Int
    package var segments: [Segment]
    package var wallSeconds: Double
    /// An HLS output's renditions: each playlist with its files' size, bit rates and codecs.
    package var renditions: [StitchReport.Rendition] = []
    /// The cover and poster the join made from the output, when asked for.
    package var cover: StitchReport.Cover?
    /// Every file the output is: itself, or an HLS ladder's every playlist and segment.
    package var files: [String] = []

    package var duration: Double { Double(frames) / canvas.frameRate.value }
    package var renderSeconds: Double { segments.map(\.wallSeconds).reduce(0, +) }

    public var summary: String {
        let share = renderSeconds > 0 ? 100 * wallSeconds / renderSeconds : 0
        return "Joined \(segments.count) segment\(segments.count == 1 ? "" : "s") → \(output): "
            + String(format: "%.2f s, %d frames, %dx%d @ %@ fps; took %.2f s (%.1f %% of %.1f s of rendering)",
                     duration, frames, canvas.width, canvas.height, canvas.frameRate.description, wallSeconds, share,
                     renderSeconds)
    }

    package func json() throws -> Data {
        let object: [String: Any] = [
            "output": output, "files": files, "frames": frames, "duration": duration, "audioSamples": audioSamples,
            "joinSeconds": wallSeconds, "renderSeconds": renderSeconds,
            "segments": segments.map { ["index": $0.index, "frames": $0.frames, "wallSeconds": $0.wallSeconds, "host": $0.host] },
        ].merging(renditions.isEmpty ? [:] : ["renditions": renditions.map(\.json)]) { $1 }
            .merging(cover.map { ["cover": $0.json(frameRate: canvas.frameRate)] } ?? [:]) { $1 }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

/// `segue join`: checks every segment (receipt, frame and sample counts,
/// sizes, checksums); if any is missing or damaged, fails naming each and
/// writes nothing. Otherwise copies the segments' video packets into one MP4
/// and their AAC packets into one sound track, each at its place on the
/// output's time line: nothing is decoded or encoded. A report that can't be
/// written is a warning, as for `StitchJob`: the output was.
public final class JoinJob {
    package let work: String
    package let reportPath: String?
    /// The editors' timelines to write of what was joined (`stitch --jobs --export-timeline`), named as they ask.
    package let exports: [TimelineExportTarget]
    package let exportRelative: Bool
    package let cacheFolder: String?

    public init(work: String, reportPath: String? = nil, exports: [TimelineExportTarget] = [], exportRelative: Bool = false,
                cacheFolder: String? = nil) {
        self.work = work
        self.reportPath = reportPath
        self.exports = exports
        self.exportRelative = exportRelative
        self.cacheFolder = cacheFolder
    }

    /// Joins; `onEvent` hears the warnings (only `.warning` events come).
    public func run(stop: StopRequest = StopRequest(), onEvent: (StitchJob.Event) -> Void = { _ in }) throws -> JoinReport {
        let started = monotonicSeconds()
        let record = try SegmentPlan.load(work: work)
        try OutputFile.checkOutput(record.output, overwrite: record.overwrite, folderMayBeMade: true)
        for path in [record.settings.cover, record.settings.poster].compactMap({ $0 }) {
            try OutputFile.checkOutput(path, overwrite: record.overwrite)
        }
        if let reportPath { try OutputFile.checkOutput(reportPath, overwrite: true) }
        let fingerprint = try SegmentPlan.fingerprint(work: work)
        let includeAudio = record.settings.includeAudio
        var problems: [(Int, String)] = []
        var manifests: [SegmentManifest] = []
        for segment in record.segments {
            if let problem = SegmentFiles.problem(with: segment, isLast: segment.index == record.segments.count - 1, work: work,
                                                  includeAudio: includeAudio, renditions: record.renditionPlaylists, deep: true) {
                problems.append((segment.index, problem))
            } else if let manifest = SegmentFiles.manifest(work: work, segment: segment.index) {
                if manifest.plan != fingerprint { problems.append((segment.index, "rendered from another plan")) }
                manifests.append(manifest)
            }
        }
        if !problems.isEmpty {
            throw SegueError(.segmentsNotReady(problems.map(\.0)), subject: work,
                             detail: problems.map { "segment \($0.0): \($0.1)" }.joined(separator: "\n"))
        }
        let plan = try record.timeline()
        var renditions: [StitchReport.Rendition] = []
        var files = [record.output]
        let samples: Int, cover: StitchReport.Cover?
        if record.ladder != nil {
            // An HLS output: the segments' own media files, named by playlists.
            (renditions, cover, files) = try SegmentJoiner(record: record, plan: plan, work: work, manifests: manifests).writeLadder(stop: stop)
            samples = includeAudio ? plan.sampleIndex(atFrame: plan.totalFrames) : 0
        } else {
            try OutputFile.makeOutputFolder(for: record.output)
            (samples, cover) = try SegmentJoiner(record: record, plan: plan, work: work, manifests: manifests).writeMP4(stop: stop)
        }
        let report = JoinReport(
            output: record.output, canvas: plan.canvas, frames: plan.totalFrames, audioSamples: samples,
            segments: manifests.map { JoinReport.Segment(index: $0.segment, frames: $0.frames, wallSeconds: $0.wallSeconds, host: $0.host) },
            wallSeconds: monotonicSeconds() - started, renditions: renditions, cover: cover, files: files)
        if let reportPath {
            do {
                try report.json().write(to: URL(fileURLWithPath: reportPath), options: .atomic)
            } catch {
                let warning = Warning.reportNotWritten(path: reportPath, detail: error.localizedDescription, output: record.output)
                onEvent(.warning(warning.description))
            }
        }
        try TimelineExporter(targets: exports, relative: exportRelative, cacheFolder: cacheFolder, access: InputAccess())
            .write(plan, settings: record.settings) { onEvent(.warning($0)) }
        return report
    }
}
