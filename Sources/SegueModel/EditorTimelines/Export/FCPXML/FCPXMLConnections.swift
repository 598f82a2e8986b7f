import Foundation
import SegueCore

/// What is connected to the spine: the upper video tracks' clips (lane 1,
/// 2 … above it, each clip at its offset in the time of the spine element
/// under its first frame), and the titles on a lane above them.
extension FCPXMLWriting {
    /// The upper tracks' clips, track k on lane k (a transition there is a
    /// cut, with a warning); the lanes used.
    mutating func connectTracks(_ tracks: [EditVideoTrack], to spine: inout FCPXMLStoryline, label: String) throws -> Int {
        for (index, track) in tracks.enumerated() {
            let lane = index + 1
            let name = label + (track.name ?? "V\(lane + 1)")
            var items: [EditItem] = []
            for (number, item) in track.items.enumerated() {
                guard let transition = Self.transition(item) else {
                    items.append(item)
                    continue
                }
                if transition.before.value + transition.after.value > 0 {
                    warnings.append("\(Self.label(item, number, in: name)): transitions above the first track are not written (a cut)")
                }
            }
            let line = try storyline(items, label: name, enabled: track.enabled, sound: false)
            for element in line.elements where element.name != "gap" {
                connect(element, lane: lane, to: &spine)
            }
        }
        return tracks.count
    }

    /// Clips placed over the track (`overlays`, when it has no video tracks),
    /// each on the lowest lane free from its first frame; the lanes used.
    mutating func connectOverlays(_ overlays: [EditOverlay], to spine: inout FCPXMLStoryline) -> Int {
        var ends: [Int64] = []
        for (index, overlay) in overlays.enumerated().sorted(by: { $0.element.recordStart < $1.element.recordStart }) {
            let length = overlay.clip.source.duration.frameCount(at: clock.rate)
            guard length > 0 else { continue }
            let record = overlay.recordStart..<(overlay.recordStart + length)
            let lane = ends.firstIndex { $0 <= record.lowerBound } ?? { ends.append(0); return ends.count - 1 }()
            ends[lane] = record.upperBound
            let label = "placed clip \(index + 1)" + (overlay.clip.name.map { " '\($0.prefix(60))'" } ?? "")
            connect(clipElement(overlay.clip, record: record, handles: (0, 0), label: label, sound: false), lane: lane + 1, to: &spine)
        }
        return ends.count
    }

    /// `element` connected on `lane` where its first record frame plays.
    mutating func connect(_ element: FCPXMLStoryElement, lane: Int, to spine: inout FCPXMLStoryline) {
        _ = spine.connect(at: element.record.lowerBound, clock: clock) { element.node(offset: $0, lane: lane) }
    }

    /// Each text card and caption as a Basic Title on `lane`: its text in a
    /// text style of its own (white, centred; a caption's moved down to the
    /// lower third), over the frames it showed. A card's background is the
    /// gap under it (black): another colour is a warning.
    mutating func connectTitles(_ titles: [EditTitle], lane: Int, to spine: inout FCPXMLStoryline) {
        guard !titles.isEmpty else { return }
        let effect = resources.effect(FCPXMLResources.basicTitle.name, uid: FCPXMLResources.basicTitle.uid)
        for title in titles {
            let first = title.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? title.text
            let label = (title.kind == .card ? "text card" : "caption") + " '\(first.prefix(60))'"
            guard title.frames > 0 else { continue }
            if title.kind == .card, title.background.uppercased() != "#000000" {
                warnings.append("\(label): its background \(title.background) is not written (the gap under the title is black)")
            }
            textStyles += 1
            let style = "ts\(textStyles)"
            var head = [
                XMLNode("text", children: [XMLNode("text-style", [("ref", style)], text: title.text)]),
                XMLNode("text-style-def", [("id", style)], children: [XMLNode("text-style", [
                    ("font", "Helvetica"), ("fontSize", title.kind == .card ? "63" : "48"), ("fontFace", "Regular"),
                    ("fontColor", "1 1 1 1"), ("alignment", "center"),
                ])]),
            ]
            if title.kind == .caption { head.append(XMLNode("adjust-transform", [("position", "0 -38")])) }
            let record = title.start..<(title.start + title.frames)
            let element = FCPXMLStoryElement(name: "title", ref: effect, attributes: [
                ("name", first), ("duration", clock.time(title.frames).text),
            ], head: head, record: record, start: .zero)
            connect(element, lane: lane, to: &spine)
        }
    }
}
