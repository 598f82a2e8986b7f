import SegueCore

/// A story element as it will be written, and where it lies on the record
/// timeline: its frames (from the cut before it to the cut after it; a
/// transition's own span) and its own time at its first frame, which what is
/// connected to it and its markers count from.
struct FCPXMLStoryElement {
    var name: String
    var ref: String?
    /// Its attributes after `ref`, `lane` and `offset` (name, start, duration …).
    var attributes: [(String, String)]
    /// What the DTD puts before connected items: text, timing, adjustments, a transition's filters.
    var head: [XMLNode] = []
    var connected: [XMLNode] = []
    var markers: [XMLNode] = []
    var record: Range<Int64>
    var start: FCPXMLTime

    var isTransition: Bool { name == "transition" }

    func node(offset: FCPXMLTime, lane: Int? = nil) -> XMLNode {
        var all: [(String, String)] = []
        if let ref { all.append(("ref", ref)) }
        if let lane { all.append(("lane", "\(lane)")) }
        all.append(("offset", offset.text))
        return XMLNode(name, all + attributes, children: head + connected + markers)
    }

    /// Its own time at record frame `frame`.
    func localTime(at frame: Int64, clock: FCPXMLClock) -> FCPXMLTime {
        start + clock.time(frame - record.lowerBound)
    }
}

/// A storyline's elements in record order and its length in record frames.
struct FCPXMLStoryline {
    var elements: [FCPXMLStoryElement] = []
    var frames: Int64 = 0

    /// The element what starts at record frame `frame` connects to: the one
    /// playing there (not a transition), the first before the start, the last past the end.
    func anchorIndex(at frame: Int64) -> Int? {
        let candidates = elements.indices.filter { !elements[$0].isTransition }
        return candidates.first { elements[$0].record.contains(frame) }
            ?? (frame < 0 ? candidates.first : candidates.last)
    }

    /// The elements, each at the offset `offset` gives its first record frame.
    func nodes(_ offset: (Int64) -> FCPXMLTime) -> [XMLNode] {
        elements.map { $0.node(offset: offset($0.record.lowerBound)) }
    }

    /// Connects `node` (made for its offset in the anchor's own time) where record frame `frame` plays.
    mutating func connect(at frame: Int64, clock: FCPXMLClock, _ node: (FCPXMLTime) -> XMLNode) -> Bool {
        guard let index = anchorIndex(at: frame) else { return false }
        elements[index].connected.append(node(elements[index].localTime(at: frame, clock: clock)))
        return true
    }
}

/// Where a track's items and transitions lie: each item from the cut before
/// it to the cut after it, each transition over `before` frames before its
/// cut and `after` after it, within the items either side (FCPXML has no
/// place for a transition that reaches past them: refused), with the frames
/// each item plays beyond its cuts (its handles) for the transitions.
enum FCPXMLLayout {
    /// One child of a track: an item `length` frames long, or a transition (`length` nil).
    struct Entry {
        var length: Int64?
        var transition: EditTransition?
        var label: String
    }

    enum Span {
        case item(index: Int, record: Range<Int64>, head: Int64, tail: Int64)
        case transition(index: Int, record: Range<Int64>, EditTransition)
    }

    static func spans(_ entries: [Entry], rate: Rational, warnings: inout [String]) throws -> (spans: [Span], frames: Int64) {
        var spans: [Span] = []
        var position: Int64 = 0
        var pending: (index: Int, transition: EditTransition)?
        // The length of the item before, and how much of it the transition into it takes.
        var previous: (length: Int64, taken: Int64)?
        for (index, entry) in entries.enumerated() {
            if let transition = entry.transition {
                guard pending == nil else { throw EditTimelineError("\(entry.label): two transitions in a row") }
                pending = (index, transition)
                continue
            }
            let length = entry.length ?? 0
            guard length >= 0 else { throw EditTimelineError("\(entry.label): a negative length") }
            var taken: Int64 = 0
            if let pending {
                let sides = try sides(pending.transition, entries[pending.index].label, rate: rate, previous: previous, next: length,
                                      warnings: &warnings)
                if sides.before + sides.after > 0 {
                    spans.append(.transition(index: pending.index, record: (position - sides.before)..<(position + sides.after),
                                             pending.transition))
                }
                taken = sides.after
            }
            spans.append(.item(index: index, record: position..<(position + length), head: 0, tail: 0))
            position += length
            previous = (length, taken)
            pending = nil
        }
        if let pending {
            let sides = try sides(pending.transition, entries[pending.index].label, rate: rate, previous: previous, next: nil,
                                  warnings: &warnings)
            if sides.before > 0 { spans.append(.transition(index: pending.index, record: (position - sides.before)..<position, pending.transition)) }
        }
        return (withHandles(spans), position)
    }

    /// A transition's frames either side of its cut, checked against the items
    /// it joins (`previous`: the one before and what the transition into it
    /// takes; `next`: the length of the one after); what lies before the
    /// track's start or after its end is dropped, with a warning.
    private static func sides(_ transition: EditTransition, _ label: String, rate: Rational, previous: (length: Int64, taken: Int64)?,
                              next: Int64?, warnings: inout [String]) throws -> (before: Int64, after: Int64) {
        var before = transition.before.frameCount(at: rate), after = transition.after.frameCount(at: rate)
        guard before >= 0, after >= 0 else { throw EditTimelineError("\(label): a negative offset") }
        if previous == nil, before > 0 {
            warnings.append("\(label): starts its track; its \(before) frame(s) before the cut are not written")
            before = 0
        }
        if next == nil, after > 0 {
            warnings.append("\(label): ends its track; its \(after) frame(s) after the cut are not written")
            after = 0
        }
        if let previous, before > previous.length - previous.taken {
            throw EditTimelineError("\(label): its \(before) frame(s) before the cut reach past the \(previous.length - previous.taken) "
                                    + "of the item before it (FCPXML keeps a transition within the items it joins)")
        }
        if let next, after > next {
            throw EditTimelineError("\(label): its \(after) frame(s) after the cut reach past the \(next) "
                                    + "of the item after it (FCPXML keeps a transition within the items it joins)")
        }
        return (before, after)
    }

    /// Each item's handles: the frames the transitions either side play of it beyond its cuts.
    private static func withHandles(_ spans: [Span]) -> [Span] {
        var result = spans
        for (position, span) in spans.enumerated() {
            guard case .transition(_, let record, _) = span else { continue }
            let cut = (position + 1 < spans.count ? spans[position + 1].start : nil) ?? record.upperBound
            if position > 0, case .item(let index, let itemRecord, let head, _) = result[position - 1] {
                result[position - 1] = .item(index: index, record: itemRecord, head: head, tail: record.upperBound - cut)
            }
            if position + 1 < spans.count, case .item(let index, let itemRecord, _, let tail) = result[position + 1] {
                result[position + 1] = .item(index: index, record: itemRecord, head: cut - record.lowerBound, tail: tail)
            }
        }
        return result
    }
}

extension FCPXMLLayout.Span {
    /// An item's first record frame (its cut).
    var start: Int64? {
        if case .item(_, let record, _, _) = self { return record.lowerBound }
        return nil
    }
}
