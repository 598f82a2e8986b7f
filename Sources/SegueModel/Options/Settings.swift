import SegueCore

/// Everything about the output, resolved: one stored property per setting,
/// its initial value Segue's default. Nil means "from the first clip" (size,
/// rate) or "off". `OutputOption.all` below says how each is named, read and
/// checked, so the command line, manifests, plan.json and help all take it
/// from there.
public struct StitchSettings: Sendable, Equatable {
    package var size: Size?
    package var frameRate: Rational?
    package var fit: Fit = .contain
    public var transition: TransitionKind = .none
    /// Seconds; nil means the transition's default.
    public var transitionDuration: Double?
    /// How each transition's progress runs (and its sound's crossfade): linear unless asked.
    public var easing = Easing.linear
    package var mode: TransitionMode = .overlap
    package var codec: VideoCodecChoice = .h264
    /// The output's dynamic range: SDR, HLG, PQ, or as the clips are.
    package var hdr: HDRChoice = .auto
    package var crf = 23
    package var preset = "medium"
    package var audioBitRate = 128_000
    package var includeAudio = true
    /// Not an option: the rate every output is written at.
    package var sampleRate = OutputAudio.sampleRate
    /// Copy the encoded video of clips that can stand unchanged; re-encode only
    /// the GOPs a transition, trim or held frame touches.
    package var smart = false
    /// Seconds a photo lasts unless its list entry says otherwise.
    package var stillDuration = 3.0
    package var stillMotion: StillMotion = .none
    /// Target integrated loudness in LUFS each clip with sound is brought to; nil: left as recorded.
    package var loudness: Double?
    /// A file or URL whose sound is laid under the whole output.
    package var music: String?
    /// dB of the music relative to the clips' sound (with `loudness`, relative to the target).
    package var musicVolume = -12.0
    /// dB the music is lowered by while a clip's own sound is present; 0: never.
    package var duck = 12.0
    /// One chapter per clip (MP4 or WebM).
    package var chapters = false

    // The reel look: a logo over everything, and the font of captions and text cards.
    /// A picture (PNG, JPEG, WebP; alpha honoured) drawn over the whole output.
    package var overlay: String?
    package var overlayPosition: OverlayPosition = .bottomRight
    /// The overlay's width as a fraction of the canvas's.
    package var overlayWidth = 0.15
    package var overlayOpacity = 1.0
    /// The font file of captions and text cards; nil: a sans-serif the system has.
    package var font: String?

    /// What becomes of the clips' text subtitles (their own streams and sidecar files).
    package var subtitles: SubtitleMode = .auto
    /// The subtitle track's language (ISO 639-2); nil: the first subtitled clip's, else "und".
    package var subtitleLanguage: String?

    /// An HLS output's renditions by their short side in pixels, largest first; nil: the canvas's and the standard ones below it.
    package var ladder: [Int]?
    /// An HLS output's segment length, in seconds.
    package var hlsSeconds = 6.0

    /// A short muted looping cover clip for a feed cell, written beside the output.
    package var cover: String?
    /// A still (JPEG) from where the cover starts.
    package var poster: String?
    /// Seconds into the output where the cover and poster are taken; nil: its most eventful seconds.
    package var coverAt: Double?

    package init() {}

    /// The defaults, with `options`' choices where it makes them.
    package init(options: OutputOptions) { self = options.values }
}

