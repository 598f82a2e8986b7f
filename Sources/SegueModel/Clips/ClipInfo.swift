import SegueCore

/// One input clip as planning sees it: what probing found in its file
/// (`facts`), what the clip list asks of it (`use`), and what was measured
/// or decided about it later (its loudness, the subtitles read for it).
public struct ClipInfo: Sendable, Equatable, Codable {
    /// The clip as the user named it (a path or a URL).
    public var path: String
    /// Where its bytes are read: the path itself, or a cached copy of a URL.
    package var readPath: String
    /// What probing found.
    public var facts: ClipFacts
    /// What the clip list asks of it.
    public var use: ClipUse
    /// A photo's ICC profile that can't be applied, and why (its colours are
    /// then taken as sRGB); nil when it has none or it is applied.
    package var unusedColourProfile: String?
    /// The text subtitles it plays with, read when the output carries or burns them.
    package var subtitles: ClipSubtitles?
    /// Its sound's measured loudness, when loudness or music asked for it.
    package var loudness: Loudness?

    /// Seconds into the clip at which the file's time `seconds` plays: from
    /// the in point, scaled by a speed change; a freeze shows its in point throughout
    /// (what is earlier lies before the clip, what is later after it).
    package func clipSeconds(atSource seconds: Double) -> Double {
        let offset = seconds - use.inPoint
        guard let speed = use.speed else { return offset }
        guard !speed.isFreeze else { return offset == 0 ? 0 : (offset < 0 ? -.infinity : .infinity) }
        return offset / speed.rate.value
    }

    /// Seconds of the file played from the in point: the use's duration, scaled by a speed change (a freeze uses one frame).
    package var sourceSeconds: Double {
        guard let speed = use.speed else { return use.duration }
        return speed.isFreeze ? 1 / max(facts.frameRate.value, 1) : use.duration * speed.rate.value
    }

    /// EBU R128 measurements of a clip's sound (as it will play: 48 kHz stereo).
    package struct Loudness: Sendable, Equatable, Codable {
        /// Integrated loudness, LUFS.
        package var integrated: Double
        /// True peak, dBTP.
        package var truePeak: Double

        package init(integrated: Double, truePeak: Double) {
            self.integrated = integrated
            self.truePeak = truePeak
        }
    }

    /// The whole of a clip whose file probing found `facts`, read from `path`.
    package init(path: String, facts: ClipFacts) {
        self.path = path
        self.readPath = path
        self.facts = facts
        self.use = ClipUse(duration: facts.timing.sourceDuration)
    }

    /// The whole of a clip whose facts are these: see `ClipFacts.init`.
    package init(path: String, container: String, videoCodec: String, codedWidth: Int, codedHeight: Int,
                orientation: ClipOrientation = .upright, sampleAspectRatio: Rational, frameRate: Rational, pixelFormat: String,
                duration: Double, audio: ClipFacts.AudioInfo?) {
        self.init(path: path, facts: ClipFacts(container: container, videoCodec: videoCodec, codedWidth: codedWidth,
                                               codedHeight: codedHeight, orientation: orientation,
                                               sampleAspectRatio: sampleAspectRatio, frameRate: frameRate,
                                               pixelFormat: pixelFormat, duration: duration, audio: audio))
    }

    /// What the plan says about the clip's length when its container and its
    /// packets disagree (by half or double, and over two seconds: a truncated
    /// file, a broken header), or its clock jumps: the plan goes by the
    /// packets. Nil when there is nothing to say.
    package var lengthWarning: Warning? {
        guard !facts.isStill else { return nil }
        let timing = facts.timing, measured = timing.sourceDuration
        let disagrees = timing.headerDuration.map { header in
            abs(header - measured) > 2 && (header > 2 * measured || measured > 2 * header)
        } ?? false
        guard disagrees || timing.timestampJumps > 0 else { return nil }
        return .lengthFromPackets(path: path, stated: disagrees ? timing.headerDuration : nil, measured: measured,
                                  jumps: timing.timestampJumps)
    }

    /// Uses `inPoint..<outPoint` (seconds) of the clip; the caller has checked the range.
    package mutating func trim(inPoint: Double?, outPoint: Double?) {
        let start = inPoint ?? 0
        let end = min(outPoint ?? facts.timing.sourceDuration, facts.timing.sourceDuration)
        use.inPoint = start
        use.duration = end - start
    }
}

