import Foundation
import SegueCore

/// Reads an FCPXML sequence: places its story elements on lanes, storyline
/// by storyline, in seconds of their container's time, then lays the lanes
/// out as tracks (`FCPXMLLanes`). A connected clip sits at its parent's
/// place plus its `offset` less the parent's `start` (both in the parent's
/// own time); a storyline's elements follow one another, and a transition
/// between two of them overlaps both, centred where its `offset` puts it.
struct FCPXMLReading {
    typealias Element = ParsedXMLElement
    let document: FCPXMLDocument
    /// The sequence's rate, which every record time is counted at.
    var rate = Rational(24, 1)
    /// The sequence's frame (transforms and crops count in percent of its height).
    var frame = (width: 1920.0, height: 1080.0)
    var notes: [String] = []
    /// The sequence's own clips' markers, in its time.
    var markers: [(name: String, time: Double)] = []
    /// Items placed so far, a compound clip's counted each time it is used.
    var made = 0
    /// The compound clips being read, outermost first: one that contains itself is refused.
    var expanding: [String] = []
    /// Each compound clip's contents once read, and where its sequence's time starts.
    var compounds: [String: (placements: FCPXMLPlacements, start: Double)] = [:]
    var storylines = 0
    /// Whether anything but the primary storyline's clips, whole and at their own level, makes a sound.
    var soundTracksNeeded = false
    /// Said only when the sound tracks are made (the clips' own sound otherwise plays, retimed too).
    var soundNotes: [String] = []

    /// Story elements: what a storyline holds and a clip may have connected to it.
    static let storyElements: Set<String> = ["asset-clip", "clip", "ref-clip", "sync-clip", "mc-clip", "gap", "title", "video",
                                             "audio", "audition", "caption"]

    init(document: FCPXMLDocument) throws { self.document = document }

    mutating func timeline() throws -> EditTimeline {
        let (sequence, project, others) = try document.sequence()
        let label = "sequence" + (project?.attributes["name"].flatMap { $0.isEmpty ? nil : " '\($0.prefix(60))'" } ?? "")
        guard let format = try document.format(sequence.attributes["format"], label) else { throw EditTimelineError("\(label): no format") }
        guard let rate = try FCPXMLValues.rate(of: format, "\(label): format") else {
            throw EditTimelineError("\(label): its format has no frameDuration (no frame rate)")
        }
        self.rate = rate
        if let width = format.attributes["width"].flatMap(Double.init), let height = format.attributes["height"].flatMap(Double.init),
           width >= 1, height >= 1, width < 100_000, height < 100_000 {
            frame = (width, height)
        }
        let tcStart = try FCPXMLValues.seconds(sequence, "tcStart", label)
        guard let spine = sequence.child("spine") else { throw EditTimelineError("\(label): no spine (primary storyline)") }
        var placements = FCPXMLPlacements()
        let first = try firstOffset(spine.children) ?? tcStart ?? 0
        try placeStoryline(spine.children, lane: 0, from: first, origin: first, depth: 0, top: true, into: &placements)
        let origin = tcStart ?? 0
        let tracks = try FCPXMLLanes.videoTracks(placements.pictures.compactMap { Self.fromZero($0, origin, cut: FCPXMLCut.picture) },
                                                 rate: rate, notes: &notes)
        guard tracks.contains(where: { !$0.items.isEmpty }) else { throw EditTimelineError("\(label): its primary storyline is empty") }
        var timeline = EditTimeline(name: project?.attributes["name"].flatMap { $0.isEmpty ? nil : $0 }, rate: rate,
                                    markers: markerList(from: origin), notes: versionNotes(others: others) + notes,
                                    start: tcStart.map { time($0) })
        timeline.videoTracks = tracks
        // A clip drawn over the primary storyline must not take its sound away, as the clips' own sound would.
        let covered = placements.pictures.contains { placed in
            guard placed.lane != 0 else { return false }
            if case .gap = placed.item { return false } else { return true }
        }
        if covered, placements.sounds.contains(where: { if case .clip = $0.item { return true } else { return false } }) {
            soundTracksNeeded = true
        }
        if soundTracksNeeded {
            let sounds = placements.sounds.compactMap { Self.fromZero($0, origin, cut: FCPXMLCut.sound) }
            timeline.audioTracks = try FCPXMLLanes.audioTracks(sounds, rate: rate)
            timeline.notes += soundNotes
        }
        return timeline
    }

    /// `placed` moved so the sequence starts at 0, without what lies before it (nil when all does).
    static func fromZero<Item>(_ placed: FCPXMLPlaced<Item>, _ origin: Double, cut: (Item, Double, Double) -> Item) -> FCPXMLPlaced<Item>? {
        FCPXMLCut.window(placed.shifted(by: -origin), from: 0, to: .greatestFiniteMagnitude, cut: cut)
    }

    private func markerList(from origin: Double) -> [EditMarker] {
        markers.enumerated().filter { $0.element.time >= origin - 1e-9 }
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { EditMarker(name: $0.element.name, time: time($0.element.time - origin)) }
    }

    private func versionNotes(others: Int) -> [String] {
        var notes = others > 0 ? ["\(others) more project(s) not used (only the first is rendered)"] : []
        // Compared part by part: "1.10" is ten, not one tenth.
        let parts = document.version?.split(separator: ".").map { Int($0) }
        if let version = document.version, let parts, parts.count == 2, let major = parts[0], let minor = parts[1],
           (major, minor) < (1, 8) || (major, minor) >= (1, 12) {
            notes.append("FCPXML version \(version.prefix(12)): read as versions 1.8 to 1.11 are")
        }
        return notes
    }

    /// Seconds as a time at the sequence's rate, to a millionth of a frame.
    func time(_ seconds: Double) -> EditTime {
        EditTime(value: FCPXMLCut.rounded(seconds * rate.value), rate: rate.value)
    }

    /// The `offset` of the first story element of a storyline, when it states one.
    func firstOffset(_ elements: [Element]) throws -> Double? {
        guard let first = elements.first(where: { Self.storyElements.contains($0.name) }) else { return nil }
        return try FCPXMLValues.seconds(first, "offset", FCPXMLDocument.label(first))
    }

    /// Counts one more item; beyond `EditReading.maxItems` (compound clips' contents counted each time they are used) refused.
    mutating func count(_ items: Int = 1) throws {
        made += items
        guard made <= EditReading.maxItems else {
            throw EditTimelineError("more than \(EditReading.maxItems) items (compound clips counted each time they are used)")
        }
    }

    /// A new storyline's number.
    mutating func newStoryline() -> Int {
        storylines += 1
        return storylines
    }
}
