import SegueCore

/// Clips of media: `asset-clip`, `video`, `audio`, and a `clip` wrapping a
/// `video` (and its `audio`). A clip's `start` is in its media's time, as
/// an OTIO source range is (counted from the media's start timecode): its
/// picture's source starts there, through its `timeMap` when it has one.
extension FCPXMLReading {
    /// An `asset-clip`, `video` or `audio` of an asset (a `video` of an effect is a generator).
    mutating func placeMedia(_ element: Element, _ label: String, start: Double, duration: Double, at spot: FCPXMLSpot,
                             into placements: inout FCPXMLPlacements) throws {
        let resource = try document.resource(element, label, kinds: element.name == "video" ? ["asset", "effect"] : ["asset"])
        guard resource.name == "asset" else {
            return placeGenerator(resource, label, duration: duration, at: spot, into: &placements)
        }
        let timing = try FCPXMLTiming(element, label, rate: rate, notes: &notes)
        let enabled = element.attributes["srcEnable"] ?? "all"
        let picture = element.name != "audio" && Self.hasVideo(resource) && enabled != "audio"
        if picture {
            var clip = try makeClip(element, resource, source: timing.map(start), length: duration, label)
            clip.speed = timing.speed
            clip.layout = try FCPXMLAdjustments.layout([element], frame: frame, label, notes: &notes)
            notes += FCPXMLAdjustments.effectNotes(element, document: document, label)
            placements.pictures.append(placed(.clip(clip), duration, at: spot))
        } else {
            placements.pictures.append(placed(.gap(time(duration)), duration, at: spot))
        }
        let hasSound = element.name != "video" && resource.attributes["hasAudio"] != "0"
        if hasSound, enabled == "video", picture { soundTracksNeeded = true }
        let sound = FCPXMLSoundSource(element: element, asset: hasSound && enabled != "video" ? resource : nil, inner: element,
                                      map: timing, withPicture: picture)
        try placeSound(sound, label, start: start, duration: duration, at: spot, into: &placements)
    }

    /// A generator (a `video` of an effect): drawn as `EditGenerators` draws one, in silence.
    mutating func placeGenerator(_ effect: Element, _ label: String, duration: Double, at spot: FCPXMLSpot,
                                 into placements: inout FCPXMLPlacements) {
        let name = effect.attributes["name"] ?? ""
        let (look, note) = EditGenerators.look(named: name, colour: nil, label: label)
        notes.append(note)
        placements.pictures.append(placed(.fill(EditFill(look: look, duration: time(duration))), duration, at: spot))
        placements.sounds.append(placed(.gap(time(duration)), duration, at: spot))
    }

    /// A `clip`: one `video` (and its `audio`) inside it is a clip of that
    /// media; anything else inside it (a storyline, several clips) makes it a
    /// nested sequence. Whether its lanes are connected clips (false: its contents).
    mutating func placeClip(_ element: Element, _ label: String, start: Double, duration: Double, at spot: FCPXMLSpot,
                            into placements: inout FCPXMLPlacements) throws -> Bool {
        let contained = element.children.filter { Self.storyElements.contains($0.name) && $0.attributes["lane"] == nil }
        let videos = contained.filter { $0.name == "video" }
        let simple = !element.children.contains { $0.name == "spine" } && videos.count <= 1
            && contained.allSatisfy { $0.name == "video" || $0.name == "audio" }
        guard simple else {
            try placeNested(element, label, start: start, duration: duration, at: spot, into: &placements)
            return false
        }
        let timing = try FCPXMLTiming(element, label, rate: rate, notes: &notes)
        let inner = timing.map(start)
        if let video = videos.first {
            let resource = try document.resource(video, "\(label): video", kinds: ["asset", "effect"])
            if resource.name == "effect" {
                placeGenerator(resource, label, duration: duration, at: spot, into: &placements)
                return true
            }
            let offset = try FCPXMLValues.seconds(video, "offset", label) ?? 0
            let source = (try FCPXMLValues.seconds(video, "start", label) ?? 0) + inner - offset
            var clip = try makeClip(element, resource, source: source, length: duration, label)
            clip.speed = timing.speed
            clip.layout = try FCPXMLAdjustments.layout([element, video], frame: frame, label, notes: &notes)
            notes += FCPXMLAdjustments.effectNotes(element, document: document, label)
            placements.pictures.append(placed(.clip(clip), duration, at: spot))
        } else {
            placements.pictures.append(placed(.gap(time(duration)), duration, at: spot))
        }
        let audios = contained.filter { $0.name == "audio" }
        if audios.isEmpty { placements.sounds.append(placed(.gap(time(duration)), duration, at: spot)) }
        for audio in audios {
            let asset = try document.resource(audio, "\(label): audio", kinds: ["asset"])
            let sound = FCPXMLSoundSource(element: element, asset: asset.attributes["hasAudio"] == "0" ? nil : asset, inner: audio,
                                          map: timing, withPicture: !videos.isEmpty)
            try placeSound(sound, label, start: start, duration: duration, at: spot, into: &placements)
        }
        return true
    }

    /// Whether an asset has pictures: as its `hasVideo` says, else when it has a format (Final Cut omits `hasVideo` for sound files).
    static func hasVideo(_ asset: Element) -> Bool {
        asset.attributes["hasVideo"].map { $0 != "0" } ?? (asset.attributes["format"] != nil)
    }

    /// An item placed at `spot`, `length` long.
    func placed<Item>(_ item: Item, _ length: Double, at spot: FCPXMLSpot) -> FCPXMLPlaced<Item> {
        FCPXMLPlaced(lane: spot.lane, start: spot.position, length: length, item: item, join: spot.join, storyline: spot.storyline,
                     index: spot.index)
    }

    /// A clip of `asset` from `source` (seconds of its media's time), `length` seconds long on the record.
    func makeClip(_ element: Element, _ asset: Element, source: Double, length: Double, _ label: String) throws -> EditClip {
        let assetLabel = "\(label): asset '\((asset.attributes["id"] ?? "").prefix(40))'"
        let assetRate = try document.format(asset.attributes["format"], assetLabel).flatMap { try FCPXMLValues.rate(of: $0, assetLabel) } ?? rate
        let available = try FCPXMLValues.length(asset, "duration", assetLabel).map { duration in
            EditRange(start: EditTime(value: FCPXMLCut.rounded((try FCPXMLValues.seconds(asset, "start", assetLabel) ?? 0) * assetRate.value),
                                      rate: assetRate.value),
                      duration: EditTime(value: FCPXMLCut.rounded(duration * assetRate.value), rate: assetRate.value))
        }
        let reps = asset.children("media-rep")
        let location = (reps.first { ($0.attributes["kind"] ?? "original-media") == "original-media" } ?? reps.first)?.attributes["src"]
            ?? asset.attributes["src"]
        let assetName = asset.attributes["name"].flatMap { $0.isEmpty ? nil : $0 }
        return EditClip(name: element.attributes["name"].flatMap { $0.isEmpty ? nil : $0 } ?? assetName,
                        media: EditMedia(location: location.flatMap { $0.isEmpty ? nil : $0 }, clipName: assetName),
                        source: EditRange(start: EditTime(value: FCPXMLCut.rounded(source * assetRate.value), rate: assetRate.value),
                                          duration: time(length)),
                        available: available)
    }
}
