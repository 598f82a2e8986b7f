import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// What a stitch did, for the summary line and `--report` (`json(plan:settings:)`, in API).
public struct StitchReport: Sendable {
    package struct Join: Sendable {
        package var index: Int
        package var transition: TransitionKind
        package var frames: Int
        package var seconds: Double
        /// How long the stitcher waited for the next clip to be ready.
        package var stallSeconds: Double
    }

    package var output: String
    /// What the output is: MP4, WebM or an HLS ladder.
    package var container: OutputContainer
    package var canvas: Canvas
    package var clipCount: Int
    package var frames: Int
    package var audioSamples: Int
    package var plannedDuration: Double
    package var joins: [Join]
    /// Time to open and prime the first clip.
    package var startupSeconds: Double
    package var warnings: [String]
    package var wallSeconds: Double
    package var peakMemoryBytes: Int
    /// With `--smart`: what became of each clip's video.
    package var smart: [SmartClip]? = nil
    /// With `--smart`: how the output's track stores its pictures (turned as the copied clips are).
    package var smartTrack: SmartTrack? = nil
    /// An HLS output's renditions as written (the rungs, largest first, then the sound); nil for an MP4.
    package var renditions: [Rendition]? = nil
    /// Every file an HLS output wrote (`LadderFiles.written`); nil for one file, the output itself.
    package var files: [String]? = nil
    /// The cover loop and poster written beside the output (`--cover`, `--poster`); nil without either.
    package var cover: Cover? = nil

    /// A cover and a poster, taken from the same output frames.
    package struct Cover: Sendable, Equatable {
        package var path: String?
        package var poster: String?
        /// The output frame the cover starts with, and the poster shows.
        package var firstFrame: Int
        package var frames: Int
        /// The cover's size in bytes.
        package var bytes = 0
    }

    /// One rendition of an HLS output: its playlist, what it holds and what its segments measured.
    package struct Rendition: Sendable, Equatable {
        /// The playlist's path.
        package var playlist: String
        /// RFC 6381 codecs (`avc1.64001e`, `mp4a.40.2`).
        package var codecs: String
        package var width: Int
        package var height: Int
        package var segments: Int
        /// Bytes of its init and media segments.
        package var bytes: Int
        package var peakBitRate: Int
        package var averageBitRate: Int
        package var longestSegmentSeconds: Double
    }

    /// The output track's stored pictures under `--smart`: the canvas turned into `orientation`, in full range or not.
    package struct SmartTrack: Sendable {
        package var storedWidth: Int
        package var storedHeight: Int
        package var orientation: DisplayOrientation
        package var fullRange: Bool
    }

    /// One clip's video under `--smart`.
    package struct SmartClip: Sendable {
        package var index: Int
        /// Frames whose packets were copied from the clip unchanged.
        package var framesCopied: Int
        /// The clip's pictures copied unchanged: one per copied frame, but a
        /// variable-rate clip's copied at their own times may be fewer or more.
        package var picturesCopied: Int
        /// The clip's frames decoded and encoded again (transition frames included).
        package var framesReencoded: Int
        /// Why the clip, or part of it, was not copied; nil when all of it was.
        package var reason: String?
        /// What became of its sound; nil without audio.
        package var sound: SmartSound? = nil
        /// The reasons as values (`reason` is their text).
        var notCopied: [NotCopied] = []
    }

    /// One clip's sound under `--smart`.
    package struct SmartSound: Sendable {
        /// Samples its sound stands from its exact place (output − exact, at
        /// most 512 either way): a copied clip's own, another's as the
        /// re-encoded windows around it read it.
        package var shiftSamples: Int
        /// AAC frames copied from the clip unchanged, and encoded again (around its seams, or all of them).
        package var framesCopied: Int
        package var framesReencoded: Int
        /// Why its sound was not copied; nil when it was.
        package var reason: String?
    }

