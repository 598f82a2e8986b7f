import Foundation

/// What went wrong, for a program to act on (`reason`) and for a user to read
/// (`description`: which file, what happened, what to do). Every message Segue
/// shows is rendered here.
public struct SegueError: Error, CustomStringConvertible, Sendable {
    public enum Reason: Sendable, Equatable {
        /// Inputs that can't be used; all of them, found before any work started.
        case badInputs([BadInput])
        /// The command line or the request asks for something impossible.
        case usage
        /// The output file exists and overwriting was not allowed.
        case outputExists
        /// The output folder (or the cache folder) is missing or not writable.
        case outputFolder
        /// A clip's data is damaged and `strict` asked to stop rather than conceal it.
        case damagedMedia
        /// A remote clip's connection failed mid-stitch and retrying did not bring it back.
        case connectionLost
        /// A clip could not be read for another reason (nothing decodable, a local I/O error).
        case readFailed
        /// Turning good data into the output failed (a filter graph, an encoder, memory): a failure, not damage.
        case processingFailed
        /// The output could not be written.
        case writeFailed
        /// The output's device is full.
        case noSpace
        /// Stopped by a signal (SIGINT, SIGTERM), or cancelled.
        case interrupted(signal: Int32)
        /// `join`: these segments are missing or damaged (the detail says how, one line each).
        case segmentsNotReady([Int])
    }

    public var reason: Reason
    /// The file, URL or folder the error is about ("" when none).
    public var subject: String
    /// What happened, in words.
    public var detail: String
    /// The lower-level error behind it, nil when none: libav's error code and
    /// the call that failed, or a lost connection's bytes and tries. Its type
    /// is not public (nor known to the model); its description says it in words.
    public var underlying: (any Error)?

    public init(_ reason: Reason, subject: String = "", detail: String = "", underlying: (any Error)? = nil) {
        self.reason = reason
        self.subject = subject
        self.detail = detail
        self.underlying = underlying
    }

    public var description: String {
        switch reason {
        case .badInputs(let inputs):
            return inputs.map { "\($0.path): \($0.reason)" }.joined(separator: "\n")
        case .usage:
            return detail
        case .outputExists:
            return "\(subject): already exists (use -y to overwrite it)"
        case .interrupted(let signal):
            let name = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)"
            return "stopped by \(name); nothing was written"
        case .outputFolder, .damagedMedia, .connectionLost, .readFailed, .processingFailed, .writeFailed, .noSpace:
            return subject.isEmpty ? detail : "\(subject): \(detail)"
        case .segmentsNotReady(let segments):
            return "can't join: segment\(segments.count == 1 ? "" : "s") \(segments.map(String.init).joined(separator: ", ")) "
                + "missing or damaged (render \(segments.count == 1 ? "it" : "them") again); nothing was written\n" + detail
        }
    }

    /// Bad usage and bad inputs are 2, failures during the stitch 1, a signal 128 + its number (docs/usage.md).
    public var exitCode: Int32 {
        switch reason {
        case .badInputs, .usage, .outputExists, .outputFolder: return 2
        case .damagedMedia, .connectionLost, .readFailed, .processingFailed, .writeFailed, .noSpace, .segmentsNotReady: return 1
        case .interrupted(let signal): return 128 + signal
        }
    }

    // The common cases, spelt as they read at the call site.

    package static func badInputs(_ inputs: [BadInput]) -> SegueError { SegueError(.badInputs(inputs)) }
    public static func usage(_ message: String) -> SegueError { SegueError(.usage, detail: message) }
    package static func outputExists(_ path: String) -> SegueError { SegueError(.outputExists, subject: path) }
    package static func outputFolder(_ path: String, reason: String) -> SegueError {
        SegueError(.outputFolder, subject: path, detail: reason)
    }
    public static func interrupted(signal: Int32) -> SegueError { SegueError(.interrupted(signal: signal)) }
}

/// One unusable input and why.
public struct BadInput: Error, Equatable, Sendable {
    public var path: String
    /// Why, as a value to compare.
    package var cause: BadInputReason
    /// Why, as the user reads it.
    public var reason: String { cause.description }

