import ArgumentParser
import Foundation
import SegueKit

struct Stitch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stitch clips (files or clip lists) into one MP4 or WebM.",
        discussion: """
        An input is a media file, a photo (a still of --still-duration seconds) or
        a clip list: a .txt file with one path per line (# comments, paths
        relative to the list's folder), an ffconcat script (file, inpoint,
        outpoint, duration), a .json manifest with per-clip in/out points,
        durations, titles and per-join transitions, or an editor's timeline
        (OpenTimelineIO .otio, CMX 3600 .edl, Final Cut Pro 7 .xml, Final Cut Pro X
        and DaVinci Resolve .fcpxml).

        Examples:
          segue stitch a.mp4 b.mp4 c.mp4 -o out.mp4
          segue stitch clips.txt -o reel.mp4 --transition fade
          segue stitch list.ffconcat -o reel.mp4 --transition fade --transition-duration 0.5
          segue stitch clips.txt -o story.mp4 --transition slide-up --size 1080x1920 --fit cover
          segue stitch clips.txt -o reel.mp4 --transition circleopen --transition-duration 0.6
          segue stitch clips.txt -o reel.mp4 --transition fade --mode freeze --report reel.json
          segue stitch clips.txt -o reel.webm --transition fade --codec av1
          segue stitch intro.mp4 photo.jpg outro.mp4 -o reel.mp4 --transition fade --loudness -16 --music bed.m4a --chapters
          segue stitch edit.otio -o cut.mp4 --media-root /srv/footage --export-otio rendered.otio
          segue stitch clips.json -o reel.mp4 --transition fade --export-timeline reel.fcpxml

        Exit codes: 0 done; 1 failed while stitching; 2 bad usage or bad inputs
        (nothing written); 130/143 stopped by SIGINT/SIGTERM (nothing written).

        """
    )

    // Options without a default here: a manifest's output settings fill what
    // the command line leaves out, and the defaults come last.
    @Argument(help: "Media files and clip lists, in playing order.")
    var inputs: [String]
    @Option(name: .short, help: ArgumentHelp("The file to write: .mp4 (or .m4v, .mov) for MP4, .webm for WebM (VP9 or AV1, Opus), "
                                             + ".m3u8 for an HLS ladder (this master playlist, its renditions beside it).",
                                             valueName: "OUT.mp4"))
    var output: String

    @OptionGroup(title: "Output options (each also a key of a manifest's \"output\", in camel case)")
    var outputOptions: OutputArguments

    // Behaviour
    @Option(help: ArgumentHelp("Write a JSON report of the stitch to this file.", valueName: "FILE.json"))
    var report: String?
    @Flag(name: .short, help: "Overwrite the output file if it exists.")
    var y = false
    @Flag(help: "Drop unusable inputs with a warning and stitch the rest.")
    var skipBad = false
    @Flag(help: "Treat any decode error as fatal (exit 1, nothing written) instead of concealing it.")
    var strict = false
    @Flag(help: "Print nothing but errors.")
    var quiet = false

    // Remote clips
    @Option(help: ArgumentHelp("Keep fetched remote clips in this folder, checked for changes on the next run.", valueName: "DIR"))
    var cache: String?
    @Option(help: ArgumentHelp("Size limit of --cache, e.g. 500M or 2G; least recently used clips are evicted (default: no limit).", valueName: "SIZE"))
    var cacheMax: String?
    @Option(help: "Seconds any one network operation may take (default: \(Plan.decimal(NetworkSettings().timeout))).")
    var timeout: Double?
    @Option(help: "Extra tries after a transient network failure: refused, reset, timed out, HTTP 5xx (default: \(NetworkSettings().retries)).")
    var retries: Int?
    @Flag(help: "Open each clip only when it is needed (debugging: shows what preloading hides).")
    var noPreload = false

    @OptionGroup(title: "Untrusted inputs")
    var safety: InputSafety

    @OptionGroup(title: "Editors' timelines")
    var timelines: TimelineMedia
    @Option(help: ArgumentHelp("After the stitch, write what was rendered as an editor's timeline to this file, the format from its "
                               + "extension: .fcpxml (Final Cut Pro, DaVinci Resolve), .xml (Premiere Pro, Final Cut Pro 7), "
                               + ".edl (CMX 3600), .mlt (Shotcut, Kdenlive, melt) or .otio (OpenTimelineIO).", valueName: "FILE"))
    var exportTimeline: String?
    @Option(help: ArgumentHelp("After the stitch, write what was rendered as an OpenTimelineIO timeline to this file (as --export-timeline FILE.otio).",
                               valueName: "FILE.otio"))
    var exportOtio: String?
    @Flag(help: "Name the exported timeline's media by paths relative to its folder, not absolute ones.")
    var exportRelative = false

    // Segments: see Segments.swift
    @Option(help: ArgumentHelp("Render in segments, N at once (child processes), then join them by copy.", valueName: "N"))
    var jobs: Int?
    @Option(help: ArgumentHelp("Keep the plan and the segments in this folder, so a rerun resumes (default with --jobs: a temporary folder).", valueName: "DIR"))
    var work: String?
    @Option(help: ArgumentHelp("Seconds of output per segment (default: \(Plan.decimal(PlanJob.defaultSegmentSeconds))).", valueName: "S"))
    var segmentDuration: Double?

    /// What the request can't say is checked here (text that doesn't parse);
    /// the rest by the request itself, in the library.
    func validate() throws {
        func parses<T>(_ text: String?, _ parse: (String) -> T?, _ message: String) throws {
            if let text, parse(text) == nil { throw ValidationError(message) }
        }
        try parses(cacheMax, OutputValues.byteSize, "--cache-max must be a size such as 500M or 2G (k, M, G, T), from 1 byte to 4 EiB")
        try validateSegments()
        do {
            try request().validate()
        } catch let error as SegueError {
            throw ValidationError(error.description)
        }
    }

    /// The flags as a request; what they leave out, a manifest or the defaults decide.
    func request() throws -> StitchRequest {
        var request = StitchRequest(inputs: inputs, output: output)
        request.options = try outputOptions.options()
        request.overwrite = y
        request.skipBad = skipBad
        request.strict = strict
        request.preload = !noPreload
        request.network.timeout = timeout ?? request.network.timeout
        request.network.retries = retries ?? request.network.retries
        request.cacheFolder = cache
        request.cacheMaxBytes = cacheMax.flatMap(OutputValues.byteSize)
        request.reportPath = report
        request.inputRoots = safety.inputRoots
        request.allowRemote = !safety.noRemote
        request.mediaRoots = timelines.mediaRoots
        request.exportOTIO = exportOtio
        request.exportTimeline = exportTimeline
        request.exportRelative = exportRelative
        return request
    }

    func run() throws {
        if jobs != nil || work != nil { return try runInSegments() }
        let progress = ProgressPrinter(enabled: !quiet)
        let stop = StopRequest()
        let signals = stop.raise(on: [SIGINT, SIGTERM])
        defer {
            signals.cancel()
            progress.clear()
        }
        let output = output
        StopDeadline.arm(stop) { unlink(OutputFile.temporaryPath(for: output)) }
        let report = try StitchJob(request()).run(stop: stop) { event in
            switch event {
            case .progress(let state): progress.update(state)
            case .warning(let text):
                guard !quiet else { return }
                progress.clear()
                Terminal.warning(text)
            }
        }
        progress.clear()
        if !quiet { Terminal.write(report.summary + "\n") }
    }
}


/// A live bar on a terminal, redrawn a few times a second; a plain line every
/// few seconds otherwise.
final class ProgressPrinter {
    private let enabled: Bool
    private var lastPlainLine = 0.0
    private var drewBar = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: StitchProgress) {
        guard enabled else { return }
        if Terminal.isInteractive {
            let filled = Int(progress.fraction * 24)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled)
            Terminal.write("\r[\(bar)] \(progress)\u{1B}[K")
            drewBar = true
        } else if progress.elapsedSeconds - lastPlainLine >= 5 {
            lastPlainLine = progress.elapsedSeconds
            Terminal.write("segue: \(progress)\n")
        }
    }

    func clear() {
        if drewBar { Terminal.write("\r\u{1B}[K") }
        drewBar = false
    }
}
