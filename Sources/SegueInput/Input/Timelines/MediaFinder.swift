import Foundation
internal import SegueMedia
import SegueModel

/// Finds an editor's timeline's media: where it names it (a path relative to
/// the timeline's folder, a `file://` URL with its escapes decoded, an http(s)
/// URL), else by name beside the timeline and under each `--media-root`
/// folder: the file name it names, then (an EDL's) its clip name, then its
/// reel as a file name or a name without extension. Every path found is held
/// to the input roots, as a list's are; nothing outside them is looked at.
final class MediaFinder {
    let folder: String
    let roots: [String]
    let access: InputAccess
    /// The files under one root: by file name, and by name without extension (for reels); the first found wins.
    private struct Listing {
        var byName: [String: String] = [:]
        var byStem: [String: String] = [:]

        func find(_ name: String) -> String? { byName[name] ?? byStem[name] }
    }
    /// Each root's files, listed once.
    private var listings: [String: Listing] = [:]
    /// Files listed per root at most: a search through a whole disk stops there.
    static let mostFilesListed = 200_000

    init(folder: String, roots: [String], access: InputAccess) {
        self.folder = folder
        self.roots = roots
        self.access = access
    }

    /// The path or URL of `media`; throws `mediaNotFound` with the places looked.
    func locate(_ media: EditMedia, clipName: String) throws -> String {
        var looked: [String] = []
        var names: [String] = []
        if let location = media.location, !location.isEmpty {
            switch InputLocation(location, relativeTo: folder) {
            case .remote:
                return location // opened (or refused by --no-remote) as any URL is
            case .refusedProtocol(let scheme):
                throw BadInputReason.badList("clip '\(clipName)': its media \(location) names the '\(scheme):' protocol; "
                                             + "only files and http(s) URLs are opened")
            case .file(let local):
                let path = local.hasPrefix("/") || folder.isEmpty ? local : (folder as NSString).appendingPathComponent(local)
                if try exists(path, clipName: clipName) { return path }
                looked.append(path)
                names.append((local as NSString).lastPathComponent)
            }
        }
        names += [media.clipName, media.reel].compactMap { $0 }.filter { !$0.isEmpty && !$0.contains("/") }
        for name in names where media.location == nil {
            let beside = (folder as NSString).appendingPathComponent(name)
            if try exists(beside, clipName: clipName) { return beside }
            looked.append(beside)
        }
        for root in roots {
            for name in names {
                if let found = listing(of: root).find(name), try exists(found, clipName: clipName) {
                    return found
                }
            }
            if !names.isEmpty { looked.append("\(root)/…/" + names.joined(separator: " or ")) }
        }
        throw BadInputReason.mediaNotFound(clip: clipName, named: media.location ?? names.first ?? "(unnamed)", looked: looked)
    }

    /// Whether a regular file is at `path`, once the input roots allow looking there.
    private func exists(_ path: String, clipName: String) throws -> Bool {
        do {
            _ = try access.location(of: path)
        } catch let reason as BadInputReason {
            throw BadInputReason.badList("clip '\(clipName)': its media \(path) \(reason)")
        }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    /// The files under `root`, listed the first time it is searched.
    private func listing(of root: String) -> Listing {
        if let listed = listings[root] { return listed }
        var listing = Listing()
        let enumerator = FileManager.default.enumerator(atPath: root)
        var count = 0
        while let relative = enumerator?.nextObject() as? String, count < MediaFinder.mostFilesListed {
            count += 1
            if enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { continue }
            let name = (relative as NSString).lastPathComponent
            let path = (root as NSString).appendingPathComponent(relative)
            if listing.byName[name] == nil { listing.byName[name] = path }
            let stem = (name as NSString).deletingPathExtension
            if listing.byStem[stem] == nil { listing.byStem[stem] = path }
        }
        listings[root] = listing
        return listing
    }
}
