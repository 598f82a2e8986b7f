import Foundation

/// Nested sequences already read, by id: a sequence used in many places is read once.
final class XMLNestedSequences {
    var video: [String: [EditVideoTrack]] = [:]
    var sound: [String: [EditAudioTrack]] = [:]
}

extension FCP7XMLReader {
    /// A sequence's video tracks as read, with what they note and their clips' markers (seconds on its record timeline).
    struct VideoReading {
        var tracks: [EditVideoTrack] = []
        var notes: [String] = []
        var clipMarkers: [(String, Double)] = []
    }

    /// Every `<video><track>` of `sequence`, V1 (the bottom) first, each
    /// with its `<enabled>`; `path` holds the ids of the sequences being read, it last.
    func videoTracks(of sequence: Element, context: Context, path: [String]) throws -> VideoReading {
        let media = sequence.child("media").map(deref)
        let video = media?.child("video").map(deref)
        let list = video?.children("track").map(deref) ?? []
        guard list.count <= EditVideoTrack.mostTracks else {
            throw EditTimelineError("\(Self.label(sequence)): \(list.count) video tracks (at most \(EditVideoTrack.mostTracks))")
        }
        var result = VideoReading()
        for (index, track) in list.enumerated() {
            // Named as the OTIO reader names a track: by its name (Premiere's MZ.TrackName) where it has one.
            let label = track.attributes["MZ.TrackName"].map { "video track '\($0)'" } ?? "video track \(index + 1)"
            var reading = XMLTrackReading(reader: self, track: track, context: context + [media, track].compactMap { $0 }, path: path,
                                          upper: index > 0)
            do {
                try reading.read()
            } catch let error as EditTimelineError where list.count > 1 {
                throw EditTimelineError("\(label): \(error.message)")
            }
            result.notes += reading.notes.map { list.count > 1 ? "\(label): \($0)" : $0 }
            let enabled = track.text("enabled")?.uppercased() != "FALSE"
            if !enabled { result.notes.append("\(label) is disabled, so not drawn (the tracks below it show through)") }
            result.tracks.append(EditVideoTrack(name: track.attributes["MZ.TrackName"], items: reading.items, enabled: enabled))
            result.clipMarkers += reading.clipMarkers
        }
        return result
    }

    /// The sequence a clip item's `<sequence>` names (its contents, or the one
    /// its id refers to) and the path with it: refused when it is defined
    /// nowhere, contains itself, or nests deeper than `EditReading.maxDepth`.
    func nestedSequence(_ raw: Element, path: [String], _ label: String) throws -> (sequence: Element, path: [String]) {
        let sequence = deref(raw)
        let id = raw.attributes["id"] ?? ""
        if !id.isEmpty, sequence.children.isEmpty {
            throw EditTimelineError("\(label): its sequence '\(id)' is defined nowhere in the file")
        }
        let name = sequence.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? id
        if !id.isEmpty, path.contains(id) {
            throw EditTimelineError("\(label): sequence '\(name)' contains itself (a nesting loop can't be rendered)")
        }
        guard path.count < EditReading.maxDepth else {
            throw EditTimelineError("\(label): sequence '\(name)': sequences nested more than \(EditReading.maxDepth) deep")
        }
        return (sequence, path + [id])
    }
}

extension XMLTrackReading {
    /// A clip item holding a `<sequence>`: that sequence nested, playing its
    /// record frames from the item's `in` for the item's length, at its Time
    /// Remap speed. On a sound track, the sequence's sound tracks (flattened),
    /// at the item's Audio Levels; a speed change on them is refused.
    mutating func readNested(_ item: Element, sequence raw: Element, duration: Double, offset: Double, _ label: String) throws {
        let clipContext = context + [item]
        let (sequence, path) = try reader.nestedSequence(raw, path: path, label)
        let id = path.last ?? ""
        let rate = try FCP7XMLReader.checkedRate(clipContext, label)
        let start = Double(try FCP7XMLReader.integer(item, "in", label)) / rate + offset
        let source = EditRange(start: FCP7XMLReader.time(seconds: start, rate: rate), duration: FCP7XMLReader.time(seconds: duration, rate: rate))
        let name = item.text("name").flatMap { $0.isEmpty ? nil : $0 }
        let effects = try self.effects(of: item, label)
        if effects.layout != nil { notes.append("\(label): its motion, crop and opacity are not applied to a nested sequence") }
        let nestedContext = clipContext + [sequence]
        if sound {
            guard effects.speed == nil else { throw EditTimelineError("\(label): a speed change on a nested sequence's sound can't be played") }
            let level = try AudioLevel.xmeml(item.children("filter").map(reader.deref), label, notes: &notes)
            let tracks: [EditAudioTrack]
            if let cached = id.isEmpty ? nil : reader.nested.sound[id] {
                tracks = cached
            } else {
                let audio = try soundTracks(of: sequence, context: nestedContext, path: path, label)
                tracks = audio
                if !id.isEmpty { reader.nested.sound[id] = audio }
            }
            nestedSounds.append(EditNestedSound(name: name, tracks: tracks, source: source, level: level))
            items.append(.nested(EditNested(name: name, tracks: [], source: source)))
            return
        }
        let tracks: [EditVideoTrack]
        if let cached = id.isEmpty ? nil : reader.nested.video[id] {
            tracks = cached
        } else {
            let video = try reader.videoTracks(of: sequence, context: nestedContext, path: path)
            notes += video.notes.map { "\(label): \($0)" }
            tracks = video.tracks
            if !id.isEmpty { reader.nested.video[id] = tracks }
        }
        items.append(.nested(EditNested(name: name, tracks: tracks, source: source, speed: effects.speed)))
    }

    /// The nested sequence's `<audio>` tracks, flattened at its rate.
    private mutating func soundTracks(of sequence: Element, context: FCP7XMLReader.Context, path: [String], _ label: String) throws -> [EditAudioTrack] {
        guard let media = sequence.child("media").map(reader.deref), let audio = media.child("audio").map(reader.deref) else { return [] }
        let rate = try FCP7XMLReader.checkedRate(context, label)
        guard let rational = EditReading.rational(rate) else { throw EditTimelineError("\(label): rate \(EditReading.number(rate))") }
        let reading = try XMLAudioReading(reader: reader, audio: audio, context: context + [media], rate: rational, path: path)
        notes += reading.notes.map { "\(label): \($0)" }
        return reading.tracks
    }
}
