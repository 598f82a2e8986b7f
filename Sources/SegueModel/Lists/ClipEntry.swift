import Foundation

/// One clip as a list or the command line names it: where it is, which part
/// of it to use, and how it meets the next clip when the list says so.
package struct ClipEntry: Sendable, Equatable {
    package var path: String
    /// Seconds into the clip where its use starts (nil: its start).
    package var inPoint: Double?
    /// Seconds into the clip where its use ends (nil: its end).
    package var outPoint: Double?
    /// How this clip meets the next one, overriding the command line.
    package var join: JoinChoice?
    /// Seconds the clip lasts: a photo's own duration; for a video, the out point after its in point.
    package var duration: Double?
    /// The clip's chapter title (nil: its file name without extension).
    package var title: String?
    /// How this clip fills the canvas, overriding the output's `fit`.
    package var fit: Fit?
    /// Text drawn over the clip for its whole time on screen.
    package var caption: String?
    /// A subtitle file for the clip (.srt, .vtt, .ass), winning over its own streams and sidecars.
    package var subtitles: String?
    /// A text card instead of a file: the clip is this text on a plain background (`path` is empty).
    package var card: TextCard?
    /// A clip of an editor's timeline: which of its media's frames it plays,
    /// counted from the media's start timecode (it replaces the in and out points).
    package var edit: EditPlacement?
    /// On an entry of an editor's timeline with sound tracks: where it stands under that sound (`ClipList.Contents.sounds`).
    package var soundPlace: SoundPlace?
    /// Clips of an editor's timeline drawn over this one where they are placed (`ClipLayer`), bottom first.
    package var layers: [LayerEntry] = []

    package init(path: String, inPoint: Double? = nil, outPoint: Double? = nil, join: JoinChoice? = nil,
                duration: Double? = nil, title: String? = nil) {
        self.path = path
        self.inPoint = inPoint
        self.outPoint = outPoint
        self.join = join
        self.duration = duration
        self.title = title
    }
}

/// A clip made of text: centred on a plain background, silent, lasting its
/// entry's duration. A manifest entry `{"text": "Day one", "duration": 2.5, "background": "#202020"}`.
package struct TextCard: Sendable, Equatable, Codable {
    package var text: String
    /// The background colour, `#RRGGBB`.
    package var background: String
    /// Colour bars drawn instead of the background (a timeline's bars generator).
    package var bars: Bool?

    package init(text: String, background: String = "#000000", bars: Bool? = nil) {
        self.text = text
        self.background = background
        self.bars = bars
    }

    /// `#RRGGBB`.
    package static func isColour(_ text: String) -> Bool {
        text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}

/// A per-join override of the transition and its duration.
public struct JoinChoice: Sendable, Equatable, Codable {
    package var transition: TransitionKind?
    package var duration: Double?
    /// How this join's progress runs; nil: the settings' easing.
    package var easing: Easing?

    package init(transition: TransitionKind? = nil, duration: Double? = nil, easing: Easing? = nil) {
        self.transition = transition
        self.duration = duration
        self.easing = easing
    }
}

/// Time values as ffmpeg writes them: `[-][HH:]MM:SS[.m...]` or `[-]S+[.m...][s|ms|us]`.
package enum TimeValue {
    package static func seconds(_ text: String) -> Double? {
        var text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        var sign = 1.0
        if text.hasPrefix("-") { sign = -1; text.removeFirst() }
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 3, let seconds = Double(parts.last!), seconds >= 0, seconds < 60 else { return nil }
            var total = seconds
            var scale = 60.0
            for part in parts.dropLast().reversed() {
                guard let value = Int(part), value >= 0 else { return nil }
                total += Double(value) * scale
                scale *= 60
            }
            return sign * total
        }
        var multiplier = 1.0
        for (suffix, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
            multiplier = scale
            break
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return sign * value * multiplier
    }
}
