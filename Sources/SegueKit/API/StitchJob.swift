import Foundation
internal import SegueMedia
import SegueRender
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// Everything a stitch is asked to do, as a program says it.
public struct StitchRequest: Sendable {
    /// Media files, URLs and clip lists (text, ffconcat, JSON manifests), in playing order.
    package var inputs: [String]
    /// The file to write: its extension says the container (.mp4, .m4v, .mov: MP4; .webm: WebM; .m3u8: an HLS ladder's master playlist).
    package var output: String
    /// The caller's choices about the output; what it leaves nil comes from a
    /// manifest's `output`, then from the defaults (`StitchSettings`).
    public var options = OutputOptions()
    /// Replace an existing output file.
    public var overwrite = false
    /// Drop unusable inputs (each reported as a warning) instead of failing.
    public var skipBad = false
    /// Any decode error ends the stitch instead of being concealed.
    public var strict = false
    /// Pre-open the next clip while the current one plays (off only to measure what it hides).
    public var preload = true
    /// Timeout and retries for remote clips.
    public var network = NetworkSettings()
    /// Keep fetched remote clips in this folder, validated on the next run.
    public var cacheFolder: String?
    /// Size limit of the cache in bytes; least recently used clips are evicted.
    public var cacheMaxBytes: Int?
    /// Where to write the JSON report, if anywhere.
    public var reportPath: String?
    /// Folders every local input must lie in (`--input-root`); empty: anywhere.
    public var inputRoots: [String] = []
    /// Whether http(s) inputs may be opened (`--no-remote` turns it off).
    public var allowRemote = true
    /// Folders an editor's timeline's media is looked for in, by name, when it isn't where the timeline says (`--media-root`).
    public var mediaRoots: [String] = []
    /// After a stitch, write what was rendered as an editor's timeline to this file, the format
    /// from its extension: `.fcpxml`, `.xml` (xmeml), `.edl`, `.mlt` or `.otio` (`--export-timeline`).
    public var exportTimeline: String?
    /// After a stitch, write what was rendered as an OpenTimelineIO timeline to this file (`--export-otio`).
    public var exportOTIO: String?
    /// Name the exports' local media relative to each export's folder (`--export-relative`).
    public var exportRelative = false

    public init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }

    /// What inputs may be opened; a usage error names an input root that doesn't exist.
    func inputPolicy() throws -> InputPolicy {
        try InputPolicy.confined(to: inputRoots, allowRemote: allowRemote)
    }

    /// The request's choices about the run itself.
    var runOptions: RunOptions { RunOptions(overwrite: overwrite, strict: strict, preload: preload) }

    /// The timelines to write when the stitch is done (`--export-timeline`, `--export-otio`).
    public var timelineExports: [TimelineExportTarget] {
        [exportTimeline.flatMap(TimelineExportTarget.init(path:)), exportOTIO.map(TimelineExportTarget.otio)].compactMap { $0 }
    }

    /// What the output's name asks for (its extension); nil for a name Segue doesn't write.
    /// Only the request reads the name so: the plan carries a `RenderTarget`.
    package var outputContainer: OutputContainer? { OutputContainer(path: output) }

    /// Checks every value is in its range; a `.usage` error names the first
    /// that isn't, as the command line's flag (each option has one of the same name).
    public func validate() throws {
        func check(_ holds: Bool, _ message: String) throws {
            if !holds { throw SegueError.usage(message) }
        }
        try check(!inputs.isEmpty, "give at least one input")
        try check(!output.isEmpty, "-o needs a file name")
        try check(outputContainer != nil, OutputContainer.refusal(path: output))
        if let problem = options.problem() { throw SegueError.usage(problem) }
        try check(reportPath.map { !$0.isEmpty } ?? true, "--report needs a file name")
        try check(exportOTIO.map { !$0.isEmpty } ?? true, "--export-otio needs a file name")
        try check(exportTimeline.map { TimelineExportFormat(path: $0) != nil } ?? true,
                  "--export-timeline \(exportTimeline ?? ""): the file name must end in \(TimelineExportFormat.extensions)")
        try check(!exportRelative || !timelineExports.isEmpty, "--export-relative needs --export-timeline FILE")
        try check(Set(timelineExports.map { URL(fileURLWithPath: $0.path).standardizedFileURL }).count == timelineExports.count,
                  "--export-timeline and --export-otio name the same file")
        try check(OptionLimits.timeout.contains(network.timeout), "--timeout must be \(OptionLimits.timeout.phrase) seconds")
        try check(OptionLimits.retries.contains(network.retries), "--retries must be \(OptionLimits.retries.phrase)")
        try check(cacheMaxBytes == nil || cacheFolder != nil, "--cache-max needs --cache DIR")
        _ = try inputPolicy()
    }
}

