import SegueCore

/// A story element's picture or sound placed on a lane, in seconds of its
/// container's time (the sequence's, or a compound clip's own).
struct FCPXMLPlaced<Item> {
    /// 0 the primary storyline (or a container's own), positive above it, negative below.
    var lane: Int
    var start: Double
    var length: Double
    var item: Item
    /// The transition into it from the item before it in its storyline.
    var join: EditTransition?
    /// Which storyline it belongs to (each connected clip is one of its own) and where in it.
    var storyline: Int
    var index: Int

    var end: Double { start + length }

    /// Moved by `seconds` and lifted by `lanes`.
    func shifted(by seconds: Double, lanes: Int = 0) -> FCPXMLPlaced {
        var moved = self
        moved.start += seconds
        moved.lane += lanes
        return moved
    }
}

/// What a container (a sequence, a compound or synchronised clip) places: its pictures and its sound.
struct FCPXMLPlacements {
    var pictures: [FCPXMLPlaced<EditItem>] = []
    var sounds: [FCPXMLPlaced<EditAudioItem>] = []

    var count: Int { pictures.count + sounds.count }

    /// The earliest start of anything placed.
    var earliest: Double? { (pictures.map(\.start) + sounds.map(\.start)).min() }
}

/// Items cut to a span of their container's time, as a nested clip plays a piece of its contents.
enum FCPXMLCut {
    /// `clip` without its first `head` seconds (its source advanced at its speed), `length` seconds long.
    static func clip(_ clip: EditClip, head: Double, length: Double) -> EditClip {
        var cut = clip
        let speed = clip.speed?.rate.value ?? 1
        cut.source.start.value = rounded(clip.source.start.value + head * speed * clip.source.start.rate)
        cut.source.duration.value = rounded(length * clip.source.duration.rate)
        return cut
    }

    /// A picture without its first `head` seconds, `length` long.
    static func picture(_ item: EditItem, head: Double, length: Double) -> EditItem {
        switch item {
        case .clip(let clip): return .clip(self.clip(clip, head: head, length: length))
        case .nested(var nested):
            let speed = nested.speed?.rate.value ?? 1
            nested.source.start.value = rounded(nested.source.start.value + head * speed * nested.source.start.rate)
            nested.source.duration.value = rounded(length * nested.source.duration.rate)
            return .nested(nested)
        case .fill(var fill):
            fill.duration.value = rounded(length * fill.duration.rate)
            return .fill(fill)
        case .gap(let duration): return .gap(EditTime(value: rounded(length * duration.rate), rate: duration.rate))
        case .transition: return item
        }
    }

    /// A sound without its first `head` seconds, `length` long.
    static func sound(_ item: EditAudioItem, head: Double, length: Double) -> EditAudioItem {
        switch item {
        case .clip(var sound):
            sound.clip = clip(sound.clip, head: head, length: length)
            return .clip(sound)
        case .gap(let duration): return .gap(EditTime(value: rounded(length * duration.rate), rate: duration.rate))
        case .transition: return item
        }
    }

    /// The items of `placed` that fall within `from` to `to`, each cut to it (nil when none of it does).
    static func window<Item>(_ placed: FCPXMLPlaced<Item>, from: Double, to: Double,
                             cut: (Item, Double, Double) -> Item) -> FCPXMLPlaced<Item>? {
        let start = max(placed.start, from), end = min(placed.end, to)
        guard end - start > 1e-9 || (placed.length == 0 && placed.start >= from && placed.start <= to) else { return nil }
        guard start > placed.start + 1e-9 || end < placed.end - 1e-9 else { return placed }
        var result = placed
        result.item = cut(placed.item, start - placed.start, end - start)
        result.start = start
        result.length = end - start
        if start > placed.start + 1e-9 { result.join = nil }
        return result
    }

    /// Rounded to a millionth of a frame (sums of rescaled times aren't exact).
    static func rounded(_ frames: Double) -> Double { (frames * 1_000_000).rounded() / 1_000_000 }
}
