import Foundation

extension TrackReading {
    /// A Stack inside the track, or a Track directly inside it (a stack of
    /// that one track): a nested sequence of the stack's tracks of this
    /// track's kind, playing its `source_range` (its whole length without one)
    /// at its LinearTimeWarp or FreezeFrame speed. Disabled, it is a gap.
    mutating func readNested(_ object: Object, _ label: String, budget: inout Int) throws {
        let isStack = OTIOReader.schema(object) == "Stack"
        var inner = [object]
        if isStack {
            inner = []
            for (index, value) in (object["children"] as? [Any] ?? []).enumerated() {
                guard let child = value as? Object, OTIOReader.schema(child) == "Track" else {
                    throw EditTimelineError("\(label): child \(index + 1) is not a Track (a nested stack holds tracks)")
                }
                if OTIOReader.kind(child, default: kind) == kind { inner.append(child) }
            }
        }
        var tracks: [EditVideoTrack] = []
        for (index, track) in inner.enumerated() {
            let trackLabel = isStack ? "\(label): track \(index + 1)" : label
            let read = try TrackReading(track, kind: kind, budget: &budget)
            notes += read.notes.map { "\(trackLabel): \($0)" }
            if isStack, track["source_range"] is Object { notes.append("\(trackLabel): its source_range is not applied") }
            let enabled = !isStack || track["enabled"] as? Bool ?? true
            if !enabled { notes.append("\(trackLabel) is disabled, so not drawn (the tracks below it show through)") }
            tracks.append(EditVideoTrack(name: OTIOReader.name(track), items: read.items, enabled: enabled))
        }
        let written = try (object["source_range"] as? Object).map { try OTIOReader.range($0, "\(label): source_range") }
        let whole = Self.length(of: tracks.map(\.items))
        let source = written ?? EditRange(start: EditTime(value: 0, rate: whole.rate), duration: whole)
        let speed = try Self.speed(object, label)
        if object["enabled"] as? Bool == false {
            notes.append(EditReading.disabledNote(label))
            items.append(.gap(source.duration))
        } else {
            items.append(.nested(EditNested(name: OTIOReader.name(object), tracks: tracks, source: source, speed: speed)))
        }
        position += source.duration.seconds
    }

    /// The longest of the tracks `lists` hold, at the rate of their first timed item (24 without one).
    static func length(of lists: [[EditItem]]) -> EditTime {
        let rate = lists.lazy.flatMap { $0 }.compactMap { item -> Double? in
            switch item {
            case .clip(let clip): return clip.source.duration.rate
            case .nested(let nested): return nested.source.duration.rate
            case .gap, .fill, .transition: return item.blank?.rate
            }
        }.first ?? 24
        let seconds = lists.map { items in
            items.reduce(0.0) { total, item in
                switch item {
                case .clip(let clip): return total + clip.source.duration.seconds
                case .nested(let nested): return total + nested.source.duration.seconds
                case .gap, .fill, .transition: return total + (item.blank?.seconds ?? 0)
                }
            }
        }.max() ?? 0
        return EditTime(value: (seconds * rate * 1_000_000).rounded() / 1_000_000, rate: rate)
    }
}
