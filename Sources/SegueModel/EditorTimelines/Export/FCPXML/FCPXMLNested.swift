import Foundation
import SegueCore

/// A nested sequence as a compound clip: a `media` resource holding its own
/// sequence (its first track the spine, the others connected above it), used
/// by a `ref-clip` from its source in, at its speed.
extension FCPXMLWriting {
    mutating func nestedElement(_ nested: EditNested, record: Range<Int64>, handles: (head: Int64, tail: Int64), label: String,
                                sound: Bool) throws -> FCPXMLStoryElement {
        guard let first = nested.tracks.first else {
            warnings.append("\(label): it has no tracks; written as a gap")
            return gapElement(record)
        }
        var inner = try storyline(first.items, label: "\(label) V1", enabled: first.enabled, sound: sound)
        guard inner.anchorIndex(at: 0) != nil else {
            warnings.append("\(label): its first track is empty; written as a gap")
            return gapElement(record)
        }
        _ = try connectTracks(Array(nested.tracks.dropFirst()), to: &inner, label: "\(label) ")
        let clock = self.clock
        let spine = XMLNode("spine", children: inner.nodes { clock.time($0) })
        let sequence = XMLNode("sequence", [("format", sequenceFormat), ("duration", clock.time(inner.frames).text), ("tcStart", "0s"),
                                            ("tcFormat", timecodeFormat)], children: [spine])
        let media = resources.media(name: nested.name, sequence: sequence)
        let start = clock.time(nested.source.start.frameCount(at: clock.rate))
        let duration = clock.time(Int64(record.count))
        var attributes = [("start", start.text), ("duration", duration.text)]
        if let name = nested.name, !name.isEmpty { attributes.insert(("name", name), at: 0) }
        if !sound { attributes.append(("srcEnable", "video")) }
        let head = nested.speed.map { [timeMap($0, start: start, duration: duration, handles: handles)] } ?? []
        return FCPXMLStoryElement(name: "ref-clip", ref: media, attributes: attributes, head: head, record: record, start: start)
    }
}
