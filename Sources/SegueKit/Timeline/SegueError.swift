import Foundation
import SegueMedia

/// What went wrong, said for the user: which file, what happened, what to do.
public enum SegueError: Error, CustomStringConvertible, Equatable {
    /// Inputs that can't be used; all of them, found before any work started.
    case badInputs([BadInput])
    /// The command line asks for something impossible.
    case usage(String)
    /// The output file exists and overwriting was not allowed.
    case outputExists(String)
    /// The output folder is missing or not writable.
    case outputFolder(String, reason: String)
    /// Stitching started and failed; nothing was written.
    case stitchFailed(String)
    /// Stopped by a signal (SIGINT, SIGTERM); nothing was written.
    case interrupted(signal: Int32)

    public var description: String {
        switch self {
        case .badInputs(let inputs):
            return inputs.map { "\($0.path): \($0.reason)" }.joined(separator: "\n")
        case .usage(let message):
            return message
        case .outputExists(let path):
            return "\(path): already exists (use -y to overwrite it)"
        case .outputFolder(let path, let reason):
            return "\(path): \(reason)"
        case .stitchFailed(let message):
            return message
        case .interrupted(let signal):
            return "stopped by \(signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)"); nothing was written"
        }
    }

    /// Bad usage and bad inputs are 2, failures during the stitch 1 (DESIGN.md).
    public var exitCode: Int32 {
        switch self {
        case .badInputs, .usage, .outputExists, .outputFolder: return 2
        case .stitchFailed: return 1
        case .interrupted(let signal): return 128 + signal
        }
    }
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
