/// What the clip list (or an editor's timeline) asks of one clip: which
/// part of it plays, for how long and how fast, and what goes with it.
public struct ClipUse: Sendable, Equatable, Codable {
    /// Seconds into the clip where its use starts.
    package var inPoint: Double = 0
    /// Seconds of video used: the whole clip, or from `inPoint` to the out
    /// point; a photo's or a card's time on screen.
    public var duration: Double
    /// The chapter title the clip list gives it.
    package var title: String?
    /// How the clip list says this clip fills the canvas (nil: the output's `fit`).
    package var fit: Fit?
    /// The caption the clip list gives it.
    package var caption: String?
    /// The text card this clip is, when it is one (no file).
    package var card: TextCard?
    /// The subtitle file its list entry names, which wins over its own streams and sidecars.
    package var subtitleFile: String?
    /// Set for a clip of an editor's timeline: its name, handles and held edge frames.
    package var edited: EditedClip?
    /// A constant speed change or freeze frame (an editor's timeline); nil plays at its own speed.
    package var speed: PlaybackSpeed?
    /// Pictures drawn over this clip's own where an editor's timeline places them, bottom first.
    package var layers: [ClipLayer] = []

    /// The whole of a clip `duration` seconds long, at its own speed.
    package init(duration: Double) {
        self.duration = duration
    }
}
