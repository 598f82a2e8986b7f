import SegueCore

/// Lanes of placed items laid out as tracks: each lane one track (its
/// items in time order, holes as gaps, each transition before the item it
/// leads into); an item overlapping the one before it on its lane goes on
/// another track of the same lane. Video tracks bottom (the lowest lane)
/// first; a lane with nothing drawn on it (only gaps, titles, sound) is
/// left out, the primary storyline's kept.
enum FCPXMLLanes {
    static func videoTracks(_ placed: [FCPXMLPlaced<EditItem>], rate: Rational, notes: inout [String]) throws -> [EditVideoTrack] {
        var tracks: [EditVideoTrack] = []
        for (lane, part, items) in packed(placed) {
            let drawn = items.contains { item in
                switch item.item {
                case .clip, .fill, .nested: return true
                case .gap, .transition: return false
                }
            }
            guard drawn || (lane == 0 && part == 0) else { continue }
            if part > 0 { notes.append("lane \(lane): clips overlap there; the later ones are drawn over the earlier") }
            let name = (lane == 0 ? "primary storyline" : "lane \(lane)") + (part > 0 ? " (\(part + 1))" : "")
            tracks.append(EditVideoTrack(name: name, items: sequence(items, rate: rate, gap: { .gap($0) }, join: { .transition($0) })))
        }
        guard tracks.count <= EditVideoTrack.mostTracks else {
            throw EditTimelineError("more than \(EditVideoTrack.mostTracks) video tracks (lanes)")
        }
        return tracks
    }

    static func audioTracks(_ placed: [FCPXMLPlaced<EditAudioItem>], rate: Rational) throws -> [EditAudioTrack] {
        var tracks: [EditAudioTrack] = []
        for (lane, part, items) in packed(placed) {
            guard items.contains(where: { if case .clip = $0.item { return true } else { return false } }) else { continue }
            let name = (lane == 0 ? "primary storyline" : "lane \(lane)") + (part > 0 ? " (\(part + 1))" : "")
            tracks.append(EditAudioTrack(name: name, items: sequence(items, rate: rate, gap: { .gap($0) }, join: { .transition($0) })))
        }
        guard tracks.count <= EditAudioTrack.mostTracks else {
            throw EditTimelineError("more than \(EditAudioTrack.mostTracks) sound tracks (lanes and clips overlapping on them)")
        }
        return tracks.isEmpty ? [EditAudioTrack(name: "primary storyline")] : tracks
    }

    /// The items lane by lane (lowest first), each lane split into parts whose items don't overlap.
    static func packed<Item>(_ placed: [FCPXMLPlaced<Item>]) -> [(lane: Int, part: Int, items: [FCPXMLPlaced<Item>])] {
        let ordered = placed.enumerated().sorted {
            ($0.element.lane, $0.element.start, $0.offset) < ($1.element.lane, $1.element.start, $1.offset)
        }.map(\.element)
        var result: [(lane: Int, part: Int, items: [FCPXMLPlaced<Item>])] = []
        var first = 0
        while first < ordered.count {
            let lane = ordered[first].lane
            var parts: [[FCPXMLPlaced<Item>]] = []
            while first < ordered.count, ordered[first].lane == lane {
                let item = ordered[first]
                if let part = parts.firstIndex(where: { ($0.last?.end ?? -.infinity) <= item.start + 1e-6 }) {
                    parts[part].append(item)
                } else {
                    parts.append([item])
                }
                first += 1
            }
            result += parts.enumerated().map { (lane, $0.offset, $0.element) }
        }
        return result
    }

    /// One part's items as a track's children: a gap for each hole (and from
    /// the start), each item's transition in before it, zero-length items dropped.
    static func sequence<Item>(_ items: [FCPXMLPlaced<Item>], rate: Rational, gap: (EditTime) -> Item,
                               join: (EditTransition) -> Item) -> [Item] {
        func time(_ seconds: Double) -> EditTime { EditTime(value: FCPXMLCut.rounded(seconds * rate.value), rate: rate.value) }
        var result: [Item] = []
        var cursor = 0.0
        var lastWasJoin = false
        for item in items {
            if item.start - cursor > 1e-6 { result.append(gap(time(item.start - cursor))) }
            // Two transitions never stand in a row (a storyline ending in one, another starting with one).
            if let transition = item.join, !(lastWasJoin && item.start - cursor <= 1e-6) { result.append(join(transition)) }
            lastWasJoin = item.join != nil && item.length <= 1e-9
            if item.length > 1e-9 { result.append(item.item) }
            cursor = max(cursor, item.end)
        }
        return result
    }
}
