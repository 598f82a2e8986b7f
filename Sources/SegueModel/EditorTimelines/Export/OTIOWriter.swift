import Foundation

extension EditTimeline {
    /// The timeline as an OpenTimelineIO file: Timeline.1 → Stack.1 → its
    /// video tracks (or its one track), each a Track.1 of Clip.1 / Gap.1 /
    /// Transition.1 / Stack.1 (nested) items (a generator a
    /// Clip.1 of a GeneratorReference) and its sound tracks (kind Audio), markers on the
    /// track. What OTIO has no field for rides in metadata as the cmx_3600
    /// adapter keeps it (the reel, a wipe's code) or under `segue` (the notes);
    /// `parseOTIO` reads it all back.
    package func otioJSON() throws -> Data {
        // Every video track when it has them, else its one track; the markers on the first.
        var video = (videoTracks.isEmpty ? [EditVideoTrack(name: "V1", items: items)] : videoTracks).map(OTIOWriter.videoTrack)
        video[0]["markers"] = markers.map(OTIOWriter.marker)
        let stack: [String: Any] = OTIOWriter.item("Stack.1", name: "tracks", [
            "source_range": NSNull(), "effects": [Any](), "markers": [Any](),
            "children": video + audioTracks.map(OTIOWriter.audioTrack),
        ])
        let startTime: Any = start.map(OTIOWriter.time) ?? NSNull()
        // OTIO has no sequence rate: Segue's rides in metadata, so a timeline whose first clip runs at
        // another rate reads back at its own.
        var segue: [String: Any] = ["rate": rate.value]
        if !notes.isEmpty { segue["notes"] = notes }
        let metadata: [String: Any] = ["segue": segue]
        let timeline: [String: Any] = [
            "OTIO_SCHEMA": "Timeline.1", "name": name ?? "", "global_start_time": startTime, "tracks": stack, "metadata": metadata,
        ]
        // Every value above is a string, number, array, dictionary or NSNull; a failure is said, never an empty file.
        guard JSONSerialization.isValidJSONObject(timeline) else {
            throw SegueError(.writeFailed, detail: "the timeline could not be written as OTIO JSON (a value JSON can't hold)")
        }
        return try JSONSerialization.data(withJSONObject: timeline, options: [.prettyPrinted, .sortedKeys])
    }
}

/// The OTIO objects, as dictionaries JSONSerialization writes.
enum OTIOWriter {
    static func item(_ schema: String, name: String?, _ fields: [String: Any]) -> [String: Any] {
        var object = fields
        object["OTIO_SCHEMA"] = schema
        object["name"] = name ?? ""
        object["metadata"] = object["metadata"] ?? [String: Any]()
        if schema != "Transition.1" { object["enabled"] = true }
        return object
    }

    static func time(_ time: EditTime) -> [String: Any] {
        ["OTIO_SCHEMA": "RationalTime.1", "value": time.value, "rate": time.rate]
    }

    static func range(_ range: EditRange) -> [String: Any] {
        ["OTIO_SCHEMA": "TimeRange.1", "start_time": time(range.start), "duration": time(range.duration)]
    }

    static func item(_ editItem: EditItem) -> [String: Any] {
        switch editItem {
        case .clip(let clip):
            return item("Clip.1", name: clip.name, [
                "source_range": range(clip.source),
                "media_reference": reference(clip.media, available: clip.available),
                "effects": clip.speed.map { [timeEffect($0)] } ?? [Any](),
                "markers": [Any](),
                "metadata": metadata(of: clip),
            ])
        case .fill(let fill):
            return item("Clip.1", name: nil, [
                "source_range": range(EditRange(start: EditTime(value: 0, rate: fill.duration.rate), duration: fill.duration)),
                "media_reference": generator(fill.look), "effects": [Any](), "markers": [Any](),
            ])
        case .gap(let duration):
            return item("Gap.1", name: nil, [
                "source_range": range(EditRange(start: EditTime(value: 0, rate: duration.rate), duration: duration)),
                "effects": [Any](), "markers": [Any](),
            ])
        case .nested(let nested):
            return item("Stack.1", name: nested.name, [
                "source_range": range(nested.source), "effects": nested.speed.map { [timeEffect($0)] } ?? [Any](),
                "markers": [Any](), "children": nested.tracks.map(videoTrack),
            ])
        case .transition(let transition):
            var metadata: [String: Any] = [:]
            var type = "SMPTE_Dissolve"
            if case .wipe(let code) = transition.kind {
                type = "SMPTE_Wipe"
                metadata["cmx_3600"] = ["transition": "W" + String(String(code).suffix(3)).leftPadded(to: 3)]
            }
            return item("Transition.1", name: transition.name, [
                "transition_type": type, "in_offset": time(transition.before), "out_offset": time(transition.after),
                "metadata": metadata,
            ])
        }
    }

    /// What OTIO has no field for: the reel as the cmx_3600 adapter keeps it, the layout under `segue`.
    static func metadata(of clip: EditClip) -> [String: Any] {
        var metadata: [String: Any] = [:]
        if let reel = clip.media.reel { metadata["cmx_3600"] = ["reel": reel] }
        if let layout = clip.layout { metadata["segue"] = ["layout": layout.metadata] }
        return metadata
    }

    static func videoTrack(_ track: EditVideoTrack) -> [String: Any] {
        var object = item("Track.1", name: track.name, [
            "kind": "Video", "source_range": NSNull(), "effects": [Any](), "markers": [Any](), "children": track.items.map(item),
        ])
        object["enabled"] = track.enabled
        return object
    }

    /// A speed change as OTIO writes it: a `FreezeFrame`, or a `LinearTimeWarp` with its `time_scalar`.
    static func timeEffect(_ speed: PlaybackSpeed) -> [String: Any] {
        let kind = speed.isFreeze ? "FreezeFrame" : "LinearTimeWarp"
        return ["OTIO_SCHEMA": kind + ".1", "metadata": [String: Any](), "name": "", "effect_name": kind, "enabled": true,
                "time_scalar": speed.rate.value]
    }

    static func reference(_ media: EditMedia, available: EditRange?) -> [String: Any] {
        var object: [String: Any] = [
            "name": media.clipName ?? "",
            "metadata": [String: Any](),
            "available_range": available.map(range) ?? NSNull(),
        ]
        if let location = media.location {
            object["OTIO_SCHEMA"] = "ExternalReference.1"
            object["target_url"] = location
        } else {
            object["OTIO_SCHEMA"] = "MissingReference.1"
        }
        return object
    }

    /// A generator as OTIO names its kinds: black, SolidColor (its `color` a parameter), SMPTEBars.
    static func generator(_ look: EditFill.Look) -> [String: Any] {
        var object: [String: Any] = ["OTIO_SCHEMA": "GeneratorReference.1", "name": "", "metadata": [String: Any](),
                                     "available_range": NSNull(), "parameters": [String: Any]()]
        switch look {
        case .black: object["generator_kind"] = "black"
        case .bars: object["generator_kind"] = "SMPTEBars"
        case .colour(let colour):
            object["generator_kind"] = "SolidColor"
            object["parameters"] = ["color": colour]
        }
        return object
    }

    static func marker(_ marker: EditMarker) -> [String: Any] {
        let range = EditRange(start: marker.time, duration: EditTime(value: 0, rate: marker.time.rate))
        return item("Marker.2", name: marker.name, ["marked_range": self.range(range), "color": "RED", "comment": ""])
            .filter { $0.key != "enabled" }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
