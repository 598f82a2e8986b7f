import Foundation
import SegueMedia

/// What a stitch did, for the summary line and `--report`.
public struct StitchReport: Sendable {
    public struct Join: Sendable {
        public var index: Int
        public var transition: TransitionKind
        public var frames: Int
        public var seconds: Double
        /// How long the stitcher waited for the next clip to be ready.
        public var stallSeconds: Double
    }

    public var output: String
    public var canvas: Canvas
    public var clipCount: Int
    public var frames: Int
    public var audioSamples: Int
    public var plannedDuration: Double
    public var joins: [Join]
    /// Time to open and prime the first clip.
    public var startupSeconds: Double
    public var warnings: [String]
    public var wallSeconds: Double
    public var peakMemoryBytes: Int
    /// With `--smart`: what became of each clip's video.
    public var smart: [SmartClip]? = nil

    /// One clip's video under `--smart`.
    public struct SmartClip: Sendable {
        public var index: Int
        /// Frames whose packets were copied from the clip unchanged.
        public var framesCopied: Int
        /// The clip's frames decoded and encoded again (transition frames included).
        public var framesReencoded: Int
        /// Why the clip, or part of it, was not copied; nil when all of it was.
        public var reason: String?
        /// What became of its sound; nil without audio.
        public var sound: SmartSound? = nil
    }

    /// One clip's sound under `--smart`.
    public struct SmartSound: Sendable {
        /// Samples its sound stands from its exact place (output − exact, at
        /// most 512 either way): a copied clip's own, another's as the
        /// re-encoded windows around it read it.
        public var shiftSamples: Int
        /// AAC frames copied from the clip unchanged, and encoded again (around its seams, or all of them).
        public var framesCopied: Int
        public var framesReencoded: Int
        /// Why its sound was not copied; nil when it was.
        public var reason: String?
    }

    /// Output frames copied under `--smart`.
    public var framesCopied: Int { smart?.reduce(0) { $0 + $1.framesCopied } ?? 0 }
    /// Output AAC frames copied, and encoded, under `--smart`.
    public var audioFramesCopied: Int { smart?.reduce(0) { $0 + ($1.sound?.framesCopied ?? 0) } ?? 0 }
    public var audioFramesReencoded: Int { smart?.reduce(0) { $0 + ($1.sound?.framesReencoded ?? 0) } ?? 0 }
    /// The music bed, when there was one.
    public var music: Music? = nil

    public struct Music: Sendable {
        public var path: String
        public var loudness: ClipInfo.Loudness?
        /// dB applied to it before fades and ducking.
        public var gain: Double
        /// dB asked for relative to the clips' sound, and dB it is lowered by under them.
        public var volume: Double
        public var ducking: Double
    }

    public var duration: Double { Double(frames) / canvas.frameRate.value }
    public var totalStallSeconds: Double { joins.reduce(0) { $0 + $1.stallSeconds } }
    public var worstStallSeconds: Double { joins.map(\.stallSeconds).max() ?? 0 }

    /// The one line a finished stitch prints.
    public var summary: String {
        let transitions = Dictionary(grouping: joins.filter { $0.frames > 0 }, by: \.transition)
            .map { "\($0.key.rawValue) ×\($0.value.count)" }.sorted().joined(separator: ", ")
        let speed = wallSeconds > 0 ? duration / wallSeconds : 0
        var line = "Stitched \(clipCount) clip\(clipCount == 1 ? "" : "s") → \(output): "
            + String(format: "%.2f s, %d frames, %dx%d @ %@ fps", duration, frames,
                     canvas.width, canvas.height, canvas.frameRate.description)
            + (transitions.isEmpty ? ", cuts" : ", \(transitions)")
            + String(format: "; took %.1f s (%.1f× realtime), peak memory %d MB", wallSeconds, speed,
                     peakMemoryBytes / 1_000_000)
        if smart != nil {
            line += String(format: "; smart: %d of %d frames copied (%.1f %%)", framesCopied, frames,
                           frames > 0 ? 100 * Double(framesCopied) / Double(frames) : 0)
            let soundFrames = audioFramesCopied + audioFramesReencoded
            if soundFrames > 0 {
                line += String(format: ", %d of %d sound frames (%.1f %%)", audioFramesCopied, soundFrames,
                               100 * Double(audioFramesCopied) / Double(soundFrames))
            }
        }
        if let worst = joins.max(by: { $0.stallSeconds < $1.stallSeconds }) {
            line += String(format: "; join stall total %.1f ms, worst %.1f ms (join %d)",
                           totalStallSeconds * 1000, worst.stallSeconds * 1000, worst.index + 1)
        }
        return line
    }
}

