import Foundation
import SegueCore

/// One item of an xmeml track, placed on the record timeline in sequence frames.
enum XMEMLEntry {
    case clip(XMEMLClip)
    case transition(XMEMLTransition)
    case generator(XMEMLGenerator)

    /// Whether it is a clip item or a generator: what a `clipindex` counts.
    var isItem: Bool {
        if case .transition = self { return false }
        return true
    }
}

/// A clip item: its media, where it plays on the record timeline and from which source frame.
struct XMEMLClip {
    var id: String
    var name: String?
    var media: EditMedia
    var start: Int64
    var end: Int64
    /// Its first source frame at the sequence rate, counted as `EditClip.source` counts (from the media's start timecode).
    var source: Int64
    var speed: PlaybackSpeed?
    var layout: EditLayout?
    /// A sound clip item's level in dB (0 as recorded).
    var level = 0.0
    /// The media's channel a sound clip item plays (`sourcetrack`), from 1; nil plays them all.
    var channel: Int?
    /// The ordinal among V1's clips of the picture it is the sound of.
    var owner: Int?
    var links: [XMEMLLink] = []
}

/// A transition item: its start and end in sequence frames, where its cut lies (`alignment`), picture or sound.
struct XMEMLTransition {
    var start: Int64
    var end: Int64
    var alignment: String
    var sound: Bool
}

/// A generator item: black (a slug), a colour matte, colour bars or a title's text.
struct XMEMLGenerator {
    enum Look: Equatable {
        case slug
        /// `#RRGGBB`.
        case colour(String)
        case bars
        case text(String)
    }
    var id: String
    var look: Look
    var start: Int64
    var end: Int64
}

/// A `<link>` of a clip item: another item of its linked group (itself too, as Premiere writes them).
struct XMEMLLink {
    var id: String
    var sound: Bool
    var track: Int
    var clipIndex: Int
}

/// One `<track>` as laid out.
struct XMEMLTrack {
    var entries: [XMEMLEntry]
    var enabled = true
    /// Premiere's exploded stereo pair: `currentExplodedTrackIndex`, `totalExplodedTrackCount`, `premiereTrackType`.
    var attributes: [(String, String)] = []
    /// The output channel a track of an exploded pair feeds (1 left, 2 right).
    var outputChannel: Int?

    /// Its last item's end, in sequence frames.
    var end: Int64 {
        entries.reduce(0) { last, entry in
            switch entry {
            case .clip(let clip): return max(last, clip.end)
            case .transition(let transition): return max(last, transition.end)
            case .generator(let generator): return max(last, generator.end)
            }
        }
    }
}

/// Lays tracks out as xmeml places items: each at an explicit start and end,
/// a transition around its cut with the alignment that puts the cut there.
struct XMEMLLayout {
    let rate: Rational
    /// Text cards as drawn: a card on a colour has that colour under its text.
    let cards: [EditTitle]
    var warnings: [String] = []
    private var counts: [String: Int] = [:]

    init(rate: Rational, cards: [EditTitle]) {
        self.rate = rate
        self.cards = cards.filter { $0.kind == .card }
    }

    /// The next id for an element named `kind`: `clipitem-1`, `clipitem-2`.
    mutating func id(_ kind: String) -> String {
        counts[kind, default: 0] += 1
        return "\(kind)-\(counts[kind]!)"
    }

    /// The alignment that puts a transition's cut `before` frames after its
    /// start, and how many frames later the cut must move for one to: xmeml's
    /// reader puts a centred cut at the frame halfway (rounded down), a
    /// `start` or `end` one at that edge.
    static func alignment(before: Int64, after: Int64) -> (alignment: String, move: Int64) {
        if before == 0 { return ("start", 0) }
        if after == 0 { return ("end", 0) }
        return ("center", (before + after) / 2 - before)
    }

    /// A video track's items: clips, generators, transitions; a gap is a
    /// hole, or black where a transition meets it or it ends the bottom track
    /// (a transition needs an item either side; a hole at the end is lost).
    mutating func videoTrack(_ items: [EditItem], bottom: Bool, label: String) -> [XMEMLEntry] {
        var entries: [XMEMLEntry] = [], cursor: Int64 = 0, shift: Int64 = 0
        for (index, item) in items.enumerated() {
            let beside = [index > 0 ? items[index - 1] : nil, index + 1 < items.count ? items[index + 1] : nil]
            switch item {
            case .clip(let clip) where clip.media.location != nil:
                let length = clip.source.duration.frameCount(at: rate)
                entries.append(.clip(XMEMLClip(id: id("clipitem"), name: clip.name, media: clip.media, start: cursor + shift,
                                               end: cursor + length, source: clip.source.start.frameCount(at: rate) + shift,
                                               speed: clip.speed, layout: clip.layout)))
                cursor += length
            case .transition(let transition):
                let before = transition.before.frameCount(at: rate), after = transition.after.frameCount(at: rate)
                guard before + after > 0 else { continue }
                var (alignment, move) = Self.alignment(before: before, after: after)
                if move != 0, beside.contains(where: { $0?.hasSpeed ?? false }) {
                    warnings.append("xmeml export: \(label) transition \(index + 1): its cut lies \(before) frames into it; xmeml "
                                    + "centres it (beside a speed change it can't move), so the dissolve moves by \(move) frame(s)")
                    move = 0
                }
                switch entries.last {
                case .clip(var last)?:
                    last.end += move
                    entries[entries.count - 1] = .clip(last)
                case .generator(var last)?:
                    last.end += move
                    entries[entries.count - 1] = .generator(last)
                case .transition?, nil: break
                }
                entries.append(.transition(XMEMLTransition(start: cursor - before, end: cursor + after, alignment: alignment, sound: false)))
                shift = move
                continue
            default:
                let length = item.length(at: rate)
                if let look = blankLook(item, at: cursor, length: length, bottom: bottom, last: index == items.count - 1, beside: beside) {
                    entries.append(.generator(XMEMLGenerator(id: id("generatoritem"), look: look, start: cursor + shift, end: cursor + length)))
                }
                if case .clip(let clip) = item { warnings.append("xmeml export: \(label) clip '\(clip.name ?? "")' names no media, so is a gap") }
                if case .nested(let nested) = item {
                    warnings.append("xmeml export: \(label) nested sequence '\(nested.name ?? "")' is not written (a gap)")
                }
                cursor += length
            }
            shift = 0
        }
        return entries
    }

