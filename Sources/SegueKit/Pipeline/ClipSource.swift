import Foundation
import SegueMedia

/// One clip decoded and normalised to the canvas: exactly `frameCount`
/// pictures in the canvas format, and exactly as many audio samples as the
/// caller asks for (48 kHz stereo float), in sync with the pictures.
///
/// Normalising is done by libavfilter graphs (fps, transpose, scale, pad or
/// crop, format; aresample, aformat); this class only feeds them and counts.
final class ClipSource {
    let clip: PlannedClip
    private let canvas: Canvas
    private let demuxer: Demuxer
    private let videoDecoder: Decoder
    private let audioDecoder: Decoder?
    private var videoGraph: FilterGraph?
    private var audioGraph: FilterGraph?
    private let packet = Packet()
    private let decoded = Frame()

    /// Where the clip's time 0 is, in the video stream's time base.
    private let videoOrigin: Int64
    /// The same instant in the audio stream's time base.
    private let audioOrigin: Int64
    private let audioTimeBase: Rational
    private var audioEndPTS: Int64 = 0

    /// Pictures ready to deliver. A handful at most, so removing from the front
    /// is cheap, and a delivered picture is released at once (each holds a
    /// decoder buffer that can't be reused until it is).
    private var pictures: [Frame] = []
    private var samples: [[Float]] = [[], []]
    private var sampleHead = 0
    /// Samples replaced by silence before they were decoded (see `nextSamples`).
    private var samplesOwed = 0
    private var endOfInput = false
    private var lastPicture: Frame?
    /// A photo's one picture, handed out for its duration (nil for a video).
    private var still: StillPicture?
    /// The static gain and limiter `--loudness` gives this clip.
    private let loudnessFilters: String?

    private let strict: Bool
    private let cancellation: Cancellation
    /// Clip time of the latest picture decoded, in seconds.
    private var lastPictureTime = -Double.infinity
    private(set) var picturesRepeated = 0
    private(set) var samplesPadded = 0

    /// With `--smart`: the GOPs whose packets are handed on as they are,
    /// undecoded, with their frame positions; pictures come only for the rest.
    let copyPlan: ClipCopyPlan?
    private var copiedPackets: [(packet: Packet, position: Int)] = []
    /// Whether the packets last read went to the decoder (a stretch that is re-encoded).
    private var decoding = false
    private var lastDeliveredPosition = -1