/// How far a stitch has got, reported a few times a second.
public struct StitchProgress: Sendable, CustomStringConvertible {
    public var framesDone: Int
    public var totalFrames: Int
    public var clipIndex: Int
    public var clipCount: Int
    public var elapsedSeconds: Double
    public var frameRate: Double

    public var fraction: Double { totalFrames == 0 ? 1 : Double(framesDone) / Double(totalFrames) }
    /// Output seconds made per wall-clock second.
    public var speed: Double { elapsedSeconds > 0 ? Double(framesDone) / frameRate / elapsedSeconds : 0 }
    public var etaSeconds: Double? {
        guard framesDone > 0, elapsedSeconds > 0 else { return nil }
        return elapsedSeconds / Double(framesDone) * Double(totalFrames - framesDone)
    }

    /// One line of facts, as the progress display shows them.
    public var description: String {
        let eta = etaSeconds.map { String(format: "%.0f s", $0) } ?? "?"
        return String(format: "%3d%%  frame %d/%d  clip %d/%d  %.1f× realtime  %.0f s elapsed  ETA %@",
                      Int(fraction * 100), framesDone, totalFrames, clipIndex + 1, clipCount, speed, elapsedSeconds, eta)
    }
}

extension ClipInfo {
    /// The probed facts as JSON values, shared by `segue probe --json` and the report.
    public var jsonFacts: [String: Any] {
        var facts: [String: Any] = [
            "path": path, "container": container, "videoCodec": videoCodec,
            "codedWidth": codedWidth, "codedHeight": codedHeight,
            "displayWidth": displayWidth, "displayHeight": displayHeight, "rotation": rotation,
            "variableFrameRate": variableFrameRate, "pixelFormat": pixelFormat, "duration": duration,
            "still": isStill,
        ]
        if isStill { facts["orientation"] = orientation }
        facts["audio"] = audio.map { ["codec": $0.codec, "sampleRate": $0.sampleRate, "channels": $0.channels] } ?? NSNull()
        // Colour as converted (stated or assumed), and what the file itself states.
        facts["dynamicRange"] = dynamicRange.rawValue
        facts["colourMatrix"] = colourMatrix.rawValue
        facts["colourRange"] = fullRange ? "full" : "limited"
        facts["bitDepth"] = colour.bitDepth
        facts["interlaced"] = interlaced
        facts["fieldOrder"] = fieldOrder.rawValue
        facts["pictureDuration"] = pictureDuration
        facts["colour"] = [
            "matrix": colour.matrix ?? NSNull(), "primaries": colour.primaries ?? NSNull(),
            "transfer": colour.transfer ?? NSNull(),
            "range": colour.fullRange.map { $0 ? "full" : "limited" } ?? NSNull(),
        ] as [String: Any]
        facts["dolbyVisionProfile"] = dolbyVisionProfile ?? NSNull()
        return facts
    }
}

