import Foundation
import SegueCore

/// An EDL's sound, read from its events' channels: `A` (and `B`, `A/V`,
/// `AA`, `AA/V`: a stereo pair plays its medium once) on track A1, `A2`
/// (`A2/V`) on track A2. Each event's clip plays its medium's sound over its
/// source range at its record time; a `D nnn` event crossfades from the
/// clip before; a jump in record time is silence. An EDL whose events are
/// all picture only (`V`) has no sound tracks.
struct CMX3600AudioReading {
    let rate: Rational
    /// The timeline's first record frame (the first video event's record in).
    let start: Int64
    private(set) var tracks: [Int: (items: [EditAudioItem], end: Int64)] = [:]
    /// What was played otherwise than written (an event's sound cut short by the next), said as warnings.
    private(set) var notes: [String] = []

    init(rate: Rational, start: Int64) {
        self.rate = rate
        self.start = start
    }

    /// The tracks read, A1 before A2; empty when no event has sound.
    var audioTracks: [EditAudioTrack] {
        tracks.keys.sorted().map { EditAudioTrack(name: "A\($0)", items: tracks[$0]!.items) }
    }

    /// Which sound track an event line's channels put it on: 1, 2, or nil (picture only, `NONE`).
    static func track(_ channels: Substring) -> Int? {
        let upper = channels.uppercased()
        let sound = upper.split(separator: "/").map(String.init).filter { $0.hasPrefix("A") || $0 == "B" }
        guard let first = sound.first else { return nil }
        return first == "A2" ? 2 : 1
    }

    mutating func add(_ event: CMX3600Event) throws {
        let label = "event \(event.number)"
        let lines = try event.lines.map { try CMX3600Line($0, label: label) }
        guard let line = lines.first(where: { $0.transitionType != nil && Self.track($0.channels) != nil })
                ?? lines.first(where: { Self.track($0.channels) != nil }), let number = Self.track(line.channels) else { return }
        let comments = CMX3600Comments(event.comments)
        // At another speed the sound plays time-stretched, as its picture plays, for the record's length.
        let speed = try comments.playbackSpeed(rate: rate, clip: [comments.fromName, String(line.reel)], label)
        let timecode = Timecode(rate: rate, dropFrame: event.dropFrame)
        var source = try line.frames(line.sourceIn, timecode, label)
        let record = try (line.frames(line.recordIn, timecode, label), line.frames(line.recordOut, timecode, label))
        guard record.1 >= record.0 else { throw EditTimelineError("\(label): record out \(line.recordOut) before record in \(line.recordIn)") }
        guard try speed != nil || line.frames(line.sourceOut, timecode, label) - source == record.1 - record.0 else {
            throw EditTimelineError("\(label): its sound lasts \(record.1 - record.0) frames on record but not at source (a speed change can't be played)")
        }
        var track = tracks[number] ?? ([], 0)
        var offset = record.0 - start
        // Sound before the timeline's start (its first picture event's record in) has no place in the output.
        if offset < 0 {
            guard record.1 - start > 0 else { return notes.append("\(label): its sound ends before the timeline starts, so isn't heard") }
            notes.append("\(label): its first \(-offset) frames of sound come before the timeline starts, so aren't heard")
            source += speed.map { $0.sourceFrame(at: -offset) } ?? -offset
            offset = 0
        }
        if offset < track.end { try Self.cut(&track, at: offset, label: "\(label) (A\(number))", notes: &notes) }
        if offset > track.end { track.items.append(.gap(time(offset - track.end))) }
        if let transition = try line.transition(label: label, rate: rate) { track.items.append(.transition(transition)) }
        let duration = time(record.1 - start - offset)
        if line.isBlack || line.reel.uppercased() == "BARS" {
            track.items.append(.gap(duration))
        } else {
            let media = comments.media(incoming: line.transitionType != nil, reel: line.reel)
            let clip = EditClip(name: comments.name(location: media.location), media: media,
                                source: EditRange(start: time(source), duration: duration), speed: speed)
            track.items.append(.clip(EditAudioClip(clip: clip, withPicture: line.isVideo)))
        }
        track.end = record.1 - start
        tracks[number] = track
    }

    /// A later event over the end of an earlier one on the same channel
    /// records over it, as an EDL's edits are made in order: the earlier
    /// one ends where the later starts. Refused when it reaches back further than the item before it.
    private static func cut(_ track: inout (items: [EditAudioItem], end: Int64), at offset: Int64, label: String, notes: inout [String]) throws {
        let overlap = track.end - offset
        guard var last = track.items.popLast() else { throw EditTimelineError("\(label): its sound overlaps nothing before it") }
        switch last {
        case .clip(var sound) where sound.clip.source.duration.value >= Double(overlap):
            sound.clip.source.duration.value -= Double(overlap)
            last = .clip(sound)
        case .gap(var duration) where duration.value >= Double(overlap):
            duration.value -= Double(overlap)
            last = .gap(duration)
        default:
            throw EditTimelineError("\(label): its sound starts \(overlap) frames before the events before it end")
        }
        track.items.append(last)
        track.end = offset
        notes.append("\(label): its sound starts \(overlap) frames before the event before it ends, which is cut there")
    }

    private func time(_ frames: Int64) -> EditTime { EditTime(value: Double(frames), rate: rate.value) }
}
