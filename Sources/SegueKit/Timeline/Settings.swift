import SegueMedia

/// How transitions use time.
public enum TransitionMode: String, Sendable, CaseIterable {
    /// The last T seconds of one clip and the first T of the next play at once; the output is T shorter per join.
    case overlap
    /// The last frame of one clip and the first of the next are held and blended over T inserted seconds.
    case freeze
}

/// How a clip fills a canvas of another shape.
public enum Fit: String, Sendable, CaseIterable {
    /// Whole picture visible, bars where the shapes differ.
    case contain
    /// Canvas filled, the overflow cropped.
    case cover
    /// Canvas filled, the picture distorted.
    case stretch
}

/// How a stitch runs, apart from what it makes (`StitchSettings`): choices
/// about the run, not the output. Network behaviour belongs to `InputAccess`.
public struct RunOptions: Sendable {
    /// Replace an existing output file.
    public var overwrite = false
    /// Any decode error ends the stitch instead of being concealed.
    public var strict = false
    /// Debugging: open each clip only when it is needed, to measure what preloading hides.
    public var preload = true

    public init(overwrite: Bool = false, strict: Bool = false, preload: Bool = true) {
        self.overwrite = overwrite
        self.strict = strict
        self.preload = preload
    }
}

/// How network operations behave.
public struct NetworkSettings: Sendable, Equatable {
    /// Seconds any one network operation (connect, a read) may take.
    public var timeout: Double = 30
    /// Extra attempts after a transient failure (refused, reset, timed out, HTTP 5xx).
    public var retries: Int = 3

    public init(timeout: Double = 30, retries: Int = 3) {
        self.timeout = timeout
        self.retries = retries
    }
}

/// What a caller or a manifest chose about the output; nil leaves the choice
/// to the next source (the command line over a manifest over the defaults).
public struct OutputOptions: Sendable, Equatable {
    public var size: (width: Int, height: Int)?
    public var frameRate: Rational?
    public var fit: Fit?
    public var transition: TransitionKind?
    public var transitionDuration: Double?
    public var mode: TransitionMode?
    public var codec: VideoCodecChoice?
    public var crf: Int?
    public var preset: String?
    public var audioBitRate: Int?
    public var audio: Bool?
    /// Copy the encoded video of clips that can stand unchanged (`--smart`).
    public var smart: Bool?
    public var stillDuration: Double?
    public var stillMotion: StillMotion?
    public var loudness: Double?
    public var music: String?
    public var musicVolume: Double?
    public var duck: Double?
    public var chapters: Bool?

    public init() {}

    /// These choices, with `fallback`'s where these make none.
    public func overriding(_ fallback: OutputOptions?) -> OutputOptions {
        guard let fallback else { return self }
        var merged = self
        merged.size = size ?? fallback.size
        merged.frameRate = frameRate ?? fallback.frameRate
        merged.fit = fit ?? fallback.fit
        merged.transition = transition ?? fallback.transition
        merged.transitionDuration = transitionDuration ?? fallback.transitionDuration
        merged.mode = mode ?? fallback.mode
        merged.codec = codec ?? fallback.codec
        merged.crf = crf ?? fallback.crf
        merged.preset = preset ?? fallback.preset
        merged.audioBitRate = audioBitRate ?? fallback.audioBitRate
        merged.audio = audio ?? fallback.audio
        merged.smart = smart ?? fallback.smart
        merged.stillDuration = stillDuration ?? fallback.stillDuration
        merged.stillMotion = stillMotion ?? fallback.stillMotion
        merged.loudness = loudness ?? fallback.loudness
        merged.music = music ?? fallback.music
        merged.musicVolume = musicVolume ?? fallback.musicVolume
        merged.duck = duck ?? fallback.duck
        merged.chapters = chapters ?? fallback.chapters
        return merged
    }

    public static func == (a: OutputOptions, b: OutputOptions) -> Bool {
        a.size?.width == b.size?.width && a.size?.height == b.size?.height && a.frameRate == b.frameRate
            && a.fit == b.fit && a.transition == b.transition && a.transitionDuration == b.transitionDuration
            && a.mode == b.mode && a.codec == b.codec && a.crf == b.crf && a.preset == b.preset
            && a.audioBitRate == b.audioBitRate && a.audio == b.audio && a.smart == b.smart
            && a.stillDuration == b.stillDuration && a.stillMotion == b.stillMotion && a.loudness == b.loudness
            && a.music == b.music && a.musicVolume == b.musicVolume && a.duck == b.duck && a.chapters == b.chapters
    }
}

/// Everything about the output, resolved. Nil means "from the first clip".
/// The initial values here are Segue's defaults, the only copy of them.
public struct StitchSettings: Sendable {
    public var width: Int?
    public var height: Int?
    public var frameRate: Rational?
    public var fit: Fit = .contain
    public var transition: TransitionKind = .none
    /// Seconds; nil means the transition's default.
    public var transitionDuration: Double?
    public var mode: TransitionMode = .overlap
    public var codec: VideoCodecChoice = .h264
    public var crf = 23
    public var preset = "medium"
    public var audioBitRate = 128_000
    public var includeAudio = true
    public var sampleRate = 48_000
    /// Copy the encoded video of clips that can stand unchanged; re-encode only
    /// the GOPs a transition, trim or held frame touches.
    public var smart = false

    // Reels: photos, loudness, music, chapters.
    /// Seconds a photo lasts unless its list entry says otherwise.
    public var stillDuration = StitchSettings.defaultStillDuration
    public var stillMotion: StillMotion = .none
    /// Target integrated loudness in LUFS each clip with sound is brought to; nil: left as recorded.
    public var loudness: Double?
    /// A file or URL whose sound is laid under the whole output.
    public var music: String?
    /// dB of the music relative to the clips' sound (with `loudness`, relative to the target).
    public var musicVolume = -12.0
    /// dB the music is lowered by while a clip's own sound is present; 0: never.
    public var duck = 12.0
    /// One MP4 chapter per clip.
    public var chapters = false

    public static let defaultStillDuration = 3.0

    public init() {}

    /// The defaults, with `options`' choices where it makes them.
    public init(options: OutputOptions) {
        if let size = options.size { (width, height) = size }
        frameRate = options.frameRate
        fit = options.fit ?? fit
        transition = options.transition ?? transition
        transitionDuration = options.transitionDuration
        mode = options.mode ?? mode
        codec = options.codec ?? codec
        crf = options.crf ?? crf
        preset = options.preset ?? preset
        audioBitRate = options.audioBitRate ?? audioBitRate
        includeAudio = options.audio ?? includeAudio
        smart = options.smart ?? smart
        stillDuration = options.stillDuration ?? stillDuration
        stillMotion = options.stillMotion ?? stillMotion
        loudness = options.loudness
        music = options.music
        musicVolume = options.musicVolume ?? musicVolume
        duck = options.duck ?? duck
        chapters = options.chapters ?? chapters
    }
}

/// How a photo moves while it shows.
public enum StillMotion: String, Sendable, CaseIterable {
    /// Held as it is.
    case none
    /// A slow, eased, centred zoom from 100 % to 110 %.
    case zoom
}

