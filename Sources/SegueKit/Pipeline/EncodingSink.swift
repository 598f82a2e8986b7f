import SegueMedia

/// Encoders and a muxer writing one MP4, used from one thread: the output
/// writer's thread in a stitch, the caller's when tests make fixture clips.
final class EncodingSink {
    /// What the file will hold.
    struct Format {
        var width: Int
        var height: Int
        var frameRate: Rational
        var codec: VideoCodecChoice = .h264
        var crf = 23
        var preset = "medium"
        /// Nil for a file without audio.
        var audio: AudioFormat? = AudioFormat()
        /// Clockwise degrees a player should turn the picture (fixtures only).
        var rotation = 0
        /// Chapters, in output frames.
        var chapters: [Chapter] = []

        struct AudioFormat {
            var sampleRate = 48_000
            var channels = 2
            var bitRate = 128_000
        }
    }

    private let muxer: Muxer
    private let videoEncoder: Encoder
    private let audioEncoder: Encoder?
    private let videoStream: Int
    private let audioStream: Int
    private let packet = Packet()
    /// Samples per audio frame the encoder takes (1024 for AAC).
    let audioFrameSize: Int

    init(path: String, format: Format) throws {
        muxer = try Muxer(path: path, format: "mp4")
        videoEncoder = try Encoder.video(
            codec: format.codec == .hevc ? .hevc : .h264, width: format.width, height: format.height,
            frameRate: format.frameRate, crf: format.crf, preset: format.preset, globalHeader: muxer.needsGlobalHeader)
        videoStream = try muxer.addStream(for: videoEncoder, rotation: format.rotation)
        if let audio = format.audio {
            let encoder = try Encoder.aac(sampleRate: audio.sampleRate, channels: audio.channels, bitRate: audio.bitRate,
                                          globalHeader: muxer.needsGlobalHeader)
            audioEncoder = encoder
            audioStream = try muxer.addStream(for: encoder)
            audioFrameSize = max(encoder.frameSize, 1)
        } else {
            audioEncoder = nil
            audioStream = -1
            audioFrameSize = 1024
        }
        for (index, chapter) in format.chapters.enumerated() {
            try muxer.addChapter(id: index + 1, timeBase: format.frameRate.inverted, start: Int64(chapter.startFrame),
                                 end: Int64(chapter.endFrame), title: chapter.title)
        }
        try muxer.writeHeader(options: ["movflags": "+faststart+write_colr"])
    }

    /// Encodes a picture whose pts counts frames.
    func encode(picture: Frame) throws {
        picture.tagAsBT709()
        try videoEncoder.send(picture)
        try drain(videoEncoder, to: videoStream)
    }

    /// Encodes planar-float audio whose pts counts samples.
    func encode(sound: Frame) throws {
        guard let audioEncoder else { return }
        try audioEncoder.send(sound)
        try drain(audioEncoder, to: audioStream)
    }

    /// Flushes both encoders (decoder, encoder, trailer: the documented order) and closes the file.
    func finish() throws {
        try videoEncoder.sendEndOfStream()
        try drain(videoEncoder, to: videoStream)
        if let audioEncoder {
            try audioEncoder.sendEndOfStream()
            try drain(audioEncoder, to: audioStream)
        }
        try muxer.finish()
    }

    private func drain(_ encoder: Encoder, to stream: Int) throws {
        while try encoder.receive(into: packet) == .ready {
            // A picture lasts one tick of 1/fps; libx264 leaves it unset, and
            // the muxer needs it for the last frame's duration.
            if stream == videoStream && packet.duration == 0 { packet.duration = 1 }
            try muxer.write(packet, stream: stream)
        }
    }
}
