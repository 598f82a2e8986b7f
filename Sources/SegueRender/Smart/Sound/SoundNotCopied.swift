import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Why a clip's sound is not copied by `--smart`: a value to compare, whose
/// `description` is what the report says.
enum SoundNotCopied: Equatable, Sendable, CustomStringConvertible {
    case notHeard
    case codec(String)
    case notAACLC
    case sampleRate(Int, output: Int)
    case channels(Int, output: Int)
    case loudnessGain
    case musicBed
    /// An editor's speed change stretches it (or a freeze silences it).
    case speedChange
    /// Its editor's timeline has sound tracks, which play instead of its own sound.
    case timelineSound
    case remote
    case timeBase(Rational)
    case unreadablePackets(String)
    /// No stretch of whole, regular AAC frames lies far enough from its seams.
    case noRegularStretch

    var description: String {
        switch self {
        case .notHeard: return "it has no sound"
        case let .codec(codec): return "its sound is \(codec), not AAC"
        case .notAACLC: return "its sound is not AAC-LC with 1024-sample frames at the output's rate and layout"
        case let .sampleRate(rate, output): return "its sound is \(rate) Hz, the output's \(output) Hz"
        case let .channels(count, output): return "its sound has \(count) channel\(count == 1 ? "" : "s"), the output's \(output)"
        case .loudnessGain: return "--loudness changes its sound's level"
        case .musicBed: return "a music bed is mixed under it"
        case .speedChange: return "a speed change stretches it"
        case .timelineSound: return "its timeline's sound tracks play instead of its own sound"
        case .remote: return "a remote clip's sound is not copied (its packets would be read twice)"
        case let .timeBase(timeBase): return "its sound's timestamps (\(timeBase)) don't count samples"
        case let .unreadablePackets(detail): return "can't read its sound packets (\(detail))"
        case .noRegularStretch:
            return "no stretch of whole AAC frames, on one grid from its first, lies far enough from its joins, trims and held frames"
        }
    }
}

/// A clip whose sound is not copied, and why.
struct SoundNotCopiedError: Error, Sendable {
    var reason: SoundNotCopied
}
