import Foundation
import SegueCore

/// A timeline an editor wrote (OpenTimelineIO, CMX 3600 EDL, FCP 7 XML,
/// FCPXML), in the editor's own terms: its video tracks and, stacked from
/// them, the one track Segue renders, item by item in record order, with
/// source times as the media's timecode counts them. The parsers make it
/// from text; `EditTimelineResolver` turns it into clips.
package struct EditTimeline: Sendable, Equatable {
    /// The sequence's name, when the file gives one.
    package var name: String?
    /// The record (timeline) rate: the output's frame rate unless `--fps` says otherwise.
    package var rate: Rational
    /// What Segue renders: the video tracks stacked into one (`stackTracks`),
    /// in record order as OTIO lists a track's children: a transition sits
    /// between the two items it joins.
    package var items: [EditItem]
    /// The video tracks as the file lays them out, bottom (first) to top
    /// (last), nested sequences still nested; empty when `items` was given as is.
    package var videoTracks: [EditVideoTrack] = []
    /// Clips the stacked tracks draw over `items` where they are placed (`EditClip.layout`), bottom first.
    package var overlays: [EditOverlay] = []
    /// Points on the record timeline, for chapters.
    package var markers: [EditMarker]
    /// What the file holds that isn't rendered, said as warnings (e.g. a filter not applied, a disabled track).
    package var notes: [String]
    /// The record timecode the timeline starts at (OTIO `global_start_time`,
    /// an EDL's first record in, xmeml's sequence timecode), when the file says.
    package var start: EditTime?
    /// The sound tracks (OTIO Audio tracks, xmeml `<audio>` tracks, an EDL's
    /// audio channels), mixed as the output's sound when there are any.
    package var audioTracks: [EditAudioTrack] = []

    // What a rendered timeline (`rendered(from:)`) also says, for the editors' formats.
    /// The output's picture size and sound.
    package var format: EditOutputFormat?
    /// Text cards and captions as drawn.
    package var titles: [EditTitle] = []
    /// Whether each clip's own sound plays under its picture (not with a timeline's sound tracks or `--no-audio`).
    package var clipSound = false
    /// The `--music` bed as heard.
    package var music: EditMusicBed?

    package init(name: String? = nil, rate: Rational, items: [EditItem] = [], markers: [EditMarker] = [], notes: [String] = [],
                start: EditTime? = nil) {
        self.name = name
        self.rate = rate
        self.items = items
        self.markers = markers
        self.notes = notes
        self.start = start
    }
}

/// One child of the rendered track.
package enum EditItem: Sendable, Equatable {
    case clip(EditClip)
    /// Black and silence this long.
    case gap(EditTime)
    /// A transition centred on the cut between the items either side of it.
    case transition(EditTransition)
    /// A generator's picture (black, a colour, bars) and silence this long.
    case fill(EditFill)
    /// A nested sequence (an OTIO Stack in a track, an xmeml `<sequence>` in a
    /// clip item, an FCPXML `ref-clip`); `stackTracks` flattens it.
    case nested(EditNested)

    /// A gap's or a generator's length: nil for a clip, a transition or a nested sequence.
    package var blank: EditTime? {
        switch self {
        case .gap(let duration): return duration
        case .fill(let fill): return fill.duration
        case .clip, .transition, .nested: return nil
        }
    }
}

/// What a generator draws (xmeml's Slug, Black Video, Color Matte, Bars and
/// Tone, counting leaders; OTIO's GeneratorReference), in silence.
package struct EditFill: Sendable, Equatable {
    package enum Look: Sendable, Equatable {
        case black
        /// `#RRGGBB`.
        case colour(String)
        /// SMPTE-like colour bars.
        case bars
    }
    package var look: Look
    package var duration: EditTime

    package init(look: Look, duration: EditTime) {
        self.look = look
        self.duration = duration
    }
}

/// A time as OTIO's RationalTime writes it: `value` units at `rate` per second.
/// An EDL's timecode is a frame count at the timeline's rate (drop-frame
/// timecode already counted out).
package struct EditTime: Sendable, Hashable {
    package var value: Double
    package var rate: Double

    package init(value: Double, rate: Double) {
        self.value = value
        self.rate = rate
    }

    package var seconds: Double { rate > 0 ? value / rate : 0 }

    /// The nearest whole frame at `rate`.
    package func frames(at rate: Rational) -> Int64 {
        Int64((seconds * rate.value).rounded())
    }
}

