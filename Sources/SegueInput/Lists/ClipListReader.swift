import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// Reading clip lists from files: through the input access, so a list is
/// confined to the input roots like any clip; `ClipList` parses what is read.
extension ClipList {
    /// Lists may name lists; these bound what a crafted one can ask for.
    static let deepestNesting = 16
    static let mostClips = 100_000
    static let largestListBytes = 16 << 20

    /// The clips `inputs` name, lists read through `access` (so confined to
    /// its input roots) and lists they name expanded in place. An editor's
    /// timeline's media not where it says are looked for under `mediaRoots`;
    /// an EDL is counted at `edlRate` (`--fps`) when given. Without `sound`
    /// (`--no-audio`) a timeline's sound tracks aren't resolved (their media not looked for).
    package static func expand(_ inputs: [String], access: InputAccess = InputAccess(), mediaRoots: [String] = [],
                               edlRate: Rational? = nil, sound: Bool = true) -> Contents {
        var contents = Contents()
        for input in inputs {
            guard isClipList(input) else {
                contents.entries.append(ClipEntry(path: input))
                continue
            }
            var found = Contents()
            do {
                try expand(list: input, within: [], access: access, mediaRoots: mediaRoots, edlRate: edlRate, sound: sound, into: &found)
                contents.append(found.entries, sounds: found.sounds)
                contents.notices += found.notices
                if contents.output == nil { contents.output = found.output }
            } catch let reason as BadInputReason {
                contents.bad.append(BadInput(path: input, cause: reason))
            } catch {
                contents.bad.append(BadInput(path: input, cause: .cantOpen("\(error)")))
            }
        }
        return contents
    }

    /// Appends the clips of list `path` to `contents`; `within` holds the real
    /// paths of the lists that led here, so a list that includes itself is
    /// found, not followed forever. The first manifest's output settings win.
    private static func expand(list path: String, within: [String], access: InputAccess, mediaRoots: [String],
                               edlRate: Rational?, sound: Bool, into contents: inout Contents) throws {
        let path = EditTimelineFormat.document(path)
        let (data, resolvedPath) = try read(list: path, access: access)
        guard !within.contains(resolvedPath) else { throw BadInputReason.listIncludesItself(within + [resolvedPath]) }
        guard within.count < deepestNesting else {
            throw BadInputReason.badList("lists nest more than \(deepestNesting) deep")
        }
        // Entries are relative to the folder of the file the list is (a file: URL's too).
        guard case .file(let file) = InputLocation(path) else { throw BadInputReason.unreadableList("not a file") }
        if let format = EditTimelineFormat(path) {
            let resolver = EditTimelineResolver(timelinePath: file, mediaRoots: mediaRoots, access: access, sound: sound)
            let named = within.isEmpty ? nil : path
            let timeline = format == .cmx3600 ? try readEDL(data, named: named, resolver: resolver, rate: edlRate)
                : try readTimeline(data, format: format, named: named)
            let resolved = try resolver.resolve(timeline)
            contents.append(resolved.entries, sounds: resolved.sound.map { [$0] } ?? [])
            contents.notices += resolved.notices
            if contents.output == nil { contents.output = resolved.output }
            guard contents.entries.count <= mostClips else { throw BadInputReason.badList("names more than \(mostClips) clips") }
            return
        }
        guard let text = String(data: data, encoding: .utf8) else { throw BadInputReason.unreadableList("not UTF-8 text") }
        let folder = (file as NSString).deletingLastPathComponent
        var listed: [ClipEntry]
        do {
            if path.lowercased().hasSuffix(".json") {
                let manifest = try Manifest.parse(Data(text.utf8), relativeTo: folder)
                listed = manifest.entries
                if contents.output == nil { contents.output = manifest.output }
            } else {
                listed = try parse(text, relativeTo: folder)
            }
        } catch let error as ListError {
            throw BadInputReason.badList(within.isEmpty ? error.message : "\(path): \(error.message)")
        }
        if listed.isEmpty { throw within.isEmpty ? BadInputReason.emptyList : BadInputReason.badList("\(path): names no clips") }
        for entry in listed {
            if isClipList(entry.path) {
                try expand(list: entry.path, within: within + [resolvedPath], access: access, mediaRoots: mediaRoots,
                           edlRate: edlRate, sound: sound, into: &contents)
            } else {
                contents.entries.append(entry)
            }
            guard contents.entries.count <= mostClips else { throw BadInputReason.badList("names more than \(mostClips) clips") }
        }
    }

    /// An editor's timeline parsed; what's wrong with it is a bad list naming
    /// the item (and `named`, the file, when a list led to it). An EDL that
    /// isn't UTF-8 is read as Latin-1, as older editors wrote them; `rate` is
    /// an EDL's, which it doesn't state.
    private static func readTimeline(_ data: Data, format: EditTimelineFormat, named: String?,
                                     rate: Rational? = nil) throws -> EditTimeline {
        do {
            switch format {
            case .otio: return try EditTimeline.parseOTIO(data)
            case .fcp7xml: return try EditTimeline.parseFCP7XML(data)
            case .fcpxml: return try EditTimeline.parseFCPXML(data)
            case .cmx3600:
                guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                    throw BadInputReason.unreadableList("not text")
                }
                return try EditTimeline.parseCMX3600(text, rate: rate)
            }
        } catch let error as EditTimelineError {
            throw BadInputReason.badList((named.map { "\($0): " } ?? "") + error.message)
        }
    }

    /// An EDL at `rate` (`--fps`) when given, else at the rate its media
    /// agree on, else at its guess (24, or 29.97 drop frame). Its media are
    /// found from a first reading of its events' names, before their timecodes are counted.
    private static func readEDL(_ data: Data, named: String?, resolver: EditTimelineResolver, rate: Rational?) throws -> EditTimeline {
        if let rate { return try readTimeline(data, format: .cmx3600, named: named, rate: rate) }
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        guard let guess = try? EditTimeline.cmx3600GuessedRate(text) else { return try readTimeline(data, format: .cmx3600, named: named) }
        let agreed = (try? EditTimeline.cmx3600Media(text)).flatMap { resolver.mediaRate(of: $0, guess: guess) }
        return try readTimeline(data, format: .cmx3600, named: named, rate: agreed ?? guess)
    }

    /// The bytes of list `path` and its real path, read through `access`.
    private static func read(list path: String, access: InputAccess) throws -> (Data, String) {
        do {
            guard case .file(let local) = try access.location(of: path) else { throw BadInputReason.unreadableList("not a file") }
            let file = try access.openFile(local)
            guard let data = file.contents(limit: largestListBytes) else {
                throw BadInputReason.badList("larger than \(largestListBytes >> 20) MB; not a clip list")
            }
            return (data, file.resolvedPath)
        } catch let error as FFmpegError {
            guard let code = error.posixCode else { throw BadInputReason.unreadableList(error.message) }
            throw BadInputReason.unreadableList(code == ENOENT ? "no such file" : String(cString: strerror(code)))
        } catch BadInputReason.notRegularFile {
            throw BadInputReason.unreadableList("not a regular file")
        }
    }
}