/// Does everything `segue stitch` does, in one call: expands clip lists and
/// manifests, probes every input (several at once, over the network and the
/// cache as asked), reports every bad input at once or skips them, plans,
/// stitches with progress and a stop request, writes the report, and returns it.
///
/// ```swift
/// var request = StitchRequest(inputs: ["intro.mp4", "clips.txt"], output: "reel.mp4")
/// request.options.transition = .fade
/// let report = try StitchJob(request).run { event in
///     if case .warning(let text) = event { print("warning:", text) }
/// }
/// print(report.summary)
/// ```
public final class StitchJob {
    /// What the job tells its caller while it runs.
    public enum Event: Sendable {
        /// Something the user should know; the stitch goes on.
        case warning(String)
        /// How far the stitch has got, a few times a second.
        case progress(StitchProgress)
    }

    package let request: StitchRequest

    public init(_ request: StitchRequest) {
        self.request = request
    }

    /// Runs the job. Throws a `SegueError` whose reason says what failed;
    /// raising `stop` ends it within a frame, with nothing written.
    public func run(stop: StopRequest = StopRequest(), onEvent: (Event) -> Void = { _ in }) throws -> StitchReport {
        let (plan, settings, access, _) = try prepare(onEvent: onEvent)
        let exporter = timelineExporter(access: access)
        _ = try exporter.documents(plan, settings: settings)
        let stitcher = try Stitcher.writing(request.output, plan: plan, settings: settings, access: access, options: request.runOptions)
        let report = try stitcher.run(stop: stop) { onEvent(.progress($0)) }
        if let path = request.reportPath {
            do {
                try report.json(plan: stitcher.plan, settings: settings).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                onEvent(.warning(Warning.reportNotWritten(path: path, detail: error.localizedDescription, output: request.output).description))
            }
        }
        report.warnings.filter { !plan.warnings.contains($0) }.forEach { onEvent(.warning($0)) }
        try exporter.write(stitcher.plan, settings: settings) { onEvent(.warning($0)) }
        return report
    }

    /// The exports this request asks for, naming media as it asks.
    func timelineExporter(access: InputAccess) -> TimelineExporter {
        TimelineExporter(targets: request.timelineExports, relative: request.exportRelative, cacheFolder: request.cacheFolder, access: access)
    }

    /// Where the exports may write: not over the output or an input, and
    /// only in overlap mode (a freeze join's inserted frames have no form in an editor's timeline).
    private func checkExport(settings: StitchSettings, entries: [ClipEntry]) throws {
        for path in request.timelineExports.map(\.path) {
            guard settings.mode == .overlap else { throw SegueError.usage("--export-timeline \(path) needs --mode overlap") }
            func same(_ other: String) -> Bool {
                URL(fileURLWithPath: other).standardizedFileURL.resolvingSymlinksInPath()
                    == URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
            }
            let music = settings.music.map { [$0] } ?? []
            if same(request.output) || (request.inputs + music).contains(where: same) || entries.contains(where: { same($0.path) }) {
                throw SegueError.usage("--export-timeline \(path) would write over an input or the output")
            }
            try OutputFile.checkOutput(path, overwrite: request.overwrite)
        }
    }

