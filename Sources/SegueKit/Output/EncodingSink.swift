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
        /// With `--smart`: copied packets stand between re-encoded stretches.
        var smart: SmartVideo?
        /// Chapters, in output frames.
        var chapters: [Chapter] = []

        struct AudioFormat {
            var sampleRate = 48_000
            var channels = 2
            var bitRate = 128_000
        }
    }

    /// A video track of copied packets and re-encoded stretches. Each stretch
    /// has an encoder of its own (it starts with an IDR and ends closed), all
    /// with the same parameter sets, listed in `extradata` with the copied ones.
    struct SmartVideo {
        var extradata: [UInt8]
        /// x264 or x265 parameters every stretch's encoder takes (x264: its sps-id, stitchable).
        var encoderParams: String
        /// HEVC: the ids x265's parameter sets and slices take in the file.
        var renumbering: HEVCRenumbering?
        /// The MP4 sample entry, when not the encoder's (hev1).
        var sampleEntry: String?
        /// Decoding times run this many frames behind frame numbers.
        var reorderDelay: Int
    }

    private let muxer: Muxer
    private let format: Format
    /// Nil between re-encoded stretches (with `--smart` only).
    private var videoEncoder: Encoder?
    private var videoCRF: Int
    /// With `--smart`: the parameter sets every stretch's encoder must make.
    private var stretchExtradata: [UInt8] = []
    /// With `--smart`: video packets written, which numbers their decoding times.
    private var videoPackets: Int64 = 0
    private let audioEncoder: Encoder?
    private let videoStream: Int
    private let audioStream: Int
    private let packet = Packet()
    /// Samples per audio frame the encoder takes (1024 for AAC).
    let audioFrameSize: Int

    init(path: String, format: Format) throws {
        muxer = try Muxer(path: path, format: "mp4")
        self.format = format
        videoCRF = format.crf
        let encoder = try EncodingSink.videoEncoder(format, crf: videoCRF, globalHeader: muxer.needsGlobalHeader)
        if let smart = format.smart {
            videoStream = try muxer.addStream(for: encoder, extradata: smart.extradata, codecTag: smart.sampleEntry)
            stretchExtradata = encoder.extradata
        } else {
            videoStream = try muxer.addStream(for: encoder, rotation: format.rotation)
            videoEncoder = encoder
        }
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

    private static func videoEncoder(_ format: Format, crf: Int, globalHeader: Bool) throws -> Encoder {
        try Encoder.video(codec: format.codec == .hevc ? .hevc : .h264, width: format.width, height: format.height,
                          frameRate: format.frameRate, crf: crf, preset: format.preset,
                          codecParams: format.smart?.encoderParams ?? "", globalHeader: globalHeader)
    }

    /// Encodes a picture whose pts counts frames. With `--smart`, `crf` says
    /// at what quality; a new one starts a new stretch.
    func encode(picture: Frame, crf: Int? = nil) throws {
        if format.smart != nil {
            let crf = crf ?? format.crf
            if videoEncoder == nil || crf != videoCRF { try endStretch() }
            if videoEncoder == nil {
                let encoder = try EncodingSink.videoEncoder(format, crf: crf, globalHeader: muxer.needsGlobalHeader)
                let syntax = CopySyntax(format.codec)
                guard syntax.description(encoder.extradata)?.units == syntax.description(stretchExtradata)?.units else {
                    throw SegueError(.writeFailed, detail: "a re-encoded stretch's parameter sets differ from the track's")
                }
                videoEncoder = encoder
                videoCRF = crf
            }
        }
        guard let videoEncoder else { return }
        picture.tagAsBT709()
        try videoEncoder.send(picture)
        try drain(videoEncoder, to: videoStream)
    }

    /// Writes a copied packet as output frame `frame` (`--smart` only): the
    /// stretch being re-encoded, if any, is finished first.
    func copy(_ packet: Packet, frame: Int64) throws {
        try endStretch()
        packet.pts = frame
        packet.duration = 1
        try writeVideo(packet)
    }

    /// Finishes the re-encoded stretch under way (`--smart`), so a copied GOP can follow.
    private func endStretch() throws {
        guard format.smart != nil, let encoder = videoEncoder else { return }
        try encoder.sendEndOfStream()
        try drain(encoder, to: videoStream)
        videoEncoder = nil
        // The next stretch's encoder allocates its buffers afresh: give these back
        // first, so the peak stays that of one encoder.
        ProcessPolicy.heapIsQuiet()
    }

    /// Encodes planar-float audio whose pts counts samples.
    func encode(sound: Frame) throws {
        guard let audioEncoder else { return }
        try audioEncoder.send(sound)
        try drain(audioEncoder, to: audioStream)
    }

    /// Flushes both encoders (decoder, encoder, trailer: the documented order) and closes the file.
    func finish() throws {
        if format.smart != nil {
            try endStretch()
        } else if let videoEncoder {
            try videoEncoder.sendEndOfStream()
            try drain(videoEncoder, to: videoStream)
        }
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
            if stream == videoStream {
                if let smart = format.smart { try fitStretchPacket(packet, to: smart) }
                try writeVideo(packet)
            } else { try muxer.write(packet, stream: stream) }
        }
    }

    /// Makes a re-encoded stretch's packet what the track stores (`--smart`):
    /// the header is an avcC or hvcC record, so the muxer leaves start codes
    /// as they are; and x265's units take the ids the track gives them.
    private func fitStretchPacket(_ packet: Packet, to smart: SmartVideo) throws {
        guard let renumbering = smart.renumbering else { return packet.convertAnnexBToLengthPrefixed() }
        try packet.convertAnnexBToLengthPrefixed { unit in
            guard let renumbered = renumbering.apply(unit) else {
                throw SegueError(.writeFailed, detail: "an HEVC unit of a re-encoded stretch could not be renumbered")
            }
            return renumbered
        }
    }

    /// Writes a video packet whose pts counts frames. With `--smart`, stretches
    /// and copied GOPs each reorder on their own, so decoding times are made
    /// afresh: one per packet, `reorderDelay` behind, strictly increasing.
    private func writeVideo(_ packet: Packet) throws {
        if let smart = format.smart {
            let dts = videoPackets - Int64(smart.reorderDelay)
            guard let pts = packet.pts, pts >= dts else {
                throw SegueError(.writeFailed, detail: "video packet \(videoPackets) would decode after it shows")
            }
            packet.dts = dts
            videoPackets += 1
        }
        try muxer.write(packet, stream: videoStream)
    }
}
