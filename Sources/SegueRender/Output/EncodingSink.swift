internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Encoders and a muxer writing one MP4 or WebM, used from one thread: the output
/// writer's thread in a stitch, the caller's when tests make fixture clips.
final class EncodingSink {
    /// What the file will hold.
    struct Format {
        var width: Int
        var height: Int
        var frameRate: Rational
        /// MP4 (AAC sound, timed text) or WebM (Opus sound, WebVTT text).
        var container = OutputContainer.mp4
        var codec: VideoCodecChoice = .h264
        /// How pictures are stored and tagged, and the HDR10 metadata the stream states.
        var colour = OutputColour.sdr
        var hdrMetadata: HDRMetadata?
        var crf = 23
        var preset = "medium"
        /// Nil for a file without audio.
        var audio: AudioFormat? = AudioFormat()
        /// The display matrix a plain track states (fixtures only; a laid-out track states its own).
        var displayMatrix: [Int32]?
        /// A video track laid out apart (`--smart`, and a join of segments: copied packets between re-encoded stretches).
        var videoLayout: (any VideoTrackLayout)?
        /// A sound track laid out apart (`--smart`: copied AAC frames between re-encoded windows).
        var soundLayout: (any SoundTrackLayout)?
        /// Chapters, in output frames.
        var chapters: [Chapter] = []
        /// A soft subtitle track (MP4 timed text, WebM WebVTT), nil for none.
        var subtitles: SubtitleTrack?

        /// The output of a plan: the canvas's size, rate and colour, the settings' codec, quality and sound.
        init(canvas: Canvas, settings: StitchSettings) {
            self.init(width: canvas.width, height: canvas.height, frameRate: canvas.frameRate, codec: settings.codec,
                      colour: canvas.colour, hdrMetadata: canvas.hdrMetadata, crf: settings.crf, preset: settings.preset)
            audio = settings.includeAudio
                ? AudioFormat(sampleRate: canvas.sampleRate, channels: canvas.soundChannels, bitRate: settings.audioBitRate) : nil
        }

        init(width: Int, height: Int, frameRate: Rational, codec: VideoCodecChoice = .h264, colour: OutputColour = .sdr,
             hdrMetadata: HDRMetadata? = nil, crf: Int = 23, preset: String = "medium") {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.codec = codec
            self.colour = colour
            self.hdrMetadata = hdrMetadata
            self.crf = crf
            self.preset = preset
        }

        struct AudioFormat {
            var sampleRate = OutputAudio.sampleRate
            var channels = OutputAudio.channels
            var bitRate = 128_000
        }
    }

    private let muxer: Muxer
    /// The video track, encoded whole or (`--smart`) copied with re-encoded stretches.
    private let video: VideoTrack
    /// The sound track, encoded whole or (`--smart`) copied with re-encoded windows; nil without audio.
    private let sound: SoundTrack?
    /// The sound track's stream, -1 without audio.
    private let audioStream: Int
    /// Samples per audio frame the encoder takes (1024 for AAC, 960 for Opus).
    let audioFrameSize: Int
    /// The subtitle track's cues, written as the pictures reach their times.
    private var subtitles: SubtitleWriter?
    /// Makes pictures what a laid-out track stores (turned, full range); nil when they are that already.
    private let stored: StoredPictures?

    init(path: String, format: Format) throws {
        let muxer = try Muxer(path: path, format: format.container.muxerName)
        self.muxer = muxer
        let globalHeader = muxer.needsGlobalHeader
        let orientation = format.videoLayout?.orientation ?? .upright, fullRange = format.videoLayout?.fullRange ?? false
        stored = StoredPictures(orientation, fullRange: fullRange, timeBase: format.frameRate.inverted)
        let makeEncoder = { (crf: Int) in
            try EncodingSink.videoEncoder(format, stored: orientation.storedSize(width: format.width, height: format.height),
                                          fullRange: fullRange, crf: crf, globalHeader: globalHeader)
        }
        if let layout = format.videoLayout {
            video = try layout.makeTrack(muxer: muxer, codec: format.codec, crf: format.crf, makeEncoder: makeEncoder)
        } else {
            video = try EncodedTrack(muxer: muxer, encoder: makeEncoder(format.crf), displayMatrix: format.displayMatrix)
        }
        // The video track is stream 0; WebM states HDR10 metadata in its colour element.
        if format.container == .webm, format.colour.dynamicRange.isHDR, let metadata = format.hdrMetadata {
            muxer.stateHDRMetadata(metadata, stream: 0)
        }
        if let audio = format.audio {
            let makeEncoder = { [container = format.container] in
                container == .webm
                    ? try Encoder.opus(sampleRate: audio.sampleRate, channels: audio.channels, bitRate: audio.bitRate,
                                       globalHeader: globalHeader)
                    : try Encoder.aac(sampleRate: audio.sampleRate, channels: audio.channels, bitRate: audio.bitRate,
                                      globalHeader: globalHeader)
            }
            let encoder = try makeEncoder()
            let stream = try muxer.addStream(for: encoder)
            audioStream = stream
            audioFrameSize = max(encoder.frameSize, 1)
            if let layout = format.soundLayout {
                sound = try layout.makeTrack(muxer: muxer, stream: stream, sampleRate: audio.sampleRate, makeEncoder: makeEncoder)
            } else {
                sound = EncodedSound(muxer: muxer, encoder: encoder, stream: stream)
            }
        } else {
            sound = nil
            audioStream = -1
            audioFrameSize = OutputAudio.frameSize
        }
        for (index, chapter) in format.chapters.enumerated() {
            try muxer.addChapter(id: index + 1, timeBase: format.frameRate.inverted, start: Int64(chapter.startFrame),
                                 end: Int64(chapter.endFrame), title: chapter.title)
        }
        if let track = format.subtitles {
            let webVTT = format.container == .webm
            let stream = try webVTT ? muxer.addWebVTTTrack(language: track.language) : muxer.addTextTrack(language: track.language)
            subtitles = SubtitleWriter(muxer: muxer, stream: stream, webVTT: webVTT, cues: track.cues, frameRate: format.frameRate)
        }
        try muxer.writeHeader(options: EncodingSink.headerOptions(format.container))
    }

