import Foundation
import SegueCore

/// The filters a clip item carries, as FCP 7 and Premiere write them and as
/// `XMLFilter` reads them back: Time Remap (a constant speed), Basic Motion,
/// Crop and Opacity (a placed picture), Audio Levels (a sound clip's level).
enum XMEMLFilters {
    /// Time Remap at a constant `speed` (percent; 0 holds the first frame), forward, not variable.
    static func timeRemap(_ speed: PlaybackSpeed, sound: Bool) -> XMLNode {
        filter("Time Remap", id: "timeremap", category: "motion", type: "motion", sound: sound, [
            parameter("variablespeed", "variablespeed", "0", range: (0, 1)),
            parameter("speed", "speed", XMLNode.decimal(speed.rate.value * 100), range: (-100_000, 100_000)),
            parameter("reverse", "reverse", "FALSE"),
            parameter("frameblending", "frameblending", "FALSE"),
        ])
    }

    /// Basic Motion (scale, rotation, centre), Crop and Opacity, each only when it changes the picture.
    static func layout(_ layout: EditLayout) -> [XMLNode] {
        var filters: [XMLNode] = []
        if layout.scaleX != 1 || layout.scaleY != 1 || layout.rotation != 0 || layout.centreX != 0 || layout.centreY != 0 {
            filters.append(filter("Basic Motion", id: "basic", category: "motion", type: "motion", sound: false, [
                parameter("scale", "Scale", XMLNode.decimal(layout.scaleX * 100), range: (0, 1000)),
                parameter("rotation", "Rotation", XMLNode.decimal(layout.rotation), range: (-8640, 8640)),
                point("center", "Center", layout.centreX, layout.centreY),
                point("centerOffset", "Anchor Point", 0, 0),
            ]))
        }
        let crops = [("left", layout.cropLeft), ("right", layout.cropRight), ("top", layout.cropTop), ("bottom", layout.cropBottom)]
        if crops.contains(where: { $0.1 != 0 }) {
            filters.append(filter("Crop", id: "crop", category: "motion", type: "motion", sound: false, crops.map { id, value in
                parameter(id, id, XMLNode.decimal(value * 100), range: (0, 100))
            }))
        }
        if layout.opacity != 1 {
            filters.append(filter("Opacity", id: "opacity", category: "motion", type: "motion", sound: false, [
                parameter("opacity", "opacity", XMLNode.decimal(layout.opacity * 100), range: (0, 100)),
            ]))
        }
        return filters
    }

    /// What a layout holds that xmeml's filters can't say, for a warning; nil when they say it all.
    static func unsaid(_ layout: EditLayout) -> String? {
        var unsaid: [String] = []
        if layout.scaleX != layout.scaleY {
            unsaid.append("its width and height scaled apart (\(layout.scaleX), \(layout.scaleY)): written at its width's scale")
        }
        if let conform = layout.conform { unsaid.append("its conform '\(conform.rawValue)' (fitted as --fit says)") }
        return unsaid.isEmpty ? nil : unsaid.joined(separator: "; ")
    }

    /// Audio Levels at `decibels`, as the linear gain xmeml's `level` holds (1 is 0 dB).
    static func levels(_ decibels: Double) -> XMLNode {
        filter("Audio Levels", id: "audiolevels", category: "audiolevels", type: "audiolevels", sound: true, [
            parameter("level", "Level", XMLNode.decimal(pow(10, decibels / 20)), range: (0, 3.98109)),
        ])
    }

    private static func filter(_ name: String, id: String, category: String, type: String, sound: Bool, _ parameters: [XMLNode]) -> XMLNode {
        XMLNode("filter", children: [
            .leaf("enabled", "TRUE"),
            XMLNode("effect", children: [
                .leaf("name", name), .leaf("effectid", id), .leaf("effectcategory", category), .leaf("effecttype", type),
                .leaf("mediatype", sound ? "audio" : "video"),
            ] + parameters),
        ])
    }

    private static func parameter(_ id: String, _ name: String, _ value: String, range: (Double, Double)? = nil) -> XMLNode {
        var children: [XMLNode] = [.leaf("parameterid", id), .leaf("name", name)]
        if let range { children += [.leaf("valuemin", XMLNode.decimal(range.0)), .leaf("valuemax", XMLNode.decimal(range.1))] }
        return XMLNode("parameter", children: children + [.leaf("value", value)])
    }

    /// A point parameter: `horiz` and `vert`, fractions of the frame from its centre (down positive).
    private static func point(_ id: String, _ name: String, _ horizontal: Double, _ vertical: Double) -> XMLNode {
        XMLNode("parameter", children: [
            .leaf("parameterid", id), .leaf("name", name),
            XMLNode("value", children: [.leaf("horiz", XMLNode.decimal(horizontal)), .leaf("vert", XMLNode.decimal(vertical))]),
        ])
    }
}
