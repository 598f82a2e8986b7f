import Foundation
import SegueCore

/// Reads an OTIO timeline's Audio tracks: clips (their media's sound over
/// their source range), gaps (silence), transitions (crossfades) and nested
/// stacks (their Audio tracks' sound, flattened into the tracks). A clip's
/// constant level comes from an Audio Levels effect as the fcp_xml adapter
/// keeps it (`metadata.fcp_xml.parameter`, a linear `value`) or from
/// `metadata.segue.level_db` (what `--export-otio` writes); a keyframed
/// level is noted and left flat; a speed change plays time-stretched; other effects are refused.
struct OTIOAudioReading {
    typealias Object = OTIOReader.Object
    var tracks: [EditAudioTrack] = []
    var notes: [String] = []
    let rate: Rational

    /// Reads the Audio tracks `audio` at the timeline's `rate`, each Stack (or
    /// Track) nested in one flattened into them (`EditAudioTrack.flattened`).
    init(_ audio: [Object], rate: Rational) throws {
        self.rate = rate
        guard audio.count <= EditAudioTrack.mostTracks else {
            throw EditTimelineError("\(audio.count) audio tracks (at most \(EditAudioTrack.mostTracks) are mixed)")
        }
        var itemCount = 0, layers: [EditAudioLayer] = []
        for (index, track) in audio.enumerated() {
            let label = "audio track \(index + 1)" + (OTIOReader.name(track).map { " '\($0)'" } ?? "")
            if track["enabled"] as? Bool == false {
                notes.append("\(label): disabled, so not heard")
                continue
            }
            let children = track["children"] as? [Any] ?? []
            itemCount += children.count
            guard itemCount <= EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) audio items") }
            var pieces: [EditAudioLayer.Piece] = []
            for (number, value) in children.enumerated() {
                guard let child = value as? Object else { throw EditTimelineError("\(label): item \(number + 1): not an object") }
                pieces.append(try piece(child, "\(label): \(OTIOReader.schema(child).lowercased()) \(number + 1)"
                                        + (OTIOReader.name(child).map { " '\($0)'" } ?? "")))
            }
            layers.append(EditAudioLayer(name: OTIOReader.name(track), pieces: pieces))
        }
        tracks = try EditAudioTrack.flattened(layers, rate: rate)
    }

    private mutating func piece(_ child: Object, _ label: String) throws -> EditAudioLayer.Piece {
        switch OTIOReader.schema(child) {
        case "Clip":
            return .item(try clip(child, label))
        case "Gap":
            guard let range = child["source_range"] as? Object else { throw EditTimelineError("\(label): no source_range") }
            return .item(.gap(try OTIOReader.range(range, "\(label): source_range").duration))
        case "Transition":
            return .item(.transition(try TrackReading.transition(child, label)))
        case "Stack", "Track":
            return try nested(child, label)
        default:
            throw EditTimelineError("\(label): unknown item (OTIO_SCHEMA '\(child["OTIO_SCHEMA"] as? String ?? "none")')")
        }
    }

    /// A Stack in the track (or a Track directly in it): its Audio tracks' sound over its `source_range`
    /// (its whole length without one), at its own level; a speed change on it is refused.
    private mutating func nested(_ object: Object, _ label: String) throws -> EditAudioLayer.Piece {
        let isStack = OTIOReader.schema(object) == "Stack"
        let inner = isStack ? (object["children"] as? [Any] ?? []).compactMap { $0 as? Object }
            .filter { OTIOReader.schema($0) == "Track" && OTIOReader.kind($0, default: "Audio") == "Audio" } : [object]
        var reading = try OTIOAudioReading(inner.map { track in
            var copy = track
            if !isStack { copy["enabled"] = true }
            return copy
        }, rate: rate)
        notes += reading.notes.map { "\(label): \($0)" }
        reading.notes = []
        let level = try self.level(object, label)
        let written = try (object["source_range"] as? Object).map { try OTIOReader.range($0, "\(label): source_range") }
        let whole = Self.length(of: reading.tracks)
        let source = written ?? EditRange(start: EditTime(value: 0, rate: whole.rate), duration: whole)
        if object["enabled"] as? Bool == false {
            notes.append("\(label): disabled, so silent")
            return .item(.gap(source.duration))
        }
        return .nested(EditNestedSound(name: OTIOReader.name(object), tracks: reading.tracks, source: source, level: level))
    }

    /// The longest of `tracks`, at the rate of their first item's time.
    private static func length(of tracks: [EditAudioTrack]) -> EditTime {
        TrackReading.length(of: tracks.map { track in
            track.items.map { item -> EditItem in
                switch item {
                case .clip(let sound): return .clip(sound.clip)
                case .gap(let duration): return .gap(duration)
                case .transition(let join): return .transition(join)
                }
            }
        })
    }

    private mutating func clip(_ object: Object, _ label: String) throws -> EditAudioItem {
        let reference = try TrackReading.mediaReference(object, label)
        let available = try (reference?["available_range"] as? Object).map { try OTIOReader.range($0, "\(label): available_range") }
        let sourceRange = try (object["source_range"] as? Object).map { try OTIOReader.range($0, "\(label): source_range") }
        guard let source = sourceRange ?? available else {
            throw EditTimelineError("\(label): no source_range, and its media has no available_range")
        }
        let level = try self.level(object, label)
        if object["enabled"] as? Bool == false {
            notes.append("\(label): disabled, so silent")
            return .gap(source.duration)
        }
        if let reference, OTIOReader.schema(reference) == "GeneratorReference" {
            notes.append("\(label): a generator on a sound track, silent")
            return .gap(source.duration)
        }
        let metadata = object["metadata"] as? Object
        let reel = (metadata?["cmx_3600"] as? Object)?["reel"] as? String
        let media = EditMedia(location: try reference.flatMap { try TrackReading.location($0, label) }, clipName: reference.flatMap(OTIOReader.name),
                              reel: reel)
        let withPicture = (metadata?["segue"] as? Object)?["with_picture"] as? Bool ?? false
        let clip = EditClip(name: OTIOReader.name(object), media: media, source: source, available: available,
                            speed: try TrackReading.speed(object, label, timeOnly: true))
        return .clip(EditAudioClip(clip: clip, level: level, withPicture: withPicture, channel: try Self.channel(metadata, label)))
    }

    /// The one channel a clip plays and its side, as `--export-otio` writes it (`metadata.segue.channel`).
    private static func channel(_ metadata: Object?, _ label: String) throws -> EditAudioChannel? {
        guard let written = (metadata?["segue"] as? Object)?["channel"] as? Object else { return nil }
        guard let source = OTIOReader.number(written["source"]), source == source.rounded(),
              (1...Double(EditAudioChannel.mostChannels)).contains(source),
              let side = (written["side"] as? String).flatMap(EditAudioChannel.Side.init(rawValue:)) else {
            throw EditTimelineError("\(label): metadata.segue.channel is not a channel (source 1 to \(EditAudioChannel.mostChannels)) and a side")
        }
        return EditAudioChannel(source: Int(source), side: side)
    }

    /// The clip's constant level in dB; refuses what would play differently (speed, other effects).
    private mutating func level(_ clip: Object, _ label: String) throws -> Double {
        var level = 0.0
        if let written = OTIOReader.number(((clip["metadata"] as? Object)?["segue"] as? Object)?["level_db"]) {
            level = try AudioLevel.checked(decibels: written, label)
        }
        for case let effect as Object in clip["effects"] as? [Any] ?? [] {
            let kind = OTIOReader.schema(effect)
            let name = (effect["effect_name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? OTIOReader.name(effect) ?? kind
            // Speed is read as a picture's (`TrackReading.speed`).
            if ["LinearTimeWarp", "FreezeFrame", "TimeEffect"].contains(kind) { continue }
            let fcp = (effect["metadata"] as? Object)?["fcp_xml"] as? Object
            guard let fcp, AudioLevel.isLevels(id: fcp["effectid"] as? String, name: name) else {
                throw EditTimelineError("\(label): effect '\(name)' (\(kind)) can't be played")
            }
            let parameters = (fcp["parameter"] as? [Any]) ?? (fcp["parameter"].map { [$0] } ?? [])
            for case let parameter as Object in parameters where AudioLevel.isLevelParameter(parameter["parameterid"] as? String) {
                let value = (parameter["value"] as? String).flatMap(Double.init) ?? OTIOReader.number(parameter["value"])
                if parameter["keyframe"] != nil { notes.append(AudioLevel.keyframedNote(label)) }
                if let value { level += try AudioLevel.checked(linear: value, label) }
            }
        }
        return try AudioLevel.checked(decibels: level, label)
    }
}

/// Clip levels as xmeml writes them (the Audio Levels filter's `level`, a
/// linear gain: 1 is 0 dB), checked: a level must be finite and within ±96 dB.
enum AudioLevel {
    static let limit = 96.0

    static func isLevels(id: String?, name: String) -> Bool {
        id?.lowercased() == "audiolevels" || name.lowercased() == "audio levels"
    }

    static func isLevelParameter(_ id: String?) -> Bool { id?.lowercased() == "level" }

    static func checked(linear value: Double, _ label: String) throws -> Double {
        guard value.isFinite, value >= 0 else { throw EditTimelineError("\(label): audio level \(EditReading.number(value)) is not a gain") }
        return try checked(decibels: value == 0 ? -limit : 20 * log10(value), label)
    }

    /// Rounded to a millionth of a dB, so a level written as JSON reads back the same.
    static func checked(decibels value: Double, _ label: String) throws -> Double {
        guard value.isFinite, abs(value) <= limit else {
            throw EditTimelineError("\(label): audio level \(EditReading.number(value)) dB is beyond ±\(Int(limit)) dB")
        }
        return (value * 1_000_000).rounded() / 1_000_000
    }

    static func keyframedNote(_ label: String) -> String {
        "\(label): its audio level is keyframed; played at its constant level (the keyframes are not followed)"
    }
}
