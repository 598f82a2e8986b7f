import SegueCore

extension EditTimeline {
    /// Sets `items` to what the video tracks show stacked, as OpenTimelineIO
    /// composites a Stack: tracks drawn bottom (first) to top (last), the
    /// top-most enabled clip or generator at each frame covering everything
    /// below it; gaps and disabled tracks let the tracks below show; black
    /// under all. A transition from or to a gap on an upper track blends with
    /// what shows below it; transitions under a covering item are hidden.
    /// A clip with a layout doesn't cover: it is drawn over what shows below
    /// it (`overlays`). Nested sequences are flattened first, to any depth,
    /// with their own range and speed. The timeline is as long as its longest track.
    package mutating func stackTracks() throws {
        guard !videoTracks.isEmpty else { return }
        var stacking = EditStacking(rate: rate)
        items = try stacking.stacked(videoTracks, depth: 0)
        overlays = stacking.overlays
        notes += stacking.notes
    }
}

/// Flattens tracks and nested sequences into one track at the timeline's rate.
struct EditStacking {
    let rate: Rational
    var notes: [String] = []
    /// The placed clips of the top level's tracks, where no covering item above hides them.
    var overlays: [EditOverlay] = []
    /// Items made so far: nesting one sequence in many places must not multiply without bound.
    private var made = 0

    init(rate: Rational) { self.rate = rate }

    /// An item of a track placed on the record timeline, with the transition into it.
    struct Placed {
        var start: Int64
        var length: Int64
        var item: EditItem
        var joinIn: EditTransition?
        var end: Int64 { start + length }
        var isClip: Bool { if case .clip = item { return true } else { return false } }
        /// Whether it covers the tracks below (a clip or a generator, not a gap, not a placed clip).
        var covers: Bool {
            switch item {
            case .clip(let clip): return length > 0 && clip.layout == nil
            case .fill: return length > 0
            case .gap, .transition, .nested: return false
            }
        }
    }

    /// Where one track shows, from `start` to `end`: nil is black (no track does).
    private struct Window {
        var track: Int?
        var start: Int64
        var end: Int64
    }

    /// The tracks as one: a single enabled track as it is, else window by window the top-most covering track.
    mutating func stacked(_ tracks: [EditVideoTrack], depth: Int) throws -> [EditItem] {
        guard depth <= EditReading.maxDepth else { throw EditTimelineError("sequences nested more than \(EditReading.maxDepth) deep") }
        guard tracks.count <= EditVideoTrack.mostTracks else {
            throw EditTimelineError("more than \(EditVideoTrack.mostTracks) video tracks")
        }
        let flat = try tracks.map { try flattened($0.items, depth: depth) }
        let laid = flat.map(place)
        let total = laid.map { $0.last?.end ?? 0 }.max() ?? 0
        let shown = tracks.indices.filter { tracks[$0].enabled }
        if shown.count == 1, let only = shown.first, laid[only].last?.end ?? 0 == total, !flat[only].isEmpty,
           laid[only].allSatisfy({ $0.covers || !$0.isClip || $0.length == 0 }) { return try counted(flat[only]) }
        let layers = shown.map { laid[$0] }
        let windows = Self.windows(of: layers, total: total)
        if depth == 0 { overlays = placedClips(layers, under: windows) }
        var items: [EditItem] = []
        for (index, window) in windows.enumerated() {
            let previous = index > 0 ? windows[index - 1] : nil
            if let join = Self.edgeJoin(layers, from: previous, to: window) { items.append(.transition(join)) }
            if let track = window.track {
                items += trimmed(layers[track], from: window.start, to: window.end)
            } else {
                items.append(.gap(time(window.end - window.start)))
            }
        }
        if let last = windows.last, let join = Self.edgeJoin(layers, from: last, to: nil) { items.append(.transition(join)) }
        return try counted(clamped(items))
    }

    /// `items`, counted against `EditReading.maxItems` (a sequence nested in many places is counted each time).
    private mutating func counted(_ items: [EditItem]) throws -> [EditItem] {
        made += items.count
        guard made <= EditReading.maxItems else { throw EditTimelineError("the tracks flatten to more than \(EditReading.maxItems) items") }
        return items
    }

