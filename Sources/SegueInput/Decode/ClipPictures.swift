internal import SegueMedia
import SegueModel

/// The pictures a clip source hands out, each pulled through the video path
/// only when the stitcher asks for it (a handful taken ahead at most), so
/// nothing piles up however long a picture is held (a still under music, a
/// screen recording's pauses). Past the clip's last picture that picture is
/// held, a reference, not a copy: the clip keeps its planned length.
final class ClipPictures {
    private let clip: PlannedClip
    private let canvas: Canvas
    /// The decoding path (nil for a text card, whose one picture is made).
    private let video: VideoNormaliser?
    private let router: PacketRouter?
    /// With `--smart`: where copied packets met on the way are kept for the stitcher.
    private let copies: (any CopiedPackets)?
    /// A photo's one picture, handed out for its duration (nil for a video).
    private let still: StillPicture?
    /// Pictures taken ahead of need (priming, a peek).
    private var ahead: [Frame] = []
    private var last: Frame?
    /// Pictures delivered so far.
    private var delivered = 0
    /// Pictures repeated because the clip's video ended before its stated length.
    private(set) var repeated = 0

    init(clip: PlannedClip, canvas: Canvas, video: VideoNormaliser?, router: PacketRouter?, copies: (any CopiedPackets)?,
         still: StillPicture?) {
        self.clip = clip
        self.canvas = canvas
        self.video = video
        self.router = router
        self.copies = copies
        self.still = still
    }

    /// Seconds of picture the clip promised but didn't deliver (see `VideoNormaliser.missingSeconds`).
    var missingSeconds: Double { video?.missingSeconds ?? 0 }

    /// Damaged packets and pictures concealed so far.
    var concealed: Int { video?.decoder.damage ?? 0 }

    /// Decodes until `count` pictures are ready (or the clip ends).
    func prime(_ count: Int, cancellation: Cancellation) throws {
        while still == nil, ahead.count < count {
            if cancellation.isCancelled { throw FFmpegError.exit }
            guard let picture = try produce() else { break }
            ahead.append(picture)
        }
    }

    /// The next canvas picture; past the clip's last one, that one again.
    func next() throws -> Frame {
        if let still { return try still.next() }
        let next = ahead.isEmpty ? try produce() : ahead.removeFirst()
        if next == nil, copies?.isHolding == true {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "a picture was asked for before the copied packets ahead of it")
        }
        delivered += 1
        if let next {
            last = next.clone()
            return next
        }
        guard let last else { throw noPicture }
        // Holding the picture under sound that runs on is the plan, not a shortfall.
        if Double(delivered) <= clip.pictureSeconds * canvas.frameRate.value + 1 { repeated += 1 }
        return last.clone()
    }

    /// The picture shown last, to hold through a freeze join.
    func held() throws -> Frame {
        if let still { return try still.held() }
        guard let last else { throw noPicture }
        return last.clone()
    }

    /// The next picture, left in place for `next`.
    func peek() throws -> Frame {
        if let still { return try still.peek() }
        if ahead.isEmpty, let picture = try produce() { ahead.append(picture) }
        guard let next = ahead.first ?? last else { throw noPicture }
        return next.clone()
    }

    /// The next picture out of the video path (see `decodePicture`), its failures said for the user.
    private func produce() throws -> Frame? {
        do {
            return try decodePicture()
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// The next picture out of the video path, feeding it one packet at a
    /// time until it gives one; nil once it has given its last.
    private func decodePicture() throws -> Frame? {
        guard let video else { return nil }
        while !video.isDone {
            if let picture = video.takeFlushed() { return picture }
            // Copied packets come next: no picture until the stitcher has taken them.
            if copies?.isHolding == true { return nil }
            switch try video.pull() {
            case .picture(let picture): return picture
            case .nothing: continue
            case .needsInput: try feed()
            }
        }
        return nil
    }

    /// Sends one video packet to the video path (or keeps a copied one for
    /// the stitcher); at the end of the picture, finishes the video.
    private func feed() throws {
        guard let video, let router, let packet = try router.nextPacket(video: true) else { return try finish() }
        if let copies, try copies.holdIfCopied(packet) { return }
        guard try video.decode(packet) else { return try finish() }
        // The probe measured where the picture ends: past it nothing more
        // comes, so don't read on (through a long sound) to find that out.
        if video.reachedPictureEnd { try finish() }
    }

    private func finish() throws {
        router?.endVideo()
        try video?.finish()
    }

    private var noPicture: SegueError {
        SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
    }
}
