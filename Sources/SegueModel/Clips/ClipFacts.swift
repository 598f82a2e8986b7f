import SegueCore

/// What probing found in one clip's file: its streams, timing, colour and
/// orientation. Nothing here is chosen by the clip list.
public struct ClipFacts: Sendable, Equatable, Codable {
    package var container: String
    package var videoCodec: String
    /// Size of the stored pictures.
    package var codedWidth: Int
    package var codedHeight: Int
    /// How the stored pictures stand upright (a display matrix or a photo's EXIF).
    package var orientation: ClipOrientation
    package var sampleAspectRatio: Rational
    public var frameRate: Rational
    /// Whether frames come at uneven intervals (average and base rates differ).
    package var variableFrameRate = false
    package var pixelFormat: String
    /// How the stored samples are to be read as colour.
    package var colour = ColourInfo()
    package var fieldOrder = FieldOrder.unknown
    /// Set for Dolby Vision streams (profile 8 plays as its HLG or SDR base layer).
    package var dolbyVisionProfile: Int?
    /// HDR10 metadata (mastering display, light levels) its container or first picture states.
    package var hdrMetadata: HDRMetadata?
    /// How long its picture, sound and container run, and where its time 0 is.
    package var timing: ClipTiming
    package var audio: AudioInfo?
    /// A photo (one picture): shown for the duration its use gives, silent, never sets the canvas.
    package var isStill = false
    /// Its subtitle streams, text and bitmap, as probing found them.
    package var subtitleStreams: [SubtitleStream] = []
    /// Subtitle files beside it (clip.srt, clip.en.vtt …), as players look for them.
    package var sidecars: [String] = []
    /// Where its first frame counts from, when the file states a start timecode.
    package var startTimecode: StartTimecode?

    package init(container: String, videoCodec: String, codedWidth: Int, codedHeight: Int, orientation: ClipOrientation,
                 sampleAspectRatio: Rational, frameRate: Rational, pixelFormat: String, duration: Double, audio: AudioInfo?) {
        self.container = container
        self.videoCodec = videoCodec
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.orientation = orientation
        self.sampleAspectRatio = sampleAspectRatio
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.timing = ClipTiming(sourceDuration: duration)
        self.audio = audio
    }

    /// Size as shown: pixel aspect made square, then a quarter turn swaps the sides.
    package var displayWidth: Int { orientation.swapsSides ? codedHeight : squareWidth }
    package var displayHeight: Int { orientation.swapsSides ? squareWidth : codedHeight }
    /// The stored width widened (or narrowed) to square pixels.
    private var squareWidth: Int { Int((Double(codedWidth) * sampleAspectRatio.value).rounded()) }

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
}

/// How long a clip's file runs, as measured, and where its time 0 is.
public struct ClipTiming: Sendable, Equatable, Codable {
    /// Seconds of video in the file (a photo: the seconds it is shown).
    package var sourceDuration: Double
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

    /// A file whose picture and video last `sourceDuration` seconds.
    package init(sourceDuration: Double) {
        self.sourceDuration = sourceDuration
        self.pictureDuration = sourceDuration
    }
}