    /// Each placed clip of `layers` where no covering item of a higher track
    /// hides it, bottom track first; placed clips in nested sequences are drawn
    /// as they lie (see `flattened`).
    private func placedClips(_ layers: [[Placed]], under windows: [Window]) -> [EditOverlay] {
        var found: [EditOverlay] = []
        for (track, layer) in layers.enumerated() {
            for item in layer where item.length > 0 {
                guard case .clip(let clip) = item.item, let layout = clip.layout, !layout.isInvisible else { continue }
                // The stretches where the top covering track is this one's or below it.
                for window in windows where window.end > item.start && window.start < item.end && (window.track ?? -1) <= track {
                    let from = max(window.start, item.start), to = min(window.end, item.end)
                    if case .clip(let piece) = cut(item, from: from, to: to) { found.append(EditOverlay(clip: piece, recordStart: from)) }
                }
            }
        }
        return found
    }

    /// A track's items with every nested sequence replaced by the items it shows.
    private mutating func flattened(_ items: [EditItem], depth: Int) throws -> [EditItem] {
        guard items.contains(where: { if case .nested = $0 { return true } else { return false } }) else { return items }
        var result: [EditItem] = []
        for item in items {
            guard case .nested(let nested) = item else { result.append(item); continue }
            let inner = place(try stacked(nested.tracks.map { unplaced($0, in: nested) }, depth: depth + 1))
            result += try played(nested, from: inner)
        }
        return result
    }

    /// `track` with its clips' layouts dropped, said: a nested sequence's placed clips fill the frame.
    private mutating func unplaced(_ track: EditVideoTrack, in nested: EditNested) -> EditVideoTrack {
        var plain = track
        plain.items = track.items.map { item in
            guard case .clip(var clip) = item, clip.layout != nil else { return item }
            notes.append("clip '\(clip.name ?? "")' in nested sequence '\(nested.name ?? "")': drawn filling the frame "
                         + "(a placement inside a nested sequence isn't drawn)")
            clip.layout = nil
            return .clip(clip)
        }
        return plain
    }

    /// The items a nested sequence shows over its record length: its range of `inner`, at its speed.
    private func played(_ nested: EditNested, from inner: [Placed]) throws -> [EditItem] {
        let label = "nested sequence" + (nested.name.map { " '\($0)'" } ?? "")
        let start = nested.source.start.frameCount(at: rate), length = nested.source.duration.frameCount(at: rate)
        guard let speed = nested.speed else { return trimmed(inner, from: start, to: start + length, padded: true) }
        if speed.isFreeze {
            guard let held = inner.first(where: { $0.start <= start && start < $0.end && $0.covers }) else { return [.gap(time(length))] }
            guard case .clip(var clip) = cut(held, from: start, to: start + 1) else { return [cut(held, from: start, to: start + length)] }
            clip.speed = speed
            clip.source.duration = time(length)
            return [.clip(clip)]
        }
        // Record frame k of the nested item shows its frame start + floor(k × speed): each inner piece
        // lasts from the first record frame showing one of its frames to the first showing the next piece's.
        var result: [EditItem] = []
        var innerAt: Int64 = 0, recordAt: Int64 = 0
        for piece in trimmed(inner, from: start, to: start + speed.sourceFrames(for: length), padded: true) {
            if case .transition(var join) = piece {
                join.before = time(speed.firstFrame(showing: join.before.frameCount(at: rate)) ?? 0)
                join.after = time(speed.firstFrame(showing: join.after.frameCount(at: rate)) ?? 0)
                result.append(.transition(join))
                continue
            }
            var frames = piece.blank?.frameCount(at: rate) ?? 0
            if case .clip(let clip) = piece { frames = clip.source.duration.frameCount(at: rate) }
            let end = min(speed.firstFrame(showing: innerAt + frames) ?? length, length)
            defer { (innerAt, recordAt) = (innerAt + frames, max(recordAt, end)) }
            guard end > recordAt else { continue }
            result.append(try sped(Placed(start: innerAt, length: frames, item: piece), by: speed, from: recordAt, to: end, label: label))
        }
        if recordAt < length { result.append(.gap(time(length - recordAt))) }
        return Self.withoutStrandedTransitions(result)
    }

