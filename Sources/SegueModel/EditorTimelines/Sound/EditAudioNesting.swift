import SegueCore

/// A sequence used as a clip on a sound track (an OTIO Stack in an Audio
/// track, an xmeml clip item holding a `<sequence>`): its own sound tracks,
/// their nested sequences already flattened, and which of their record time it
/// plays, at what level.
package struct EditNestedSound: Sendable, Equatable {
    package var name: String?
    package var tracks: [EditAudioTrack]
    /// The nested sequence's frames used, in its own record time; `source.duration` is the record length.
    package var source: EditRange
    /// Added to every clip's level inside it, in dB (the nested item's own Audio Levels).
    package var level: Double

    package init(name: String? = nil, tracks: [EditAudioTrack], source: EditRange, level: Double = 0) {
        self.name = name
        self.tracks = tracks
        self.source = source
        self.level = level
    }
}

/// A sound track as a file lays it out, nested sequences still nested.
package struct EditAudioLayer: Sendable, Equatable {
    package enum Piece: Sendable, Equatable {
        case item(EditAudioItem)
        case nested(EditNestedSound)
    }
    package var name: String?
    package var pieces: [Piece]

    package init(name: String? = nil, pieces: [Piece] = []) {
        self.name = name
        self.pieces = pieces
    }
}

extension EditAudioTrack {
    /// `layers` with their nested sequences flattened, at `rate`: a nested
    /// sequence's first sound track, trimmed to its range, takes its place on
    /// its layer; its other tracks become tracks of their own (after all of
    /// `layers`), silent but where it plays. Refuses more than `mostTracks`
    /// tracks or `EditReading.maxItems` items in all.
    package static func flattened(_ layers: [EditAudioLayer], rate: Rational) throws -> [EditAudioTrack] {
        var main: [EditAudioTrack] = [], extra: [EditAudioTrack] = []
        var itemCount = 0
        for layer in layers {
            var items: [EditAudioItem] = [], extras: [(name: String, items: [EditAudioItem], end: Int64)] = []
            var position: Int64 = 0
            for piece in layer.pieces {
                guard case .nested(let nested) = piece else {
                    if case .item(let item) = piece { items.append(item); position += item.frames(at: rate) }
                    continue
                }
                let start = nested.source.start.frameCount(at: rate), length = max(nested.source.duration.frameCount(at: rate), 0)
                for (index, track) in nested.tracks.enumerated() {
                    let cut = try track.trimmed(from: start, length: length, rate: rate).map { try $0.levelled(by: nested.level) }
                    if index == 0 { items += cut; continue }
                    // A nested track silent over the range adds no track.
                    guard cut.contains(where: { if case .clip = $0 { return true } else { return false } }) else { continue }
                    if extras.count < index {
                        extras.append(("\(layer.name ?? "sound track") > \(nested.name ?? "nested sequence") > \(track.name ?? "A\(index + 1)")", [], 0))
                    }
                    let gap = position - extras[index - 1].end
                    if gap > 0 { extras[index - 1].items.append(.gap(EditTime(value: Double(gap), rate: rate.value))) }
                    extras[index - 1].items += cut
                    extras[index - 1].end = position + length
                }
                if nested.tracks.isEmpty { items.append(.gap(EditTime(value: Double(length), rate: rate.value))) }
                position += length
            }
            main.append(EditAudioTrack(name: layer.name, items: items))
            extra += extras.map { EditAudioTrack(name: $0.name, items: $0.items) }
            itemCount += items.count + extras.reduce(0) { $0 + $1.items.count }
            guard main.count + extra.count <= mostTracks else {
                throw EditTimelineError("\(main.count + extra.count) sound tracks with those of the nested sequences (at most \(mostTracks) are mixed)")
            }
            guard itemCount <= EditReading.maxItems else {
                throw EditTimelineError("the sound tracks flatten to more than \(EditReading.maxItems) items (a nested sequence counts each time it is used)")
            }
        }
        return main + extra
    }

    /// The track's items from record frame `start` for `length` frames, each
    /// cut to that span, with the crossfades between two of them (no longer
    /// than either side); gaps where the track has nothing.
    func trimmed(from start: Int64, length: Int64, rate: Rational) -> [EditAudioItem] {
        var result: [EditAudioItem] = []
        var position: Int64 = 0, reached = start
        var pending: EditTransition?, lastKept = false
        let end = start + length
        for item in items {
            if case .transition(let join) = item { pending = join; continue }
            let frames = item.frames(at: rate), from = position
            position += frames
            defer { pending = nil }
            guard frames > 0, from + frames > start, from < end else { lastKept = false; continue }
            if from > reached { result.append(.gap(EditTime(value: Double(from - reached), rate: rate.value))) }
            if let pending, lastKept { result.append(.transition(pending)) }
            result.append(item.cut(skipping: max(start - from, 0), keeping: min(from + frames, end) - max(from, start), rate: rate))
            reached = min(from + frames, end)
            lastKept = true
        }
        if reached < end { result.append(.gap(EditTime(value: Double(end - reached), rate: rate.value))) }
        return Self.clamped(result, rate: rate)
    }

    /// Each crossfade no longer than the pieces either side of it.
    private static func clamped(_ items: [EditAudioItem], rate: Rational) -> [EditAudioItem] {
        items.indices.map { index in
            guard case .transition(var join) = items[index] else { return items[index] }
            let before = items[index - 1].frames(at: rate), after = items[index + 1].frames(at: rate)
            if join.before.frameCount(at: rate) > before { join.before = EditTime(value: Double(before), rate: rate.value) }
            if join.after.frameCount(at: rate) > after { join.after = EditTime(value: Double(after), rate: rate.value) }
            return .transition(join)
        }
    }
}

extension EditAudioItem {
    /// Record frames it lasts at `rate` (a crossfade none: it lies across a cut).
    func frames(at rate: Rational) -> Int64 {
        switch self {
        case .clip(let sound): return sound.clip.source.duration.frameCount(at: rate)
        case .gap(let duration): return duration.frameCount(at: rate)
        case .transition: return 0
        }
    }

    /// `keeping` record frames of it after the first `skipping`: a clip's source start advanced by the frames skipped.
    func cut(skipping skipped: Int64, keeping kept: Int64, rate: Rational) -> EditAudioItem {
        let length = EditTime(value: Double(kept), rate: rate.value)
        guard case .clip(var sound) = self else { return .gap(length) }
        if skipped > 0 {
            let start = sound.clip.source.start
            let sameCount = start.rate.rounded() == rate.value.rounded()
            sound.clip.source.start.value += sameCount ? Double(skipped) : Double(skipped) * start.rate / rate.value
        }
        sound.clip.source.duration = length
        return .clip(sound)
    }

    /// A clip's level raised by `decibels` (a nested item's own level), checked as any level is.
    func levelled(by decibels: Double) throws -> EditAudioItem {
        guard decibels != 0, case .clip(var sound) = self else { return self }
        sound.level = try AudioLevel.checked(decibels: sound.level + decibels, "clip '\(sound.clip.name ?? "")'")
        return .clip(sound)
    }
}
