import Foundation
import SegueCore

/// What an export needs to know of a medium beyond where it is: editors
/// describe each file (its rate, size, sound) before they place it.
package struct EditMediaFacts: Sendable, Equatable {
    /// The picture's frame rate (a variable-rate clip's average, `variableRate` set).
    package var rate: Rational
    package var variableRate = false
    /// The picture as displayed (rotation applied, square pixels).
    package var width: Int
    package var height: Int
    /// The start timecode's frame number at `rate` (0 when the file has none).
    package var timecodeFrames: Int64 = 0
    /// Whether the start timecode is drop-frame (29.97, 59.94).
    package var dropFrame = false
    /// The picture's length in seconds.
    package var seconds: Double
    /// The sound stream's channels and sample rate; nil when it has no sound.
    package var soundChannels: Int?
    package var sampleRate: Int?
    /// A photo (one picture, shown for its clip's length).
    package var still = false

    package init(rate: Rational, width: Int, height: Int, seconds: Double) {
        self.rate = rate
        self.width = width
        self.height = height
        self.seconds = seconds
    }
}

/// The output a rendered timeline was drawn at: the sequence settings an editor needs.
package struct EditOutputFormat: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var sampleRate: Int
    package var channels: Int

    package init(width: Int, height: Int, sampleRate: Int, channels: Int = 2) {
        self.width = width
        self.height = height
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Text Segue drew: a text card (full frame, on `background`) or a clip's
/// caption (over the picture), at record frames at the timeline's rate.
package struct EditTitle: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A text card: its own item on the track (a gap or colour there).
        case card
        /// A manifest's `"caption"` drawn over its clip.
        case caption
    }
    package var kind: Kind
    package var text: String
    /// `#RRGGBB` a card is drawn on.
    package var background: String
    /// First record frame and length, at the timeline's rate, from its start.
    package var start: Int64
    package var frames: Int64

    package init(kind: Kind, text: String, background: String = "#000000", start: Int64, frames: Int64) {
        self.kind = kind
        self.text = text
        self.background = background
        self.start = start
        self.frames = frames
    }
}

/// The `--music` bed as rendered: its clips (looped, cut to the output) at
/// their level, faded in and out, lowered by `duck` dB under clip sound.
package struct EditMusicBed: Sendable, Equatable {
    package var track: EditAudioTrack
    package var fadeIn: Double
    package var fadeOut: Double
    package var duck: Double

    package init(track: EditAudioTrack, fadeIn: Double, fadeOut: Double, duck: Double) {
        self.track = track
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.duck = duck
    }
}