    /// Output frames copied under `--smart`.
    package var framesCopied: Int { smart?.reduce(0) { $0 + $1.framesCopied } ?? 0 }
    /// Output AAC frames copied, and encoded, under `--smart`.
    package var audioFramesCopied: Int { smart?.reduce(0) { $0 + ($1.sound?.framesCopied ?? 0) } ?? 0 }
    package var audioFramesReencoded: Int { smart?.reduce(0) { $0 + ($1.sound?.framesReencoded ?? 0) } ?? 0 }
    /// The music bed, when there was one.
    package var music: Music? = nil

    package struct Music: Sendable {
        package var path: String
        package var loudness: ClipInfo.Loudness?
        /// dB applied to it before fades and ducking.
        package var gain: Double
        /// dB asked for relative to the clips' sound, and dB it is lowered by under them.
        package var volume: Double
        package var ducking: Double
    }

    package var duration: Double { Double(frames) / canvas.frameRate.value }
    package var totalStallSeconds: Double { joins.reduce(0) { $0 + $1.stallSeconds } }
    package var worstStallSeconds: Double { joins.map(\.stallSeconds).max() ?? 0 }

    /// The one line a finished stitch prints.
    public var summary: String {
        let transitions = Dictionary(grouping: joins.filter { $0.frames > 0 }, by: \.transition)
            .map { "\($0.key.rawValue) ×\($0.value.count)" }.sorted().joined(separator: ", ")
        let speed = wallSeconds > 0 ? duration / wallSeconds : 0
        var line = "Stitched \(clipCount) clip\(clipCount == 1 ? "" : "s") → \(output): "
            + String(format: "%.2f s, %d frames, %dx%d @ %@ fps", duration, frames,
                     canvas.width, canvas.height, canvas.frameRate.description)
            + (canvas.colour == .sdr ? "" : ", \(canvas.colour)")
            + (transitions.isEmpty ? ", cuts" : ", \(transitions)")
            + String(format: "; took %.1f s (%.1f× realtime), peak memory %d MB", wallSeconds, speed,
                     peakMemoryBytes / 1_000_000)
        if smart != nil {
            line += String(format: "; smart: %d of %d frames copied (%.1f %%)", framesCopied, frames,
                           frames > 0 ? 100 * Double(framesCopied) / Double(frames) : 0)
            if let smartTrack, smartTrack.orientation != .upright || smartTrack.fullRange {
                line += " stored \(smartTrack.storedWidth)x\(smartTrack.storedHeight) \(smartTrack.orientation)"
                    + (smartTrack.fullRange ? ", full range" : "")
            }
            let soundFrames = audioFramesCopied + audioFramesReencoded
            if soundFrames > 0 {
                line += String(format: ", %d of %d sound frames (%.1f %%)", audioFramesCopied, soundFrames,
                               100 * Double(audioFramesCopied) / Double(soundFrames))
            }
        }
        if let worst = joins.max(by: { $0.stallSeconds < $1.stallSeconds }) {
            line += String(format: "; join stall total %.1f ms, worst %.1f ms (join %d)",
                           totalStallSeconds * 1000, worst.stallSeconds * 1000, worst.index + 1)
        }
        return line
    }
}

/// How far a stitch has got, reported a few times a second.
public struct StitchProgress: Sendable, CustomStringConvertible {
    package var framesDone: Int
    package var totalFrames: Int
    package var clipIndex: Int
    package var clipCount: Int
    public var elapsedSeconds: Double
    package var frameRate: Double

    public var fraction: Double { totalFrames == 0 ? 1 : Double(framesDone) / Double(totalFrames) }
    /// Output seconds made per wall-clock second.
    package var speed: Double { elapsedSeconds > 0 ? Double(framesDone) / frameRate / elapsedSeconds : 0 }
    package var etaSeconds: Double? {
        guard framesDone > 0, elapsedSeconds > 0 else { return nil }
        return elapsedSeconds / Double(framesDone) * Double(totalFrames - framesDone)
    }

    /// One line of facts, as the progress display shows them.
    public var description: String {
        let eta = etaSeconds.map { String(format: "%.0f s", $0) } ?? "?"
        return String(format: "%3d%%  frame %d/%d  clip %d/%d  %.1f× realtime  %.0f s elapsed  ETA %@",
                      Int(fraction * 100), framesDone, totalFrames, clipIndex + 1, clipCount, speed, elapsedSeconds, eta)
    }
}