    /// `piece` (at inner frames from the nested range's start) played at `speed` over record frames
    /// `from` to `to`: a clip starts at the inner frame record frame `from` shows, its speed the
    /// product of its own and the nested one's, phased so each later frame is the one the nested speed picks.
    private func sped(_ piece: Placed, by speed: PlaybackSpeed, from: Int64, to: Int64, label: String) throws -> EditItem {
        let shown = speed.skipping(from)
        var item = cut(piece, from: max(shown.frames, piece.start), to: piece.end)
        switch item {
        case .clip(var clip):
            let own = clip.speed?.rate ?? Rational(1, 1)
            let product = Rational(own.numerator * speed.rate.numerator, own.denominator * speed.rate.denominator).reduced
            guard product.value <= PlaybackSpeed.fastest else {
                throw EditTimelineError("\(label): clip '\(clip.name ?? "")' would play at \(EditReading.number(product.value))x, beyond \(Int(PlaybackSpeed.fastest))x")
            }
            clip.speed = clip.speed == nil ? shown.speed : PlaybackSpeed(rate: product)
            clip.source.duration = time(to - from)
            item = .clip(clip)
        case .fill(var fill):
            fill.duration = time(to - from)
            item = .fill(fill)
        case .gap, .transition, .nested:
            item = .gap(time(to - from))
        }
        return item
    }

    /// `items` without a transition that has no item on either side of it (its neighbour played in no record frame).
    private static func withoutStrandedTransitions(_ items: [EditItem]) -> [EditItem] {
        func isJoin(_ index: Int) -> Bool { if case .transition = items[index] { return true } else { return false } }
        return items.indices.compactMap { index in
            guard isJoin(index) else { return items[index] }
            let stranded = index == 0 || index == items.count - 1 || isJoin(index - 1) || isJoin(index + 1)
            return stranded ? nil : items[index]
        }
    }

    /// A track's items on the record timeline, each with the transition into it; a transition at
    /// either end of the track joins a gap of no length there.
    func place(_ items: [EditItem]) -> [Placed] {
        var placed: [Placed] = []
        var position: Int64 = 0
        var pending: EditTransition?
        for item in items {
            if case .transition(let transition) = item {
                if placed.isEmpty, pending == nil { placed.append(Placed(start: 0, length: 0, item: .gap(time(0)))) }
                pending = transition
                continue
            }
            let length: Int64
            switch item {
            case .clip(let clip): length = clip.source.duration.frameCount(at: rate)
            case .nested(let nested): length = nested.source.duration.frameCount(at: rate)
            default: length = item.blank?.frameCount(at: rate) ?? 0
            }
            placed.append(Placed(start: position, length: max(length, 0), item: item, joinIn: pending))
            position += max(length, 0)
            pending = nil
        }
        if let pending { placed.append(Placed(start: position, length: 0, item: .gap(time(0)), joinIn: pending)) }
        return placed
    }

