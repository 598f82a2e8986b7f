import Foundation
import SegueMedia

// Photos as clips: how a still is recognised when probed, and how
// its one picture is decoded, normalised once and handed out for its duration.

extension Prober {
    /// Whether a second picture follows the first one `decodesAPicture` found:
    /// an image file or a one-frame video has none, and is a still.
    static func decodesAnotherPicture(_ demuxer: Demuxer, _ decoder: Decoder) -> Bool {
        let packet = Packet()
        let frame = Frame()
        do {
            for _ in 0..<2_000 {
                if try decoder.receive(into: frame) == .ready { return true }
                guard try demuxer.read(into: packet) else { break }
                guard packet.streamIndex == decoder.streamIndex else { continue }
                try decoder.send(packet)
            }
            try decoder.sendEndOfStream()
            return try decoder.receive(into: frame) == .ready
        } catch {
            return true // damage after the first picture: a video, judged as one
        }
    }

    /// The facts of a still, lasting the default photo duration; its list entry or the settings may change it.
    static func stillInfo(path: String, readPath: String, demuxer: Demuxer, video: StreamInfo, picture: Frame) -> ClipInfo {
        // FFmpeg's JPEG decoder exports EXIF as picture metadata ("Orientation" = "    6").
        var orientation = picture.metadata("Orientation").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
        if !(1...8).contains(orientation) { orientation = 1 }
        if orientation == 1 { orientation = [90: 6, 180: 3, 270: 8][video.rotation] ?? 1 }
        var info = ClipInfo(
            path: path, container: demuxer.formatName, videoCodec: video.codecName,
            codedWidth: video.width, codedHeight: video.height, rotation: StillPicture.rotation(orientation: orientation),
            sampleAspectRatio: video.sampleAspectRatio, frameRate: Rational(30, 1), pixelFormat: video.pixelFormatName,
            duration: StitchSettings().stillDuration, audio: nil)
        info.readPath = readPath
        info.isStill = true
        info.orientation = orientation
        return info
    }

    /// A still lasts its entry's duration (ffconcat `duration`, manifest `"duration"`) or the default.
    static func still(_ info: ClipInfo, entry: ClipEntry, defaultDuration: Double) -> Result<ClipInfo, BadInput> {
        var info = info
        let duration = entry.duration ?? entry.outPoint.map { $0 - (entry.inPoint ?? 0) } ?? defaultDuration
        guard OptionLimits.stillSeconds.contains(duration) else {
            return .failure(BadInput(path: info.path, cause: .photoDuration))
        }
        info.duration = duration
        info.sourceDuration = duration
        info.inPoint = 0
        return .success(info)
    }

    /// A text card's facts: a still without a file (a 1920x1080 picture at
    /// 30 fps, made at the canvas's size when drawn), silent, named in messages
    /// as "text card 2 'Day one'".
    static func cardInfo(_ card: TextCard, entry: ClipEntry, number: Int?, defaultDuration: Double?) -> Result<ClipInfo, BadInput> {
        var info = ClipInfo(
            path: cardName(card, number: number), container: "text card", videoCodec: "text card", codedWidth: 1920,
            codedHeight: 1080, rotation: 0, sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p",
            duration: StitchSettings().stillDuration, audio: nil)
        info.isStill = true
        info.card = card
        info.title = entry.title
        info.caption = entry.caption
        return still(info, entry: entry, defaultDuration: defaultDuration ?? info.duration)
    }

    /// "text card 2 'Day one'": the text on one line, cut at 40 characters.
    static func cardName(_ card: TextCard, number: Int?) -> String {
        let line = card.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let shown = line.count > 40 ? line.prefix(39) + "…" : Substring(line)
        // A blank card is a timeline's gap.
        guard !line.isEmpty else { return "gap" + (number.map { " \($0)" } ?? "") }
        return "text card" + (number.map { " \($0)" } ?? "") + " '\(shown)'"
    }

    /// Why a local file is a photo this FFmpeg can't read, or nil, from its
    /// first bytes. FFmpeg 5.1 can't read HEIF containers (iPhone photos); it
    /// would only say "no video stream".
    static func unreadablePhoto(head: [UInt8]) -> BadInputReason? {
        guard head.count >= 12, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" else { return nil }
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        guard ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) else { return nil }
        return .unreadablePhoto("HEIC/HEIF photos can't be read by this FFmpeg (5.1); convert it to JPEG first "
            + "(e.g. heif-convert photo.heic photo.jpg, or set the phone's camera to \"Most Compatible\")")
    }
}

/// A still's one picture, decoded and normalised to the canvas once and handed
/// out as references for its whole duration; with zoom, each picture is drawn
/// from it at its own scale.
final class StillPicture {
    private let picture: Frame
    private let frameCount: Int
    private let motion: StillMotion
    private var delivered = 0
    private var last: Frame?
    /// Text drawn on each picture: with zoom (so it stays put as the picture
    /// grows) or when it changes with time (burned subtitles): its own graph.
    private let caption: FilterGraph?

