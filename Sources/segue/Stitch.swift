import ArgumentParser
import Foundation
import SegueKit

struct Stitch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stitch clips (files or clip lists) into one MP4.",
        discussion: """
        An input is a media file or a clip list: a .txt file with one path per
        line, # comments, paths relative to the list's folder.

        Examples:
          segue stitch a.mp4 b.mp4 c.mp4 -o out.mp4
          segue stitch clips.txt -o reel.mp4 --transition fade
          segue stitch clips.txt -o reel.mp4 --transition slide-up --transition-duration 0.5 --size 1080x1920 --fit cover

        Exit codes: 0 done; 1 failed while stitching; 2 bad usage or bad inputs (nothing written).
        """
    )

    @Argument(help: "Media files and clip lists, in playing order.")
    var inputs: [String]

    @Option(name: .short, help: ArgumentHelp("The MP4 file to write.", valueName: "OUT.mp4"))
    var output: String

    @Option(help: "none, fade, slide (= slide-left), slide-left, slide-right, slide-up or slide-down.")
    var transition: String = "none"

    @Option(help: "Seconds each transition lasts (default 1.0 for fade, 0.3 for slide).")
    var transitionDuration: Double?

    @Option(help: "overlap: clips overlap during a transition (the output is shorter).")
    var mode: String = "overlap"

    @Option(help: "Output size WxH (default: the first clip's display size).")
    var size: String?

    @Option(help: "Output frame rate, e.g. 30 or 30000/1001 (default: the first clip's).")
    var fps: String?

    @Option(help: "How a clip of another shape fills the canvas: contain, cover or stretch.")
    var fit: Fit = .contain

    @Option(help: "Video codec: h264 or hevc.")
    var codec: VideoCodecChoice = .h264

    @Option(help: "Constant rate factor (0-51, lower is better quality).")
    var crf: Int = 23

    @Option(help: "Encoder preset (ultrafast ... veryslow).")
    var preset: String = "medium"

    @Option(help: "Audio bit rate in bits per second, or with k (e.g. 192k).")
    var audioBitrate: String = "128k"

    @Flag(help: "Leave the audio out.")
    var noAudio = false

    @Flag(name: .short, help: "Overwrite the output file if it exists.")
    var y = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Open each clip only when it is needed (debugging: shows what preloading hides).")
    var noPreload = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input") }
        guard TransitionKind(name: transition) != nil else {
            throw ValidationError("unknown transition '\(transition)' (none, fade, slide, slide-left, slide-right, slide-up, slide-down)")
        }
        if let transitionDuration, !(transitionDuration > 0 && transitionDuration <= 60) {
            throw ValidationError("--transition-duration must be more than 0 and at most 60 seconds")
        }
        guard mode == "overlap" || mode == "freeze" else { throw ValidationError("unknown mode '\(mode)' (overlap, freeze)") }
        if mode == "freeze" { throw ValidationError("--mode freeze is not available yet") }
        if let size, StitchOptions.parseSize(size) == nil {
            throw ValidationError("--size must be WxH with even numbers from 2 to 8192, e.g. 1280x720")
        }
        if let fps, StitchOptions.parseRate(fps) == nil {
            throw ValidationError("--fps must be a positive number or fraction up to 240, e.g. 30 or 30000/1001")
        }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be from 0 to 51") }
        guard StitchOptions.presets.contains(preset) else {
            throw ValidationError("unknown preset '\(preset)' (\(StitchOptions.presets.joined(separator: ", ")))")
        }
        guard StitchOptions.parseBitRate(audioBitrate) != nil else {
            throw ValidationError("--audio-bitrate must be like 128k or 128000 (8k to 512k)")
        }
        if output.isEmpty { throw ValidationError("-o needs a file name") }
    }

    func run() throws {
        var settings = StitchSettings()
        if let size, let parsed = StitchOptions.parseSize(size) { (settings.width, settings.height) = parsed }
        if let fps { settings.frameRate = StitchOptions.parseRate(fps) }
        settings.fit = fit
        settings.transition = TransitionKind(name: transition)!
        settings.transitionDuration = transitionDuration
        settings.codec = codec
        settings.crf = crf
        settings.preset = preset
        settings.audioBitRate = StitchOptions.parseBitRate(audioBitrate)!
        settings.includeAudio = !noAudio
        settings.overwrite = y
        settings.preload = !noPreload

        // Everything that can be checked is checked before any encoding.
        let (paths, badLists) = ClipList.expand(inputs)
        try Stitcher.checkOutput(output, overwrite: y)
        let (clips, badClips) = Prober.probeAll(paths)
        let bad = badLists + badClips
        if !bad.isEmpty { throw SegueError.badInputs(bad) }
        let plan = try Plan(clips: clips, settings: settings)
        if !quiet { plan.warnings.forEach(Terminal.warning) }

        let progress = ProgressPrinter(enabled: !quiet)
        let stop = StopRequest()
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { stop.stop(signal: $0) }
        defer { signals.cancel() }
        let report: StitchReport
        do {
            report = try Stitcher(plan: plan, settings: settings, outputPath: output).run(stop: stop, progress: progress.update)
            progress.clear()
        } catch {
            progress.clear()
            throw error
        }
        if !quiet {
            report.warnings.filter { !plan.warnings.contains($0) }.forEach(Terminal.warning)
            Terminal.write(StitchOptions.summary(report) + "\n")
        }
    }
}

