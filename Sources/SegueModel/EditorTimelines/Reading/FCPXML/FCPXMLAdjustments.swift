import Foundation

/// A clip's visual adjustments read into an `EditLayout`, as Final Cut Pro
/// counts them: `adjust-transform` position in percent of the frame's
/// height from its centre, y up; scale as factors; rotation in degrees
/// counter-clockwise, about the anchor (percent of the height from the
/// picture's centre). `adjust-crop` trim and crop edges in percent of the
/// frame's height (a crop rectangle is then scaled up to fill the frame);
/// `adjust-blend` amount the opacity; `adjust-conform` how the picture is
/// fitted. Keyframed values are noted and their constant value kept.
enum FCPXMLAdjustments {
    typealias Element = ParsedXMLElement

    /// The layout `elements` (a clip, and the `video` it wraps) state; nil when they state none.
    static func layout(_ elements: [Element], frame: (width: Double, height: Double), _ label: String,
                       notes: inout [String]) throws -> EditLayout? {
        var layout = EditLayout()
        var stated = false
        let aspect = frame.height / frame.width
        for element in elements {
            if let conform = element.child("adjust-conform") {
                stated = true
                layout.conform = EditLayout.Conform(rawValue: conform.attributes["type"] ?? "fit") ?? .fit
            }
            if let crop = element.child("adjust-crop"), crop.attributes["enabled"] != "0" {
                stated = try applyCrop(crop, to: &layout, aspect: aspect, label, notes: &notes) || stated
            }
            if let transform = element.child("adjust-transform"), transform.attributes["enabled"] != "0" {
                stated = true
                try applyTransform(transform, to: &layout, aspect: aspect, label, notes: &notes)
            }
            if let blend = element.child("adjust-blend") {
                stated = true
                let amount = try FCPXMLValues.numbers(blend, "amount", count: 1, label)?.first ?? 1
                layout.opacity *= min(max(amount, 0), 1)
                if let mode = blend.attributes["mode"], !["0", "normal"].contains(mode.lowercased()) {
                    notes.append("\(label): blend mode '\(mode.prefix(40))' is drawn as normal")
                }
                noteKeyframes(blend, "opacity", label, notes: &notes)
            }
        }
        return stated ? layout : nil
    }

    /// Position, scale, rotation and anchor, composed after what `layout` already says (a crop's zoom).
    private static func applyTransform(_ transform: Element, to layout: inout EditLayout, aspect: Double, _ label: String,
                                       notes: inout [String]) throws {
        let position = try FCPXMLValues.numbers(transform, "position", count: 2, label) ?? [0, 0]
        let scale = try FCPXMLValues.numbers(transform, "scale", count: 2, label) ?? [1, 1]
        let rotation = try FCPXMLValues.numbers(transform, "rotation", count: 1, label)?.first ?? 0
        let anchor = try FCPXMLValues.numbers(transform, "anchor", count: 2, label) ?? [0, 0]
        // In units of the frame's height, y down: the anchor's point of the picture lands at the position.
        let turn = -rotation * .pi / 180
        let anchorX = anchor[0] / 100 * scale[0], anchorY = -anchor[1] / 100 * scale[1]
        let centreX = position[0] / 100 - (anchorX * cos(turn) - anchorY * sin(turn))
        let centreY = -position[1] / 100 - (anchorX * sin(turn) + anchorY * cos(turn))
        layout.centreX = layout.centreX * scale[0] + centreX * aspect
        layout.centreY = layout.centreY * scale[1] + centreY
        layout.scaleX *= scale[0]
        layout.scaleY *= scale[1]
        layout.rotation = -rotation
        noteKeyframes(transform, "transform", label, notes: &notes)
    }

    /// A trim (edges cut away where they are) or a crop (the rest scaled up to fill the frame); a pan (Ken Burns) is noted.
    private static func applyCrop(_ crop: Element, to layout: inout EditLayout, aspect: Double, _ label: String,
                                  notes: inout [String]) throws -> Bool {
        let mode = crop.attributes["mode"] ?? "trim"
        guard mode != "pan" else {
            notes.append("\(label): its Ken Burns pan isn't followed (drawn uncropped)")
            return false
        }
        guard let rect = crop.child(mode == "crop" ? "crop-rect" : "trim-rect") else { return false }
        func edge(_ name: String) throws -> Double {
            let value = try FCPXMLValues.numbers(rect, name, count: 1, label)?.first ?? 0
            return min(max(value / 100, 0), 1)
        }
        layout.cropLeft = try edge("left") * aspect
        layout.cropRight = try edge("right") * aspect
        layout.cropTop = try edge("top")
        layout.cropBottom = try edge("bottom")
        if mode == "crop", layout.cropLeft + layout.cropRight < 1, layout.cropTop + layout.cropBottom < 1 {
            layout.scaleX = 1 / (1 - layout.cropLeft - layout.cropRight)
            layout.scaleY = 1 / (1 - layout.cropTop - layout.cropBottom)
            layout.centreX = -(layout.cropLeft - layout.cropRight) / 2 * layout.scaleX
            layout.centreY = -(layout.cropTop - layout.cropBottom) / 2 * layout.scaleY
        }
        noteKeyframes(rect, "crop", label, notes: &notes)
        return true
    }

    private static func noteKeyframes(_ element: Element, _ what: String, _ label: String, notes: inout [String]) {
        guard element.children("param").contains(where: { $0.child("keyframeAnimation") != nil }) else { return }
        notes.append("\(label): its \(what) is keyframed; drawn at its constant value (the keyframes are not followed)")
    }

    /// Notes for what a clip has that isn't drawn: effects (`filter-video`,
    /// masks), sound effects, and adjustments other than transform, crop,
    /// blend and conform. The clip is drawn without them.
    static func effectNotes(_ element: Element, document: FCPXMLDocument, _ label: String) -> [String] {
        var notes: [String] = []
        for child in element.children where child.attributes["enabled"] != "0" {
            switch child.name {
            case "filter-video", "filter-audio", "filter-video-mask":
                let effect = child.attributes["ref"].flatMap { document.resources[$0] }
                let name = child.attributes["name"] ?? effect?.attributes["name"] ?? child.child("filter-video")?.attributes["name"] ?? "unnamed"
                let kind = child.name == "filter-audio" ? "sound effect" : child.name == "filter-video-mask" ? "masked effect" : "effect"
                notes.append("\(label): \(kind) '\(name.prefix(60))' isn't applied (drawn without it)")
            case "adjust-corners", "adjust-stabilization", "adjust-rollingShutter", "adjust-360-transform", "adjust-reorient",
                 "adjust-orientation", "adjust-cinematic", "adjust-panner", "adjust-EQ", "adjust-matchEQ", "adjust-loudness",
                 "adjust-noiseReduction", "adjust-humReduction":
                notes.append("\(label): \(child.name) isn't applied")
            default: continue
            }
        }
        return notes
    }
}
