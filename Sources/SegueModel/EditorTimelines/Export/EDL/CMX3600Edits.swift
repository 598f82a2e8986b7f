import Foundation
import SegueCore

/// One event of an EDL being written: a clip (or black, or bars) over record
/// frames, from source frames; when a transition leads into it, the
/// outgoing side's reel and source out and the transition's code and length.
struct CMX3600Edit {
    struct Incoming {
        /// `D`, or `Wnnn` for a SMPTE wipe.
        var code: String
        var frames: Int64
        var reel: String
        var channels: String
        var sourceOut: Int64
        var name: String?
    }
    var reel: String
    var channels: String
    /// Source frames counted from the medium's start timecode (black from 0), at the record rate.
    var source: Range<Int64>
    /// Record frames from the timeline's start (the start timecode not added yet).
    var record: Range<Int64>
    var name: String?
    var location: String?
    var speed: PlaybackSpeed?
    /// The transition into it, which starts at its record in.
    var incoming: Incoming?
}

/// Turns a track into EDL events as CMX counts a dissolve: it starts at the
/// cut on record (the incoming clip's record in) and runs `D nnn` frames into
/// the incoming clip, the outgoing clip's handle under it. A transition
/// centred on its cut (`before` frames ahead of it) thus ends the outgoing
/// clip `before` frames early and starts the incoming one there, from a
/// source frame `before` frames earlier: the same frames are seen.
struct CMX3600Edits {
    let rate: Rational
    let clipSound: Bool
    var reels = CMX3600Reels()
    var warnings: [String] = []
    private(set) var edits: [CMX3600Edit] = []

    init(rate: Rational, clipSound: Bool) {
        self.rate = rate
        self.clipSound = clipSound
    }

    /// The events of `items`: every clip, generator and a gap where black is
    /// needed (at the start, or where a transition meets it); other gaps skip record time.
    mutating func add(_ items: [EditItem]) {
        var cursor: Int64 = 0, pending: EditTransition?
        for (index, item) in items.enumerated() {
            if case .transition(let transition) = item {
                pending = transition.before.frameCount(at: rate) + transition.after.frameCount(at: rate) > 0 ? transition : nil
                continue
            }
            let length = item.length(at: rate)
            let before = pending?.before.frameCount(at: rate) ?? 0
            var nextBefore: Int64 = 0, nextIsTransition = false
            if index + 1 < items.count, case .transition(let next) = items[index + 1] {
                (nextBefore, nextIsTransition) = (next.before.frameCount(at: rate), true)
            }
            let record = (cursor - before)..<(cursor + length - nextBefore)
            cursor += length
            defer { pending = nil }
            guard var edit = edit(for: item, record: record, before: before, label: "item \(index + 1)") else { continue }
            if edit.reel == "BL", pending == nil, !nextIsTransition, !edits.isEmpty, index + 1 < items.count { continue }
            if let pending {
                edit.incoming = incoming(pending, label: "item \(index + 1)")
                // Both lines of a transition say the same channels: sound fades to or from silence beside a clip without.
                let channels = [edit.channels, edit.incoming?.channels ?? "V"].max { Self.channelRank($0) < Self.channelRank($1) } ?? "V"
                (edit.channels, edit.incoming!.channels) = (channels, channels)
            }
            edits.append(edit)
        }
    }

    /// The event for a clip (its source moved back over the frames played
    /// before its cut), bars, or black (a gap, a colour, a nested sequence).
    private mutating func edit(for item: EditItem, record: Range<Int64>, before: Int64, label: String) -> CMX3600Edit? {
        let black = CMX3600Edit(reel: "BL", channels: "V", source: 0..<Int64(record.count), record: record)
        switch item {
        case .clip(let clip):
            let lead = clip.speed.map { $0.sourceFrame(at: before) } ?? before
            let first = clip.source.start.frameCount(at: rate) - lead
            let used = clip.speed.map { $0.isFreeze ? 1 : $0.sourceFrames(for: Int64(record.count)) } ?? Int64(record.count)
            let streams = clipSound ? (clip.media.facts?.soundChannels ?? 0) : 0
            return CMX3600Edit(reel: reels.reel(for: clip.media), channels: streams >= 2 ? "AA/V" : streams == 1 ? "B" : "V",
                               source: first..<(first + used), record: record, name: clip.name ?? clip.media.clipName,
                               location: clip.media.location, speed: clip.speed)
        case .fill(let fill):
            if fill.look == .bars { return CMX3600Edit(reel: "BARS", channels: "V", source: 0..<Int64(record.count), record: record) }
            if case .colour(let colour) = fill.look { warnings.append("CMX 3600 export: \(label): the colour \(colour) is written as black (BL)") }
            return black
        case .nested(let nested):
            warnings.append("CMX 3600 export: \(label): nested sequence '\(nested.name ?? "")' is written as black (BL)")
            return black
        case .gap: return black
        case .transition: return nil
        }
    }

    /// The transition into the next event: a dissolve, or the SMPTE wipe an xfade wipe is drawn from.
    private mutating func incoming(_ transition: EditTransition, label: String) -> CMX3600Edit.Incoming {
        let frames = transition.before.frameCount(at: rate) + transition.after.frameCount(at: rate)
        var code = "D"
        if case .wipe(let number) = transition.kind {
            code = "W" + String(number).leftPadded(to: 3)
        } else if let name = transition.name, !["fade", "dissolve"].contains(name.lowercased()) {
            if let number = Self.wipes[name.lowercased()] {
                code = "W" + String(number).leftPadded(to: 3)
            } else {
                warnings.append("CMX 3600 export: \(label): transition '\(name)' is written as a dissolve (D)")
            }
        }
        let outgoing = edits.last
        return CMX3600Edit.Incoming(code: code, frames: frames, reel: outgoing?.reel ?? "BL", channels: outgoing?.channels ?? "V",
                                    sourceOut: outgoing?.source.upperBound ?? 0, name: outgoing?.name)
    }

    /// Picture only, picture and mono sound, picture and a stereo pair.
    private static func channelRank(_ channels: String) -> Int { ["V", "B", "AA/V"].firstIndex(of: channels) ?? 0 }

    /// xfade's wipes by the SMPTE number Segue reads back as each (`EditTimelineResolver.closestWipe`).
    static let wipes: [String: Int] = [
        "wiperight": 1, "wipedown": 2, "wipetl": 3, "wipetr": 4, "wipebr": 5, "wipebl": 6, "horzopen": 21, "vertopen": 22,
        "diagtl": 23, "circleopen": 101,
    ]
}