    /// Opens the clip and its decoders; the filter graphs are built on the first
    /// decoded frames, whose real format they must match.
    /// `readPath`, when given, is where the clip's bytes are (a staged copy).
    /// `cancellation`, when raised, breaks off the open and priming.
    init(clip: PlannedClip, canvas: Canvas, settings: StitchSettings, readPath: String? = nil,
         copyPlan: ClipCopyPlan? = nil, cancellation: Cancellation = Cancellation()) throws {
        self.clip = clip
        self.copyPlan = copyPlan
        self.canvas = canvas
        self.cancellation = cancellation
        demuxer = try InputAccess(network: settings.network).openDemuxer(readPath ?? clip.info.readPath,
                                                                         cancellation: cancellation)
        guard let videoIndex = demuxer.bestStream(.video) else { throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream") }
        // One thread per decoder: x264 already keeps every core busy, and each
        // frame thread would hold pictures of its own (measured: 24 MB less).
        videoDecoder = try Decoder(demuxer: demuxer, streamIndex: videoIndex, threads: 1)
        videoDecoder.failOnDamage = settings.strict
        strict = settings.strict
        let video = demuxer.streams[videoIndex]
        // A trimmed clip starts at its in point: decoding resumes at the keyframe
        // before it, and the graphs drop whatever comes before time 0.
        let start = video.startTime ?? 0
        videoOrigin = start + video.timeBase.ticks(seconds: clip.info.inPoint)
        if clip.info.inPoint > 0 {
            try demuxer.seek(toSeconds: Double(start) * video.timeBase.value + clip.info.inPoint)
        }

        loudnessFilters = LoudnessMeter.filters(for: clip, target: settings.loudness)
        if settings.includeAudio, !clip.info.isStill, let audioIndex = demuxer.bestStream(.audio), demuxer.streams[audioIndex].kind == .audio {
            audioDecoder = try Decoder(demuxer: demuxer, streamIndex: audioIndex)
            audioDecoder?.failOnDamage = settings.strict
            audioTimeBase = demuxer.streams[audioIndex].timeBase
            audioOrigin = video.timeBase.rescale(videoOrigin, to: audioTimeBase)
        } else {
            audioDecoder = nil
            audioTimeBase = Rational(1, canvas.sampleRate)
            audioOrigin = 0
        }
        if clip.info.isStill {
            still = try StillPicture(demuxer: demuxer, decoder: videoDecoder, clip: clip, canvas: canvas,
                                     motion: settings.stillMotion, filters: videoFilters())
        }
    }

    /// Decodes until `count` pictures are ready (or the clip ends), so the
    /// first frames of the next clip are waiting before the join.
    func prime(pictures count: Int) throws {
        while still == nil, pictures.count + copiedPackets.count < count, !endOfInput {
            if cancellation.isCancelled { throw FFmpegError.exit }
            try pump()
        }
    }

    /// The next canvas picture. Past the clip's decodable end the last picture
    /// is held, so the clip keeps its planned length.
    func nextPicture() throws -> Frame {
        if let still { return try still.next() }
        while pictures.isEmpty, !endOfInput { try pump() }
        if !pictures.isEmpty {
            let picture = pictures.removeFirst()
            lastPicture = picture.clone()
            return picture
        }
        guard let lastPicture else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
        }
        picturesRepeated += 1
        return lastPicture.clone()
    }

