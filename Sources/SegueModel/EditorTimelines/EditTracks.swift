import Foundation
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

/// A clip an upper track places over what shows below it (a
/// picture-in-picture, a translucent or cropped picture): drawn from
/// `recordStart` for its source range's length, by its `layout`.
package struct EditOverlay: Sendable, Equatable {
    package var clip: EditClip
    /// The record frame (at the timeline's rate) its first frame shows at.
    package var recordStart: Int64

    package init(clip: EditClip, recordStart: Int64) {
        self.clip = clip
        self.recordStart = recordStart
    }
}

extension EditLayout {
    /// As `--export-otio` writes it in a clip's `metadata.segue.layout` (OTIO has no field for it).
    package var metadata: [String: Any] {
        var written: [String: Any] = [
            "scale_x": scaleX, "scale_y": scaleY, "centre_x": centreX, "centre_y": centreY, "rotation": rotation, "opacity": opacity,
            "crop_left": cropLeft, "crop_right": cropRight, "crop_top": cropTop, "crop_bottom": cropBottom,
        ]
        if let conform { written["conform"] = conform.rawValue }
        return written
    }

    /// Read back from `metadata`; throws naming `label` when a value is missing, not finite or out of range.
    package init(metadata: [String: Any], _ label: String) throws {
        func value(_ key: String, _ range: ClosedRange<Double>, _ fallback: Double) throws -> Double {
            guard let written = metadata[key] else { return fallback }
            guard let number = (written as? NSNumber)?.doubleValue, number.isFinite, range.contains(number) else {
                throw EditTimelineError("\(label): layout \(key) is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        self.init()
        scaleX = try value("scale_x", 0...100, 1)
        scaleY = try value("scale_y", 0...100, 1)
        centreX = try value("centre_x", -100...100, 0)
        centreY = try value("centre_y", -100...100, 0)
        rotation = try value("rotation", -36_000...36_000, 0)
        opacity = try value("opacity", 0...1, 1)
        cropLeft = try value("crop_left", 0...1, 0)
        cropRight = try value("crop_right", 0...1, 0)
        cropTop = try value("crop_top", 0...1, 0)
        cropBottom = try value("crop_bottom", 0...1, 0)
        if let written = metadata["conform"] {
            guard let conform = (written as? String).flatMap(Conform.init(rawValue:)) else {
                throw EditTimelineError("\(label): layout conform is not fit, fill or none")
            }
            self.conform = conform
        }
    }
}
