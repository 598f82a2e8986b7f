import Foundation
import SegueCore

extension EditTimeline {
    /// A Final Cut Pro X / DaVinci Resolve FCPXML file (versions 1.8 to
    /// 1.11): the first project's sequence. Its primary storyline is the
    /// bottom video track (lane 0); connected clips and storylines are the
    /// tracks of their lanes, above it (positive) and below it (negative);
    /// compound, synchronised and wrapping clips are nested sequences;
    /// transitions are centred where their file places them; the clips'
    /// sound is the sound tracks when anything but the primary storyline's
    /// clips at their own level makes a sound (`FCPXMLSound`).
    package static func parseFCPXML(_ data: Data) throws -> EditTimeline {
        let root = try BoundedXMLReader.timelineRoot(data, root: "fcpxml", format: "an FCPXML file", itemTags: FCPXMLDocument.itemTags)
        var reading = try FCPXMLReading(document: FCPXMLDocument(root: root))
        return try EditReading.finished(reading.timeline())
    }
}

/// An FCPXML document's resources (formats, assets, compound clips' media,
/// effects) by id, and the sequence it holds.
struct FCPXMLDocument {
    typealias Element = ParsedXMLElement
    let root: Element
    let resources: [String: Element]
    /// The version the root states (`1.10`), when it does.
    let version: String?

    /// Elements counted before the tree is built (`BoundedXMLReader.timelineRoot`): what may become an item of a track.
    static let itemTags = ["asset-clip", "clip", "ref-clip", "sync-clip", "mc-clip", "gap", "transition", "title", "video",
                           "audio", "marker", "chapter-marker", "spine", "audition", "caption"]

    init(root: Element) throws {
        self.root = root
        version = root.attributes["version"]
        var found: [String: Element] = [:]
        for element in root.children("resources").flatMap(\.children) {
            guard let id = element.attributes["id"] else { continue }
            guard found[id] == nil else { throw EditTimelineError("resources: two resources have the id '\(id.prefix(40))'") }
            found[id] = element
        }
        resources = found
    }

    /// The sequence rendered: the first `library/event/project/sequence`, else
    /// an event's or the root's first project's, else a `sequence` at the root;
    /// with the number of other projects (not rendered).
    func sequence() throws -> (sequence: Element, project: Element?, others: Int) {
        let events = root.children("library").flatMap { $0.children("event") } + root.children("event")
        let projects = events.flatMap { $0.children("project") } + root.children("project")
        if let project = projects.first {
            guard let sequence = project.child("sequence") else { throw EditTimelineError("\(Self.label(project)): no sequence") }
            return (sequence, project, projects.count - 1)
        }
        if let sequence = root.child("sequence") { return (sequence, nil, 0) }
        throw EditTimelineError("no project (an FCPXML of browser clips only has no timeline to render)")
    }

    /// The resource `element`'s `ref` names, of one of `kinds`; refused when it names none.
    func resource(_ element: Element, _ label: String, kinds: [String]) throws -> Element {
        guard let id = element.attributes["ref"] else { throw EditTimelineError("\(label): no ref") }
        guard let resource = resources[id] else { throw EditTimelineError("\(label): ref '\(id.prefix(40))' names no resource") }
        guard kinds.contains(resource.name) else {
            throw EditTimelineError("\(label): ref '\(id.prefix(40))' names a <\(resource.name)>, not \(kinds.map { "<\($0)>" }.joined(separator: " or "))")
        }
        return resource
    }

    /// The format `id` names, refused when it names none.
    func format(_ id: String?, _ label: String) throws -> Element? {
        guard let id else { return nil }
        guard let format = resources[id], format.name == "format" else {
            throw EditTimelineError("\(label): format '\(id.prefix(40))' names no <format>")
        }
        return format
    }

    /// An element as messages name it: `asset-clip 'Beach'`, `gap`.
    static func label(_ element: Element) -> String {
        element.attributes["name"].flatMap { $0.isEmpty ? nil : "\(element.name) '\($0.prefix(60))'" } ?? element.name
    }
}