    /// How a gap, generator or unwritten item is drawn: its generator, a text
    /// card's colour, black where the bottom track needs an item; nil for a hole.
    private func blankLook(_ item: EditItem, at start: Int64, length: Int64, bottom: Bool, last: Bool, beside: [EditItem?]) -> XMEMLGenerator.Look? {
        if case .fill(let fill) = item {
            switch fill.look {
            case .black: return .slug
            case .colour(let colour): return .colour(colour)
            case .bars: return .bars
            }
        }
        guard bottom else { return nil }
        if let card = cards.first(where: { $0.start == start && $0.frames == length }), card.background.uppercased() != "#000000" {
            return .colour(card.background.uppercased())
        }
        let touchesTransition = beside.contains { if case .transition? = $0 { return true } else { return false } }
        return touchesTransition || last ? .slug : nil
    }

    /// A sound track's items: clips, crossfades between them, a fade from or
    /// to silence where a transition meets a gap or an end (the clip runs on
    /// over the fade, `start-black` or `end-black`), holes for silence.
    /// `channel` overrides each clip's own; `owners` names the V1 clip each is the sound of.
    mutating func soundTrack(_ items: [EditAudioItem], owners: [Int?], channel: Int?) -> [XMEMLEntry] {
        var entries: [XMEMLEntry] = [], cursor: Int64 = 0, shift: Int64 = 0, lead: Int64 = 0
        for (index, item) in items.enumerated() {
            let previous = index > 0 ? items[index - 1].clip : nil, next = index + 1 < items.count ? items[index + 1].clip : nil
            switch item {
            case .clip(let sound):
                let length = sound.clip.source.duration.frameCount(at: rate), moved = shift - lead
                if sound.clip.media.location != nil {
                    entries.append(.clip(XMEMLClip(id: id("clipitem"), name: sound.clip.name, media: sound.clip.media, start: cursor + moved,
                                                   end: cursor + length, source: sound.clip.source.start.frameCount(at: rate) + moved,
                                                   speed: sound.clip.speed, level: sound.level, channel: channel ?? sound.channel?.source,
                                                   owner: owners.indices.contains(index) ? owners[index] : nil)))
                }
                cursor += length
            case .gap(let duration):
                cursor += duration.frameCount(at: rate)
            case .transition(let transition):
                let before = transition.before.frameCount(at: rate), after = transition.after.frameCount(at: rate)
                guard before + after > 0, previous != nil || next != nil else { continue }
                var alignment = previous == nil ? "start-black" : "end-black", move: Int64 = 0
                if previous != nil, next != nil {
                    (alignment, move) = Self.alignment(before: before, after: after)
                    if previous?.speed != nil || next?.speed != nil { move = 0 }
                }
                if previous != nil, case .clip(var last)? = entries.last {
                    last.end += next == nil ? after : move
                    entries[entries.count - 1] = .clip(last)
                }
                entries.append(.transition(XMEMLTransition(start: cursor - before, end: cursor + after, alignment: alignment, sound: true)))
                (shift, lead) = (move, next != nil && previous == nil ? before : 0)
                continue
            }
            (shift, lead) = (0, 0)
        }
        return entries
    }
}

extension EditItem {
    /// Whether it is a clip or nested sequence at another speed.
    var hasSpeed: Bool {
        switch self {
        case .clip(let clip): return clip.speed != nil
        case .nested(let nested): return nested.speed != nil
        case .gap, .fill, .transition: return false
        }
    }

    /// Record frames it takes on its track (a transition none).
    func length(at rate: Rational) -> Int64 {
        switch self {
        case .clip(let clip): return clip.source.duration.frameCount(at: rate)
        case .nested(let nested): return nested.source.duration.frameCount(at: rate)
        case .gap, .fill: return blank?.frameCount(at: rate) ?? 0
        case .transition: return 0
        }
    }
}

extension EditAudioItem {
    /// The clip, when it is one.
    var clip: EditClip? {
        if case .clip(let sound) = self { return sound.clip }
        return nil
    }
}
