package import SegueMedia
import SegueModel
import SegueCore

/// A clip's video decoded and normalised to the canvas by its filter graph
/// (fps, transpose, scale, pad or crop, format): packets in, canvas pictures
/// out, one at a time. It knows where the clip's picture ends and ends the
/// graph there; holding the last picture after that is its caller's job.
package final class VideoNormaliser {
    /// Where the graph is: taking pictures, closed (it returns what it holds), or done.
    enum Stage { case feeding, closed, done }

    /// What one pull from the graph gave.
    enum Pull {
        case picture(Frame)
        /// Nothing this time (the stage may have moved on).
        case nothing
        /// The graph wants more pictures: send it a packet.
        case needsInput
    }

    package let decoder: Decoder
    /// Where the clip's time 0 is, in the decoder's time base.
    let origin: Int64
    private let clip: PlannedClip
    private let canvas: Canvas
    private let damage: DamagePolicy
    /// The clip's caption, drawn last in its graph.
    private let text: TextLayer?
    /// Built on the first decoded picture, whose real format it must match.
    private var graph: ClipGraph?
    private let decoded = Frame()
    /// Pictures a decoded stretch gave up at its end, ahead of any new ones (`--smart`).
    private var flushed: [Frame] = []
    private var delivery: DeliveryCheck
    /// Clip time of the latest picture decoded (or copied), in seconds.
    private var lastPictureTime = -Double.infinity
    /// Where the latest picture decoded ends, in the decoder's time base from time 0.
    private var pictureEndPTS: Int64?
    /// Whether packets went to the decoder since it last started afresh (`--smart`).
    private var stretchOpen = false
    private(set) var stage = Stage.feeding
    /// A speed change's timing: each picture's pts moved to the output frame that first shows it.
    private let retiming: Retiming?

    init(demuxer: Demuxer, stream: StreamInfo, clip: PlannedClip, canvas: Canvas, videoCopy: (any VideoCopy)?,
         damage: DamagePolicy, text: TextLayer? = nil) throws {
        // One thread per decoder: x264 already keeps every core busy, and each
        // frame thread would hold pictures of its own.
        decoder = try Decoder(demuxer: demuxer, streamIndex: stream.index, threads: 1)
        decoder.failOnDamage = damage.strict
        origin = clip.info.origin(in: stream)
        self.clip = clip
        self.canvas = canvas
        self.damage = damage
        self.text = text
        delivery = DeliveryCheck(frameCount: clip.frameCount, videoCopy: videoCopy)
        let timeBase = decoder.timeBase
        retiming = clip.info.use.speed.map {
            Retiming(speed: $0, frame: canvas.frameRate.inverted, timeBase: timeBase, frameCount: Int64(clip.frameCount))
        }
    }

    /// No more pictures go into the graph.
    var isFed: Bool { stage != .feeding }
    /// The graph has returned its last picture.
    var isDone: Bool { stage == .done }

    /// Seconds of picture the clip promised but didn't deliver (damaged or
    /// truncated file); its last picture is held through them. Known at its end.
    var missingSeconds: Double {
        guard isFed, lastPictureTime.isFinite else { return 0 }
        let shortfall = clip.pictureSeconds - (lastPictureTime + 1 / clip.info.facts.frameRate.value)
        return shortfall > 1.5 / canvas.frameRate.value ? shortfall : 0
    }

    /// Whether the pictures decoded reach where the probe measured the picture
    /// ends: past it nothing more comes.
    /// Where an out point ends the clip, the picture that starts before it is
    /// still wanted (an out point half a frame in keeps that frame, as the
    /// plan counts it); where the probe's length does, half a frame of slack.
    var reachedPictureEnd: Bool {
        guard let pictureEndPTS else { return false }
        let slack = clip.endsAtOutPoint ? 0.001 / clip.info.facts.frameRate.value : 0.5 / clip.info.facts.frameRate.value
        return Double(pictureEndPTS) * decoder.timeBase.value >= clip.pictureSeconds - slack
    }

    /// The oldest picture a decoded stretch gave up at its end, if any.
    func takeFlushed() -> Frame? {
        flushed.isEmpty ? nil : flushed.removeFirst()
    }

    /// The next picture to deliver out of the graph, or what it needs.
    func pull() throws -> Pull {
        if let graph {
            let picture = Frame()
            switch try graph.pull(into: picture) {
            case .ready:
                return delivery.admits(picture) ? .picture(picture) : .nothing
            case .endOfStream:
                stage = .done
                return .nothing
            case .needsInput:
                // Closed and still asking for input: it has nothing more to give.
                if isFed {
                    stage = .done
                    return .nothing
                }
            }
        }
        guard !isFed else {
            // Fed and closed, yet silent: nothing was ever decoded.
            if graph == nil { stage = .done }
            return .nothing
        }
        return .needsInput
    }

    /// Sends one packet to the decoder and its pictures into the graph; false
    /// when damage ended the video there.
    package func decode(_ packet: Packet) throws -> Bool {
        stretchOpen = true
        return try damage.survives { try decoder.send(packet); try receive() }
    }

    /// At the end of the picture: flushes the decoder and closes the graph
    /// where the picture ends (or the clip, if sooner).
    func finish() throws {
        guard stage == .feeding else { return }
        stage = .closed
        _ = try damage.survives { try decoder.sendEndOfStream(); try receive() }
        if damage.strict && missingSeconds > 0 {
            throw SegueError(.damagedMedia, subject: clip.info.path,
                             detail: "video ends \(Plan.seconds(missingSeconds)) before its stated duration; stopped because of --strict")
        }
        guard let graph else { return }
        // The hold after the picture is the caller's: one reference, not hundreds of copies.
        let frame = canvas.frameRate.inverted.rescale(1, to: decoder.timeBase)
        var end = canvas.frameRate.inverted.rescale(Int64(clip.frameCount), to: decoder.timeBase)
        // At least one frame: an in point inside a held stretch still shows the picture.
        if let pictureEndPTS { end = min(end, max(pictureEndPTS, frame)) }
        try graph.close(atPTS: end)
    }

    /// A decoded stretch ends where copied GOPs begin (`--smart`): the decoder
    /// gives up the pictures it holds for reordering and the graph its last
    /// ones; both start afresh at the next decoded stretch (which starts at an IDR).
    package func endStretch(before position: Int) throws {
        guard stretchOpen else { return }
        stretchOpen = false
        _ = try damage.survives { try decoder.sendEndOfStream(); try receive() }
        decoder.reset()
        guard let graph else { return }
        try graph.close(atPTS: canvas.frameRate.inverted.rescale(Int64(position), to: decoder.timeBase))
        while true {
            let picture = Frame()
            guard try graph.pull(into: picture) == .ready else { break }
            if delivery.admits(picture) { flushed.append(picture) }
        }
        self.graph = nil
    }

    /// Counts a copied frame (`--smart`) as shown, for how far the picture reached.
    package func noteCopied(_ position: Int) {
        lastPictureTime = max(lastPictureTime, Double(position) / canvas.frameRate.value)
    }

    /// Takes the decoder's pictures, timed from the clip's time 0, into the graph.
    private func receive() throws {
        while try decoder.receive(into: decoded) == .ready {
            let graph = try self.graph.madeOnFirstUse {
                let turned = clip.info.facts.orientation.swapsSides
                let stages = VideoFilters.stages(for: clip, canvas: canvas, firstPicture: decoded.colour,
                                                 interlacedPicture: decoded.isInterlaced,
                                                 uprightWidth: turned ? decoded.height : decoded.width,
                                                 uprightHeight: turned ? decoded.width : decoded.height, text: text)
                return try ClipGraph(stages, text: text, videoLike: decoded, timeBase: decoder.timeBase)
            }
            if let pts = decoded.pts.map({ $0 - origin }) {
                // A picture lasts at least a frame at the clip's rate: an edit
                // list that ends inside the last one still shows it whole.
                let length = max(decoded.duration, clip.info.facts.frameRate.inverted.rescale(1, to: decoder.timeBase))
                var shown = pts, end = pts + length, last = pts
                if let retiming {
                    // A freeze shows no picture after its first.
                    guard let first = retiming.shown(pts) else { continue }
                    (shown, end) = (first, retiming.end(pts + length))
                    // Shown until `end`: as late as a picture a frame long that ends there.
                    last = max(shown, end - clip.info.facts.frameRate.inverted.rescale(1, to: decoder.timeBase))
                }
                decoded.pts = shown
                lastPictureTime = max(lastPictureTime, Double(last) * decoder.timeBase.value)
                pictureEndPTS = max(pictureEndPTS ?? .min, end)
            }
            try graph.push(decoded)
        }
    }
}

