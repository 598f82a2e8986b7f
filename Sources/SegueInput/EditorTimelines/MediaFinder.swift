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

        /// Keyed by the names lowercased: found when nothing matches exactly.
        var byFoldedName: [String: String] = [:]
        var byFoldedStem: [String: String] = [:]

        func find(_ name: String) -> String? { byName[name] ?? byStem[name] }
        func findIgnoringCase(_ name: String) -> String? { byFoldedName[name.lowercased()] ?? byFoldedStem[name.lowercased()] }
    }
    /// What was found other than as named (a case-insensitive match), said as warnings.
    private(set) var notes: [String] = []
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
        if let location = media.location, !location.isEmpty, Self.isWindowsPath(location) {
            // Written on Windows (`S:\path\a.mov`, `\\server\share\a.mov`): only its name can be looked for here.
            looked.append(location)
            names.append(Self.lastComponent(location))
        } else if let location = media.location, !location.isEmpty {
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
                names.append(Self.lastComponent(local))
            }
        }
        names += [media.clipName, media.reel].compactMap { $0 }.filter { !$0.isEmpty && !$0.contains("/") }
        names += names.compactMap { name in name.removingPercentEncoding.flatMap { $0 == name ? nil : $0 } }
        names = names.filter { !$0.isEmpty && $0 != "." && $0 != ".." }
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
        }
        for root in roots {
            for name in names {
                if let found = listing(of: root).findIgnoringCase(name), try exists(found, clipName: clipName) {
                    let note = "clip '\(clipName)': its media \(name) found as \(found) (the names differ in case)"
                    if !notes.contains(note) { notes.append(note) }
                    return found
                }
            }
            if !names.isEmpty { looked.append("\(root)/…/" + names.joined(separator: " or ") + " (in any case)") }
        }
        throw BadInputReason.mediaNotFound(clip: clipName, named: media.location ?? names.first ?? "(unnamed)", looked: looked)
    }

    /// A drive path (`C:\`, `C:/`), a UNC path (`\\server`) or any path with a backslash: named by a Windows tool.
    static func isWindowsPath(_ location: String) -> Bool {
        let characters = Array(location.prefix(3))
        let drive = characters.count == 3 && characters[0].isASCII && characters[0].isLetter && characters[1] == ":"
            && (characters[2] == "\\" || characters[2] == "/")
        return drive || location.contains("\\")
    }

    /// The last component of a path, whichever separator it uses.
    static func lastComponent(_ path: String) -> String {
        String(path.split { $0 == "/" || $0 == "\\" }.last ?? "")
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
            if listing.byFoldedName[name.lowercased()] == nil { listing.byFoldedName[name.lowercased()] = path }
            if listing.byFoldedStem[stem.lowercased()] == nil { listing.byFoldedStem[stem.lowercased()] = path }
        }
        listings[root] = listing
        return listing
    }
}
