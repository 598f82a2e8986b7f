import Foundation

/// One cue of a clip's text subtitles, on the clip's own clock: seconds from
/// its first picture (its in point not taken off).
package struct Cue: Sendable, Equatable, Codable {
    package var start: Double
    package var end: Double
    /// Plain text, lines joined by "\n": what the soft track shows.
    package var text: String
    /// The cue as an ASS event (`Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`), its
    /// format's own styling kept: what burn-in draws.
    package var event: String
    /// The bold, italic and underlined runs of `text`, in order, none overlapping.
    package var styles: [StyleRun]

    package init(start: Double, end: Double, text: String, event: String, styles: [StyleRun] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.event = event
        self.styles = styles
    }

    private enum CodingKeys: String, CodingKey { case start, end, text, event, styles }

    // A cue written without `styles` has none.
    package init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try container.decode(Double.self, forKey: .start), end: try container.decode(Double.self, forKey: .end),
                  text: try container.decode(String.self, forKey: .text), event: try container.decode(String.self, forKey: .event),
                  styles: try container.decodeIfPresent([StyleRun].self, forKey: .styles) ?? [])
    }
}

/// How a stretch of cue text is set: the face styles a 3GPP timed-text
/// style record carries (its raw value is the record's face-style flags).
package struct TextStyle: OptionSet, Sendable, Hashable, Codable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    package static let bold = TextStyle(rawValue: 1)
    package static let italic = TextStyle(rawValue: 2)
    package static let underline = TextStyle(rawValue: 4)
}

/// A run of a cue's text in one style: `start` up to `end` (excluded),
/// counted in Unicode scalars of the text, as 3GPP style records count characters.
package struct StyleRun: Sendable, Equatable, Codable {
    package var start: Int
    package var end: Int
    package var style: TextStyle

    package init(start: Int, end: Int, style: TextStyle) {
        self.start = start
        self.end = end
        self.style = style
    }
}

/// The text subtitles chosen for one clip: a stream of its own or a sidecar file.
package struct ClipSubtitles: Sendable, Equatable, Codable {
    /// Where they come from, as the report says it: a sidecar's path, or "stream 2 (subrip, eng)".
    package var source: String
    /// ISO 639-2, when the source says.
    package var language: String?
    /// An ASS source's script header (its styles), which burn-in keeps; "" for other formats.
    package var styles: String
    package var cues: [Cue]

    package init(source: String, language: String?, styles: String = "", cues: [Cue]) {
        self.source = source
        self.language = language
        self.styles = styles
        self.cues = cues
    }
}

/// A subtitle stream of a clip, as probing finds it.
package struct SubtitleStream: Sendable, Equatable, Codable {
    package var index: Int
    package var codec: String
    package var language: String?
    package var isDefault: Bool
    /// Pictures (DVD, DVB, PGS), not text: they can't become a text track.
    package var isBitmap: Bool

    package init(index: Int, codec: String, language: String?, isDefault: Bool, isBitmap: Bool) {
        self.index = index
        self.codec = codec
        self.language = language
        self.isDefault = isDefault
        self.isBitmap = isBitmap
    }
}

/// The output's soft subtitle track.
package struct SubtitleTrack: Sendable, Equatable {
    /// ISO 639-2.
    package var language: String
    package var cues: [TrackCue]
}

/// A stretch of the output's subtitle track, in milliseconds.
package struct TrackCue: Sendable, Equatable, Codable {
    package var start: Int
    package var end: Int
    package var text: String
    /// The styled runs of `text` (see `Cue.styles`).
    package var styles: [StyleRun] = []
}

extension Plan {
    /// The soft subtitle track `settings` give the output, nil for none
    /// (`--subtitles none` or `burn`, or no clip with cues). Its language:
    /// `--subtitle-language`, else the first subtitled clip's, else "und".
    package func subtitleTrack(_ settings: StitchSettings) -> SubtitleTrack? {
        guard settings.subtitles == .auto else { return nil }
        let cues = subtitleCues
        guard !cues.isEmpty else { return nil }
        let language = settings.subtitleLanguage ?? clips.lazy.compactMap(\.info.subtitles).first?.language ?? "und"
        return SubtitleTrack(language: language, cues: cues)
    }

    /// Every clip's cues at their output times, in milliseconds. A cue plays
    /// at its clip's output start plus its time after the clip's in point,
    /// cut to the time the clip is on screen: in an overlap join, an outgoing
    /// clip's cues end where its picture ends and an incoming clip's start
    /// where its picture starts; in a freeze, a cue showing on a held edge
    /// picture is held with it. An MP4 text track shows one sample at a time,
    /// so where cues overlap the track is cut at every start and end, each
    /// stretch holding all the cues showing then (clip order, then start).
    package var subtitleCues: [TrackCue] {
        var placed: [TrackCue] = []
        for clip in clips {
            guard let subtitles = clip.info.subtitles else { continue }
            placed += placedCues(subtitles.cues, of: clip)
        }
        return Plan.flattened(placed)
    }

