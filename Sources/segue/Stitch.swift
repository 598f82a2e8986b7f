import ArgumentParser
import Foundation
import SegueKit

struct Stitch: ParsableCommand {
    /// Segue's defaults, for the help texts (the library holds the only copy).
    private static let defaults = StitchSettings()

    static let configuration = CommandConfiguration(
        abstract: "Stitch clips (files or clip lists) into one MP4.",
        discussion: """
        An input is a media file, a photo (a still of --still-duration seconds) or
        a clip list: a .txt file with one path per line (# comments, paths
        relative to the list's folder), an ffconcat script (file, inpoint,
        outpoint, duration), or a .json manifest with per-clip in/out points,
        durations, titles and per-join transitions.

        Examples:
          segue stitch a.mp4 b.mp4 c.mp4 -o out.mp4
          segue stitch clips.txt -o reel.mp4 --transition fade
          segue stitch list.ffconcat -o reel.mp4 --transition fade --transition-duration 0.5
          segue stitch clips.txt -o story.mp4 --transition slide-up --size 1080x1920 --fit cover
          segue stitch clips.txt -o reel.mp4 --transition circleopen --transition-duration 0.6
          segue stitch clips.txt -o reel.mp4 --transition fade --mode freeze --report reel.json
          segue stitch intro.mp4 photo.jpg outro.mp4 -o reel.mp4 --transition fade --loudness -16 --music bed.m4a --chapters

        Exit codes: 0 done; 1 failed while stitching; 2 bad usage or bad inputs
        (nothing written); 130/143 stopped by SIGINT/SIGTERM (nothing written).
        """
    )

    // Options without a default here: a manifest's output settings fill what
    // the command line leaves out, and the defaults come last.
    @Argument(help: "Media files and clip lists, in playing order.")
    var inputs: [String]
    @Option(name: .short, help: ArgumentHelp("The MP4 file to write.", valueName: "OUT.mp4"))
    var output: String

    // Transitions
    @Option(name: .customLong(OutputOption.transition.flagName), help: "none, fade, slide (= slide-left), slide-left, slide-right, slide-up, slide-down, any xfade transition (wipeleft, circleopen, dissolve, ...) or random; `segue transitions` lists them all (default: none).")
    var transition: String?
    @Option(name: .customLong(OutputOption.transitionDuration.flagName), help: "Seconds each transition lasts (default: 0.3 for a slide, 1.0 for fade and the rest).")
    var transitionDuration: Double?
    @Option(name: .customLong(OutputOption.mode.flagName), help: "overlap: clips overlap, the output is shorter; freeze: a held frame of each is blended over inserted time (default: overlap).")
    var mode: String?

    // Canvas and encoding
    @Option(name: .customLong(OutputOption.size.flagName), help: "Output size WxH (default: the first clip's display size).")
    var size: String?
    @Option(name: .customLong(OutputOption.fps.flagName), help: "Output frame rate, e.g. 30 or 30000/1001 (default: the first clip's).")
    var fps: String?
    @Option(name: .customLong(OutputOption.fit.flagName), help: "How a clip of another shape fills the canvas: contain, cover or stretch (default: contain).")
    var fit: Fit?
    @Option(name: .customLong(OutputOption.codec.flagName), help: "Video codec: h264 (libx264) or hevc (libx265, tagged hvc1) (default: h264).")
    var codec: VideoCodecChoice?
    @Option(name: .customLong(OutputOption.crf.flagName), help: "Constant rate factor, \(OptionLimits.crf.phrase), lower is better quality (default: \(Stitch.defaults.crf)).")
    var crf: Int?
    @Option(name: .customLong(OutputOption.preset.flagName), help: "Encoder preset, ultrafast ... veryslow (default: \(Stitch.defaults.preset)).")
    var preset: String?
    @Option(name: .customLong(OutputOption.audioBitrate.flagName), help: "AAC bit rate in bits per second, or with k, e.g. 192k (default: \(Stitch.defaults.audioBitRate / 1000)k).")
    var audioBitrate: String?
    @Flag(name: .customLong(OutputOption.audio.flagName), help: "Leave the audio out.")
    var noAudio = false
    @Flag(name: .customLong(OutputOption.smart.flagName), help: "Copy the video and AAC sound of clips that need no re-encoding; re-encode only the GOPs and AAC frames around joins.")
    var smart = false

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

