import SegueCore

/// Where a story element goes: its lane, its place in its container's time,
/// its storyline and the transition into it.
struct FCPXMLSpot {
    var lane: Int
    var position: Double
    var storyline: Int
    var index: Int
    var join: EditTransition?
    /// How many storylines, clips and compound clips it lies within.
    var depth: Int
    /// Whether it is the sequence's own (its markers are the timeline's), not a compound clip's.
    var top: Bool
}

extension FCPXMLReading {
    /// Places a storyline's elements one after another from `from` (its
    /// container's time) on `lane`; `origin` is the storyline's own time
    /// there (its first element's `offset`), which its transitions' offsets count in.
    mutating func placeStoryline(_ elements: [Element], lane: Int, from: Double, origin: Double, depth: Int, top: Bool,
                                 into placements: inout FCPXMLPlacements) throws {
        guard depth <= EditReading.maxDepth else { throw EditTimelineError("storylines nested more than \(EditReading.maxDepth) deep") }
        let storyline = newStoryline()
        var position = from, index = 0
        var pending: Element?
        for element in elements {
            if element.name == "transition" {
                guard pending == nil else { throw EditTimelineError("\(FCPXMLDocument.label(element)): two transitions in a row") }
                try count()
                pending = element
                continue
            }
            guard Self.storyElements.contains(element.name) else { continue }
            let join = try pending.map { try transition($0, cut: position, from: from, origin: origin) }
            pending = nil
            let spot = FCPXMLSpot(lane: lane, position: position, storyline: storyline, index: index, join: join, depth: depth + 1, top: top)
            position += try place(element, at: spot, into: &placements)
            index += 1
        }
        if let pending {
            // The storyline ends in a transition: to black, or to what lies below it.
            let join = try transition(pending, cut: position, from: from, origin: origin)
            placements.pictures.append(FCPXMLPlaced(lane: lane, start: position, length: 0, item: .gap(time(0)), join: join,
                                                    storyline: storyline, index: index))
            placements.sounds.append(FCPXMLPlaced(lane: lane, start: position, length: 0, item: .gap(time(0)), join: join,
                                                  storyline: storyline, index: index))
        }
    }

    /// A transition centred where its `offset` puts it about the cut at
    /// `cut` (half before, half after when it has no offset): the part
    /// before the cut is `before`, the rest `after`, as OTIO splits one.
    mutating func transition(_ element: Element, cut: Double, from: Double, origin: Double) throws -> EditTransition {
        let label = FCPXMLDocument.label(element)
        let name = element.attributes["name"] ?? ""
        if !name.isEmpty, !["dissolve", "fade"].contains(where: { name.lowercased().contains($0) }) {
            notes.append("\(label): drawn as a dissolve")
        }
        guard let duration = try FCPXMLValues.length(element, "duration", label) else { throw EditTimelineError("\(label): no duration") }
        let start = try FCPXMLValues.seconds(element, "offset", label).map { from + ($0 - origin) } ?? cut - duration / 2
        let before = min(max(cut - start, 0), duration)
        return EditTransition(kind: .dissolve, name: element.attributes["name"].flatMap { $0.isEmpty ? nil : $0 },
                              before: time(before), after: time(duration - before))
    }

    /// Places `element` at `spot`, then what is connected to it; its length in its container's time.
    mutating func place(_ element: Element, at spot: FCPXMLSpot, into placements: inout FCPXMLPlacements) throws -> Double {
        let label = FCPXMLDocument.label(element) + (spot.lane == 0 ? "" : " (lane \(spot.lane))")
        guard spot.depth <= EditReading.maxDepth else { throw EditTimelineError("\(label): nested more than \(EditReading.maxDepth) deep") }
        guard abs(spot.lane) <= EditVideoTrack.mostTracks else {
            throw EditTimelineError("\(label): lane \(spot.lane) is beyond \(EditVideoTrack.mostTracks) lanes either side of the primary storyline")
        }
        try count()
        if element.name == "audition" { return try placeAudition(element, label, at: spot, into: &placements) }
        let start = try FCPXMLValues.seconds(element, "start", label) ?? 0
        let duration = try self.duration(of: element, label)
        var connected = true
        if element.attributes["enabled"] == "0" {
            notes.append("\(label): disabled, so not drawn and silent")
            placeBlank(duration, at: spot, into: &placements)
            connected = !["clip", "sync-clip"].contains(element.name)
        } else {
            switch element.name {
            case "gap": placeBlank(duration, at: spot, into: &placements)
            case "title", "caption":
                notes.append("\(label): \(element.name == "title" ? "a title" : "a caption"); its text isn't drawn"
                             + (spot.lane == 0 ? " (black)" : " (what lies below it shows)"))
                placeBlank(duration, at: spot, into: &placements)
            case "ref-clip", "mc-clip": try placeNested(element, label, start: start, duration: duration, at: spot, into: &placements)
            case "sync-clip":
                try placeNested(element, label, start: start, duration: duration, at: spot, into: &placements)
                connected = false
            case "clip": connected = try placeClip(element, label, start: start, duration: duration, at: spot, into: &placements)
            default: try placeMedia(element, label, start: start, duration: duration, at: spot, into: &placements)
            }
        }
        if connected { try placeConnected(of: element, start: start, at: spot, into: &placements) }
        if spot.top { try readMarkers(of: element, start: start, at: spot.position) }
        return duration
    }

