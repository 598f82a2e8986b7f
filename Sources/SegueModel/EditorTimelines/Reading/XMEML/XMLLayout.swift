import Foundation

/// The filters of an xmeml clip item Segue follows: Time Remap (its speed),
/// Basic Motion, Crop and Opacity (its layout), Audio Levels (a sound clip's
/// level). Any other filter is noted, naming the item and the filter; the
/// clip is drawn without it.
enum XMLFilter: Equatable {
    case timeRemap, motion, crop, opacity, levels

    init?(_ effect: ParsedXMLElement?) {
        let id = (effect?.text("effectid") ?? "").lowercased(), name = (effect?.text("name") ?? "").lowercased()
        switch (id, name) {
        case ("timeremap", _), (_, "time remap"): self = .timeRemap
        case ("basic", _), (_, "basic motion"): self = .motion
        case ("crop", _), (_, "crop"): self = .crop
        case ("opacity", _), (_, "opacity"): self = .opacity
        case _ where AudioLevel.isLevels(id: id, name: name): self = .levels
        default: return nil
        }
    }
}

extension XMLTrackReading {
    /// The clip item's speed (Time Remap) and layout (Basic Motion, Crop,
    /// Opacity; nil when they leave the picture as any clip is), with notes
    /// for the filters not followed. A disabled filter is left out.
    mutating func effects(of item: Element, _ label: String) throws -> (speed: PlaybackSpeed?, layout: EditLayout?) {
        var speed: PlaybackSpeed?, layout = EditLayout()
        for filter in item.children("filter").map(reader.deref) where filter.text("enabled")?.uppercased() != "FALSE" {
            let effect = filter.child("effect")
            switch XMLFilter(effect) {
            case .timeRemap: speed = try Self.timeRemap(filter, label)
            case .motion: try Self.motion(effect!, label, into: &layout, notes: &notes)
            case .crop: try Self.crop(effect!, label, into: &layout, notes: &notes)
            case .opacity:
                if let value = try Self.number(effect!, "opacity", label, within: 0...100, notes: &notes) { layout.opacity = value / 100 }
            case .levels where sound: break // applied: `AudioLevel.xmeml`
            case .levels, nil:
                filterNotes += 1
                let name = effect?.text("name") ?? effect?.text("effectid") ?? "unnamed"
                if filterNotes <= Self.mostFilterNotes {
                    notes.append("\(label): filter '\(name)' not applied (drawn without it)")
                } else if filterNotes == Self.mostFilterNotes + 1 {
                    notes.append("more filters not applied (only the first \(Self.mostFilterNotes) are named)")
                }
            }
        }
        return (speed, layout == EditLayout() ? nil : layout)
    }

    /// Basic Motion: `scale` (percent of the fitted picture), `rotation`
    /// (degrees, clockwise), `center` (`horiz`, `vert`: the picture's centre
    /// from the frame's, in fractions of its width and height, down positive).
    private static func motion(_ effect: Element, _ label: String, into layout: inout EditLayout, notes: inout [String]) throws {
        if let scale = try number(effect, "scale", label, within: 0...100_000, notes: &notes) {
            layout.scaleX = scale / 100
            layout.scaleY = scale / 100
        }
        if let rotation = try number(effect, "rotation", label, within: -1_000_000...1_000_000, notes: &notes) { layout.rotation = rotation }
        if let centre = try point(effect, "center", label, notes: &notes) { (layout.centreX, layout.centreY) = centre }
        if let anchor = try point(effect, "centerOffset", label, notes: &notes), anchor != (0, 0) {
            notes.append("\(label): its Basic Motion anchor point is not followed (scaled and turned about its centre)")
        }
    }

    /// Crop: `left`, `right`, `top`, `bottom` in percent of the picture.
    private static func crop(_ effect: Element, _ label: String, into layout: inout EditLayout, notes: inout [String]) throws {
        for (id, edge) in [("left", \EditLayout.cropLeft), ("right", \.cropRight), ("top", \.cropTop), ("bottom", \.cropBottom)] {
            if let value = try number(effect, id, label, within: 0...100, notes: &notes) { layout[keyPath: edge] = value / 100 }
        }
    }

    /// The parameter `id` of `effect` (by `parameterid`, else `name`).
    private static func parameter(_ effect: Element, _ id: String) -> Element? {
        effect.children("parameter").first { ($0.text("parameterid") ?? $0.text("name"))?.lowercased() == id.lowercased() }
    }

    /// A parameter's constant value (a keyframed one's `value`, else its first keyframe's, with a note); nil without one.
    private static func value(_ parameter: Element, _ label: String, notes: inout [String]) -> Element? {
        let keyframes = parameter.children("keyframe")
        if !keyframes.isEmpty {
            let name = parameter.text("name") ?? parameter.text("parameterid") ?? "parameter"
            notes.append("\(label): its \(name) is keyframed; the picture is placed at its constant value (the keyframes are not followed)")
        }
        return parameter.child("value") ?? keyframes.first?.child("value")
    }

    /// A number parameter within `range`; a value that isn't one is refused, naming the item and parameter.
    private static func number(_ effect: Element, _ id: String, _ label: String, within range: ClosedRange<Double>,
                               notes: inout [String]) throws -> Double? {
        guard let parameter = parameter(effect, id), let value = value(parameter, label, notes: &notes) else { return nil }
        let text = value.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= 40, let number = Double(text), number.isFinite, range.contains(number) else {
            throw EditTimelineError("\(label): \(effect.text("name") ?? "filter") \(id) '\(text.prefix(40))' is not a number from "
                                    + "\(EditReading.number(range.lowerBound)) to \(EditReading.number(range.upperBound))")
        }
        return number
    }

    /// A point parameter (`horiz`, `vert`), each within ±100 frames.
    private static func point(_ effect: Element, _ id: String, _ label: String, notes: inout [String]) throws -> (Double, Double)? {
        guard let parameter = parameter(effect, id), let value = value(parameter, label, notes: &notes) else { return nil }
        let parts = ["horiz", "vert"].map { value.text($0) ?? "0" }
        let numbers = parts.compactMap { Double($0) }.filter { $0.isFinite && abs($0) <= 100 }
        guard numbers.count == 2, parts.allSatisfy({ $0.count <= 40 }) else {
            throw EditTimelineError("\(label): \(effect.text("name") ?? "filter") \(id) '\(parts.joined(separator: " ").prefix(40))' is not a point within ±100 frames")
        }
        return (numbers[0], numbers[1])
    }
}