    // Reels: photos, loudness, music, chapters
    @Option(name: .customLong(OutputOption.stillDuration.flagName), help: ArgumentHelp("Seconds a photo lasts, unless its list entry says (default: \(Plan.decimal(Stitch.defaults.stillDuration))).", valueName: "S"))
    var stillDuration: Double?
    @Option(name: .customLong(OutputOption.stillMotion.flagName), help: "none, or zoom: a slow, smooth 100 → 110 % zoom on each photo (default: none).")
    var stillMotion: String?
    // Unconditional: the values are negative, and must not be taken for flags.
    @Option(name: .customLong(OutputOption.loudness.flagName), parsing: .unconditional, help: ArgumentHelp("Bring each clip's sound to this integrated loudness, \(OptionLimits.loudness.phrase) (default: off).", valueName: "LUFS"))
    var loudness: Double?
    @Option(name: .customLong(OutputOption.music.flagName), help: ArgumentHelp("Lay this file's (or URL's) sound under the whole output, looped or cut to its length.", valueName: "FILE"))
    var music: String?
    @Option(name: .customLong(OutputOption.musicVolume.flagName), parsing: .unconditional, help: ArgumentHelp("The music's level relative to the clips' sound, \(OptionLimits.musicVolume.phrase) (default: \(Plan.decimal(Stitch.defaults.musicVolume))).", valueName: "DB"))
    var musicVolume: Double?
    @Option(name: .customLong(OutputOption.duck.flagName), help: ArgumentHelp("How much lower the music goes while a clip's own sound plays, \(OptionLimits.duck.phrase), 0 is off (default: \(Plan.decimal(Stitch.defaults.duck))).", valueName: "DB"))
    var duck: Double?
    @Flag(name: .customLong(OutputOption.chapters.flagName), help: "Write one MP4 chapter per clip, titled by the manifest's title or the file name.")
    var chapters = false

    // Segments (issue 19): see Segments.swift
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
        try parses(transition, TransitionKind.init(name:), TransitionCatalogue.unknown(transition ?? ""))
        try parses(mode, TransitionMode.init(rawValue:), "unknown mode '\(mode ?? "")' (overlap, freeze)")
        let limits = (side: OptionLimits.side, rate: OptionLimits.frameRate, bitRate: OptionLimits.audioBitRate)
        try parses(size, OutputValues.size, "--size must be WxH with even numbers \(limits.side.phrase), e.g. 1280x720")
        try parses(fps, OutputValues.frameRate,
                   "--fps must be a number or fraction \(limits.rate.phrase), e.g. 30 or 30000/1001 (terms up to \(Int32.max))")
        try parses(audioBitrate, OutputValues.bitRate,
                   "--audio-bitrate must be like 128k or 128000 (\(Int(limits.bitRate.lower) / 1000)k to \(Int(limits.bitRate.upper) / 1000)k)")
        try parses(stillMotion, StillMotion.init(rawValue:), "unknown --still-motion '\(stillMotion ?? "")' (none, zoom)")
        try parses(cacheMax, OutputValues.byteSize, "--cache-max must be a size such as 500M or 2G (k, M, G, T), from 1 byte to 4 EiB")
        try validateSegments()
        do {
            try request().validate()
        } catch let error as SegueError {
            throw ValidationError(error.description)
        }
    }

    /// The flags as a request; what they leave out, a manifest or the defaults decide.
    func request() -> StitchRequest {
        var request = StitchRequest(inputs: inputs, output: output)
        var options = OutputOptions()
        options.size = size.flatMap(OutputValues.size)
        options.frameRate = fps.flatMap(OutputValues.frameRate)
        options.fit = fit
        options.transition = transition.flatMap(TransitionKind.init(name:))
        options.transitionDuration = transitionDuration
        options.mode = mode.flatMap(TransitionMode.init(rawValue:))
        options.codec = codec
        options.crf = crf
        options.preset = preset
        options.audioBitRate = audioBitrate.flatMap(OutputValues.bitRate)
        options.audio = noAudio ? false : nil
        options.smart = smart ? true : nil
        options.stillDuration = stillDuration
        options.stillMotion = stillMotion.flatMap(StillMotion.init(rawValue:))
        options.loudness = loudness
        options.music = music
        options.musicVolume = musicVolume
        options.duck = duck
        options.chapters = chapters ? true : nil
        request.options = options
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

extension Fit: ExpressibleByArgument {}
extension VideoCodecChoice: ExpressibleByArgument {}

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
