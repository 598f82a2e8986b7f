import SegueCore

/// The facts about one input clip that planning needs, found by probing it.
public struct ClipInfo: Sendable, Equatable, Codable {
    /// The clip as the user named it (a path or a URL).
    public var path: String
    /// Where its bytes are read: the path itself, or a cached copy of a URL.
    package var readPath: String
    package var container: String
    package var videoCodec: String
    /// Size of the stored pictures.
    package var codedWidth: Int
    package var codedHeight: Int
    /// Size as shown: rotation applied, pixel aspect made square.
    package var displayWidth: Int
    package var displayHeight: Int
    /// Clockwise degrees the picture must turn to stand upright (0, 90, 180, 270).
    package var rotation: Int
    /// The video track's display matrix as stored, nil when it has none.
    package var displayMatrix: [Int32]?
    package var sampleAspectRatio: Rational
    public var frameRate: Rational
    package var pixelFormat: String
    /// Seconds of video used: the whole clip, or from `inPoint` to the out point.
    public var duration: Double
    /// Seconds of video in the file.
    package var sourceDuration: Double
    /// Seconds into the clip where its use starts.
    package var inPoint: Double = 0
    /// Whether frames come at uneven intervals (average and base rates differ).
    package var variableFrameRate = false
    package var audio: AudioInfo?
    /// Seconds of picture in the file, from its first picture. Less than
    /// `sourceDuration` when the last picture is held under a longer sound.
    package var pictureDuration: Double
    /// Seconds the sound runs from the first picture, when known.
    package var soundDuration: Double?
    /// Where the clip's time 0 is, in its video stream's time base: its
    /// earliest picture on its timestamp line (MPEG-TS/PS, measured from the
    /// packets); nil: the stream's start time.
    package var videoStart: Int64?
    /// Jumps in the clip's clock (not wraps), closed up on its timestamp line.
    package var timestampJumps = 0
    /// The duration the container states, in seconds, when it states one.
    package var headerDuration: Double?
    /// How the stored samples are to be read as colour.
    package var colour = ColourInfo()
    package var fieldOrder = FieldOrder.unknown
    /// Set for Dolby Vision streams (profile 8 plays as its HLG or SDR base layer).
    package var dolbyVisionProfile: Int?
    /// HDR10 metadata (mastering display, light levels) its container or first picture states.
    package var hdrMetadata: HDRMetadata?
    /// A photo (one picture): shown for `duration` seconds, silent, never sets the canvas.
    package var isStill = false
    /// A photo's EXIF orientation (1-8; 1 is upright as stored).
    package var orientation = 1
    /// A photo's ICC profile that can't be applied, and why (its colours are
    /// then taken as sRGB); nil when it has none or it is applied.
    package var unusedColourProfile: String?
    /// The chapter title the clip list gives it.
    package var title: String?
    /// How the clip list says this clip fills the canvas (nil: the output's `fit`).
    package var fit: Fit?
    /// The caption the clip list gives it.
    package var caption: String?
    /// The text card this clip is, when it is one (no file).
    package var card: TextCard?
    /// Its subtitle streams, text and bitmap, as probing found them.
    package var subtitleStreams: [SubtitleStream] = []
    /// Subtitle files beside it (clip.srt, clip.en.vtt …), as players look for them.
    package var sidecars: [String] = []
    /// The subtitle file its list entry names, which wins over its own streams and sidecars.
    package var subtitleFile: String?
    /// The text subtitles it plays with, read when the output carries or burns them.
    package var subtitles: ClipSubtitles?
    /// Its sound's measured loudness, when loudness or music asked for it.
    package var loudness: Loudness?
    /// Where its first frame counts from, when the file states a start timecode.
    package var startTimecode: StartTimecode?
    /// Set for a clip of an editor's timeline: its name, handles and held edge frames.
    package var edited: EditedClip?
    /// A constant speed change or freeze frame (an editor's timeline); nil plays at its own speed.
    package var speed: PlaybackSpeed?

