import SegueCore

/// One sound track of an editor's timeline (an OTIO Audio track, an xmeml
/// `<audio>` track, an EDL's audio channel), in record order as OTIO lists a
/// track's children: clips, gaps, and the transitions (crossfades) between them.
package struct EditAudioTrack: Sendable, Equatable {
    /// As the file names it (`A1`, an OTIO track's name), else nil.
    package var name: String?
    package var items: [EditAudioItem]

    package init(name: String? = nil, items: [EditAudioItem] = []) {
        self.name = name
        self.items = items
    }

    /// Sound tracks a timeline may have: beyond them a file is refused (each is opened while it plays).
    package static let mostTracks = 64
}

/// One child of a sound track.
package enum EditAudioItem: Sendable, Equatable {
    case clip(EditAudioClip)
    /// Silence this long.
    case gap(EditTime)
    /// A crossfade centred on the cut between the items either side of it (`before` and `after` as a picture's).
    case transition(EditTransition)
}

/// A clip on a sound track: its media's sound over its source range, at a constant level.
package struct EditAudioClip: Sendable, Equatable {
    /// Its media and source range, as a picture clip names them (its own source times, from its media's timecode).
    package var clip: EditClip
    /// Its constant level in dB (xmeml's Audio Levels `level`, OTIO's effect metadata); 0 plays it as recorded.
    package var level: Double
    /// Whether the same event is the picture too (an EDL event on `B` or `AA/V`):
    /// a medium without sound is then silence with a note, where an audio-only item is refused.
    package var withPicture: Bool
    /// Which of its media's channels it plays and to which side, as an
    /// editor routes a stereo clip as dual mono over two tracks; nil plays all of them.
    package var channel: EditAudioChannel?

    package init(clip: EditClip, level: Double = 0, withPicture: Bool = false, channel: EditAudioChannel? = nil) {
        self.clip = clip
        self.level = level
        self.withPicture = withPicture
        self.channel = channel
    }
}

/// One channel of a sound clip's media, routed to one side or both (xmeml's
/// `sourcetrack` and the track's `outputchannelindex`, FCPXML's audio channel sources).
package struct EditAudioChannel: Sendable, Equatable, Codable {
    package enum Side: String, Sendable, Equatable, Codable { case left, right, both }
    /// The media's channel, from 1.
    package var source: Int
    package var side: Side

    package init(source: Int, side: Side) {
        self.source = source
        self.side = side
    }

    /// As editors lay a stereo pair out on two mono tracks: odd channels left, even right.
    package init(source: Int, outputChannel: Int?) {
        self.source = source
        switch outputChannel ?? (source % 2 == 1 ? 1 : 2) {
        case 1: side = .left
        case 2: side = .right
        default: side = .both
        }
    }

    /// Channels a media file may have that a clip may name.
    package static let mostChannels = 64
}

/// A sound clip placed on the record timeline: where its sound starts and
/// ends (the crossfades either side included), the handle frames it plays
/// beyond its source range, and how long it fades in and out.
package struct PlacedAudioClip: Sendable, Equatable {
    package var item: EditAudioClip
    /// The item's number in its track (from 1), for messages.
    package var number: Int
    /// Record frame (from the timeline's start) where its sound starts: its cut less `before`.
    package var recordStart: Int64
    /// Record frames its sound lasts: its source range plus `before` and `after`.
    package var recordFrames: Int64
    /// Frames played before its source range (the crossfade into it) and after it (out of it).
    package var before: Int64
    package var after: Int64
    /// Frames over which it fades in from its start and out to its end (a crossfade's whole length).
    package var fadeIn: Int64
    package var fadeOut: Int64
}

extension EditAudioTrack {
    /// The track's clips on the record timeline at `rate`: each transition
    /// centred on its cut, the clip before playing `after` frames past its
    /// range and the one after starting `before` frames ahead of its range,
    /// both fading over `before + after` (from or to silence beside a gap or
    /// an end). Sound before the timeline's start is cut off.
    package func placed(at rate: Rational) throws -> [PlacedAudioClip] {
        var placed: [PlacedAudioClip] = []
        var position: Int64 = 0
        var pending: (before: Int64, after: Int64)?
        var lastWasClip = false
        for (index, item) in items.enumerated() {
            switch item {
            case .transition(let transition):
                guard pending == nil else { throw EditTimelineError("audio track \(label): item \(index + 1): two transitions in a row") }
                let sides = (transition.before.frameCount(at: rate), transition.after.frameCount(at: rate))
                guard sides.0 >= 0, sides.1 >= 0 else { throw EditTimelineError("audio track \(label): item \(index + 1): negative offset") }
                pending = sides
                if lastWasClip {
                    placed[placed.count - 1].after = sides.1
                    placed[placed.count - 1].fadeOut = sides.0 + sides.1
                    placed[placed.count - 1].recordFrames += sides.1
                }
            case .gap(let duration):
                position += duration.frameCount(at: rate)
                pending = nil
                lastWasClip = false
            case .clip(let clip):
                let length = clip.clip.source.duration.frameCount(at: rate)
                let before = pending?.before ?? 0
                placed.append(PlacedAudioClip(item: clip, number: index + 1, recordStart: position - before, recordFrames: length + before,
                                              before: before, after: 0, fadeIn: pending.map { $0.before + $0.after } ?? 0, fadeOut: 0))
                position += length
                pending = nil
                lastWasClip = true
            }
        }
        return placed.compactMap { $0.cutAtTimelineStart() }
    }

    /// The track's name for messages: `'A2'`, or its number's stand-in.
    private var label: String { name.map { "'\($0)'" } ?? "(unnamed)" }
}

extension PlacedAudioClip {
    /// Without the frames before record frame 0 (a crossfade from the track's
    /// start): they have no place in the output. Nil when nothing is left.
    func cutAtTimelineStart() -> PlacedAudioClip? {
        guard recordStart < 0 else { return self }
        var cut = self
        let lost = -recordStart
        cut.recordStart = 0
        cut.recordFrames -= lost
        cut.before -= lost
        cut.fadeIn = max(0, fadeIn - lost)
        return cut.recordFrames > 0 ? cut : nil
    }
}
