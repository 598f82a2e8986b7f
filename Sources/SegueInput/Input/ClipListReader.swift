import Foundation
import SegueMedia
import SegueModel

/// Reading clip lists from files: through the input access, so a list is
/// confined to the input roots like any clip; `ClipList` parses what is read.
extension ClipList {
    /// Lists may name lists; these bound what a crafted one can ask for.
    static let deepestNesting = 16
    static let mostClips = 100_000
    static let largestListBytes = 16 << 20

    /// The clips `inputs` name, lists read through `access` (so confined to
    /// its input roots) and lists they name expanded in place.
    public static func expand(_ inputs: [String], access: InputAccess = InputAccess()) -> Contents {
        var contents = Contents()
        for input in inputs {
            guard isClipList(input) else {
                contents.entries.append(ClipEntry(path: input))
                continue
            }
            var entries: [ClipEntry] = []
            do {
                try expand(list: input, within: [], access: access, into: &entries, output: &contents.output)
                contents.entries += entries
            } catch let reason as BadInputReason {
                contents.bad.append(BadInput(path: input, cause: reason))
            } catch {
                contents.bad.append(BadInput(path: input, cause: .cantOpen("\(error)")))
            }
        }
        return contents
    }

    /// Appends the clips of list `path` to `entries`; `within` holds the real
    /// paths of the lists that led here, so a list that includes itself is
    /// found, not followed forever. The first manifest's output settings win.
    private static func expand(list path: String, within: [String], access: InputAccess, into entries: inout [ClipEntry],
                               output: inout OutputOptions?) throws {
        let (text, resolvedPath) = try read(list: path, access: access)
        guard !within.contains(resolvedPath) else { throw BadInputReason.listIncludesItself(within + [resolvedPath]) }
        guard within.count < deepestNesting else {
            throw BadInputReason.badList("lists nest more than \(deepestNesting) deep")
        }
        // Entries are relative to the folder of the file the list is (a file: URL's too).
        guard case .file(let file) = InputLocation(path) else { throw BadInputReason.unreadableList("not a file") }
        let folder = (file as NSString).deletingLastPathComponent
        var listed: [ClipEntry]
        do {
            if path.lowercased().hasSuffix(".json") {
                let manifest = try Manifest.parse(Data(text.utf8), relativeTo: folder)
                listed = manifest.entries
                if output == nil { output = manifest.output }
            } else {
                listed = try parse(text, relativeTo: folder)
            }
        } catch let error as ListError {
            throw BadInputReason.badList(within.isEmpty ? error.message : "\(path): \(error.message)")
        }
        if listed.isEmpty { throw within.isEmpty ? BadInputReason.emptyList : BadInputReason.badList("\(path): names no clips") }
        for entry in listed {
            if isClipList(entry.path) {
                try expand(list: entry.path, within: within + [resolvedPath], access: access, into: &entries, output: &output)
            } else {
                entries.append(entry)
            }
            guard entries.count <= mostClips else { throw BadInputReason.badList("names more than \(mostClips) clips") }
        }
    }

    /// The text of list `path` and its real path, read through `access`.
    private static func read(list path: String, access: InputAccess) throws -> (String, String) {
        do {
            guard case .file(let local) = try access.location(of: path) else { throw BadInputReason.unreadableList("not a file") }
            let file = try access.openFile(local)
            guard let data = file.contents(limit: largestListBytes) else {
                throw BadInputReason.badList("larger than \(largestListBytes >> 20) MB; not a clip list")
            }
            guard let text = String(data: data, encoding: .utf8) else { throw BadInputReason.unreadableList("not UTF-8 text") }
            return (text, file.resolvedPath)
        } catch let error as FFmpegError {
            guard let code = error.posixCode else { throw BadInputReason.unreadableList(error.message) }
            throw BadInputReason.unreadableList(code == ENOENT ? "no such file" : String(cString: strerror(code)))
        } catch BadInputReason.notRegularFile {
            throw BadInputReason.unreadableList("not a regular file")
        }
    }
}
