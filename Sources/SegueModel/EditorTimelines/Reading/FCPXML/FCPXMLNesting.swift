import SegueCore

/// Compound clips (`ref-clip` of a `media`'s sequence), multicam clips
/// (`mc-clip`: the picture of its active video angle, the sound of its
/// active audio angle), synchronised clips and clips holding a storyline:
/// each is a nested sequence of its contents, played from its `start` for
/// its `duration`; its sound joins the sequence's sound tracks at its place.
extension FCPXMLReading {
    mutating func placeNested(_ element: Element, _ label: String, start: Double, duration: Double, at spot: FCPXMLSpot,
                              into placements: inout FCPXMLPlacements) throws {
        let timing = try FCPXMLTiming(element, label, rate: rate, notes: &notes)
        let contents: FCPXMLPlacements
        var local = start
        if element.name == "ref-clip" || element.name == "mc-clip" {
            let media = try document.resource(element, label, kinds: ["media"])
            let read = try element.name == "mc-clip" ? multicam(element, media, label, depth: spot.depth)
                : compound(media, label, depth: spot.depth)
            contents = read.placements
            if element.attributes["start"] == nil { local = read.start }
        } else {
            contents = try containerContents(element, depth: spot.depth)
        }
        let inner = timing.map(local)
        let origin = min(contents.earliest ?? inner, inner)
        let enabled = element.attributes["srcEnable"] ?? "all"
        if enabled != "audio" {
            let tracks = try FCPXMLLanes.videoTracks(contents.pictures.map { $0.shifted(by: -origin) }, rate: rate, notes: &notes)
            let nested = EditNested(name: element.attributes["name"].flatMap { $0.isEmpty ? nil : $0 }, tracks: tracks,
                                    source: EditRange(start: time(inner - origin), duration: time(duration)), speed: timing.speed)
            if try FCPXMLAdjustments.layout([element], frame: frame, label, notes: &notes) != nil {
                notes.append("\(label): its transform, crop or opacity isn't applied (a compound clip's isn't read)")
            }
            notes += FCPXMLAdjustments.effectNotes(element, document: document, label)
            placements.pictures.append(placed(.nested(nested), duration, at: spot))
        } else {
            placements.pictures.append(placed(.gap(time(duration)), duration, at: spot))
        }
        let sounds = enabled == "video" ? [] : contents.sounds
        try mergeSounds(sounds, label, from: inner, duration: duration, speed: timing.speed, at: spot, into: &placements)
    }

    /// A nested sequence's sound from `from` for `duration`, placed at `spot`
    /// on the lanes its own lanes lie at from there; silent when it is retimed.
    private mutating func mergeSounds(_ sounds: [FCPXMLPlaced<EditAudioItem>], _ label: String, from: Double, duration: Double,
                                      speed: PlaybackSpeed?, at spot: FCPXMLSpot, into placements: inout FCPXMLPlacements) throws {
        let reach = duration * (speed?.rate.value ?? 1)
        var merged = sounds.compactMap { FCPXMLCut.window($0, from: from, to: from + reach, cut: FCPXMLCut.sound) }
            .map { $0.shifted(by: spot.position - from, lanes: spot.lane) }
        let audible = merged.contains { if case .clip = $0.item { return true } else { return false } }
        if audible, let speed {
            soundNotes.append("\(label): played at \(speed.description); its sound isn't (silent)")
            merged = []
        }
        guard audible, !merged.isEmpty else {
            placements.sounds.append(placed(.gap(time(duration)), duration, at: spot))
            return
        }
        if spot.top { soundTracksNeeded = true }
        if let first = merged.indices.first(where: { merged[$0].lane == spot.lane && abs(merged[$0].start - spot.position) < 1e-9 }),
           merged[first].join == nil {
            merged[first].join = spot.join
        }
        try count(merged.count)
        placements.sounds += merged
    }

