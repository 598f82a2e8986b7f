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
    /// Lays packets on the continuous line the probe measured (MPEG-TS/PS); nil for other containers.
    private var timestampLine: TimestampLine?

    /// Pictures taken from the graph ahead of need (priming, a peek): a
    /// handful at most. Every other picture is pulled from the graph only when
    /// the stitcher asks for it, so nothing piles up however long a picture is
    /// held (a still under music, a screen recording's pauses).
    private var pictures: [Frame] = []
    /// Packets read while looking for the other stream's: compressed, so a
    /// long stretch of one stream costs little while the other is searched.
    private var videoPackets = PacketQueue()
    private var audioPackets = PacketQueue()
    private var samples = SampleQueue()
    /// Samples replaced by silence before they were decoded (see `nextSamples`).
    private var samplesOwed = 0
    /// The demuxer has nothing more (end of file, or a damaged stretch ending it).
    private var endOfInput = false
    /// No more pictures go into the video graph; the graph returns what it holds.
    private var videoFed = false
    /// The video graph has returned its last picture.
    private var videoDone = false
    private var audioFed = false
    private var lastPicture: Frame?
    /// A photo's one picture, handed out for its duration (nil for a video).
    private var still: StillPicture?
    /// The static gain and limiter `--loudness` gives this clip.
    private let loudnessFilters: String?
    /// Pictures delivered so far.
    private var delivered = 0

    private let strict: Bool
    private let cancellation: Cancellation
    /// Clip time of the latest picture decoded, in seconds.
    private var lastPictureTime = -Double.infinity
    /// Where the latest picture decoded ends, in the decoder's time base from time 0.
    private var pictureEndPTS: Int64?
    private(set) var picturesRepeated = 0
    private(set) var samplesPadded = 0

    /// With `--smart`: the GOPs whose packets are handed on as they are,
    /// undecoded (`nextCopiedPacket`); pictures come only for the rest.
    let copyPlan: ClipCopyPlan?
    /// The copied packet the decoding side reached: its stretch ends there,
    /// and the stitcher takes it next.
    private var reachedCopy: Packet?
    /// Whether packets went to the decoder since the last copied GOP.
    private var decodingStretch = false
    /// Pictures a decoded stretch gave up at its end, ahead of any new ones.
    private var flushed: [Frame] = []
    /// The latest frame position delivered as a picture (`--smart`).
    private var lastDeliveredPosition = -1
    /// With `--smart --strict`: a decoder that checks the copied packets
    /// too (their pictures are dropped), so damage in them stops the stitch as
    /// it does anywhere else.
    private let copyChecker: Decoder?
    private let checked = Frame()

    /// Opens the clip and its decoders; the filter graphs are built on the first
    /// decoded frames, whose real format they must match.
    /// `readPath`, when given, is where the clip's bytes are (a staged copy);
    /// `cancellation`, when raised, breaks off the open and priming.
    init(clip: PlannedClip, canvas: Canvas, settings: StitchSettings, readPath: String? = nil,
         copyPlan: ClipCopyPlan? = nil, cancellation: Cancellation = Cancellation()) throws {
        self.clip = clip
        self.copyPlan = copyPlan
        self.canvas = canvas
        self.cancellation = cancellation
        demuxer = try InputAccess(network: settings.network).openDemuxer(readPath ?? clip.info.readPath,
                                                                         cancellation: cancellation)
        guard let videoIndex = demuxer.bestStream(.video) else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream")
        }
        // One thread per decoder: x264 already keeps every core busy, and each
        // frame thread would hold pictures of its own (measured: 24 MB less).
        videoDecoder = try Decoder(demuxer: demuxer, streamIndex: videoIndex, threads: 1)
        videoDecoder.failOnDamage = settings.strict
        strict = settings.strict
        copyChecker = settings.strict && copyPlan != nil ? try Decoder(demuxer: demuxer, streamIndex: videoIndex, threads: 1) : nil
        copyChecker?.failOnDamage = true
        let video = demuxer.streams[videoIndex]
        // A trimmed clip starts at its in point: decoding resumes at the keyframe
        // before it, and the graphs drop whatever comes before time 0. A clock
        // that jumps can't be sought by time: such a clip is read from its start.
        videoOrigin = clip.info.origin(in: video)
        if clip.info.inPoint > 0, clip.info.timestampJumps == 0 {
            try demuxer.seek(toSeconds: Double(videoOrigin) * video.timeBase.value)
        }

        loudnessFilters = LoudnessMeter.filters(for: clip, target: settings.loudness)
        if settings.includeAudio, !clip.info.isStill, let audioIndex = demuxer.bestStream(.audio),
           demuxer.streams[audioIndex].kind == .audio {
            audioDecoder = try Decoder(demuxer: demuxer, streamIndex: audioIndex)
            audioDecoder?.failOnDamage = settings.strict
            audioTimeBase = demuxer.streams[audioIndex].timeBase
            audioOrigin = video.timeBase.rescale(videoOrigin, to: audioTimeBase)
        } else {
            audioDecoder = nil
            audioTimeBase = Rational(1, canvas.sampleRate)
            audioOrigin = 0
            audioFed = true
        }
        let timed = [video] + (audioDecoder.map { [demuxer.streams[$0.streamIndex]] } ?? [])
        timestampLine = demuxer.timestampsMayJump ? TimestampLine(streams: timed) : nil
        if clip.info.isStill {
            still = try StillPicture(demuxer: demuxer, decoder: videoDecoder, clip: clip, canvas: canvas,
                                     motion: settings.stillMotion)
        }
    }

    /// Decodes until `count` pictures are ready (or the clip ends), so the
    /// first frames of the next clip are waiting before the join.
    func prime(pictures count: Int) throws {
        while still == nil, pictures.count < count {
            if cancellation.isCancelled { throw FFmpegError.exit }
            guard let picture = try producePicture() else { break }
            pictures.append(picture)
        }
    }

    /// The next canvas picture. Past the clip's last picture that picture is
    /// held (a reference, not a copy), so the clip keeps its planned length.
    func nextPicture() throws -> Frame {
        if let still { return try still.next() }
        let next = pictures.isEmpty ? try producePicture() : pictures.removeFirst()
        if next == nil, reachedCopy != nil {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "a picture was asked for before the copied packets ahead of it")
        }
        delivered += 1
        if let next {
            lastPicture = next.clone()
            return next
        }
        guard let lastPicture else { throw noPicture }
        // Holding the picture under sound that runs on is the plan, not a shortfall.
        if Double(delivered) <= pictureSeconds * canvas.frameRate.value + 1 { picturesRepeated += 1 }
        return lastPicture.clone()
    }

    /// The next copied frame's packet, in decoding order, and its frame position.
    func nextCopiedPacket() throws -> (packet: Packet, position: Int) {
        do {
            while true {
                let packet: Packet
                if let reached = reachedCopy {
                    reachedCopy = nil
                    packet = reached
                } else if let next = try nextPacket(video: true) {
                    packet = next
                } else {
                    throw SegueError(.readFailed, subject: clip.info.path, detail: "its packets ended before the planned copy")
                }
                if let position = copiedPosition(of: packet) {
                    if decodingStretch { try endDecodedStretch(before: position) }
                    lastPictureTime = max(lastPictureTime, Double(position) / canvas.frameRate.value)
                    let startsRun = copyPlan?.startsCopiedRun(position) == true
                    if startsRun { ClipSource.markAsBrokenLink(packet, copyPlan?.syntax) }
                    try check(copied: packet, startsRun: startsRun)
                    if let renumbering = copyPlan?.renumbering { try ClipSource.renumber(packet, renumbering) }
                    return (packet, position)
                }
                // Decoded on the way (from a keyframe before the in point): its pictures fall before the copy.
                decodingStretch = true
                _ = try survives { try videoDecoder.send(packet); try decodeVideo() }
            }
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// Decodes a copied packet with `copyChecker` (`--smart --strict`), each
    /// copied run on its own as the output's decoders meet it.
    private func check(copied packet: Packet, startsRun: Bool) throws {
        guard let copyChecker else { return }
        _ = try survives {
            if startsRun {
                try copyChecker.sendEndOfStream()
                while try copyChecker.receive(into: checked) == .ready {}
                copyChecker.reset()
            }
            try copyChecker.send(packet)
            while try copyChecker.receive(into: checked) == .ready {}
        }
    }

    /// Gives a copied packet's parameter sets and slices the ids the track
    /// gives its clip (after the check, whose decoder knows the clip's own).
    private static func renumber(_ packet: Packet, _ renumbering: HEVCRenumbering) throws {
        try packet.rewriteNALUnits(lengthSize: 4) { unit in
            guard let renumbered = renumbering.apply(unit) else {
                throw SegueError(.writeFailed, detail: "a copied HEVC unit could not be renumbered")
            }
            return renumbered
        }
    }

    /// An HEVC CRA that opens a copied run follows pictures it wasn't coded
    /// after: marked a broken link (BLA, having no leading pictures), it starts
    /// a new coded video sequence, so decoders reset picture order and may
    /// switch parameter sets there. An IDR already does.
    private static func markAsBrokenLink(_ packet: Packet, _ syntax: CopySyntax?) {
        guard syntax == .hevc else { return }
        packet.rewriteNALUnits(lengthSize: 4) { unit in
            guard HEVC.unitType(unit) == HEVC.cleanRandomAccess else { return nil }
            var marked = unit
            marked[0] = (unit[0] & 0x81) | UInt8(HEVC.brokenLinkWithoutLeading << 1)
            return marked
        }
    }

    /// The frame position of a packet the copy plan copies, nil for one that is decoded.
    private func copiedPosition(of packet: Packet) -> Int? {
        guard let copyPlan, let pts = packet.pts else { return nil }
        let position = copyPlan.position(ofPTS: pts)
        return copyPlan.isCopied(position) ? position : nil
    }

    /// A decoded stretch ends where copied GOPs begin: the decoder gives up the
    /// pictures it holds for reordering and the graph its last ones; both start
    /// afresh at the next decoded stretch (which starts at an IDR).
    private func endDecodedStretch(before position: Int) throws {
        decodingStretch = false
        _ = try survives { try videoDecoder.sendEndOfStream(); try decodeVideo() }
        videoDecoder.reset()
        guard let videoGraph else { return }
        try videoGraph.close(atPTS: canvas.frameRate.inverted.rescale(Int64(position), to: videoDecoder.timeBase))
        while true {
            let picture = Frame()
            guard try videoGraph.pull(into: picture) == .ready else { break }
            if deliverable(picture) { flushed.append(picture) }
        }
        self.videoGraph = nil
    }

    /// Whether a picture out of the graph is one to deliver: within the clip
    /// and, with `--smart`, neither copied nor repeated by a restarted graph.
    private func deliverable(_ picture: Frame) -> Bool {
        // After fps the pts counts canvas frames from the clip's start.
        guard let pts = picture.pts, pts >= 0 && pts < Int64(clip.frameCount) else { return false }
        guard let copyPlan else { return true }
        guard Int(pts) > lastDeliveredPosition, !copyPlan.isCopied(Int(pts)) else { return false }
        lastDeliveredPosition = Int(pts)
        return true
    }

    /// The picture shown last, to hold through a freeze join.
    func heldPicture() throws -> Frame {
        if let still { return try still.held() }
        guard let lastPicture else { throw noPicture }
        return lastPicture.clone()
    }

    /// The next picture, left in place for `nextPicture`.
    func peekPicture() throws -> Frame {
        if let still { return try still.peek() }
        if pictures.isEmpty, let picture = try producePicture() { pictures.append(picture) }
        guard let next = pictures.first ?? lastPicture else { throw noPicture }
        return next.clone()
    }

    /// Exactly `count` samples per channel of the clip's audio, silence where it has none.
    func nextSamples(_ count: Int) throws -> [[Float]] {
        // Bound how much video may be read ahead while looking for audio, so a
        // badly interleaved file (or sound starting late) can't fill memory.
        while samples.count < count + samplesOwed, !audioFed, !videoPackets.isFull {
            try feedAudio()
        }
        // Audio that arrives after silence stood in for it is dropped, so it can't fall behind.
        let skipped = min(samplesOwed, samples.count)
        samples.drop(skipped)
        samplesOwed -= skipped
        let (chunk, available) = samples.take(count)
        if available < count {
            samplesPadded += count - available
            if !audioFed { samplesOwed += count - available }
        }
        return chunk
    }

    /// Seconds of picture the clip's own part of the file holds (from its in point).
    private var pictureSeconds: Double {
        min(clip.info.duration, clip.info.pictureDuration - clip.info.inPoint)
    }

    /// Seconds of picture the clip promised but didn't deliver (damaged or
    /// truncated file); the last picture is held through them. Known at its end.
    var missingVideoSeconds: Double {
        guard videoFed, lastPictureTime.isFinite else { return 0 }
        let shortfall = pictureSeconds - (lastPictureTime + 1 / clip.info.frameRate.value)
        return shortfall > 1.5 / canvas.frameRate.value ? shortfall : 0
    }

    /// Damaged packets and pictures concealed so far.
    var damage: Int { videoDecoder.damage + (audioDecoder?.damage ?? 0) }

    /// Seconds of audio that had to be made up because the clip's audio ended
    /// early (or was missing), beyond what AAC priming explains.
    var paddedAudioSeconds: Double { Double(samplesPadded) / Double(canvas.sampleRate) }

    // MARK: Decoding

    /// The next picture out of the video graph (see `decodePicture`), its failures said for the user.
    private func producePicture() throws -> Frame? {
        do {
            return try decodePicture()
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// The next picture out of the video graph, feeding it one packet at a
    /// time until it gives one; nil once it has given its last.
    private func decodePicture() throws -> Frame? {
        while !videoDone {
            if !flushed.isEmpty { return flushed.removeFirst() }
            // Copied packets come next: no picture until the stitcher has taken them.
            if reachedCopy != nil { return nil }
            if let videoGraph {
                let picture = Frame()
                switch try videoGraph.pull(into: picture) {
                case .ready:
                    if deliverable(picture) { return picture }
                    continue
                case .endOfStream:
                    videoDone = true
                    return nil
                case .needsInput:
                    // Closed and still asking for input: it has nothing more to give.
                    if videoFed {
                        videoDone = true
                        return nil
                    }
                }
            }
            if videoFed {
                // Fed and closed, yet silent: nothing was ever decoded.
                if videoGraph == nil { videoDone = true }
                continue
            }
            try feedVideo()
        }
        return nil
    }

    /// Sends one video packet to the decoder and its pictures into the graph;
    /// at the end of the picture, flushes the decoder and closes the graph.
    private func feedVideo() throws {
        if let packet = try nextPacket(video: true) {
            if let position = copiedPosition(of: packet) {
                reachedCopy = packet
                if decodingStretch { try endDecodedStretch(before: position) }
                return
            }
            decodingStretch = true
            guard try survives({ try videoDecoder.send(packet); try decodeVideo() }) else { return try finishVideo() }
            // The probe measured where the picture ends: past it nothing more
            // comes, so don't read on (through a long sound) to find that out.
            if let pictureEndPTS,
               Double(pictureEndPTS) * videoDecoder.timeBase.value >= pictureSeconds - 0.5 / clip.info.frameRate.value {
                try finishVideo()
            }
            return
        }
        try finishVideo()
    }

    private func finishVideo() throws {
        guard !videoFed else { return }
        videoFed = true
        videoPackets.removeAll()
        _ = try survives { try videoDecoder.sendEndOfStream(); try decodeVideo() }
        if strict && missingVideoSeconds > 0 {
            throw SegueError(.damagedMedia, subject: clip.info.path,
                             detail: "video ends \(Plan.seconds(missingVideoSeconds)) before its stated duration; stopped because of --strict")
        }
        if let videoGraph {
            // The graph stops where the picture does (or the clip, if sooner);
            // the hold after it is ours, one reference, not hundreds of copies.
            let frame = canvas.frameRate.inverted.rescale(1, to: videoDecoder.timeBase)
            var end = canvas.frameRate.inverted.rescale(Int64(clip.frameCount), to: videoDecoder.timeBase)
            // At least one frame: an in point inside a held stretch still shows the picture.
            if let pictureEndPTS { end = min(end, max(pictureEndPTS, frame)) }
            try videoGraph.close(atPTS: end)
        }
    }

    private func decodeVideo() throws {
        while try videoDecoder.receive(into: decoded) == .ready {
            if videoGraph == nil {
                let description = VideoFilters.description(for: clip, canvas: canvas, firstPicture: decoded.colour,
                                                           interlacedPicture: decoded.isInterlaced)
                videoGraph = try FilterGraph(videoLike: decoded, timeBase: videoDecoder.timeBase, description: description)
            }
            if let pts = decoded.pts.map({ $0 - videoOrigin }) {
                decoded.pts = pts
                lastPictureTime = max(lastPictureTime, Double(pts) * videoDecoder.timeBase.value)
                let length = decoded.duration > 0 ? decoded.duration
                    : clip.info.frameRate.inverted.rescale(1, to: videoDecoder.timeBase)
                pictureEndPTS = max(pictureEndPTS ?? .min, pts + length)
            }
            try videoGraph!.push(decoded)
        }
    }

    /// Feeds the audio graph one packet (see `decodeSound`), its failures said for the user.
    private func feedAudio() throws {
        do {
            try decodeSound()
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// Sends one audio packet to the decoder and its samples through the graph;
    /// at the end of the sound, flushes both.
    private func decodeSound() throws {
        guard let audioDecoder else { return }
        if let packet = try nextPacket(video: false) {
            if try survives({ try audioDecoder.send(packet); try decodeAudio() }) { return }
        }
        audioFed = true
        audioPackets.removeAll()
        _ = try survives { try audioDecoder.sendEndOfStream(); try decodeAudio() }
        if let audioGraph {
            try audioGraph.close(atPTS: audioEndPTS)
            try drainAudioGraph()
        }
    }

    /// The next packet of the video (or audio) stream, from what was read
    /// ahead or from the file; packets of the other stream read on the way are
    /// kept for it. Nil at the end of the file, or of its readable part.
    private func nextPacket(video: Bool) throws -> Packet? {
        if let queued = video ? videoPackets.pop() : audioPackets.pop() { return queued }
        while !endOfInput {
            var more = false
            guard try survives({ more = try demuxer.read(into: packet) }), more else { break }
            timestampLine?.place(packet)
            if packet.streamIndex == videoDecoder.streamIndex {
                if video { return packet.takeOver() }
                if !videoFed { videoPackets.push(packet.takeOver()) }
            } else if let audioDecoder, packet.streamIndex == audioDecoder.streamIndex {
                // Sound from well before the first picture is never heard: not kept, not decoded.
                if let pts = packet.pts,
                   Double(pts - audioOrigin) * audioTimeBase.value < -1 { continue }
                if !video { return packet.takeOver() }
                if !audioFed { audioPackets.push(packet.takeOver()) }
            }
        }
        endOfInput = true
        return nil
    }

    /// Runs one read or decode step; false when damage ended the stream there.
    /// A damaged or truncated stretch of file ends the clip's media, and the
    /// clip keeps its planned length (last picture held, silence); with
    /// --strict it ends the stitch instead.
    private func survives(_ step: () throws -> Void) throws -> Bool {
        do {
            try step()
            return true
        } catch let error as FFmpegError where !error.isTransport && error != .exit {
            if strict {
                throw SegueError(.damagedMedia, subject: clip.info.path,
                                 detail: "damaged media (\(error.message)); stopped because of --strict", underlying: error)
            }
            return false
        }
    }

    private func decodeAudio() throws {
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
            block.appendSamples(to: &samples.channels)
        }
    }

    // MARK: Filter descriptions

    private func audioFilters() -> String {
        // async + first_pts=0: silence where the audio starts late or has gaps,
        // trimmed where it starts early, so it stays locked to the pictures.
        "aresample=\(canvas.sampleRate):async=1:first_pts=0,aformat=sample_fmts=fltp:channel_layouts=stereo"
            + (loudnessFilters.map { ",\($0)" } ?? "")
    }

    private var noPicture: SegueError {
        SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
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
}

/// Packets of one stream read ahead of need, oldest first. Full at 32 MB or
/// 2,000 packets: past that, the stream being looked for is given up on for now.
private struct PacketQueue {
    private var packets: [Packet] = []
    private var head = 0
    private var bytes = 0

    var isEmpty: Bool { head == packets.count }
    var isFull: Bool { bytes > 32 << 20 || packets.count - head > 2_000 }

    mutating func push(_ packet: Packet) {
        bytes += packet.size
        packets.append(packet)
    }

    mutating func pop() -> Packet? {
        guard head < packets.count else { return nil }
        let packet = packets[head]
        bytes -= packet.size
        head += 1
        if head > 256 && head * 2 > packets.count {
            packets.removeFirst(head)
            head = 0
        }
        return packet
    }

    mutating func removeAll() {
        packets = []
        head = 0
        bytes = 0
    }
}
