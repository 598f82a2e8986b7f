import Foundation
import SegueCore

/// A video track's items as story elements: a clip of a medium as an
/// `asset-clip` (a still's as a `video`), a gap or black as a `gap`, a
/// nested sequence as a `ref-clip`, a transition as a Cross Dissolve.
extension FCPXMLWriting {
    /// `items` as a storyline (its elements at their record frames); `sound`: its clips play their own sound.
    mutating func storyline(_ items: [EditItem], label: String, enabled: Bool, sound: Bool) throws -> FCPXMLStoryline {
        let entries = items.enumerated().map { index, item in
            FCPXMLLayout.Entry(length: length(of: item), transition: Self.transition(item), label: Self.label(item, index, in: label))
        }
        let (spans, frames) = try FCPXMLLayout.spans(entries, rate: clock.rate, warnings: &warnings)
        var line = FCPXMLStoryline(frames: frames)
        for span in spans {
            switch span {
            case .transition(let index, let record, let transition):
                line.elements.append(transitionElement(transition, record: record, label: entries[index].label, sound: sound))
            case .item(let index, let record, let head, let tail):
                guard !record.isEmpty else { continue }
                var element = try self.element(items[index], record: record, handles: (head, tail), label: entries[index].label, sound: sound)
                if !enabled { element.attributes.append(("enabled", "0")) }
                line.elements.append(element)
            }
        }
        return line
    }

    /// An item's record frames; nil for a transition.
    func length(of item: EditItem) -> Int64? {
        switch item {
        case .clip(let clip): return clip.source.duration.frameCount(at: clock.rate)
        case .gap(let duration): return duration.frameCount(at: clock.rate)
        case .fill(let fill): return fill.duration.frameCount(at: clock.rate)
        case .nested(let nested): return nested.source.duration.frameCount(at: clock.rate)
        case .transition: return nil
        }
    }

    /// An item as messages name it: `V1 item 3 (clip 'B')`.
    static func label(_ item: EditItem, _ index: Int, in track: String) -> String {
        let what: String
        switch item {
        case .clip(let clip): what = "clip" + (clip.name.map { " '\($0.prefix(60))'" } ?? "")
        case .gap: what = "gap"
        case .fill: what = "generator"
        case .nested(let nested): what = "nested sequence" + (nested.name.map { " '\($0.prefix(60))'" } ?? "")
        case .transition(let transition): what = "transition" + (transition.name.map { " '\($0.prefix(60))'" } ?? "")
        }
        return "\(track) item \(index + 1) (\(what))"
    }

    static func transition(_ item: EditItem) -> EditTransition? {
        if case .transition(let transition) = item { return transition }
        return nil
    }

    /// A generator's look as a warning names it: `colour #336699`, `colour bars`.
    static func name(_ look: EditFill.Look) -> String {
        switch look {
        case .black: return "black"
        case .colour(let colour): return "colour \(colour)"
        case .bars: return "colour bars"
        }
    }

    mutating func element(_ item: EditItem, record: Range<Int64>, handles: (head: Int64, tail: Int64), label: String,
                          sound: Bool) throws -> FCPXMLStoryElement {
        switch item {
        case .clip(let clip): return clipElement(clip, record: record, handles: handles, label: label, sound: sound)
        case .gap: return gapElement(record)
        case .fill(let fill):
            if fill.look != .black { warnings.append("\(label): its \(Self.name(fill.look)) is written as a gap (black)") }
            return gapElement(record)
        case .nested(let nested): return try nestedElement(nested, record: record, handles: handles, label: label, sound: sound)
        case .transition: preconditionFailure("a transition is no item of its own")
        }
    }

    func gapElement(_ record: Range<Int64>) -> FCPXMLStoryElement {
        FCPXMLStoryElement(name: "gap", attributes: [("name", "Gap"), ("duration", clock.time(Int64(record.count)).text)], record: record,
                           start: .zero)
    }

    /// A clip of a medium: an `asset-clip` from its source in at the medium's
    /// own rate (through a `timeMap` at its speed), playing its sound when
    /// `sound` says and its medium has one, else its picture only (`srcEnable="video"`).
    mutating func clipElement(_ clip: EditClip, record: Range<Int64>, handles: (head: Int64, tail: Int64), label: String,
                              sound: Bool) -> FCPXMLStoryElement {
        guard let location = clip.media.location, !location.isEmpty else {
            warnings.append("\(label): its media has no path; written as a gap")
            return gapElement(record)
        }
        let asset = resources.asset(clip.media, at: location, picture: true, fallback: (clock, sequenceFormat))
        let name = clip.name.flatMap { $0.isEmpty ? nil : $0 } ?? FCPXMLResources.assetName(location, media: clip.media)
        let duration = clock.time(Int64(record.count))
        var head = asset.still ? [] : clip.speed.map { [timeMap($0, start: sourceStart(clip, asset), duration: duration, handles: handles)] } ?? []
        head += adjustments(clip.layout)
        guard !asset.still else {
            // A photo: a `video` of its asset, as Final Cut Pro places one (its `start` means nothing).
            return FCPXMLStoryElement(name: "video", ref: asset.id, attributes: [("name", name), ("duration", duration.text)], head: head,
                                      record: record, start: .zero)
        }
        let start = sourceStart(clip, asset)
        var attributes = [("name", name), ("start", start.text), ("duration", duration.text)]
        if let format = asset.format { attributes.append(("format", format)) }
        attributes.append(("tcFormat", asset.dropFrame ? "DF" : "NDF"))
        if asset.hasAudio { attributes.append(sound ? ("audioRole", "dialogue") : ("srcEnable", "video")) }
        return FCPXMLStoryElement(name: "asset-clip", ref: asset.id, attributes: attributes, head: head, record: record, start: start)
    }