    /// A compound clip's contents, read once (a compound clip that contains itself is refused), and where its sequence's time starts.
    mutating func compound(_ media: Element, _ label: String, depth: Int, angle: String? = nil)
        throws -> (placements: FCPXMLPlacements, start: Double) {
        let id = (media.attributes["id"] ?? "") + (angle.map { " angle \($0.prefix(40))" } ?? "")
        if let read = compounds[id] {
            try count(read.placements.count)
            return read
        }
        let name = "compound clip '\((media.attributes["name"] ?? id).prefix(60))'"
        guard !expanding.contains(id) else {
            throw EditTimelineError("\(label): \(name) contains itself (\((expanding + [id]).map { $0.prefix(40) }.joined(separator: " → ")))")
        }
        guard expanding.count < EditReading.maxDepth else { throw EditTimelineError("\(label): compound clips nested more than \(EditReading.maxDepth) deep") }
        let storyline: [Element], tcStart: Double?
        if let angle {
            guard let multicam = media.child("multicam") else { throw EditTimelineError("\(label): \(name) is not a multicam clip") }
            guard let chosen = multicam.children("mc-angle").first(where: { $0.attributes["angleID"] == angle }) else {
                throw EditTimelineError("\(label): \(name) has no angle '\(angle.prefix(40))'")
            }
            (storyline, tcStart) = (chosen.children, try FCPXMLValues.seconds(multicam, "tcStart", name))
        } else {
            guard let sequence = media.child("sequence") else {
                throw EditTimelineError("\(label): \(name) holds no sequence" + (media.child("multicam") != nil ? " (a multicam clip is used by an mc-clip)" : ""))
            }
            guard let spine = sequence.child("spine") else { throw EditTimelineError("\(name): no spine") }
            (storyline, tcStart) = (spine.children, try FCPXMLValues.seconds(sequence, "tcStart", name))
        }
        expanding.append(id)
        defer { expanding.removeLast() }
        var placements = FCPXMLPlacements()
        let first = try firstOffset(storyline) ?? tcStart ?? 0
        try placeStoryline(storyline, lane: 0, from: first, origin: first, depth: depth + 1, top: false, into: &placements)
        let read = (placements, tcStart ?? first)
        compounds[id] = read
        return read
    }

    /// A multicam clip's contents: the pictures of the angle its `mc-source`
    /// shows (`srcEnable` all or video), the sound of the one it hears (all
    /// or audio); the first angle for both when it names none.
    private mutating func multicam(_ element: Element, _ media: Element, _ label: String, depth: Int)
        throws -> (placements: FCPXMLPlacements, start: Double) {
        let sources = element.children("mc-source")
        func active(_ kind: String) -> String? {
            guard !sources.isEmpty else { return media.child("multicam")?.children("mc-angle").first?.attributes["angleID"] }
            return sources.first { ["all", kind].contains($0.attributes["srcEnable"] ?? "all") }?.attributes["angleID"]
        }
        let video = try active("video").map { try compound(media, label, depth: depth, angle: $0) }
        let audio = try active("audio").map { try compound(media, label, depth: depth, angle: $0) }
        let placements = FCPXMLPlacements(pictures: video?.placements.pictures ?? [], sounds: audio?.placements.sounds ?? [])
        return (placements, video?.start ?? audio?.start ?? 0)
    }

    /// A synchronised clip's or a clip's contents in its own time: what it
    /// holds without a lane (or its storyline) one after another, and what is connected to them.
    private mutating func containerContents(_ element: Element, depth: Int) throws -> FCPXMLPlacements {
        var placements = FCPXMLPlacements()
        let spine = element.children.first { $0.name == "spine" && $0.attributes["lane"] == nil }
        let storyline = spine?.children ?? element.children.filter { Self.storyElements.contains($0.name) && $0.attributes["lane"] == nil }
        let first = try firstOffset(storyline) ?? 0
        try placeStoryline(storyline, lane: 0, from: first, origin: first, depth: depth + 1, top: false, into: &placements)
        let spot = FCPXMLSpot(lane: 0, position: 0, storyline: newStoryline(), index: 0, join: nil, depth: depth + 1, top: false)
        try placeConnected(of: element, start: 0, at: spot, into: &placements)
        return placements
    }
}