    package init(path: String, cause: BadInputReason) {
        self.path = path
        self.cause = cause
    }
}

/// Why an input can't be used; `description` says it as the user reads it.
package indirect enum BadInputReason: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchFile
    case isAFolder
    case permissionDenied
    case emptyFile
    case notMedia
    case truncatedHeader
    /// libavformat could not open it, for the reason given.
    case cantOpen(String)
    /// A remote input that could not be fetched or opened (what the network said).
    case unreachable(String)
    case noVideoStream
    case noVideoDecoder(codec: String)
    case noPictureSize
    case nothingDecodes
    /// Decoding the first picture failed, for the reason given.
    case decodeFailed(String)
    case unknownDuration
    /// Its timestamps or header say it plays for longer than any clip can (damage).
    case implausiblyLong(seconds: Double, limit: Double)
    case inPointPastEnd(inPoint: Double, end: Double)
    /// What is left to play (after the in and out points, if any) is under one frame.
    case lessThanOneFrame(seconds: Double, trimmed: Bool)
    case photoDuration
    /// A photo that can't be read (a damaged or hostile HEIF file or multi-picture JPEG), saying why.
    case unreadablePhoto(String)
    case emptyList
    /// A clip list or manifest with a mistake at the place the text names.
    case badList(String)
    case unreadableList(String)
    case noSound
    case noSoundDecoder(codec: String)
    case noSoundDecodes
    /// The music bed (`--music`) can't be used, for the inner reason.
    case music(BadInputReason)
    /// The font of captions and text cards (`--font`) can't be used, for the inner reason.
    case font(BadInputReason)
    /// Not a TrueType or OpenType font file.
    case notAFont
    /// The overlay picture (`--overlay`) can't be used, for the inner reason.
    case overlay(BadInputReason)
    /// Subtitles that can't be used: the file's (or stream's) name, and why.
    case subtitles(source: String, BadInputReason)
    case unreadableSubtitles(String)
    case notSubtitles
    case remoteSubtitles
    /// A `.vtt` file that doesn't begin with `WEBVTT` and a space, tab or line break, as WebVTT must.
    case notWebVTT
    /// A subtitle file with more cues than any film has (damage).
    case tooManyCues(limit: Int)
    // Refused by the input policy (`InputPolicy`):
    /// A format libavformat recognised and Segue doesn't open (a playlist, text, an image sequence).
    case refusedFormat(name: String, longName: String)
    /// A name that would be read through a protocol other than file and http(s).
    case refusedProtocol(String)
    /// Not a regular file: a device, a FIFO, a socket.
    case notRegularFile
    case outsideInputRoots
    case remoteNotAllowed
    case pictureTooLarge(width: Int, height: Int, limit: Int)
    /// A clip list that includes itself, directly or through others (the chain of lists).
    case listIncludesItself([String])
    /// An editor's timeline's clip whose source range (seconds from the media's start) misses its media entirely.
    case outsideMedia(clip: String, start: Double, end: Double, length: Double)
    /// An editor's timeline's clip whose media is nowhere it was looked for.
    case mediaNotFound(clip: String, named: String, looked: [String])

    package var description: String {
        switch self {
        case .noSuchFile: return "no such file"
        case .isAFolder: return "is a folder, not a media file"
        case .permissionDenied: return "can't read it (permission denied)"
        case .emptyFile: return "file is empty"
        case .notMedia: return "not a media file (no known container format)"
        case .truncatedHeader: return "file is truncated: it ends inside its header"
        case .cantOpen(let detail): return "can't open it (\(detail))"
        case .unreachable(let detail): return detail
        case .noVideoStream: return "no video stream"
        case .noVideoDecoder(let codec): return "no decoder for its \(codec) video"
        case .noPictureSize: return "video has no picture size (damaged header?)"
        case .nothingDecodes: return "no picture could be decoded (file damaged or truncated?)"
        case .decodeFailed(let detail): return detail
        case .unknownDuration: return "video duration unknown (damaged or still image?)"
        case .implausiblyLong(let seconds, let limit):
            return String(format: "it says it lasts %.0f s, more than the %.0f s a clip may last (damaged timestamps?)", seconds, limit)
        case .inPointPastEnd(let inPoint, let end):
            return String(format: "in point %.3f s is at or past the clip's end (%.3f s)", inPoint, end)
        case .lessThanOneFrame(let seconds, let trimmed):
            let length = String(format: "%.3f s", seconds)
            return trimmed ? "its in and out points leave \(length), less than one frame" : "it lasts \(length), less than one frame"
        case .photoDuration: return "a photo's duration must be \(OptionLimits.stillSeconds.phrase) seconds"
        case .unreadablePhoto(let advice): return advice
        case .emptyList: return "clip list names no clips"
        case .badList(let message): return message
        case .unreadableList(let detail): return "can't read clip list (\(detail))"
        case .noSound: return "no sound in it"
        case .noSoundDecoder(let codec): return "no decoder for its \(codec) sound"
        case .noSoundDecodes: return "no sound could be decoded (file damaged or truncated?)"
        case .music(let reason): return "music: \(reason)"
        case .font(let reason): return "font (--font): \(reason)"
        case .notAFont: return "not a TrueType or OpenType font file"
        case .overlay(let reason): return "overlay: \(reason)"
        case let .subtitles(source, reason): return "subtitles \(source): \(reason)"
        case .unreadableSubtitles(let detail): return "can't read them (\(detail))"
        case .notSubtitles: return "not a subtitle file (SubRip .srt, WebVTT .vtt or ASS/SSA .ass)"
        case .remoteSubtitles: return "a subtitle file must be a local file"
        case .notWebVTT: return "not a WebVTT file: it must begin with the line WEBVTT (alone, or then a space or tab and any text)"
        case .tooManyCues(let limit): return "holds over \(limit) cues (damaged?)"
        case .refusedFormat(let name, let longName): return BadInputReason.refusal(format: name, longName: longName)
        case .refusedProtocol(let scheme):
            return "names the '\(scheme):' protocol; only files and http(s) URLs are opened"
        case .notRegularFile: return "not a regular file (a device, pipe or socket); only files are opened"
        case .outsideInputRoots: return "is outside the allowed folders (--input-root)"
        case .remoteNotAllowed: return "is a URL, and remote inputs are off (--no-remote)"
        case .pictureTooLarge(let width, let height, let limit):
            return String(format: "picture is %dx%d (%.0f megapixels), over the %d-megapixel limit",
                          width, height, Double(width) * Double(height) / 1e6, limit / 1_000_000)
        case .listIncludesItself(let chain):
            return "clip list includes itself (\(chain.map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")))"
        case let .outsideMedia(clip, start, end, length):
            return "clip '\(clip)': its source range ("
                + String(format: "%.3f to %.3f s from the media's start timecode) lies outside the media's %.3f s", start, end, length)
                + " (wrong media, or a wrong start timecode?)"
        case let .mediaNotFound(clip, named, looked):
            return "clip '\(clip)': its media \(named) is not found (looked for: \(looked.joined(separator: ", "))); "
                + "--media-root DIR searches a folder for it by name"
        }
    }
}

extension BadInputReason {
    /// What a refused format is, in words, and why it isn't opened.
    static func refusal(format name: String, longName: String) -> String {
        switch name {
        case "hls":
            return "is an HLS playlist, not a media file; playlists are not opened because they can point at other files"
        case "dash", "webm_dash_manifest":
            return "is a DASH manifest, not a media file; manifests are not opened because they can point at other files"
        case "concat":
            return "is an ffconcat script, not a media file; scripts are read only as clip lists (name it .ffconcat)"
        case "tty", "bin", "adf", "idf", "xbin", "srt", "ass", "webvtt", "subviewer", "microdvd", "jacosub":
            return "is text (\(longName)), not a media file"
        case "image2", "image2pipe":
            return "is an image sequence, not a media file; sequences are not opened"
        default:
            return "is \(longName) (\(name)), which Segue does not open: not a media file it accepts"
        }
    }
}
