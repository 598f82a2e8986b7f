import SegueCore

/// One video track of an editor's timeline (V1, V2 …; an OTIO Video track,
/// an xmeml `<video><track>`, an FCPXML storyline or lane), its children in
/// record order as OTIO lists them.
package struct EditVideoTrack: Sendable, Equatable {
    /// As the file names it (`V2`, an OTIO track's name), else nil.
    package var name: String?
    package var items: [EditItem]
    /// A disabled track draws nothing: the tracks below show through it.
    package var enabled: Bool

    package init(name: String? = nil, items: [EditItem] = [], enabled: Bool = true) {
        self.name = name
        self.items = items
        self.enabled = enabled
    }

    /// Video tracks a timeline (with its nested sequences) may have: beyond them a file is refused.
    package static let mostTracks = 99
}

/// A sequence used as a clip in another: its own tracks, and which of their
/// record time it plays (`source`, in the nested sequence's time), at what speed.
package struct EditNested: Sendable, Equatable {
    package var name: String?
    package var tracks: [EditVideoTrack]
    /// The nested sequence's frames used; `source.duration` is the record length, as a clip's.
    package var source: EditRange
    /// A constant speed change or a freeze frame on the whole nested sequence.
    package var speed: PlaybackSpeed?

    package init(name: String? = nil, tracks: [EditVideoTrack], source: EditRange, speed: PlaybackSpeed? = nil) {
        self.name = name
        self.tracks = tracks
        self.source = source
        self.speed = speed
    }
}

/// Where a clip's picture lands over the tracks below it, as the editor
/// placed it (xmeml's Basic Motion, Crop and Opacity; FCPXML's
/// `adjust-transform`, `adjust-crop`, `adjust-blend`). The picture is first
/// fitted to the frame as any clip is; the layout then scales, moves, turns,
/// crops and fades it.
package struct EditLayout: Sendable, Equatable, Codable {
    /// Scale of the fitted picture: 1 fills the frame as fitted, 0.5 half its width and height.
    package var scaleX = 1.0
    package var scaleY = 1.0
    /// Where its centre lands, from the frame's centre, in fractions of the
    /// frame's width and height: +0.25 is a quarter of the width to the right (and down).
    package var centreX = 0.0
    package var centreY = 0.0
    /// Clockwise turn, in degrees.
    package var rotation = 0.0
    /// 1 covers what is below; 0 lets it show through entirely.
    package var opacity = 1.0
    /// Cropped from each edge of the fitted picture, in fractions of its width or height.
    package var cropLeft = 0.0
    package var cropRight = 0.0
    package var cropTop = 0.0
    package var cropBottom = 0.0
    /// How the picture is first fitted to the frame, when the timeline says
    /// (FCPXML `adjust-conform`); nil fits it as `--fit` says.
    package var conform: Conform?

    /// FCPXML's conform types: `fit` the whole picture in the frame, `fill`
    /// the frame (the overflow cropped), `none` at its own pixel size.
    package enum Conform: String, Sendable, Equatable, Codable {
        case fit, fill, none
    }

    package init() {}

    /// Whether it covers the whole frame, opaque, as a clip without a layout does.
    package var coversFrame: Bool {
        opacity >= 1 && rotation.truncatingRemainder(dividingBy: 360) == 0 && cropLeft <= 0 && cropRight <= 0
            && cropTop <= 0 && cropBottom <= 0 && scaleX >= 1 && scaleY >= 1
            && abs(centreX) <= (scaleX - 1) / 2 && abs(centreY) <= (scaleY - 1) / 2
    }

    /// Whether it draws nothing at all.
    package var isInvisible: Bool {
        opacity <= 0 || scaleX <= 0 || scaleY <= 0 || cropLeft + cropRight >= 1 || cropTop + cropBottom >= 1
    }
}
