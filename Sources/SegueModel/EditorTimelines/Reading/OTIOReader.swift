import Foundation
import SegueCore

extension EditTimeline {
    /// An OpenTimelineIO `.otio` file (JSON): every Video track, item by item
    /// (a Stack or Track inside one nested, `readNested`), stacked into
    /// `items` (`EditReading.finished`), and its Audio tracks
    /// (`OTIOAudioReading`); reverse speeds, ramps and effects are refused.
    package static func parseOTIO(_ data: Data) throws -> EditTimeline {
        try JSONNesting.check(data, limit: EditReading.maxDepth)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw EditTimelineError("not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "parse error"))")
        }
        guard let object = root as? [String: Any] else { throw EditTimelineError("not an OTIO timeline (no object at the top)") }
        return try OTIOReader().timeline(object)
    }
}

/// Refuses JSON nested deeper than a limit before JSONSerialization recurses into it.
enum JSONNesting {
    static func check(_ data: Data, limit: Int) throws {
        let deepest = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
            var depth = 0, deepest = 0, inString = false, escaped = false
            for byte in bytes {
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    deepest = max(deepest, depth)
                    if depth > limit { return deepest }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return deepest
        }
        if deepest > limit { throw EditTimelineError("JSON nested more than \(limit) deep") }
    }
}

/// Reads OTIO's JSON objects (`OTIO_SCHEMA` "Name.version") into an `EditTimeline`.
struct OTIOReader {
    typealias Object = [String: Any]

    /// The schema's name without its version: "Clip" for "Clip.2".
    static func schema(_ object: Object) -> String {
        let full = object["OTIO_SCHEMA"] as? String ?? ""
        return full.split(separator: ".").first.map(String.init) ?? full
    }

    func timeline(_ root: Object) throws -> EditTimeline {
        guard Self.schema(root) == "Timeline" else {
            throw EditTimelineError("not an OTIO timeline (OTIO_SCHEMA '\(root["OTIO_SCHEMA"] as? String ?? "none")')")
        }
        guard let stack = root["tracks"] as? Object, Self.schema(stack) == "Stack" else {
            throw EditTimelineError("timeline: tracks is not a Stack")
        }
        let tracks = (stack["children"] as? [Any] ?? []).compactMap { $0 as? Object }
        let video = tracks.filter { Self.schema($0) == "Track" && Self.kind($0, default: "Video") == "Video" }
        guard !video.isEmpty else { throw EditTimelineError("timeline: no video track") }
        var budget = 0
        let readings = try video.map { try TrackReading($0, kind: "Video", budget: &budget, keepsMarkers: true) }
        let rate = try Self.writtenRate(root) ?? TrackReading.rate(readings, video)
        var notes: [String] = [], markers: [EditMarker] = []
        for (owner, what) in [(root, "timeline"), (stack, "stack")] {
            markers += try Self.markers(owner, what).map { EditMarker(name: $0.name, time: $0.start) }
        }
        var videoTracks: [EditVideoTrack] = []
        for (index, (track, read)) in zip(video, readings).enumerated() {
            let label = Self.name(track).map { "video track '\($0)'" } ?? "video track \(index + 1)"
            if track["source_range"] is Object { notes.append("\(label): its source_range is not applied") }
            notes += read.notes.map { video.count > 1 ? "\(label): \($0)" : $0 }
            let enabled = track["enabled"] as? Bool ?? true
            if !enabled { notes.append("\(label) is disabled, so not drawn (the tracks below it show through)") }
            videoTracks.append(EditVideoTrack(name: Self.name(track), items: read.items, enabled: enabled))
            markers += try Self.markers(track, "track").map { EditMarker(name: $0.name, time: $0.start) } + read.clipMarkers(at: rate)
        }
        markers = markers.enumerated().sorted { ($0.element.time.seconds, $0.offset) < ($1.element.time.seconds, $1.offset) }.map(\.element)
        let audio = try OTIOAudioReading(tracks.filter { Self.schema($0) == "Track" && ($0["kind"] as? String) == "Audio" }, rate: rate)
        let start = try (root["global_start_time"] as? Object).map { try Self.time($0, "timeline: global_start_time") }
        // Notes Segue wrote with the timeline (read from another format) are kept; what reading it again
        // notes anew (a disabled track, say) is not said twice.
        let written = (((root["metadata"] as? Object)?["segue"] as? Object)?["notes"] as? [Any] ?? []).compactMap { $0 as? String }
        var timeline = EditTimeline(name: Self.name(root), rate: rate, markers: markers,
                                    notes: written + (audio.notes + notes).filter { !written.contains($0) }, start: start)
        timeline.videoTracks = videoTracks
        timeline.audioTracks = audio.tracks
        return try EditReading.finished(timeline)
    }