    /// Everything before the stitch, shared with `PlanJob`: checks the
    /// request and the output, expands the lists, probes every input, reports
    /// the bad ones (or skips them), and plans. The loudness pass and the
    /// smart scan follow, in `PlannedStitch`.
    /// `outputFolderMayBeMade`: the output is written later, by a join that
    /// makes its folder (`PlanJob`).
    func prepare(outputFolderMayBeMade: Bool = false, onEvent: (Event) -> Void) throws
        -> (plan: Plan, settings: StitchSettings, access: InputAccess, joins: [JoinChoice?]) {
        // Everything that can be checked is checked before any encoding.
        try request.validate()
        let access = try inputAccess()
        // With --no-audio a timeline's sound tracks are not resolved: their media needn't be found.
        let list = ClipList.expand(request.inputs, access: access, mediaRoots: request.mediaRoots, edlRate: request.options.frameRate,
                                   sound: try resolvedSettings(manifest: nil).0.includeAudio)
        let (settings, containerNotices) = try resolvedSettings(manifest: list.output)
        if settings.mode == .freeze, list.entries.contains(where: { ($0.edit?.before ?? 0) + ($0.edit?.after ?? 0) > 0 }) {
            throw SegueError.usage("--mode freeze can't play an editor's timeline's transitions: they overlap the clips' handles")
        }
        let playlist = request.outputContainer == .hls
        try checkLadderRequest(settings: settings, playlist: playlist, manifestAsks: list.output?.asksForHLS == true)
        try OutputFile.checkOutput(request.output, overwrite: request.overwrite, folderMayBeMade: outputFolderMayBeMade || playlist)
        if let report = request.reportPath { try OutputFile.checkOutput(report, overwrite: true) }
        try checkExport(settings: settings, entries: list.entries)
        try checkCover(settings: settings, entries: list.entries)

        var usable: [(entry: ClipEntry, info: ClipInfo)] = []
        var bad = list.bad
        let probed = Prober.probeEach(list.entries, access: access, photoSeconds: settings.stillDuration)
        for (entry, result) in zip(list.entries, probed) {
            switch result {
            case .success(let info): usable.append((entry, info))
            case .failure(let input): bad.append(input)
            }
        }
        // Subtitles are read now, so a named file that can't be is reported with the clips.
        let subtitled = ClipSubtitleReader.readAll(usable.map(\.info), settings: settings, strict: request.strict, access: access)
        for index in usable.indices { usable[index].info = subtitled.infos[index] }
        bad += subtitled.bad.keys.sorted().map { subtitled.bad[$0]! }
        usable = usable.indices.filter { subtitled.bad[$0] == nil }.map { usable[$0] }
        // The music bed must be usable too: it is never skipped.
        if settings.includeAudio, let music = settings.music, let problem = MusicBed.check(music, access: access) {
            throw SegueError.badInputs(bad + [problem])
        }
        // So must the font, when anything is written in it.
        if usable.contains(where: { $0.info.use.caption != nil || $0.info.use.card.map { !$0.text.isEmpty } == true })
            || settings.font != nil
            || settings.subtitles == .burn && usable.contains(where: { $0.info.subtitles != nil }),
           let problem = FontFile.check(settings.font, access: access) {
            throw SegueError.badInputs(bad + [problem])
        }
        // And the overlay, drawn over every picture.
        if let overlay = settings.overlay, let problem = OverlayPicture.check(overlay, access: access) {
            throw SegueError.badInputs(bad + [problem])
        }
        if !bad.isEmpty {
            guard request.skipBad, !usable.isEmpty else { throw SegueError.badInputs(bad) }
            bad.forEach { onEvent(.warning(Warning.skipped($0).description)) }
        }
        var plan = try Plan(clips: usable.map(\.info), settings: settings, joins: usable.map(\.entry.join), sounds: list.sounds,
                            places: usable.map(\.entry.soundPlace))
        plan.notices = list.notices + containerNotices + plan.notices + subtitled.notices
        if playlist { try checkLadder(plan: plan, settings: settings) }
        plan = try plan.aimed(at: request.output, settings: settings)
        plan.warnings.forEach { onEvent(.warning($0)) }
        return (plan, settings, access, usable.map(\.entry.join))
    }

