import Foundation
import SegueMedia

/// A timeline an editor wrote (OpenTimelineIO, CMX 3600 EDL, FCP 7 XML), in
/// the editor's own terms: the one video track Segue renders, item by item in
/// record order, with source times as the media's timecode counts them.
/// The parsers make it from text; `EditTimelineResolver` turns it into clips.
public struct EditTimeline: Sendable, Equatable {
    /// The sequence's name, when the file gives one.
    public var name: String?
    /// The record (timeline) rate: the output's frame rate unless `--fps` says otherwise.
    public var rate: Rational
    /// The track's children in record order, as OTIO lists them: a
    /// transition sits between the two items it joins.
    public var items: [EditItem]
    /// Points on the record timeline, for chapters.
    public var markers: [EditMarker]
    /// What the file holds that isn't rendered, said as warnings (e.g. "track 'V2' not used").
    public var notes: [String]
    /// The record timecode the timeline starts at (OTIO `global_start_time`,
    /// an EDL's first record in, xmeml's sequence timecode), when the file says.
    public var start: EditTime?

    public init(name: String? = nil, rate: Rational, items: [EditItem] = [], markers: [EditMarker] = [], notes: [String] = [],
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
public enum EditItem: Sendable, Equatable {
    case clip(EditClip)
    /// Black and silence this long.
    case gap(EditTime)
    /// A transition centred on the cut between the items either side of it.
    case transition(EditTransition)
}

/// A time as OTIO's RationalTime writes it: `value` units at `rate` per second.
/// An EDL's timecode is a frame count at the timeline's rate (drop-frame
/// timecode already counted out).
public struct EditTime: Sendable, Hashable {
    public var value: Double
    public var rate: Double

    public init(value: Double, rate: Double) {
        self.value = value
        self.rate = rate
    }

    public var seconds: Double { rate > 0 ? value / rate : 0 }

    /// The nearest whole frame at `rate`.
    public func frames(at rate: Rational) -> Int64 {
        Int64((seconds * rate.value).rounded())
    }
}

/// A span of source or record time.
public struct EditRange: Sendable, Hashable {
    public var start: EditTime
    public var duration: EditTime

    public init(start: EditTime, duration: EditTime) {
        self.start = start
        self.duration = duration
    }
}

/// A clip on the track: which media, and which of its frames.
public struct EditClip: Sendable, Equatable {
    /// The clip's name in the editor (OTIO `name`, EDL `FROM CLIP NAME`, xmeml `name`).
    public var name: String?
    public var media: EditMedia
    /// The frames used, in the media's own time: counted from its start
    /// timecode (OTIO `source_range`, EDL source in/out, xmeml in/out plus the file's timecode).
    public var source: EditRange
    /// All the media has (OTIO `available_range`), when the file says.
    public var available: EditRange?

    public init(name: String? = nil, media: EditMedia, source: EditRange, available: EditRange? = nil) {
        self.name = name
        self.media = media
        self.source = source
        self.available = available
    }
}

/// Where a clip's media is, as the file names it; `EditTimelineResolver`
/// looks for it (under `--media-root` when it isn't at `location`).
public struct EditMedia: Sendable, Equatable {
    /// A path or URL (OTIO `target_url`, EDL `SOURCE FILE`, xmeml `pathurl`); nil when the file names none.
    public var location: String?
    /// The clip name a search may use (an EDL's `FROM CLIP NAME`).
    public var clipName: String?
    /// An EDL's reel name (`AX` and `BL` are not reels).
    public var reel: String?

    public init(location: String? = nil, clipName: String? = nil, reel: String? = nil) {
        self.location = location
        self.clipName = clipName
        self.reel = reel
    }
}

/// A transition between two items, as OTIO places it: `before` (OTIO
/// `in_offset`) of record time before the cut, `after` (`out_offset`) after
/// it. The track's length doesn't change: the overlap comes from the
/// media's handles beyond each side's source range.
public struct EditTransition: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// OTIO `SMPTE_Dissolve`, EDL `D`, xmeml Cross Dissolve.
        case dissolve
        /// An EDL `W nnn` wipe by its SMPTE number, drawn as the closest xfade wipe.
        case wipe(Int)
    }
    public var kind: Kind
    public var name: String?
    public var before: EditTime
    public var after: EditTime

    public init(kind: Kind, name: String? = nil, before: EditTime, after: EditTime) {
        self.kind = kind
        self.name = name
        self.before = before
        self.after = after
    }
}

/// A named point on the record timeline (OTIO marker, EDL locator).
public struct EditMarker: Sendable, Equatable {
    public var name: String
    /// Record time from the timeline's start (not its start timecode).
    public var time: EditTime

    public init(name: String, time: EditTime) {
        self.name = name
        self.time = time
    }
}

/// A timeline that can't be rendered faithfully or can't be read: the item and why.
public struct EditTimelineError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }
}
