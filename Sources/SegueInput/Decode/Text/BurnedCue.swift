import Foundation
import SegueModel
internal import SegueMedia

/// A subtitle cue to burn into a clip's pictures: its times on the clip's
/// filter graph's clock (seconds from the clip's in point), as ASS writes
/// them, and its event's text with its format's own tags.
struct BurnedCue: Equatable {
    var start: String
    var end: String
    var layer: String
    /// The ASS event's fields between its times and its text: `Style,Name,MarginL,MarginR,MarginV,Effect`.
    var fields: String
    var text: String

    /// `cues` on the graph's clock: the pictures a graph draws count from the
    /// clip's in point. Cues that end before it are left out.
    static func onGraphClock(_ cues: [Cue], clip: ClipInfo) -> [BurnedCue] {
        cues.compactMap { cue in
            let start = max(0, clip.clipSeconds(atSource: cue.start)), end = min(clip.use.duration, clip.clipSeconds(atSource: cue.end))
            guard end > start else { return nil }
            // Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text: the text may hold commas.
            let parts = cue.event.split(separator: ",", maxSplits: 7, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 8 else { return nil }
            return BurnedCue(start: time(start), end: time(end), layer: parts[0], fields: parts[1...6].joined(separator: ","),
                             text: parts[7])
        }
    }

    /// An ASS source's own script: its header (styles, play size) with these
    /// cues as its events, so they are drawn as the source styles them.
    static func styledScript(header: String, cues: [BurnedCue]) -> String {
        // The events section is written anew, in the field order the decoder gives events in.
        let head = header.range(of: "[Events]").map { String(header[..<$0.lowerBound]) } ?? header
        let events = cues.map { "Dialogue: \($0.layer),\($0.start),\($0.end),\($0.fields),\($0.text)" }
        return head + "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + events.joined(separator: "\n") + "\n"
    }

    /// Seconds as ASS writes a time, `H:MM:SS.cc`; a start is rounded to the centisecond.
    static func time(_ seconds: Double) -> String {
        let centiseconds = Int((seconds * 100).rounded())
        return String(format: "%d:%02d:%02d.%02d", centiseconds / 360_000, centiseconds / 6000 % 60, centiseconds / 100 % 60,
                      centiseconds % 100)
    }
}