    /// Where `--cover` and `--poster` may write: an .mp4 and a .jpg, not over the output, an input or each other.
    private func checkCover(settings: StitchSettings, entries: [ClipEntry]) throws {
        let asked = [("--cover", settings.cover, ["mp4", "m4v"]), ("--poster", settings.poster, ["jpg", "jpeg"])]
        let paths = asked.compactMap { $0.1 }
        guard !paths.isEmpty else {
            if settings.coverAt != nil { throw SegueError.usage("--cover-at needs --cover or --poster") }
            return
        }
        func same(_ a: String, _ b: String) -> Bool {
            URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath() == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
        }
        for (flag, path, extensions) in asked {
            guard let path else { continue }
            guard extensions.contains((path as NSString).pathExtension.lowercased()) else {
                throw SegueError.usage("\(flag) \(path): the name must end in .\(extensions.joined(separator: " or ."))")
            }
            if same(path, request.output) || request.inputs.contains(where: { same($0, path) }) || entries.contains(where: { same($0.path, path) })
                || paths.filter({ same($0, path) }).count > 1 {
                throw SegueError.usage("\(flag) \(path) would write over an input, the output or the other")
            }
            try OutputFile.checkOutput(path, overwrite: request.overwrite)
        }
    }

    /// What an HLS output (`-o DIR/master.m3u8`) can't be made with, before any work; `--ladder`
    /// and `--hls-time` (or a manifest's `output.hls`) without one.
    private func checkLadderRequest(settings: StitchSettings, playlist: Bool, manifestAsks: Bool) throws {
        guard playlist else {
            if manifestAsks {
                throw SegueError.usage("the manifest's output.hls asks for an HLS ladder: -o names its master playlist "
                                       + "(DIR/master.m3u8), not \(request.output)")
            }
            if settings.ladder != nil || settings.hlsSeconds != StitchSettings().hlsSeconds {
                throw SegueError.usage("--ladder and --hls-time are for an HLS output (-o DIR/master.m3u8)")
            }
            return
        }
        if settings.smart { throw SegueError.usage("--smart can't copy into an HLS ladder: every rendition is encoded") }
    }

    /// The canvas's ladder checked: a codec the ladder's rungs aren't, a rung sharper than the canvas: exit 2.
    private func checkLadder(plan: Plan, settings: StitchSettings) throws {
        // SDR rungs are H.264; an HDR canvas's HLG or PQ rungs HEVC, with an SDR ladder beside them.
        let hdr = plan.canvas.colour.dynamicRange.isHDR
        if settings.codec != (hdr ? .hevc : .h264) {
            throw SegueError.usage("--codec \(settings.codec.rawValue): an HLS ladder's " + (hdr
                ? "HDR renditions are HEVC (--codec hevc), beside H.264 SDR ones" : "SDR renditions are H.264 (HDR ones, HEVC, come with --hdr hlg or pq)"))
        }
        do { _ = try HLSLadder(canvas: plan.canvas, settings: settings) } catch let error as LadderError {
            throw SegueError.usage(error.message)
        }
    }

    /// The request's choices over the manifest's over the defaults, fitted
    /// to the container the output's name says (its codec when none is chosen);
    /// with the notes that fitting makes.
    func resolvedSettings(manifest: OutputOptions?) throws -> (StitchSettings, [Warning]) {
        let options = request.options.overriding(manifest)
        let container = request.outputContainer ?? .mp4
        return try StitchSettings(options: options).fitted(to: container, codecChosen: options.chose(OutputOption.named("codec")!),
                                                            output: request.output)
    }

    private func inputAccess() throws -> InputAccess {
        var access = InputAccess(network: request.network, policy: try request.inputPolicy())
        if let folder = request.cacheFolder {
            do {
                access.cache = try RemoteCache(folder: folder, maxBytes: request.cacheMaxBytes)
            } catch {
                throw SegueError.outputFolder(folder, reason: "can't use it as a cache (\(error.localizedDescription))")
            }
        }
        return access
    }
}