    /// `cues` of `clip` at their output times (milliseconds), in order.
    func placedCues(_ cues: [Cue], of clip: PlannedClip) -> [TrackCue] {
        let rate = canvas.frameRate.value
        let start = Double(clip.startFrame) / rate, end = Double(clip.startFrame + clip.frameCount) / rate
        let firstPicture = start, lastPicture = end - 1 / rate
        let held = heldEdges(of: clip)
        let heldBefore = Double(joinFrames(before: clip.index)) / rate, heldAfter = Double(joinFrames(after: clip.index)) / rate
        let outputEnd = duration
        return cues.compactMap { cue in
            var from = max(start, start + clip.info.clipSeconds(atSource: cue.start))
            var to = min(end, start + clip.info.clipSeconds(atSource: cue.end))
            guard to > from else { return nil }
            if held.first && from <= firstPicture && firstPicture < to { from -= heldBefore }
            if held.last && from <= lastPicture && lastPicture < to { to += heldAfter }
            let first = Plan.milliseconds(max(0, from)), last = Plan.milliseconds(min(outputEnd, to))
            return last > first ? TrackCue(start: first, end: last, text: cue.text, styles: cue.styles) : nil
        }
    }

    /// More cues showing at once than any screen holds: a cue that starts
    /// while this many show is left out (a damaged or hostile file's pile-up).
    static let maxCuesShowing = 16
    /// The most text a track holds (its stretches' UTF-8 together); the
    /// stretches after it are left out, so no file can make the track huge.
    static let maxTrackTextBytes = 64 << 20

    /// `cues` (in clip order) cut where any starts or ends, so none overlap;
    /// each stretch shows every cue showing then, one per line (at most
    /// `maxCuesShowing`, and as much text as a timed-text sample holds).
    static func flattened(_ cues: [TrackCue]) -> [TrackCue] {
        let edges = Set(cues.flatMap { [$0.start, $0.end] }).sorted()
        var track: [TrackCue] = []
        var showing: [Int] = [] // indices into cues, in clip order
        var next = 0, lastShown: [Int] = [], trackBytes = 0
        let byStart = cues.indices.sorted { (cues[$0].start, $0) < (cues[$1].start, $1) }
        for (from, to) in zip(edges, edges.dropFirst()) {
            showing.removeAll { cues[$0].end <= from }
            while next < byStart.count && cues[byStart[next]].start <= from {
                if showing.count < maxCuesShowing { showing.append(byStart[next]) }
                next += 1
            }
            showing.sort()
            guard !showing.isEmpty else { continue }
            // The same cues on and on are one stretch; two cues of the same text one after the other stay two.
            if let last = track.last, last.end == from, showing == lastShown {
                track[track.count - 1].end = to
            } else {
                let stretch = joined(showing.map { cues[$0] }, from: from, to: to)
                trackBytes += stretch.text.utf8.count
                guard trackBytes <= maxTrackTextBytes else { break }
                track.append(stretch)
            }
            lastShown = showing
        }
        return track
    }

    /// The most UTF-8 a timed-text sample's text holds (its length is 16 bits).
    static let maxSampleTextBytes = Int(UInt16.max)

    /// `cues` shown together from `from` to `to`: their texts one per line,
    /// their style runs moved with them; cut where a sample's text must end.
    static func joined(_ cues: [TrackCue], from: Int, to: Int) -> TrackCue {
        var text = "", styles: [StyleRun] = [], offset = 0
        for cue in cues {
            let separator = text.isEmpty ? "" : "\n"
            let room = maxSampleTextBytes - text.utf8.count - separator.utf8.count
            guard room > 0 else { break }
            var kept = Substring(cue.text)
            if cue.text.utf8.count > room {
                // Whole characters, as many as fit.
                var bytes = 0
                kept = cue.text.unicodeScalars.prefix { scalar in
                    bytes += UTF8.width(scalar)
                    return bytes <= room
                }.reduce(into: "") { $0.unicodeScalars.append($1) }[...]
            }
            text += separator + kept
            offset += separator.unicodeScalars.count
            let length = kept.unicodeScalars.count
            styles += cue.styles.compactMap { run in
                let end = min(run.end, length)
                return run.start < end ? StyleRun(start: run.start + offset, end: end + offset, style: run.style) : nil
            }
            offset += length
        }
        return TrackCue(start: from, end: to, text: text, styles: styles)
    }

    static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}