extension OutputOption {
    /// Every output option, in the order help lists them: the one definition
    /// of each one's names, its reading, its range and its help.
    public static let all: [OutputOption] = [
        option("transition", \.transition, .transition, valueName: "name",
               help: "none, fade, slide (= slide-left), slide-left, slide-right, slide-up, slide-down, any xfade transition (wipeleft, circleopen, dissolve, ...), a gl-transitions effect with its parameters by name (gl_cube, gl_doorway(depth=2), ...) or random; `segue transitions` lists them all"),
        option("transitionDuration", \.transitionDuration, OptionReader.seconds(OptionLimits.transitionSeconds).optional,
               valueName: "S", help: "Seconds each transition lasts", defaultText: "0.3 for a slide, 1.0 for fade and the rest"),
        option("easing", \.easing, .easing, valueName: "curve",
               help: "How each transition runs: linear, a Penner curve (cubic-in-out, elastic-out, bounce-in, ...), squareroot, cuberoot, "
                   + "or CSS's ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2), steps(n[,position]); "
                   + "`segue transitions --easings` lists them"),
        option("mode", \.mode, .choice(), valueName: "mode",
               help: "overlap: clips overlap, the output is shorter; freeze: a held frame of each is blended over inserted time"),
        option("size", \.size, OptionReader.size.optional, valueName: "WxH",
               help: "Output size", defaultText: "the first clip's display size"),
        option("fps", \.frameRate, OptionReader.frameRate.optional, valueName: "rate",
               help: "Output frame rate, e.g. 30 or 30000/1001", defaultText: "the first clip's"),
        option("fit", \.fit, .choice(), valueName: "fit",
               help: "How a clip of another shape fills the canvas: contain, cover, stretch or blur (contained over a blurred copy of itself)"),
        option("codec", \.codec, .choice(), valueName: "codec",
               help: "Video codec: h264 (libx264), hevc (libx265, tagged hvc1), av1 (libsvtav1, 10-bit) or vp9 (libvpx-vp9); "
                   + "a .webm output holds vp9 or av1", defaultText: "h264; vp9 for a .webm output"),
        option("hdr", \.hdr, .choice(), valueName: "mode",
               help: "Dynamic range: off (SDR BT.709, HDR clips tone-mapped), hlg or pq (10-bit BT.2100; hevc, av1 or vp9), auto (HDR when a clip is and the codec carries it)"),
        option("crf", \.crf, .wholeNumber(Limit(lower: 0, upper: 51)), valueName: "n",
               help: "Constant rate factor on the encoder's own scale, lower is better quality; 0 is lossless (not for av1)"),
        option("preset", \.preset, .preset, valueName: "name",
               help: "Encoder preset, ultrafast ... veryslow (mapped onto SVT-AV1's presets and libvpx-vp9's speeds)"),
        option("audioBitrate", \.audioBitRate, .bitRate, valueName: "rate",
               help: "Sound bit rate (AAC; Opus in WebM) in bits per second, or with k, e.g. 192k", defaultText: "128k"),
        option("audio", \.includeAudio, .yesNo, flagName: "no-audio", flag: false, help: "Leave the audio out (in a manifest: \"audio\": false)"),
        option("smart", \.smart, .yesNo, flag: true,
               help: "Copy the video and AAC sound of clips that need no re-encoding; re-encode only the GOPs and AAC frames around joins "
                   + "(MP4 only: off, with a warning, for a .webm output)"),
        option("stillDuration", \.stillDuration, .seconds(OptionLimits.stillSeconds), valueName: "S",
               help: "Seconds a photo lasts, unless its list entry says"),
        option("stillMotion", \.stillMotion, .choice(), valueName: "motion",
               help: "none, or zoom: a slow, smooth 100 → 110 % zoom on each photo"),
        option("loudness", \.loudness, OptionReader.number(Limit(lower: -40, upper: -5), unit: "LUFS").optional, valueName: "LUFS",
               help: "Bring each clip's sound to this integrated loudness", defaultText: "off"),
        option("music", \.music, OptionReader.path.optional, valueName: "FILE",
               help: "Lay this file's (or URL's) sound under the whole output, looped or cut to its length"),
        option("musicVolume", \.musicVolume, .number(Limit(lower: -60, upper: 12), unit: "dB"), valueName: "DB",
               help: "The music's level relative to the clips' sound"),
        option("duck", \.duck, .number(Limit(lower: 0, upper: 60), unit: "dB"), valueName: "DB",
               help: "How much lower the music goes while a clip's own sound plays, 0 is off"),
        option("chapters", \.chapters, .yesNo, flag: true,
               help: "Write one chapter per clip (MP4 or WebM), titled by the manifest's title or the file name"),
        option("overlay", \.overlay, OptionReader.path.optional, valueName: "FILE",
               help: "A picture (PNG, JPEG or WebP; its alpha honoured) drawn over the whole output, e.g. a logo"),
        option("overlayPosition", \.overlayPosition, .choice(), valueName: "where",
               help: "Where the overlay sits, 3 % of the canvas height from the edges: top-left, top-right, bottom-left, bottom-right or center"),
        option("overlayWidth", \.overlayWidth, .number(Limit(lower: 0, upper: 1, excludesLower: true)), valueName: "F",
               help: "The overlay's width as a fraction of the canvas width"),
        option("overlayOpacity", \.overlayOpacity, .number(Limit(lower: 0, upper: 1, excludesLower: true)), valueName: "A",
               help: "The overlay's opacity"),
        option("font", \.font, OptionReader.path.optional, valueName: "FILE",
               help: "The font file of captions and text cards", defaultText: "DejaVu Sans, or a sans-serif font the system has"),
        option("subtitles", \.subtitles, .choice(), valueName: "mode",
               help: "The clips' text subtitles (their own streams, or a sidecar clip.srt, .vtt or .ass): auto: one soft subtitle track with every cue at its new time; none: left out; burn: drawn into the picture"),
        option("subtitleLanguage", \.subtitleLanguage, OptionReader.language.optional, valueName: "LANG",
               help: "The subtitle track's language, ISO 639-2 (e.g. eng)", defaultText: "the first subtitled clip's, else und"),
        option("ladder", \.ladder, OptionReader.ladder.optional, valueName: "LIST",
               help: "HLS output (-o DIR/master.m3u8): the renditions by their short side in pixels, e.g. 1080,720,360",
               defaultText: "the canvas's and the standard ones below it"),
        option("hlsTime", \.hlsSeconds, .seconds(OptionLimits.hlsSeconds), valueName: "S",
               help: "HLS output: seconds of each segment (every rendition's keyframes fall on them)"),
        option("cover", \.cover, OptionReader.path.optional, valueName: "FILE.mp4",
               help: "Also write a muted cover loop for a feed (3 s, 360 px on the short side, its end dissolving into its start)"),
        option("poster", \.poster, OptionReader.path.optional, valueName: "FILE.jpg", help: "Also write a JPEG still from where the cover starts"),
        option("coverAt", \.coverAt, OptionReader.seconds(OptionLimits.coverSeconds).optional, valueName: "S",
               help: "Seconds into the output the cover and poster are taken from", defaultText: "its most eventful seconds"),
    ]
}

