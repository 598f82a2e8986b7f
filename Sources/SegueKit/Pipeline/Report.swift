import Foundation

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

    public var duration: Double { Double(frames) / canvas.frameRate.value }
    public var totalStallSeconds: Double { joins.reduce(0) { $0 + $1.stallSeconds } }
    public var worstStallSeconds: Double { joins.map(\.stallSeconds).max() ?? 0 }
}

/// How far a stitch has got, reported a few times a second.
public struct StitchProgress: Sendable {
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
}

extension ClipInfo {
    /// The probed facts as JSON values, shared by `segue probe --json` and the report.
    public var jsonFacts: [String: Any] {
        var facts: [String: Any] = [
            "path": path, "container": container, "videoCodec": videoCodec,
            "codedWidth": codedWidth, "codedHeight": codedHeight,
            "displayWidth": displayWidth, "displayHeight": displayHeight, "rotation": rotation,
            "variableFrameRate": variableFrameRate, "pixelFormat": pixelFormat, "duration": duration,
        ]
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
        func rounded(_ value: Double, _ places: Double = 1e6) -> Double { (value * places).rounded() / places }
        let inputs: [[String: Any]] = plan.clips.map { clip in
            let info = clip.info
            return info.jsonFacts.merging([
                "frameRate": info.frameRate.description, "duration": rounded(info.duration),
                "sourceDuration": rounded(info.sourceDuration), "inPoint": rounded(info.inPoint),
                "startFrame": clip.startFrame, "frames": clip.frameCount,
            ]) { _, reported in reported }
        }
        let stalls = joins.map(\.stallSeconds).sorted()
        let object: [String: Any] = [
            "inputs": inputs,
            "output": [
                "path": output, "codec": settings.codec.rawValue, "crf": settings.crf, "preset": settings.preset,
                "width": canvas.width, "height": canvas.height, "frameRate": canvas.frameRate.description,
                "frames": frames, "duration": rounded(duration), "plannedDuration": rounded(plannedDuration),
                "audio": settings.includeAudio ? [
                    "codec": "aac", "sampleRate": canvas.sampleRate, "channels": 2, "bitRate": settings.audioBitRate,
                    "samples": audioSamples, "duration": rounded(Double(audioSamples) / Double(canvas.sampleRate)),
                ] as [String: Any] : NSNull(),
            ] as [String: Any],
            "mode": plan.mode.rawValue,
            "joins": joins.map { join in
                [
                    "index": join.index, "from": plan.clips[join.index].info.path, "to": plan.clips[join.index + 1].info.path,
                    "transition": join.transition.rawValue, "frames": join.frames, "duration": rounded(join.seconds),
                    "stallSeconds": rounded(join.stallSeconds),
                ] as [String: Any]
            },
            "stall": [
                "totalSeconds": rounded(totalStallSeconds), "worstSeconds": rounded(worstStallSeconds),
                "medianSeconds": stalls.isEmpty ? 0 : rounded(stalls[stalls.count / 2]),
            ],
            "startupSeconds": rounded(startupSeconds),
            "warnings": warnings,
            "wallSeconds": rounded(wallSeconds, 1000),
            "peakMemoryBytes": peakMemoryBytes,
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}