    /// The muxer's options: the index first, so a player can start before the
    /// file has all come (MP4's faststart, WebM's cues in front), the colour
    /// box in MP4, and in WebM the picture and sound tracks marked default.
    private static func headerOptions(_ container: OutputContainer) -> [String: String] {
        switch container {
        // (An HLS ladder's renditions are written by `LadderSink`; none of them is an MP4 of this sink's.)
        case .mp4, .hls: return ["movflags": "+faststart+write_colr"]
        case .webm: return ["cues_to_front": "1", "default_mode": "infer_no_subs"]
        }
    }

    /// An encoder of pictures stored `stored` (the format's size, turned as the track stores them), in full range or not.
    private static func videoEncoder(_ format: Format, stored: (width: Int, height: Int), fullRange: Bool, crf: Int,
                                     globalHeader: Bool) throws -> Encoder {
        try Encoder.video(codec: format.codec, width: stored.width, height: stored.height, frameRate: format.frameRate, crf: crf,
                          preset: format.preset, colour: format.colour, metadata: format.hdrMetadata, fullRange: fullRange,
                          codecParams: format.videoLayout?.encoderParams ?? "", globalHeader: globalHeader)
    }

    /// Encodes an upright picture whose pts counts frames. With `--smart`,
    /// `crf` says at what quality; a new one starts a new stretch.
    func encode(picture: Frame, crf: Int? = nil) throws {
        try subtitles?.write(upToFrame: picture.pts ?? 0)
        try video.encode(stored?.store(picture) ?? picture, crf: crf)
    }

    /// Writes a copied packet to show at `time` (`--smart` only).
    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws {
        try subtitles?.write(upToFrame: Int64(time.frame))
        try video.copy(packet, at: time, until: end)
    }

    /// Writes an encoded AAC packet as it is (a segmented render's join, MP4 only), its pts counting samples.
    func copy(sound packet: Packet) throws {
        guard sound != nil else { return }
        try muxer.write(packet, stream: audioStream)
    }

    /// Encodes planar-float audio whose pts counts samples.
    func encode(sound block: Frame) throws {
        try sound?.encode(block)
    }

    /// Writes a copied AAC packet as output frame `slot` (`--smart` only).
    func copy(sound packet: Packet, slot: Int) throws {
        try sound?.copy(packet, slot: slot)
    }

    /// Flushes both encoders (decoder, encoder, trailer: the documented order) and closes the file.
    func finish() throws {
        try subtitles?.write(upToFrame: .max)
        try video.finish()
        try sound?.finish()
        try muxer.finish()
    }
}

/// Writes a subtitle track's cues into the muxer as the pictures reach
/// their times, so the file interleaves them with the pictures they belong to.
private struct SubtitleWriter {
    let muxer: Muxer
    let stream: Int
    /// WebVTT cues (WebM) rather than 3GPP timed text (MP4).
    let webVTT: Bool
    let cues: [TrackCue]
    let frameRate: Rational
    private var next = 0

    init(muxer: Muxer, stream: Int, webVTT: Bool, cues: [TrackCue], frameRate: Rational) {
        self.muxer = muxer
        self.stream = stream
        self.webVTT = webVTT
        self.cues = cues
        self.frameRate = frameRate
    }

    /// Writes the cues that start by the end of output frame `frame`.
    mutating func write(upToFrame frame: Int64) throws {
        let limit = frame == .max ? Int.max : Int((Double(frame + 1) * 1000 / frameRate.value).rounded(.up))
        while next < cues.count && cues[next].start <= limit {
            let cue = cues[next]
            let styles = cue.styles.map { TimedTextStyle(start: $0.start, end: $0.end, flags: $0.style.rawValue) }
            if webVTT {
                try muxer.writeWebVTTCue(cue.text, styles: styles, start: Int64(cue.start), end: Int64(cue.end), stream: stream)
            } else {
                try muxer.writeText(cue.text, styles: styles, start: Int64(cue.start), end: Int64(cue.end), stream: stream)
            }
            next += 1
        }
    }
}