    /// Decodes the picture and sends it once through `filters`: the clip's own
    /// video filters (orientation, size, placement, canvas format).
    init(demuxer: Demuxer, decoder: Decoder, clip: PlannedClip, canvas: Canvas, motion: StillMotion, text: TextLayer?) throws {
        let decoded = Frame()
        guard try Prober.decodesAPicture(demuxer, decoder, into: decoded) else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
        }
        decoded.pts = 0
        let mirror = StillPicture.isMirrored(orientation: clip.info.orientation) ? "hflip," : ""
        let zooms = motion == .zoom, textOnEach = zooms || text?.isTimed == true
        let textOnce = textOnEach ? nil : text
        let filters = VideoFilters.description(for: clip, canvas: canvas, firstPicture: decoded.colour, interlacedPicture: false,
                                               text: textOnce)
        let normalised = try StillPicture.normalise(decoded, timeBase: decoder.timeBase, description: mirror + filters,
                                                    text: textOnce, clip: clip, canvas: canvas)
        picture = normalised
        caption = try text.flatMap {
            textOnEach ? try TextLayer.graph(with: $0, videoLike: normalised, timeBase: canvas.frameRate.inverted,
                                             description: $0.drawn(over: "null")) : nil
        }
        frameCount = clip.frameCount
        self.motion = motion
    }

    /// A text card's one picture: made at the canvas size in its background
    /// colour, its text drawn by `text`. It holds still (no zoom).
    init(card: TextCard, clip: PlannedClip, canvas: Canvas, text: TextLayer?) throws {
        let blank = try Frame.video(width: canvas.width, height: canvas.height)
        blank.setPlane(0, to: PlaneImage(width: canvas.width, height: canvas.height, filledWith: 16))
        for plane in 1...2 {
            let size = blank.planeSize(plane)
            blank.setPlane(plane, to: PlaneImage(width: size.width, height: size.height, filledWith: 128))
        }
        blank.pts = 0
        picture = try StillPicture.normalise(blank, timeBase: canvas.frameRate.inverted,
                                             description: VideoFilters.cardDescription(background: card.background, text: text,
                                                                                       canvas: canvas),
                                             text: text, clip: clip, canvas: canvas)
        frameCount = clip.frameCount
        motion = .none
        caption = nil
    }

    /// `picture` sent once through the graph `description` (which draws `text`, if any).
    private static func normalise(_ picture: Frame, timeBase: Rational, description: String, text: TextLayer?,
                                  clip: PlannedClip, canvas: Canvas) throws -> Frame {
        let graph = try TextLayer.graph(with: text, videoLike: picture, timeBase: timeBase, description: description)
        try graph.push(picture)
        // The input ends one canvas frame later, so a frame-rate filter lets exactly one picture out.
        try graph.close(atPTS: max(1, canvas.frameRate.inverted.rescale(1, to: timeBase)))
        let normalised = Frame()
        guard try graph.pull(into: normalised) == .ready else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "the picture could not be converted")
        }
        return normalised
    }

    /// The next picture of the still.
    func next() throws -> Frame {
        let frame = try draw(delivered)
        delivered += 1
        last = frame.clone()
        return frame
    }

    /// The next picture, left in place.
    func peek() throws -> Frame { try draw(delivered) }

    /// The picture shown last (the first one if none was shown yet).
    func held() throws -> Frame { try last?.clone() ?? draw(0) }

    private func draw(_ index: Int) throws -> Frame {
        guard motion == .zoom || caption != nil else { return picture.clone() }
        let frame: Frame
        if motion == .zoom {
            frame = try Frame.video(width: picture.width, height: picture.height, pixelFormat: picture.pixelFormat)
            Frame.zoom(picture, scale: StillPicture.zoomScale(frame: index, of: frameCount), into: frame)
        } else {
            frame = picture.clone()
        }
        guard let caption else { return frame }
        frame.pts = Int64(index)
        try caption.push(frame)
        let captioned = Frame()
        guard try caption.pull(into: captioned) == .ready else {
            throw SegueError(.readFailed, subject: "caption", detail: "the caption could not be drawn")
        }
        return captioned
    }

    /// 100 % at the first picture to 110 % at the last, eased in and out (smoothstep).
    static func zoomScale(frame: Int, of count: Int) -> Double {
        let t = count > 1 ? min(1, max(0, Double(frame) / Double(count - 1))) : 0
        return 1 + 0.1 * t * t * (3 - 2 * t)
    }

    /// Clockwise degrees that stand a picture of this EXIF orientation upright,
    /// once a mirrored one (2, 4, 5, 7) is flipped left to right.
    static func rotation(orientation: Int) -> Int {
        [3: 180, 4: 180, 5: 270, 6: 90, 7: 90, 8: 270][orientation] ?? 0
    }

    /// Whether the picture is stored mirrored (flipped left to right before it is turned).
    static func isMirrored(orientation: Int) -> Bool {
        [2, 4, 5, 7].contains(orientation)
    }
}