    /// The record timeline cut where the top-most covering track changes, and
    /// where a placed clip starts or ends (so what it is drawn over is a clip
    /// of its own there, and the pieces either side may be copied by `--smart`).
    private static func windows(of layers: [[Placed]], total: Int64) -> [Window] {
        var edges: Set<Int64> = [0, total], splits: Set<Int64> = []
        for layer in layers {
            for item in layer where item.covers { edges.insert(item.start); edges.insert(item.end) }
            for item in layer where item.isClip && !item.covers && item.length > 0 { splits.insert(item.start); splits.insert(item.end) }
        }
        edges.formUnion(splits.filter { $0 > 0 && $0 < total })
        let cuts = edges.sorted()
        var cursors = Array(repeating: 0, count: layers.count)
        var windows: [Window] = []
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            var top: Int?
            for track in layers.indices.reversed() {
                while cursors[track] < layers[track].count, layers[track][cursors[track]].end <= start { cursors[track] += 1 }
                if cursors[track] < layers[track].count, layers[track][cursors[track]].start <= start, layers[track][cursors[track]].covers {
                    top = track
                    break
                }
            }
            if let last = windows.last, last.track == top, last.end == start, !splits.contains(start) {
                windows[windows.count - 1].end = end
            } else {
                windows.append(Window(track: top, start: start, end: end))
            }
        }
        return windows
    }

    /// The transition where `next` takes over from `previous` (nil: the
    /// timeline's start or end): the upper track's own transition from or to
    /// a gap, which then blends with what shows below it.
    private static func edgeJoin(_ layers: [[Placed]], from previous: Window?, to next: Window?) -> EditTransition? {
        let lower = previous?.track ?? -1, upper = next?.track ?? -1
        if let next, upper > lower, let track = next.track {
            // The upper track's item starting here, entered from its own gap.
            guard let index = layers[track].firstIndex(where: { $0.start == next.start && $0.covers }) else { return nil }
            let fromGap = index == 0 || !layers[track][index - 1].covers
            return fromGap ? layers[track][index].joinIn : nil
        }
        if let previous, lower > upper, let track = previous.track {
            // The upper track's item ending here, left into its own gap.
            guard let index = layers[track].lastIndex(where: { $0.end == previous.end && $0.covers }),
                  index + 1 < layers[track].count, !layers[track][index + 1].covers else { return nil }
            return layers[track][index + 1].joinIn
        }
        return nil
    }

    /// `items` with each transition no longer than the pieces of clips it
    /// overlaps: a piece cut short by a window's edge can't lend a whole
    /// transition its frames. A transition left with none is a cut.
    private func clamped(_ items: [EditItem]) -> [EditItem] {
        func clipFrames(_ index: Int) -> Int64? {
            guard items.indices.contains(index), case .clip(let clip) = items[index] else { return nil }
            return clip.source.duration.frameCount(at: rate)
        }
        return items.indices.compactMap { index in
            guard case .transition(var join) = items[index] else { return items[index] }
            if let outgoing = clipFrames(index - 1), join.before.frameCount(at: rate) > outgoing { join.before = time(outgoing) }
            if let incoming = clipFrames(index + 1), join.after.frameCount(at: rate) > incoming { join.after = time(incoming) }
            return join.before.frameCount(at: rate) + join.after.frameCount(at: rate) > 0 ? .transition(join) : nil
        }
    }

    /// A track's items from record frame `start` to `end`, each cut to it,
    /// with the transitions between them that lie within it (`padded`: gaps
    /// to fill the span where the track has nothing).
    func trimmed(_ layer: [Placed], from start: Int64, to end: Int64, padded: Bool = false) -> [EditItem] {
        var items: [EditItem] = []
        var last: Int?
        var reached = start
        for index in layer.indices where layer[index].end > start && layer[index].start < end && layer[index].length > 0 {
            let item = layer[index]
            if let last, last == index - 1, let join = item.joinIn {
                items.append(.transition(join))
            }
            if padded, item.start > reached { items.append(.gap(time(item.start - reached))) }
            items.append(cut(item, from: max(start, item.start), to: min(end, item.end)))
            reached = min(end, item.end)
            last = index
        }
        if padded, reached < end { items.append(.gap(time(end - reached))) }
        return items
    }

    /// `item` from record frame `from` to `to` (within it): a clip's source advanced by the frames skipped.
    func cut(_ item: Placed, from: Int64, to: Int64) -> EditItem {
        let skipped = from - item.start, length = time(to - from)
        switch item.item {
        case .clip(let clip):
            return .clip(clip.cut(skipping: skipped, length: to - from, rate: rate))
        case .fill(var fill):
            fill.duration = length
            return .fill(fill)
        case .gap, .transition, .nested:
            return .gap(length)
        }
    }

    private func time(_ frames: Int64) -> EditTime { EditTime(value: Double(frames), rate: rate.value) }
}

extension EditClip {
    /// The clip from its record frame `skipped` on, `length` frames long (at
    /// `rate`): its source advanced by the frames skipped, at its speed, each
    /// later frame showing what it showed.
    package func cut(skipping skipped: Int64, length: Int64, rate: Rational) -> EditClip {
        var clip = self
        if skipped > 0 {
            let skip = speed.map { $0.skipping(skipped) }
            if let skip { clip.speed = skip.speed }
            let frames = Double(skip?.frames ?? skipped)
            let start = source.start
            let sameCount = start.rate.rounded() == rate.value.rounded()
            clip.source.start.value += sameCount ? frames : frames * start.rate / rate.value
        }
        clip.source.duration = EditTime(value: Double(length), rate: rate.value)
        return clip
    }
}