/// Parsing and wording shared by the commands.
enum StitchOptions {
    /// The presets libx264 and libx265 share.
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (2...8192).contains(width), (2...8192).contains(height), width % 2 == 0, height % 2 == 0 else { return nil }
        return (width, height)
    }

    static func parseRate(_ text: String) -> Rational? {
        let parts = text.split(separator: "/")
        var rate: Rational?
        if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]) {
            rate = Rational(numerator, denominator)
        } else if parts.count == 1, let whole = Int(parts[0]) {
            rate = Rational(whole, 1)
        } else if parts.count == 1, let value = Double(parts[0]) {
            rate = Rational(Int((value * 1000).rounded()), 1000).reduced
        }
        guard let rate, rate.isValid, rate.value <= 240 else { return nil }
        return rate.reduced
    }

    static func parseBitRate(_ text: String) -> Int? {
        let lowered = text.lowercased()
        let value = lowered.hasSuffix("k") ? Int(lowered.dropLast()).map { $0 * 1000 } : Int(lowered)
        guard let value, (8000...512_000).contains(value) else { return nil }
        return value
    }

    static func summary(_ report: StitchReport) -> String {
        let transitions = Dictionary(grouping: report.joins.filter { $0.frames > 0 }, by: \.transition)
            .map { "\($0.key.rawValue) ×\($0.value.count)" }.sorted().joined(separator: ", ")
        let speed = report.wallSeconds > 0 ? report.duration / report.wallSeconds : 0
        let worst = report.joins.max { $0.stallSeconds < $1.stallSeconds }
        var line = "Stitched \(report.clipCount) clip\(report.clipCount == 1 ? "" : "s") → \(report.output): "
            + String(format: "%.2f s, %d frames, %dx%d @ %@ fps", report.duration, report.frames,
                     report.canvas.width, report.canvas.height, report.canvas.frameRate.description)
            + (transitions.isEmpty ? ", cuts" : ", \(transitions)")
            + String(format: "; took %.1f s (%.1f× realtime), peak memory %d MB", report.wallSeconds, speed,
                     report.peakMemoryBytes / 1_000_000)
        if let worst {
            line += String(format: "; join stall total %.1f ms, worst %.1f ms (join %d)",
                           report.totalStallSeconds * 1000, worst.stallSeconds * 1000, worst.index + 1)
        }
        return line
    }
}

extension Fit: ExpressibleByArgument {}
extension VideoCodecChoice: ExpressibleByArgument {}

/// A live bar on a terminal, a plain line every few seconds otherwise.
final class ProgressPrinter {
    private let enabled: Bool
    private var lastPlainLine = 0.0
    private var drewBar = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: StitchProgress) {
        guard enabled else { return }
        let percent = Int(progress.fraction * 100)
        let eta = progress.etaSeconds.map { String(format: "%.0f s", $0) } ?? "?"
        let facts = String(format: "%3d%%  frame %d/%d  clip %d/%d  %.1f× realtime  %.0f s elapsed  ETA %@",
                           percent, progress.framesDone, progress.totalFrames, progress.clipIndex + 1,
                           progress.clipCount, progress.speed, progress.elapsedSeconds, eta)
        if Terminal.isInteractive {
            let filled = Int(progress.fraction * 24)
            Terminal.write("\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "] " + facts + "\u{1B}[K")
            drewBar = true
        } else if progress.elapsedSeconds - lastPlainLine >= 5 {
            lastPlainLine = progress.elapsedSeconds
            Terminal.write("segue: " + facts + "\n")
        }
    }

    func clear() {
        if drewBar { Terminal.write("\r\u{1B}[K") }
    }
}

/// Turns SIGINT and SIGTERM into a stop request, so the stitch can remove its
/// temporary file and exit 130 or 143 instead of dying mid-write.
final class SignalWatcher {
    private var sources: [DispatchSourceSignal] = []

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN) // the dispatch source receives it instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
