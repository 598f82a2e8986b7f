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