    /// Seconds into the clip at which the file's time `seconds` plays: from
    /// `inPoint`, scaled by a speed change; a freeze shows its in point throughout
    /// (what is earlier lies before the clip, what is later after it).
    package func clipSeconds(atSource seconds: Double) -> Double {
        let offset = seconds - inPoint
        guard let speed else { return offset }
        guard !speed.isFreeze else { return offset == 0 ? 0 : (offset < 0 ? -.infinity : .infinity) }
        return offset / speed.rate.value
    }

    /// Seconds of the file played from `inPoint`: `duration`, scaled by a speed change (a freeze uses one frame).
    package var sourceSeconds: Double {
        guard let speed else { return duration }
        return speed.isFreeze ? 1 / max(frameRate.value, 1) : duration * speed.rate.value
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

    package struct AudioInfo: Sendable, Equatable, Codable {
        package var codec: String
        package var sampleRate: Int
        package var channels: Int
        /// The sound stream's time base, when probed: 1/sampleRate when its
        /// timestamps count samples (MP4, MOV), coarser in Matroska (1 ms).
        package var timeBase: Rational? = nil

        package init(codec: String, sampleRate: Int, channels: Int, timeBase: Rational? = nil) {
            self.codec = codec
            self.sampleRate = sampleRate
            self.channels = channels
            self.timeBase = timeBase
        }

        /// Whether its timestamps name every sample exactly, so sound decoded
        /// after a seek lands on the samples it has when played from the start.
        package var timestampsCountSamples: Bool { timeBase?.reduced == Rational(1, sampleRate) }
    }

    package init(path: String, container: String, videoCodec: String, codedWidth: Int, codedHeight: Int,
                rotation: Int, sampleAspectRatio: Rational, frameRate: Rational, pixelFormat: String,
                duration: Double, audio: AudioInfo?) {
        self.path = path
        self.readPath = path
        self.container = container
        self.videoCodec = videoCodec
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.rotation = rotation
        self.sampleAspectRatio = sampleAspectRatio
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.duration = duration
        self.sourceDuration = duration
        self.pictureDuration = duration
        self.audio = audio
        // Anamorphic pictures widen (or narrow) to square pixels; a quarter turn swaps the sides.
        let squareWidth = Int((Double(codedWidth) * sampleAspectRatio.value).rounded())
        let turned = rotation == 90 || rotation == 270
        displayWidth = turned ? codedHeight : squareWidth
        displayHeight = turned ? squareWidth : codedHeight
    }

    /// What the plan says about the clip's length when its container and its
    /// packets disagree (by half or double, and over two seconds: a truncated
    /// file, a broken header), or its clock jumps: the plan goes by the
    /// packets. Nil when there is nothing to say.
    package var lengthWarning: Warning? {
        guard !isStill else { return nil }
        let disagrees = headerDuration.map { header in
            abs(header - sourceDuration) > 2 && (header > 2 * sourceDuration || sourceDuration > 2 * header)
        } ?? false
        guard disagrees || timestampJumps > 0 else { return nil }
        return .lengthFromPackets(path: path, stated: disagrees ? headerDuration : nil, measured: sourceDuration,
                                  jumps: timestampJumps)
    }

    /// Uses `inPoint..<outPoint` (seconds) of the clip; the caller has checked the range.
    package mutating func trim(inPoint: Double?, outPoint: Double?) {
        let start = inPoint ?? 0
        let end = min(outPoint ?? sourceDuration, sourceDuration)
        self.inPoint = start
        duration = end - start
    }
}

extension ClipInfo {
    /// How its stored pictures stand upright: upright without a display
    /// matrix; nil for a matrix that is no turn or mirror (a shear, a scale),
    /// whose picture is turned by `rotation` alone and never copied.
    package var displayOrientation: DisplayOrientation? {
        guard let displayMatrix else { return .upright }
        return DisplayOrientation(matrix: displayMatrix)
    }
}
