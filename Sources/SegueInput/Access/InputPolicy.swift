import Foundation
internal import SegueMedia
import SegueModel

/// What inputs may be opened at all: safe by default for untrusted uploads
/// (only media demuxers, only files and http(s), no nested opens, pictures
/// bounded in area), with two choices for an operator: the folders local
/// paths must lie in (`--input-root`) and whether URLs are allowed (`--no-remote`).
public struct InputPolicy: Sendable, Equatable {
    /// The most pixels one picture may have (a video frame or a photo) before
    /// it is refused, undecoded: 100 megapixels, today's largest camera photos.
    package static let defaultMaxPictureArea = 100_000_000

    /// Real paths (symlinks and `..` resolved) that every local input must lie
    /// in; empty: anywhere.
    package private(set) var roots: [String] = []
    /// Whether http(s) inputs may be opened.
    package var allowRemote = true
    package var maxPictureArea = InputPolicy.defaultMaxPictureArea

    public init() {}

    /// The policy of `--input-root` (each folder resolved now) and `--no-remote`.
    public static func confined(to roots: [String], allowRemote: Bool) throws -> InputPolicy {
        var policy = InputPolicy()
        try policy.confine(to: roots)
        policy.allowRemote = allowRemote
        return policy
    }

    /// Confines local inputs to `folders` (resolved now); throws a usage
    /// error naming a folder that doesn't exist.
    package mutating func confine(to folders: [String]) throws {
        roots = try folders.map { folder in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                  let resolved = realpath(folder, nil) else {
                throw SegueError.usage("--input-root \(folder): no such folder")
            }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }

    /// Whether an opened file's real path lies inside one of the roots.
    func permits(resolvedPath path: String) -> Bool {
        roots.isEmpty || roots.contains { root in root == "/" || path == root || path.hasPrefix(root + "/") }
    }
}