    /// A clip's source in: whole frames of its medium's own rate, from the medium's time origin (its start timecode included).
    func sourceStart(_ clip: EditClip, _ asset: FCPXMLAsset) -> FCPXMLTime {
        let mediaClock = asset.clock ?? clock
        return mediaClock.time(clip.source.start.frameCount(at: mediaClock.rate))
    }

    /// A constant speed as a `timeMap` of two points on its line: the clip's
    /// own time is its source's at its start and runs on at the record's
    /// rate; the source at `speed` times that (a freeze frame: not at all).
    /// The points reach over the handles the transitions either side play.
    func timeMap(_ speed: PlaybackSpeed, start: FCPXMLTime, duration: FCPXMLTime, handles: (head: Int64, tail: Int64)) -> XMLNode {
        func point(_ local: FCPXMLTime) -> XMLNode {
            let media = speed.isFreeze ? start : start + (local - start).scaled(by: speed.rate)
            return XMLNode("timept", [("time", local.text), ("value", media.text), ("interp", "linear")])
        }
        let first = start - clock.time(handles.head), last = start + duration + clock.time(handles.tail)
        return XMLNode("timeMap", children: [point(first), point(last)])
    }

    /// A layout as Final Cut Pro's adjustments, as Segue's reader reads them
    /// back: a trim (`adjust-crop` mode trim, edges in percent of the frame's
    /// height), the conform, the transform (position in percent of the
    /// frame's height from its centre, y up; rotation counter-clockwise)
    /// written whenever there is a layout, and the opacity (`adjust-blend`).
    func adjustments(_ layout: EditLayout?) -> [XMLNode] {
        guard let layout else { return [] }
        let aspect = Double(frame.height) / Double(frame.width)
        var nodes: [XMLNode] = []
        if layout.cropLeft > 0 || layout.cropRight > 0 || layout.cropTop > 0 || layout.cropBottom > 0 {
            let rect = XMLNode("trim-rect", [
                ("left", FCPXMLNumber.text(layout.cropLeft / aspect * 100)), ("top", FCPXMLNumber.text(layout.cropTop * 100)),
                ("right", FCPXMLNumber.text(layout.cropRight / aspect * 100)), ("bottom", FCPXMLNumber.text(layout.cropBottom * 100)),
            ])
            nodes.append(XMLNode("adjust-crop", [("mode", "trim")], children: [rect]))
        }
        if let conform = layout.conform { nodes.append(XMLNode("adjust-conform", [("type", conform.rawValue)])) }
        nodes.append(XMLNode("adjust-transform", [
            ("position", FCPXMLNumber.pair(layout.centreX / aspect * 100, -layout.centreY * 100)),
            ("scale", FCPXMLNumber.pair(layout.scaleX, layout.scaleY)), ("rotation", FCPXMLNumber.text(-layout.rotation)),
        ]))
        if layout.opacity < 1 { nodes.append(XMLNode("adjust-blend", [("amount", FCPXMLNumber.text(layout.opacity))])) }
        return nodes
    }

    /// A transition as Final Cut Pro's Cross Dissolve (and its Audio Crossfade
    /// when the clips play sound); any other kind is drawn as one, with a warning.
    mutating func transitionElement(_ transition: EditTransition, record: Range<Int64>, label: String, sound: Bool) -> FCPXMLStoryElement {
        let named = transition.name.map { name in ["dissolve", "fade"].contains { name.lowercased().contains($0) } } ?? true
        if case .wipe(let number) = transition.kind {
            warnings.append("\(label): SMPTE wipe \(number) is written as a Cross Dissolve (FCPXML's wipes are Motion templates)")
        } else if !named {
            warnings.append("\(label): '\(transition.name ?? "")' is written as a Cross Dissolve (FCPXML's other transitions are Motion templates)")
        }
        let dissolve = resources.effect(FCPXMLResources.crossDissolve.name, uid: FCPXMLResources.crossDissolve.uid)
        let parameters = [("Look", "1", "11 (Video)"), ("Amount", "2", "50"), ("Ease", "50", "2 (In & Out)"), ("Ease Amount", "51", "0")]
        var head = [XMLNode("filter-video", [("ref", dissolve), ("name", "Cross Dissolve")],
                            children: parameters.map { XMLNode("param", [("name", $0.0), ("key", $0.1), ("value", $0.2)]) })]
        if sound {
            let crossfade = resources.effect(FCPXMLResources.audioCrossfade.name, uid: FCPXMLResources.audioCrossfade.uid)
            head.append(XMLNode("filter-audio", [("ref", crossfade), ("name", "Audio Crossfade")]))
        }
        return FCPXMLStoryElement(name: "transition", attributes: [("name", "Cross Dissolve"), ("duration", clock.time(Int64(record.count)).text)],
                                  head: head, record: record, start: .zero)
    }
}