    /// The next copied frame's packet (decoding order) and its frame position.
    func nextCopiedPacket() throws -> (packet: Packet, position: Int) {
        while copiedPackets.isEmpty, !endOfInput { try pump() }
        guard !copiedPackets.isEmpty else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "its packets ended before the planned copy")
        }
        return copiedPackets.removeFirst()
    }

    /// The picture shown last, to hold through a freeze join.
    func heldPicture() throws -> Frame {
        if let still { return try still.held() }
        guard let lastPicture else { throw SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded") }
        return lastPicture.clone()
    }

    /// The next picture, left in place for `nextPicture`.
    func peekPicture() throws -> Frame {
        if let still { return try still.peek() }
        while pictures.isEmpty, !endOfInput { try pump() }
        guard let next = pictures.first else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
        }
        return next.clone()
    }

    /// Exactly `count` samples per channel of the clip's audio, silence where it has none.
    func nextSamples(_ count: Int) throws -> [[Float]] {
        // Bound how far video may run ahead while looking for audio, so a badly
        // interleaved file can't fill memory with pictures.
        let pictureLimit = max(30, Int(canvas.frameRate.value * 2))
        while samples[0].count - sampleHead < count + samplesOwed, !endOfInput, audioDecoder != nil,
              pictures.count + copiedPackets.count < pictureLimit {
            try pump()
        }
        // Audio that arrives after silence stood in for it is dropped, so it can't fall behind.
        let skipped = min(samplesOwed, samples[0].count - sampleHead)
        sampleHead += skipped
        samplesOwed -= skipped
        let available = min(count, samples[0].count - sampleHead)
        var chunk = samples.map { Array($0[sampleHead..<(sampleHead + available)]) }
        sampleHead += available
        if sampleHead > 1 << 16 {
            for channel in samples.indices { samples[channel].removeFirst(sampleHead) }
            sampleHead = 0
        }
        if available < count {
            samplesPadded += count - available
            if !endOfInput { samplesOwed += count - available }
            for channel in chunk.indices { chunk[channel].append(contentsOf: repeatElement(0, count: count - available)) }
        }
        return chunk
    }

    /// Seconds of picture the clip promised but didn't deliver (damaged or
    /// truncated file); the last picture is held through them. Known at its end.
    var missingVideoSeconds: Double {
        guard endOfInput, lastPictureTime.isFinite else { return 0 }
        let shortfall = clip.info.duration - (lastPictureTime + 1 / clip.info.frameRate.value)
        return shortfall > 1.5 / canvas.frameRate.value ? shortfall : 0
    }

    /// Damaged packets and pictures concealed so far.
    var damage: Int { videoDecoder.damage + (audioDecoder?.damage ?? 0) }

    /// Seconds of audio that had to be made up because the clip's audio ended
    /// early (or was missing), beyond what AAC priming explains.
    var paddedAudioSeconds: Double { Double(samplesPadded) / Double(canvas.sampleRate) }

    // MARK: Decoding

    /// One step of reading, its failures said for the user.
    private func pump() throws {
        do {
            try readStep()
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// A failure reading `clip`, naming it: a lost connection is never called damage.
    static func failure(_ error: Error, reading clip: ClipInfo) -> SegueError {
        failure(error, reading: clip.path, from: clip.readPath)
    }

    /// A failure reading the input `path` (its bytes at `readPath`), naming it.
    static func failure(_ error: Error, reading path: String, from readPath: String? = nil) -> SegueError {
        switch error {
        case let error as SegueError:
            return error
        case let lost as ConnectionLost:
            return SegueError(.connectionLost, subject: path, detail: lost.description, underlying: lost)
        case let error as FFmpegError where error.isTransport && InputAccess.isRemote(readPath ?? path):
            return SegueError(.connectionLost, subject: path, detail: "connection failed (\(error.message))", underlying: error)
        default:
            return SegueError(.readFailed, subject: path, detail: Stitcher.describe(error), underlying: error)
        }
    }

    /// Reads one packet and pushes what it decodes through the graphs; at end
    /// of file, flushes decoders and graphs.
    private func readStep() throws {
        do {
            if try demuxer.read(into: packet) {
                if packet.streamIndex == videoDecoder.streamIndex {
                    if let copyPlan, let pts = packet.pts, copyPlan.isCopied(copyPlan.position(ofPTS: pts)) {
                        let position = copyPlan.position(ofPTS: pts)
                        if decoding { try endDecodedStretch(before: position) }
                        copiedPackets.append((packet.clone(), position))
                        lastPictureTime = max(lastPictureTime, Double(position) / canvas.frameRate.value)
                        return
                    }
                    decoding = true
                    try videoDecoder.send(packet)
                    try drainVideo()
                } else if let audioDecoder, packet.streamIndex == audioDecoder.streamIndex {
                    try audioDecoder.send(packet)
                    try drainAudio()
                }
                return
            }
        } catch let error as FFmpegError where !error.isTransport && error != .exit {
            if strict {
                throw SegueError(.damagedMedia, subject: clip.info.path,
                                 detail: "damaged media (\(error.message)); stopped because of --strict", underlying: error)
            }
            // A damaged or truncated stretch of file ends the clip's media; the
            // clip keeps its planned length (last picture held, silence).
        }
        endOfInput = true
        try videoDecoder.sendEndOfStream()
        try drainVideo()
        if strict && missingVideoSeconds > 0 {
            throw SegueError(.damagedMedia, subject: clip.info.path,
                             detail: "video ends \(Plan.seconds(missingVideoSeconds)) before its stated duration; stopped because of --strict")
        }
        if let videoGraph {
            let end = canvas.frameRate.inverted.rescale(Int64(clip.frameCount), to: videoDecoder.timeBase)
            try videoGraph.close(atPTS: end)
            try drainVideoGraph()
        }
        if let audioDecoder {
            try audioDecoder.sendEndOfStream()
            try drainAudio()
            if let audioGraph {
                try audioGraph.close(atPTS: audioEndPTS)
                try drainAudioGraph()
            }
        }
    }

    /// A decoded stretch ends where copied GOPs begin: the decoder gives up
    /// the pictures it holds for reordering and the graph its last one, then
    /// both start afresh at the next decoded stretch (which starts at an IDR).
    private func endDecodedStretch(before position: Int) throws {
        decoding = false
        try videoDecoder.sendEndOfStream()
        try drainVideo()
        videoDecoder.reset()
        if let videoGraph {
            try videoGraph.close(atPTS: canvas.frameRate.inverted.rescale(Int64(position), to: videoDecoder.timeBase))
            try drainVideoGraph()
        }
        videoGraph = nil
    }

    private func drainVideo() throws {
        while try videoDecoder.receive(into: decoded) == .ready {
            if videoGraph == nil {
                videoGraph = try FilterGraph(videoLike: decoded, timeBase: videoDecoder.timeBase, description: videoFilters())
            }
            if let pts = decoded.pts {
                decoded.pts = pts - videoOrigin
                lastPictureTime = max(lastPictureTime, Double(pts - videoOrigin) * videoDecoder.timeBase.value)
            }
            try videoGraph!.push(decoded)
            try drainVideoGraph()
        }
    }

    private func drainVideoGraph() throws {
        guard let videoGraph else { return }
        while true {
            let picture = Frame()
            guard try videoGraph.pull(into: picture) == .ready else { return }
            // After fps the pts counts canvas frames from the clip's start.
            guard let pts = picture.pts, pts >= 0 && pts < Int64(clip.frameCount) else { continue }
            if let copyPlan {
                // Copied frames come as packets; a restarted graph repeats what came before.
                guard Int(pts) > lastDeliveredPosition, !copyPlan.isCopied(Int(pts)) else { continue }
                lastDeliveredPosition = Int(pts)
            }
            pictures.append(picture)
        }
    }

    private func drainAudio() throws {
        guard let audioDecoder else { return }
        while try audioDecoder.receive(into: decoded) == .ready {
            if audioGraph == nil {
                audioGraph = try FilterGraph(audioLike: decoded, description: audioFilters())
            }
            // The graph's input time base is 1/sample rate.
            let rate = Rational(1, decoded.sampleRate)
            if let pts = decoded.pts {
                let start = audioTimeBase.rescale(pts - audioOrigin, to: rate)
                decoded.pts = start
                audioEndPTS = start + Int64(decoded.sampleCount)
            }
            try audioGraph!.push(decoded)
            try drainAudioGraph()
        }
    }

    private func drainAudioGraph() throws {
        guard let audioGraph else { return }
        let block = Frame()
        while try audioGraph.pull(into: block) == .ready {
            block.appendSamples(to: &samples)
        }
    }

    // MARK: Filter descriptions

    private func videoFilters() -> String {
        let rate = canvas.frameRate
        let placement = clip.placement
        var filters = ["fps=fps=\(rate.numerator)/\(rate.denominator):start_time=0"]
        switch clip.info.rotation {
        case 90: filters.append("transpose=clock")
        case 180: filters.append("hflip,vflip")
        case 270: filters.append("transpose=cclock")
        default: break
        }
        filters.append("scale=\(placement.scaledWidth):\(placement.scaledHeight):flags=bicubic")
        filters.append("format=yuv420p")
        if placement.scaledWidth < canvas.width || placement.scaledHeight < canvas.height {
            filters.append("pad=\(canvas.width):\(canvas.height):\(placement.x):\(placement.y):black")
        }
        if placement.scaledWidth > canvas.width || placement.scaledHeight > canvas.height {
            filters.append("crop=\(canvas.width):\(canvas.height):\(placement.x):\(placement.y)")
        }
        filters.append("setsar=1")
        return filters.joined(separator: ",")
    }

    private func audioFilters() -> String {
        // async + first_pts=0: silence where the audio starts late or has gaps,
        // trimmed where it starts early, so it stays locked to the pictures.
        "aresample=\(canvas.sampleRate):async=1:first_pts=0,aformat=sample_fmts=fltp:channel_layouts=stereo"
            + (loudnessFilters.map { ",\($0)" } ?? "")
    }
}