    /// The sequence's rate where Segue wrote it (in its metadata: OTIO has no field for it).
    static func writtenRate(_ root: Object) throws -> Rational? {
        guard let value = number(((root["metadata"] as? Object)?["segue"] as? Object)?["rate"]) else { return nil }
        guard let rate = EditReading.rational(value) else { throw EditTimelineError("timeline: rate \(EditReading.number(value))") }
        return rate
    }

    /// A track's kind (`Video`, `Audio`), `default` when it says none.
    static func kind(_ track: Object, default fallback: String) -> String {
        (track["kind"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    static func name(_ object: Object) -> String? {
        guard let name = object["name"] as? String, !name.isEmpty else { return nil }
        return name
    }

    /// A RationalTime.
    static func time(_ object: Object, _ what: String) throws -> EditTime {
        guard let value = number(object["value"]), let rate = number(object["rate"]) else {
            throw EditTimelineError("\(what): not a RationalTime (value and rate)")
        }
        return try EditReading.checkedTime(value: value, rate: rate, what)
    }

    /// A TimeRange: a start and a duration that isn't negative.
    static func range(_ object: Object, _ what: String) throws -> EditRange {
        guard let start = object["start_time"] as? Object, let duration = object["duration"] as? Object else {
            throw EditTimelineError("\(what): not a TimeRange (start_time and duration)")
        }
        let length = try time(duration, what)
        guard length.value >= 0 else { throw EditTimelineError("\(what) has a negative duration (\(EditReading.number(length.value)))") }
        let range = EditRange(start: try time(start, what), duration: length)
        guard abs(range.start.seconds + range.duration.seconds) <= EditReading.maxSeconds else {
            throw EditTimelineError("\(what) ends beyond \(Int(EditReading.maxSeconds)) s")
        }
        return range
    }

    static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        return value as? Double
    }

    /// An object's markers: name and where their marked range starts, in the owner's time.
    static func markers(_ owner: Object, _ what: String) throws -> [(name: String, start: EditTime)] {
        guard let list = owner["markers"] as? [Any] else { return [] }
        guard list.count <= EditReading.maxItems else { throw EditTimelineError("\(what): more than \(EditReading.maxItems) markers") }
        return try list.enumerated().compactMap { index, value in
            guard let marker = value as? Object else { return nil }
            let label = "\(what) marker \(index + 1)"
            guard let range = (marker["marked_range"] ?? marker["range"]) as? Object else {
                throw EditTimelineError("\(label): no marked_range")
            }
            return (name(marker) ?? "", try OTIOReader.range(range, label).start)
        }
    }
}

/// One walk along a video track (or a track nested in one): its items, record position and markers.
struct TrackReading {
    typealias Object = OTIOReader.Object
    var items: [EditItem] = []
    var notes: [String] = []
    /// The track's kind: a nested Stack's tracks of this kind are read, the others left to the sound.
    let kind: String
    /// Whether its clips' markers are the timeline's (a top-level track's; a nested one's are in its own time).
    let keepsMarkers: Bool
    /// Where the next item starts on the record timeline, in seconds.
    var position = 0.0
    /// Clip markers, kept in seconds until the timeline's rate is known.
    private var clipMarkers: [(name: String, seconds: Double)] = []

    /// Reads `track`'s children; `budget` counts the items of every track read, nested ones included.
    init(_ track: Object, kind: String, budget: inout Int, keepsMarkers: Bool = false) throws {
        self.kind = kind
        self.keepsMarkers = keepsMarkers
        let children = track["children"] as? [Any] ?? []
        budget += children.count
        guard budget <= EditReading.maxItems else {
            throw EditTimelineError("track '\(OTIOReader.name(track) ?? "")': more than \(EditReading.maxItems) items")
        }
        for (index, value) in children.enumerated() {
            guard let child = value as? Object else { throw EditTimelineError("item \(index + 1): not an object") }
            try read(child, number: index + 1, budget: &budget)
        }
    }

    /// The timeline's rate: the first video track's first clip's, else the first clip's of any
    /// video track, else the first track's source_range's, else the first gap's, generator's or nested stack's.
    static func rate(_ readings: [TrackReading], _ tracks: [Object]) throws -> Rational {
        func firstClip(_ reading: TrackReading) -> Double? {
            reading.items.lazy.compactMap { item -> Double? in
                if case .clip(let clip) = item { return clip.source.duration.rate }
                return nil
            }.first
        }
        let clipRate = readings.lazy.compactMap(firstClip).first
        let trackRate = tracks.first.flatMap { ($0["source_range"] as? Object).flatMap { ($0["duration"] as? Object).flatMap { OTIOReader.number($0["rate"]) } } }
        let gapRate = readings.lazy.flatMap(\.items).compactMap { item -> Double? in
            if case .nested(let nested) = item { return nested.source.duration.rate }
            return item.blank?.rate
        }.first
        guard let value = clipRate ?? trackRate ?? gapRate else { throw EditTimelineError("track: no clip or gap to take the rate from") }
        guard let rate = EditReading.rational(value) else { throw EditTimelineError("track: rate \(EditReading.number(value))") }
        return rate
    }

    /// The clips' markers on the record timeline, at its rate.
    func clipMarkers(at rate: Rational) -> [EditMarker] {
        clipMarkers.map { marker in
            let frames = (marker.seconds * rate.value * 1000).rounded() / 1000
            return EditMarker(name: marker.name, time: EditTime(value: frames, rate: rate.value))
        }
    }

    private mutating func read(_ child: Object, number: Int, budget: inout Int) throws {
        let kind = OTIOReader.schema(child)
        let label = "\(kind.lowercased()) \(number)" + (OTIOReader.name(child).map { " '\($0)'" } ?? "")
        switch kind {
        case "Clip":
            try readClip(child, label)
        case "Gap":
            guard let range = child["source_range"] as? Object else { throw EditTimelineError("\(label): no source_range") }
            let duration = try OTIOReader.range(range, "\(label): source_range").duration
            items.append(.gap(duration))
            position += duration.seconds
        case "Transition":
            items.append(.transition(try Self.transition(child, label)))
        case "Stack", "Track":
            try readNested(child, label, budget: &budget)
        default:
            throw EditTimelineError("\(label): unknown item (OTIO_SCHEMA '\(child["OTIO_SCHEMA"] as? String ?? "none")')")
        }
    }

    private mutating func readClip(_ object: Object, _ label: String) throws {
        let speed = try Self.speed(object, label)
        let reference = try Self.mediaReference(object, label)
        let available = try (reference?["available_range"] as? Object).map { try OTIOReader.range($0, "\(label): available_range") }
        let sourceRange = try (object["source_range"] as? Object).map { try OTIOReader.range($0, "\(label): source_range") }
        guard let source = sourceRange ?? available else {
            throw EditTimelineError("\(label): no source_range, and its media has no available_range")
        }
        let enabled = object["enabled"] as? Bool ?? true
        if !enabled {
            notes.append(EditReading.disabledNote(label))
            items.append(.gap(source.duration))
        } else if let reference, OTIOReader.schema(reference) == "GeneratorReference" {
            let kind = reference["generator_kind"] as? String ?? ""
            let parameters = reference["parameters"] as? Object ?? [:]
            let colour = (parameters["color"] ?? parameters["colour"]) as? String
            let drawn = EditGenerators.look(named: kind, colour: colour.flatMap { TextCard.isColour($0) ? $0.uppercased() : nil }, label: label)
            // Black is what OTIO's own adapters write for a gap-like generator: no note for it.
            if EditGenerators.kind(named: kind) != .black { notes.append(drawn.note) }
            items.append(.fill(EditFill(look: drawn.look, duration: source.duration)))
        } else {
            let reel = ((object["metadata"] as? Object)?["cmx_3600"] as? Object)?["reel"] as? String
            let media = EditMedia(location: try reference.flatMap { try Self.location($0, label) },
                                  clipName: reference.flatMap(OTIOReader.name), reel: reel)
            let written = ((object["metadata"] as? Object)?["segue"] as? Object)?["layout"] as? Object
            items.append(.clip(EditClip(name: OTIOReader.name(object), media: media, source: source, available: available, speed: speed,
                                        layout: try written.map { try EditLayout(metadata: $0, label) })))
        }
        for marker in try OTIOReader.markers(object, label) where keepsMarkers {
            clipMarkers.append((marker.name, position + marker.start.seconds - source.start.seconds))
        }
        position += source.duration.seconds
    }

    /// The clip's media reference: Clip.2's active one of `media_references`, else `media_reference`.
    static func mediaReference(_ clip: Object, _ label: String) throws -> Object? {
        if let references = clip["media_references"] as? Object {
            let key = clip["active_media_reference_key"] as? String ?? "DEFAULT_MEDIA"
            guard let reference = references[key] as? Object else {
                throw EditTimelineError("\(label): no media reference '\(key)' (its active_media_reference_key)")
            }
            return reference
        }
        return clip["media_reference"] as? Object
    }

    /// Where the media is: ExternalReference's `target_url`, an image sequence's
    /// ffmpeg pattern (`shot.%04d.exr`); nil for a MissingReference.
    static func location(_ reference: Object, _ label: String) throws -> String? {
        switch OTIOReader.schema(reference) {
        case "ExternalReference":
            return (reference["target_url"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        case "ImageSequenceReference":
            let base = reference["target_url_base"] as? String ?? ""
            let padding = Int(OTIOReader.number(reference["frame_zero_padding"]) ?? 0)
            let frame = padding > 0 ? "%0\(min(padding, 12))d" : "%d"
            let name = (reference["name_prefix"] as? String ?? "") + frame + (reference["name_suffix"] as? String ?? "")
            return base.isEmpty ? name : (base.hasSuffix("/") ? base + name : base + "/" + name)
        case "MissingReference", "":
            return nil
        case let other:
            throw EditTimelineError("\(label): media reference \(other) can't be read")
        }
    }

    /// The clip's constant speed: its `LinearTimeWarp`s' `time_scalar`s multiplied, 0 for a `FreezeFrame`;
    /// nil without one. Reverse, other time effects and other effects would play differently here: refused, named.
    /// (`timeOnly`: other effects are left to the caller, as a sound clip's Audio Levels.)
    static func speed(_ clip: Object, _ label: String, timeOnly: Bool = false) throws -> PlaybackSpeed? {
        var scalar: Double?
        for case let effect as Object in clip["effects"] as? [Any] ?? [] where effect["enabled"] as? Bool ?? true {
            let kind = OTIOReader.schema(effect)
            let name = (effect["effect_name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? OTIOReader.name(effect) ?? kind
            switch kind {
            case "FreezeFrame":
                scalar = 0
            case "LinearTimeWarp":
                guard let value = OTIOReader.number(effect["time_scalar"] ?? 1.0), value.isFinite else {
                    throw EditTimelineError("\(label): LinearTimeWarp's time_scalar isn't a number")
                }
                guard value >= 0 else { throw EditTimelineError("\(label): reverse speed (time_scalar \(EditReading.number(value))) can't be rendered") }
                scalar = (scalar ?? 1) * value
            case "TimeEffect":
                throw EditTimelineError("\(label): time effect '\(name)' (a ramp or time remap) can't be rendered")
            default:
                if timeOnly { continue }
                throw EditTimelineError("\(label): effect '\(name)' (\(kind)) can't be rendered")
            }
        }
        guard let scalar else { return nil }
        guard let speed = PlaybackSpeed(scalar) else {
            throw EditTimelineError("\(label): speed \(EditReading.number(scalar))x is beyond \(Int(PlaybackSpeed.fastest))x")
        }
        return speed
    }

    static func transition(_ object: Object, _ label: String) throws -> EditTransition {
        let type = object["transition_type"] as? String ?? ""
        let kind = try Self.transitionKind(type, object, label)
        guard let inOffset = object["in_offset"] as? Object, let outOffset = object["out_offset"] as? Object else {
            throw EditTimelineError("\(label): no in_offset or out_offset")
        }
        let before = try OTIOReader.time(inOffset, "\(label): in_offset")
        let after = try OTIOReader.time(outOffset, "\(label): out_offset")
        guard before.value >= 0, after.value >= 0 else { throw EditTimelineError("\(label): negative offset") }
        return EditTransition(kind: kind, name: OTIOReader.name(object), before: before, after: after)
    }

    /// SMPTE_Dissolve; SMPTE_Wipe when its code is known (the cmx_3600 adapter's `Wnnn` in metadata).
    private static func transitionKind(_ type: String, _ object: Object, _ label: String) throws -> EditTransition.Kind {
        if type == "SMPTE_Dissolve" { return .dissolve }
        let edl = ((object["metadata"] as? Object)?["cmx_3600"] as? Object)?["transition"] as? String ?? ""
        if type == "SMPTE_Wipe", edl.first == "W", edl.count <= 4, let code = Int(edl.dropFirst()) { return .wipe(code) }
        throw EditTimelineError("\(label): transition type '\(type)' can't be drawn (SMPTE_Dissolve, or an EDL's SMPTE_Wipe)")
    }
}