/// The output's size in pixels.
package struct Size: Sendable, Equatable, Codable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)" }
}

/// How transitions use time.
public enum TransitionMode: String, Sendable, CaseIterable, Codable {
    /// The last T seconds of one clip and the first T of the next play at once; the output is T shorter per join.
    case overlap
    /// The last frame of one clip and the first of the next are held and blended over T inserted seconds.
    case freeze
}

/// How a clip fills a canvas of another shape.
public enum Fit: String, Sendable, CaseIterable, Codable {
    /// Whole picture visible, bars where the shapes differ.
    case contain
    /// Canvas filled, the overflow cropped.
    case cover
    /// Canvas filled, the picture distorted.
    case stretch
    /// Whole picture visible (as `contain`) over a blurred, darkened copy of itself that covers the canvas.
    case blur
}

/// What becomes of the clips' text subtitles.
public enum SubtitleMode: String, Sendable, CaseIterable, Codable {
    /// One soft (mov_text) track holding every clip's cues, when any clip has some.
    case auto
    /// No subtitle track.
    case none
    /// The cues drawn into the picture; no track.
    case burn
}

/// Where the overlay sits on the canvas.
public enum OverlayPosition: String, Sendable, CaseIterable, Codable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case center
}

/// How a photo moves while it shows.
public enum StillMotion: String, Sendable, CaseIterable, Codable {
    /// Held as it is.
    case none
    /// A slow, eased, centred zoom from 100 % to 110 %.
    case zoom
}

extension VideoCodecChoice: Codable {}

/// How a stitch runs, apart from what it makes (`StitchSettings`): choices
/// about the run, not the output. Network behaviour belongs to `InputAccess`.
package struct RunOptions: Sendable {
    /// Replace an existing output file.
    package var overwrite = false
    /// Any decode error ends the stitch instead of being concealed.
    package var strict = false
    /// Debugging: open each clip only when it is needed, to measure what preloading hides.
    package var preload = true

    package init(overwrite: Bool = false, strict: Bool = false, preload: Bool = true) {
        self.overwrite = overwrite
        self.strict = strict
        self.preload = preload
    }
}

/// How network operations behave.
public struct NetworkSettings: Sendable, Equatable, Codable {
    /// Seconds any one network operation (connect, a read) may take.
    public var timeout: Double = 30
    /// Extra attempts after a transient failure (refused, reset, timed out, HTTP 5xx).
    public var retries: Int = 3

    public init(timeout: Double = 30, retries: Int = 3) {
        self.timeout = timeout
        self.retries = retries
    }
}