    /// The clips, storylines and titles connected to `element` (a `lane`
    /// each), placed at `element`'s place plus their `offset` less its `start`.
    mutating func placeConnected(of element: Element, start: Double, at spot: FCPXMLSpot,
                                 into placements: inout FCPXMLPlacements) throws {
        for child in element.children where child.attributes["lane"] != nil && (Self.storyElements.contains(child.name) || child.name == "spine") {
            let label = FCPXMLDocument.label(child)
            let text = child.attributes["lane"] ?? ""
            guard text.count <= 6, let lane = Int(text) else { throw EditTimelineError("\(label): lane '\(text.prefix(20))' is not a lane number") }
            guard abs(spot.lane + lane) <= EditVideoTrack.mostTracks else {
                throw EditTimelineError("\(label): lane \(spot.lane + lane) is beyond \(EditVideoTrack.mostTracks) lanes either side of the primary storyline")
            }
            let offset = try FCPXMLValues.seconds(child, "offset", label) ?? start
            let position = spot.position + (offset - start)
            if child.name == "spine" {
                let origin = try firstOffset(child.children) ?? 0
                try placeStoryline(child.children, lane: spot.lane + lane, from: position, origin: origin, depth: spot.depth + 1,
                                   top: spot.top, into: &placements)
            } else {
                let inner = FCPXMLSpot(lane: spot.lane + lane, position: position, storyline: newStoryline(), index: 0, join: nil,
                                       depth: spot.depth + 1, top: spot.top)
                _ = try place(child, at: inner, into: &placements)
            }
        }
    }

    /// Black (on the primary storyline) or nothing (on a lane), and silence, `duration` long.
    mutating func placeBlank(_ duration: Double, at spot: FCPXMLSpot, into placements: inout FCPXMLPlacements) {
        placements.pictures.append(FCPXMLPlaced(lane: spot.lane, start: spot.position, length: duration, item: .gap(time(duration)),
                                                join: spot.join, storyline: spot.storyline, index: spot.index))
        placements.sounds.append(FCPXMLPlaced(lane: spot.lane, start: spot.position, length: duration, item: .gap(time(duration)),
                                              join: spot.join, storyline: spot.storyline, index: spot.index))
    }

    /// An audition plays its first (active) pick.
    private mutating func placeAudition(_ element: Element, _ label: String, at spot: FCPXMLSpot,
                                       into placements: inout FCPXMLPlacements) throws -> Double {
        guard let pick = element.children.first(where: { Self.storyElements.contains($0.name) && $0.name != "audition" }) else {
            throw EditTimelineError("\(label): no clip in it")
        }
        if element.children.filter({ Self.storyElements.contains($0.name) }).count > 1 {
            notes.append("\(label): its first pick is rendered")
        }
        return try place(pick, at: spot, into: &placements)
    }

    /// An element's `duration` (an asset clip without one lasts as its asset does).
    func duration(of element: Element, _ label: String) throws -> Double {
        if let duration = try FCPXMLValues.length(element, "duration", label) { return duration }
        if element.name == "asset-clip", let asset = try? document.resource(element, label, kinds: ["asset"]),
           let duration = try FCPXMLValues.length(asset, "duration", "asset '\(asset.attributes["id"] ?? "")'") {
            return duration
        }
        throw EditTimelineError("\(label): no duration")
    }

    /// The markers and chapter markers of one of the sequence's own elements, at their place in its time.
    mutating func readMarkers(of element: Element, start: Double, at position: Double) throws {
        for marker in element.children where marker.name == "marker" || marker.name == "chapter-marker" {
            let label = "\(FCPXMLDocument.label(element)): \(marker.name) '\((marker.attributes["value"] ?? "").prefix(60))'"
            guard let at = try FCPXMLValues.seconds(marker, "start", label) else { throw EditTimelineError("\(label): no start") }
            try count()
            markers.append((marker.attributes["value"] ?? "", position + (at - start)))
        }
    }
}