/// A span of source or record time.
package struct EditRange: Sendable, Hashable {
    package var start: EditTime
    package var duration: EditTime

    package init(start: EditTime, duration: EditTime) {
        self.start = start
        self.duration = duration
    }
}

/// A clip on the track: which media, and which of its frames.
package struct EditClip: Sendable, Equatable {
    /// The clip's name in the editor (OTIO `name`, EDL `FROM CLIP NAME`, xmeml `name`).
    package var name: String?
    package var media: EditMedia
    /// The frames used, in the media's own time: counted from its start
    /// timecode (OTIO `source_range`, EDL source in/out, xmeml in/out plus the file's timecode).
    package var source: EditRange
    /// All the media has (OTIO `available_range`), when the file says.
    package var available: EditRange?
    /// A constant speed change or a freeze frame; nil plays at its own speed.
    /// `source.duration` is then the record length, as OTIO has it.
    package var speed: PlaybackSpeed?
    /// Where the timeline places its picture over the tracks below (scale,
    /// position, opacity, crop); nil fills the frame as any clip (`--fit`).
    package var layout: EditLayout?

    package init(name: String? = nil, media: EditMedia, source: EditRange, available: EditRange? = nil, speed: PlaybackSpeed? = nil,
                 layout: EditLayout? = nil) {
        self.name = name
        self.media = media
        self.source = source
        self.available = available
        self.speed = speed
        self.layout = layout
    }
}

/// Where a clip's media is, as the file names it; `EditTimelineResolver`
/// looks for it (under `--media-root` when it isn't at `location`).
package struct EditMedia: Sendable, Equatable {
    /// A path or URL (OTIO `target_url`, EDL `SOURCE FILE`, xmeml `pathurl`); nil when the file names none.
    package var location: String?
    /// The clip name a search may use (an EDL's `FROM CLIP NAME`).
    package var clipName: String?
    /// An EDL's reel name (`AX` and `BL` are not reels).
    package var reel: String?
    /// The file's rate, size and sound, for an export (`rendered(from:)` knows them; readers don't).
    package var facts: EditMediaFacts?
    /// Seconds of the medium's start timecode, when an export knows it (source times count from it):
    /// what a format without timecode (MLT) subtracts.
    package var startSeconds: Double?

    package init(location: String? = nil, clipName: String? = nil, reel: String? = nil, facts: EditMediaFacts? = nil,
                 startSeconds: Double? = nil) {
        self.location = location
        self.clipName = clipName
        self.reel = reel
        self.facts = facts
        self.startSeconds = startSeconds
    }
}

/// A transition between two items, as OTIO places it: `before` (OTIO
/// `in_offset`) of record time before the cut, `after` (`out_offset`) after
/// it. The track's length doesn't change: the overlap comes from the
/// media's handles beyond each side's source range.
package struct EditTransition: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// OTIO `SMPTE_Dissolve`, EDL `D`, xmeml Cross Dissolve.
        case dissolve
        /// An EDL `W nnn` wipe by its SMPTE number, drawn as the closest xfade wipe.
        case wipe(Int)
    }
    package var kind: Kind
    package var name: String?
    package var before: EditTime
    package var after: EditTime

    package init(kind: Kind, name: String? = nil, before: EditTime, after: EditTime) {
        self.kind = kind
        self.name = name
        self.before = before
        self.after = after
    }
}

/// A named point on the record timeline (OTIO marker, EDL locator).
package struct EditMarker: Sendable, Equatable {
    package var name: String
    /// Record time from the timeline's start (not its start timecode).
    package var time: EditTime

    package init(name: String, time: EditTime) {
        self.name = name
        self.time = time
    }
}

/// A timeline that can't be rendered faithfully or can't be read: the item and why.
package struct EditTimelineError: Error, Sendable, Equatable {
    package var message: String

    package init(_ message: String) { self.message = message }
}