/// Which pictures out of the graph are delivered: those within the clip and,
/// with `--smart`, neither copied nor repeated by a restarted graph.
private struct DeliveryCheck {
    let frameCount: Int
    let videoCopy: (any VideoCopy)?
    /// The latest frame position delivered as a picture (`--smart`).
    private var lastPosition = -1

    init(frameCount: Int, videoCopy: (any VideoCopy)?) {
        self.frameCount = frameCount
        self.videoCopy = videoCopy
    }

    mutating func admits(_ picture: Frame) -> Bool {
        // After fps the pts counts canvas frames from the clip's start.
        guard let pts = picture.pts, pts >= 0 && pts < Int64(frameCount) else { return false }
        guard let videoCopy else { return true }
        guard Int(pts) > lastPosition, !videoCopy.isCopied(Int(pts)) else { return false }
        lastPosition = Int(pts)
        return true
    }
}

extension PlannedClip {
    /// Whether an out point, not the file's picture, ends the clip (at its own speed).
    var endsAtOutPoint: Bool {
        info.use.speed == nil && info.use.duration < info.facts.timing.pictureDuration - info.use.inPoint - 0.001
    }

    /// Seconds of the clip's output that its part of the file has pictures
    /// for (from its in point; a speed change scales them, a freeze has them all).
    package var pictureSeconds: Double {
        let seconds = info.facts.timing.pictureDuration - info.use.inPoint
        guard let speed = info.use.speed else { return min(info.use.duration, seconds) }
        return speed.isFreeze ? info.use.duration : min(info.use.duration, seconds / speed.rate.value)
    }
}

/// A speed change's timing in the decoder's time base: a picture the plain
/// path shows from canvas frame m (as `fps` rounds) is shown from the first
/// output frame whose source frame reaches m, so `fps` after it repeats or
/// drops pictures exactly as `PlaybackSpeed` says.
private struct Retiming {
    let speed: PlaybackSpeed
    /// One canvas frame, as a time base.
    let frame: Rational
    let timeBase: Rational
    let frameCount: Int64

    /// Where a picture at `pts` (from the clip's time 0) is shown from; nil when never (a freeze's later pictures).
    func shown(_ pts: Int64) -> Int64? {
        speed.firstFrame(showing: timeBase.rescale(pts, to: frame)).map { frame.rescale($0, to: timeBase) }
    }

    /// Where pictures up to `pts` stop being shown: the clip's end for a freeze.
    func end(_ pts: Int64) -> Int64 {
        frame.rescale(min(speed.firstFrame(showing: timeBase.rescale(pts, to: frame)) ?? frameCount, frameCount), to: timeBase)
    }
}