extension StitchReport {
    /// The report as `--report` writes it: inputs with their probed facts, the
    /// output's settings and facts, planned against actual duration, each join
    /// with its stall, warnings, wall time and peak memory.
    public func json(plan: Plan, settings: StitchSettings) throws -> Data {
        let rounded = Self.rounded
        let stalls = joins.map(\.stallSeconds).sorted()
        var object: [String: Any] = [
            "inputs": inputsJSON(plan: plan, settings: settings),
            "output": outputJSON(settings: settings),
            "mode": plan.mode.rawValue,
            "joins": joinsJSON(plan: plan),
            "stall": [
                "totalSeconds": rounded(totalStallSeconds, 1e6), "worstSeconds": rounded(worstStallSeconds, 1e6),
                "medianSeconds": stalls.isEmpty ? 0 : rounded(stalls[stalls.count / 2], 1e6),
            ],
            "music": music.map { music in
                ["path": music.path, "gain": rounded(music.gain, 1000), "volume": music.volume, "duck": music.ducking,
                 "loudness": Self.loudnessJSON(music.loudness, target: nil)] as [String: Any]
            } ?? NSNull(),
            "chapters": settings.chapters ? plan.chapters.map { chapter in
                ["title": chapter.title, "start": rounded(Double(chapter.startFrame) / canvas.frameRate.value, 1e6),
                 "startFrame": chapter.startFrame] as [String: Any]
            } : NSNull(),
            "startupSeconds": rounded(startupSeconds, 1e6),
            "warnings": warnings,
            "wallSeconds": rounded(wallSeconds, 1000),
            "peakMemoryBytes": peakMemoryBytes,
        ]
        if let smart { object["smart"] = smartJSON(smart, plan: plan) }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private static func rounded(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }

    /// Each input with its probed facts and its place in the output.
    private func inputsJSON(plan: Plan, settings: StitchSettings) -> [[String: Any]] {
        plan.clips.map { clip in
            let info = clip.info
            return info.jsonFacts.merging([
                "frameRate": info.frameRate.description, "duration": Self.rounded(info.duration, 1e6),
                "sourceDuration": Self.rounded(info.sourceDuration, 1e6), "inPoint": Self.rounded(info.inPoint, 1e6),
                "startFrame": clip.startFrame, "frames": clip.frameCount,
                "loudness": Self.loudnessJSON(info.loudness, target: settings.loudness),
            ]) { _, reported in reported }
        }
    }

    /// The output's settings and facts.
    private func outputJSON(settings: StitchSettings) -> [String: Any] {
        [
            "path": output, "codec": settings.codec.rawValue, "crf": settings.crf, "preset": settings.preset,
            "width": canvas.width, "height": canvas.height, "frameRate": canvas.frameRate.description,
            "frames": frames, "duration": Self.rounded(duration, 1e6), "plannedDuration": Self.rounded(plannedDuration, 1e6),
            "audio": settings.includeAudio ? [
                "codec": "aac", "sampleRate": canvas.sampleRate, "channels": 2, "bitRate": settings.audioBitRate,
                "samples": audioSamples, "duration": Self.rounded(Double(audioSamples) / Double(canvas.sampleRate), 1e6),
            ] as [String: Any] : NSNull(),
        ]
    }

    private func joinsJSON(plan: Plan) -> [[String: Any]] {
        joins.map { join in
            [
                "index": join.index, "from": plan.clips[join.index].info.path, "to": plan.clips[join.index + 1].info.path,
                "transition": join.transition.rawValue, "frames": join.frames, "duration": Self.rounded(join.seconds, 1e6),
                "stallSeconds": Self.rounded(join.stallSeconds, 1e6),
            ]
        }
    }

    /// What `--smart` copied and re-encoded, in all and per clip, and why a clip was not copied.
    private func smartJSON(_ smart: [SmartClip], plan: Plan) -> [String: Any] {
        [
            "framesCopied": framesCopied, "framesReencoded": frames - framesCopied,
            "audioFramesCopied": audioFramesCopied, "audioFramesReencoded": audioFramesReencoded,
            "clips": smart.map { clip in
                [
                    "index": clip.index, "path": plan.clips[clip.index].info.path,
                    "framesCopied": clip.framesCopied, "framesReencoded": clip.framesReencoded,
                    "reason": clip.reason ?? NSNull(),
                    "sound": clip.sound.map { sound in
                        [
                            "offsetSamples": sound.shiftSamples, "framesCopied": sound.framesCopied,
                            "framesReencoded": sound.framesReencoded, "reason": sound.reason ?? NSNull(),
                        ] as [String: Any]
                    } ?? NSNull(),
                ] as [String: Any]
            },
        ]
    }

    /// A clip's measured loudness and, with a target, the gain it got (null when not measured).
    static func loudnessJSON(_ loudness: ClipInfo.Loudness?, target: Double?) -> Any {
        guard let loudness else { return NSNull() }
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        var facts: [String: Any] = ["integrated": rounded(loudness.integrated), "truePeak": rounded(loudness.truePeak)]
        if target != nil {
            let adjustment = LoudnessMeter.adjustment(for: loudness, target: target)
            facts["gain"] = rounded(adjustment?.gain ?? 0)
            facts["limited"] = adjustment?.limited ?? false
        }
        return facts
    }
}
