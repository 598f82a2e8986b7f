import Foundation
import SegueCore

/// How an export names its media: local files by absolute path (or, with
/// `--export-relative`, relative to the export's folder), remote clips by
/// their URLs (or, with `--cache`, the kept copy's path).
package struct ExportPaths: Sendable {
    /// The folder relative input paths are relative to.
    package var currentFolder: String
    /// The export's own folder, when paths are written relative to it.
    package var relativeTo: String?
    /// The local copy `--cache` keeps of a URL, when it keeps one.
    package var cachedCopy: @Sendable (String) -> String?

    package init(currentFolder: String, relativeTo: String? = nil, cachedCopy: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.currentFolder = currentFolder
        self.relativeTo = relativeTo
        self.cachedCopy = cachedCopy
    }

    /// How the export names `path`.
    package func location(of path: String) -> String {
        guard case .file(let local) = InputLocation(path) else {
            return cachedCopy(path).map { name(ofLocal: $0) } ?? path
        }
        return name(ofLocal: local)
    }

    private func name(ofLocal local: String) -> String {
        let absolute = ((local.hasPrefix("/") ? local : (currentFolder as NSString).appendingPathComponent(local)) as NSString).standardizingPath
        guard let relativeTo else { return absolute }
        return Self.relative(absolute, from: (relativeTo as NSString).standardizingPath)
    }

    /// `path` from `folder`, both absolute: `../b/c.mp4` from `/x/a` for `/x/b/c.mp4`.
    static func relative(_ path: String, from folder: String) -> String {
        let target = path.split(separator: "/", omittingEmptySubsequences: true)
        let base = folder.split(separator: "/", omittingEmptySubsequences: true)
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - shared) + target[shared...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
