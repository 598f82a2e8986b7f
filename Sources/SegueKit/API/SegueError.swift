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
        /// The output could not be written.
        case writeFailed
        /// The output's device is full.
        case noSpace
        /// Stopped by a signal (SIGINT, SIGTERM), or cancelled.
        case interrupted(signal: Int32)
    }

    public var reason: Reason
    /// The file, URL or folder the error is about ("" when none).
    public var subject: String
    /// What happened, in words.
    public var detail: String
    /// The lower-level error behind it, e.g. an `FFmpegError`.
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
        case .outputFolder, .damagedMedia, .connectionLost, .readFailed, .writeFailed, .noSpace:
            return subject.isEmpty ? detail : "\(subject): \(detail)"
        }
    }

    /// Bad usage and bad inputs are 2, failures during the stitch 1, a signal 128 + its number (DESIGN.md).
    public var exitCode: Int32 {
        switch reason {
        case .badInputs, .usage, .outputExists, .outputFolder: return 2
        case .damagedMedia, .connectionLost, .readFailed, .writeFailed, .noSpace: return 1
        case .interrupted(let signal): return 128 + signal
        }
    }

    // The common cases, spelt as they read at the call site.

    public static func badInputs(_ inputs: [BadInput]) -> SegueError { SegueError(.badInputs(inputs)) }
    public static func usage(_ message: String) -> SegueError { SegueError(.usage, detail: message) }
    public static func outputExists(_ path: String) -> SegueError { SegueError(.outputExists, subject: path) }
    public static func outputFolder(_ path: String, reason: String) -> SegueError {
        SegueError(.outputFolder, subject: path, detail: reason)
    }
    public static func interrupted(signal: Int32) -> SegueError { SegueError(.interrupted(signal: signal)) }
}

/// One unusable input and why.
public struct BadInput: Error, Equatable, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
