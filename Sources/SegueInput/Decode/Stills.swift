import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

// Photos as clips: a still's one picture decoded, normalised once and
// handed out for its duration (how a still is recognised: Input/Photos/StillProbe.swift).

/// A still's one picture, decoded and normalised to the canvas once and handed
/// out as references for its whole duration; with zoom, each picture is drawn
/// from it at its own scale.
package final class StillPicture {
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
    convenience init(demuxer: Demuxer, decoder: Decoder, clip: PlannedClip, canvas: Canvas, motion: StillMotion, text: TextLayer?) throws {
        let decoded = Frame()
        guard try Prober.decodesAPicture(demuxer, decoder, into: decoded) else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no picture could be decoded")
        }
        try self.init(decoded: decoded, timeBase: decoder.timeBase, clip: clip, canvas: canvas, motion: motion, text: text)
    }

    /// A photo's picture decoded elsewhere (a HEIF photo, by libheif), its
    /// ICC profile applied, sent once through the clip's video filters.
    init(decoded photo: Frame, timeBase: Rational, clip: PlannedClip, canvas: Canvas, motion: StillMotion, text: TextLayer?) throws {
        let decoded = try PhotoProfile.applied(to: photo, clip: clip, canvas: canvas)
        decoded.pts = 0
        let mirror = clip.info.facts.orientation.mirrorsPhoto ? "hflip," : ""
        let zooms = motion == .zoom, textOnEach = zooms || text?.isTimed == true
        let textOnce = textOnEach ? nil : text
        let filters = VideoFilters.description(for: clip, canvas: canvas, firstPicture: decoded.colour, interlacedPicture: false,
                                               text: textOnce)
        let normalised = try StillPicture.normalise(decoded, timeBase: timeBase, description: mirror + filters,
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
                                             description: VideoFilters.cardDescription(background: card.background, bars: card.bars == true, text: text,
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
}
