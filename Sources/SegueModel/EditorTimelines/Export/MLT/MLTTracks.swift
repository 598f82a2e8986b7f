import Foundation
import SegueCore

extension MLTWriter {
    /// A picture track as a playlist: clips as entries between their cuts,
    /// gaps as blanks, colour generators as colour producers, each dissolve a
    /// transition tractor over both clips' handles (Shotcut's form).
    mutating func addPlaylist(_ items: [EditItem], id: String, soundOnly: Bool) throws {
        var children: [XMLNode] = []
        for (index, item) in items.enumerated() {
            switch item {
            case .clip(let clip):
                let (cutIn, cutOut) = (handle(items, index - 1, after: true), handle(items, index + 1, after: false))
                let (first, last) = try span(of: clip)
                let producer = try self.producer(for: clip.media, speed: clip.speed, sound: timeline.clipSound && !soundOnly)
                children.append(entry(producer, first + cutIn, last - cutOut, layout: clip.layout))
            case .transition(let transition):
                guard case .clip(let from)? = items[safe: index - 1], case .clip(let to)? = items[safe: index + 1] else {
                    warnings.append("MLT export: a transition beside a gap is written as a cut")
                    continue
                }
                let length = frames(transition.before) + frames(transition.after)
                children.append(entry(try dissolve(transition, from: from, to: to), 0, length - 1))
            case .gap(let duration):
                children.append(XMLNode("blank", [("length", "\(frames(duration))")]))
            case .fill(let fill):
                children.append(self.fill(fill))
            case .nested(let nested):
                warnings.append("MLT export: nested sequence \(nested.name ?? "") is written as a gap")
                children.append(XMLNode("blank", [("length", "\(frames(nested.source.duration))")]))
            }
        }
        playlists.append((XMLNode("playlist", [("id", id)], children: children), soundOnly))
    }

    /// Record frames the transition at `index` takes from the clip beside it: its `after` (the clip after it) or `before`.
    private func handle(_ items: [EditItem], _ index: Int, after: Bool) -> Int64 {
        guard case .transition(let transition)? = items[safe: index] else { return 0 }
        return frames(after ? transition.after : transition.before)
    }

    /// The clip's first and last frame in its producer (profile frames from the file's start; a timewarp's own frames).
    func span(of clip: EditClip) throws -> (first: Int64, last: Int64) {
        let origin = ((clip.media.startSeconds ?? 0) * rate.value).rounded()
        let speed = clip.speed.map { $0.isFreeze ? 1 : $0.rate.value } ?? 1
        let first = Int64(((clip.source.start.seconds * rate.value - origin) / speed).rounded())
        return (first, first + frames(clip.source.duration) - 1)
    }

    private func entry(_ producer: String, _ first: Int64, _ last: Int64, layout: EditLayout? = nil) -> XMLNode {
        XMLNode("entry", [("producer", producer), ("in", "\(first)"), ("out", "\(last)")],
                children: layout.map { [Self.placement($0, width: timeline.format?.width ?? 1920, height: timeline.format?.height ?? 1080)] } ?? [])
    }

    /// A dissolve as a tractor of both clips over its frames, luma-mixed and sound crossfaded; its id.
    private mutating func dissolve(_ transition: EditTransition, from: EditClip, to: EditClip) throws -> String {
        let before = frames(transition.before), after = frames(transition.after)
        let sound = timeline.clipSound
        let (fromProducer, toProducer) = (try producer(for: from.media, speed: from.speed, sound: sound),
                                          try producer(for: to.media, speed: to.speed, sound: sound))
        let fromLast = try span(of: from).last, toFirst = try span(of: to).first
        let id = "transition\(producers.count)"
        if let name = transition.name, name != "fade", name != "dissolve" {
            warnings.append("MLT export: transition \(name) is written as a dissolve")
        }
        let length = before + after
        producers.append(XMLNode("tractor", [("id", id), ("in", "0"), ("out", "\(length - 1)")], children: [
            XMLNode("track", [("producer", fromProducer), ("in", "\(fromLast - before + 1)"), ("out", "\(fromLast + after)")]),
            XMLNode("track", [("producer", toProducer), ("in", "\(toFirst - before)"), ("out", "\(toFirst + after - 1)")]),
            Self.transition("composite", a: 0, b: 1, [("geometry", mixRamp(frames: length))], out: length - 1),
            Self.transition("mix", a: 0, b: 1, [("start", "-1"), ("accepts_blanks", "1")], out: length - 1),
        ]))
        return id
    }

    /// A dissolve's weights as Segue draws them (step k of n is (k + 1) / (n + 1) of the way), as a
    /// composite's animated opacity: luma's k / n would start one step late.
    private func mixRamp(frames length: Int64) -> String {
        let width = timeline.format?.width ?? 1920, height = timeline.format?.height ?? 1080
        func key(_ frame: Int64) -> String {
            "\(frame)=0 0 \(width) \(height) " + String(format: "%.6f", Double(frame + 1) / Double(length + 1))
        }
        return length > 1 ? key(0) + ";" + key(length - 1) : key(0)
    }

    private mutating func fill(_ fill: EditFill) -> XMLNode {
        let length = frames(fill.duration)
        guard case .colour(let colour) = fill.look else {
            if case .bars = fill.look { warnings.append("MLT export: colour bars are written as a gap") }
            return XMLNode("blank", [("length", "\(length)")])
        }
        let id = "colour\(producers.count)"
        producers.append(XMLNode("producer", [("id", id)], children: [
            Self.property("length", "\(Int64(Int32.max))"), Self.property("resource", colour), Self.property("mlt_service", "color"),
        ]))
        return entry(id, 0, length - 1)
    }

    /// A placed clip's layout as a qtblend filter on its entry: its rectangle, turn and opacity.
    static func placement(_ layout: EditLayout, width: Int, height: Int) -> XMLNode {
        let w = Double(width) * layout.scaleX, h = Double(height) * layout.scaleY
        let x = Double(width) * (0.5 + layout.centreX) - w / 2, y = Double(height) * (0.5 + layout.centreY) - h / 2
        let rect = [x, y, w, h].map { Plan.decimal(($0 * 1000).rounded() / 1000) }.joined(separator: " ") + " " + Plan.decimal(layout.opacity)
        return XMLNode("filter", children: [
            property("mlt_service", "qtblend"), property("rect", rect), property("rotation", Plan.decimal(layout.rotation)),
            property("compositing", "0"), property("distort", "1"),
        ])
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
