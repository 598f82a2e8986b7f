import Foundation
internal import SegueMedia
import SegueModel
import SegueCore
import SegueRuntime

/// Finds a clip's text subtitles (its own streams, sidecar files beside it,
/// or the file its list entry names) and reads the chosen ones whole, as cues
/// on the clip's own clock.
package enum ClipSubtitleReader {
    /// The extensions of sidecar files players look for beside a clip.
    static let sidecarExtensions: Set<String> = ["srt", "vtt", "ass", "ssa"]
    /// Text streams bigger than this are damage, not subtitles (a feature film's track is under 1 MB).
    static let maxSidecarBytes = 32 << 20

    /// The subtitle streams `demuxer` holds.
    static func streams(in demuxer: Demuxer) -> [SubtitleStream] {
        demuxer.streams.compactMap { stream in
            stream.subtitle.map { form in
                SubtitleStream(index: stream.index, codec: stream.codecName, language: stream.language,
                               isDefault: stream.isDefault, isBitmap: form == .bitmap)
            }
        }
    }

    /// Files beside `clip` named as players look for them: its name without
    /// its extension, optionally a language or a note (`clip.en.srt`,
    /// `clip.eng.forced.srt`), then a subtitle extension. Plain names come
    /// first, then by name.
    static func sidecars(of clip: String) -> [String] {
        let url = URL(fileURLWithPath: clip)
        let folder = url.deletingLastPathComponent().path
        let stem = url.deletingPathExtension().lastPathComponent
        guard !stem.isEmpty, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let found = names.filter { name in
            let ext = (name as NSString).pathExtension.lowercased()
            return sidecarExtensions.contains(ext) && (name as NSString).deletingPathExtension == stem
                || sidecarExtensions.contains(ext) && name.hasPrefix(stem + ".")
                && Language.code(language(ofSidecar: name, stem: stem).split(separator: ".").first.map(String.init)) != nil
        }
        let rank = { (name: String) in (language(ofSidecar: name, stem: stem).isEmpty ? 0 : 1, name) }
        return found.sorted { rank($0) < rank($1) }.map { (folder as NSString).appendingPathComponent($0) }
    }

    /// What comes between a sidecar's stem and its extension (`en` of `clip.en.srt`), "" for none.
    static func language(ofSidecar name: String, stem: String) -> String {
        let middle = (name as NSString).deletingPathExtension.dropFirst(stem.count)
        return middle.hasPrefix(".") ? String(middle.dropFirst()) : ""
    }

    /// Where a clip's subtitles come from.
    enum Source: Equatable {
        /// The file its list entry names.
        case named(String)
        case stream(SubtitleStream)
        case sidecar(String)
    }

    /// Where the subtitles `info` plays with come from: its list entry's file;
    /// else, with `wanted`, its own text stream in that language, else a
    /// sidecar in it; else its default text stream, else its first; else its
    /// first sidecar (a plain `clip.srt` before `clip.en.srt`). Nil for none.
    static func source(of info: ClipInfo, language wanted: String?) -> Source? {
        if let file = info.use.subtitleFile { return .named(file) }
        let text = info.facts.subtitleStreams.filter { !$0.isBitmap }
        if let wanted {
            if let stream = text.first(where: { Language.code($0.language) == wanted }) { return .stream(stream) }
            if let sidecar = info.facts.sidecars.first(where: { Language.code(sidecarLanguage($0, clip: info.path)) == wanted }) {
                return .sidecar(sidecar)
            }
        }
        if let stream = text.first(where: \.isDefault) ?? text.first { return .stream(stream) }
        return info.facts.sidecars.first.map(Source.sidecar)
    }

    /// The subtitles `info` plays with (`source(of:language:)`), and what the
    /// user should know: bitmap subtitles left out, or subtitles that can't be
    /// read. A named file that can't be read throws its `BadInputReason`; so
    /// does any source with `strict`.
    static func subtitles(of info: ClipInfo, language wanted: String?, strict: Bool,
                          access: InputAccess) throws -> (subtitles: ClipSubtitles?, notices: [Warning]) {
        switch source(of: info, language: wanted) {
        case .named(let file):
            return (try readSidecar(file, clip: info, access: access), [])
        case .stream(let stream):
            return try leavingOut(info, source: describe(stream), strict: strict) { try readStream(stream, of: info, access: access) }
        case .sidecar(let sidecar):
            return try leavingOut(info, source: sidecar, strict: strict) { try readSidecar(sidecar, clip: info, access: access) }
        case nil:
            let bitmaps = info.facts.subtitleStreams.filter(\.isBitmap).map(\.codec)
            let codecs = bitmaps.indices.filter { !bitmaps[..<$0].contains(bitmaps[$0]) }.map { bitmaps[$0] }
            return (nil, codecs.isEmpty ? [] : [.bitmapSubtitles(path: info.path, codecs: codecs)])
        }
    }

    /// `read`'s subtitles, or none and a warning when they can't be read (thrown with `strict`).
    private static func leavingOut(_ info: ClipInfo, source: String, strict: Bool,
                                   _ read: () throws -> ClipSubtitles) throws -> (subtitles: ClipSubtitles?, notices: [Warning]) {
        do {
            return (try read(), [])
        } catch {
            let reason = (error as? BadInputReason) ?? .unreadableSubtitles("\(error)")
            if strict { throw BadInputReason.subtitles(source: source, reason) }
            return (nil, [.subtitlesLeftOut(path: info.path, source: source, detail: "\(reason)")])
        }
    }

    static func describe(_ stream: SubtitleStream) -> String {
        "stream \(stream.index) (\(stream.codec)\(stream.language.map { ", \($0)" } ?? ""))"
    }

    /// The language a sidecar's name gives (`en` of `clip.en.srt`), or nil.
    static func sidecarLanguage(_ sidecar: String, clip: String) -> String? {
        let stem = URL(fileURLWithPath: clip).deletingPathExtension().lastPathComponent
        let middle = language(ofSidecar: (sidecar as NSString).lastPathComponent, stem: stem)
        return middle.split(separator: ".").first.map(String.init)
    }

    // MARK: Reading

    private static func readSidecar(_ path: String, clip: ClipInfo, access: InputAccess) throws -> ClipSubtitles {
        guard case .file(let local) = try access.location(of: path) else { throw BadInputReason.remoteSubtitles }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isFolder) else { throw BadInputReason.noSuchFile }
        if isFolder.boolValue { throw BadInputReason.isAFolder }
        let language = Language.code(sidecarLanguage(path, clip: clip.path))
        let sidecar = try openSidecar(local, access: access)
        if WebVTT.isWebVTT(name: local, start: sidecar.prefix(16)) {
            let cues = try WebVTT.cues(sidecar.contents(limit: maxSidecarBytes) ?? Data())
            return ClipSubtitles(source: path, language: language, cues: cues)
        }
        let text = try decoded { encoding in
            let file = try openSidecar(local, access: access)
            let demuxer = try Demuxer(file: file, maxPictureArea: access.policy.maxPictureArea, formats: MediaFormats.subtitles)
            guard let stream = demuxer.streams.first(where: { $0.subtitle == .text }) else { throw BadInputReason.notSubtitles }
            return try SubtitleReader.read(demuxer, stream: stream.index, characterEncoding: encoding)
        }
        return ClipSubtitles(source: path, language: language, styles: isStyled(path) ? text.header : "",
                             cues: cues(text.cues, header: text.header, origin: 0, clipEnd: clip.facts.timing.sourceDuration))
    }

    /// A sidecar file opened for reading, after the checks every sidecar passes.
    private static func openSidecar(_ local: String, access: InputAccess) throws -> LocalFile {
        let file = try access.openFile(local)
        guard file.size > 0 else { throw BadInputReason.emptyFile }
        guard file.size <= maxSidecarBytes else { throw BadInputReason.unreadableSubtitles("over \(maxSidecarBytes >> 20) MB") }
        return file
    }

    private static func readStream(_ stream: SubtitleStream, of info: ClipInfo, access: InputAccess) throws -> ClipSubtitles {
        var origin = 0.0
        let text = try decoded { encoding in
            let demuxer = try access.openDemuxer(access.readablePath(for: info.path))
            // The clip's time 0 is its earliest picture, as its pictures count it.
            let video = demuxer.bestStream(.video).map { demuxer.streams[$0] }
            origin = video.map { Double(info.facts.timing.videoStart ?? $0.startTime ?? 0) * $0.timeBase.value } ?? 0
            return try SubtitleReader.read(demuxer, stream: stream.index, characterEncoding: encoding)
        }
        return ClipSubtitles(source: describe(stream), language: Language.code(stream.language),
                             styles: ["ass", "ssa"].contains(stream.codec) ? text.header : "",
                             cues: cues(text.cues, header: text.header, origin: origin, clipEnd: info.facts.timing.sourceDuration))
    }

    /// Reads as UTF-8, and text that isn't (a Windows-1252 .srt, common) as Windows-1252.
    private static func decoded(_ read: (String?) throws -> TextSubtitles) throws -> TextSubtitles {
        do {
            return try read(nil)
        } catch let error as FFmpegError where error == .invalidData {
            return try read("CP1252")
        }
    }

    private static func isStyled(_ path: String) -> Bool {
        ["ass", "ssa"].contains((path as NSString).pathExtension.lowercased())
    }

    /// Cues on the clip's clock (`origin`: its time 0 on theirs); a cue
    /// without an end lasts until the next one starts (or the clip ends);
    /// cues with no text left are dropped. `header` is the decoder's ASS
    /// script header, whose styles say which cues are bold, italic or underlined.
    static func cues(_ read: [TextCue], header: String, origin: Double, clipEnd: Double) -> [Cue] {
        let named = CueText.styles(inHeader: header)
        return read.indices.compactMap { index in
            let cue = read[index]
            let next = index + 1 < read.count ? read[index + 1].start : max(clipEnd + origin, cue.start)
            let (text, styles) = CueText.styled(cue.assText, base: CueText.style(ofEvent: cue.event, named: named), named: named)
            guard !text.isEmpty else { return nil }
            let end = cue.end ?? next
            return end > cue.start ? Cue(start: cue.start - origin, end: end - origin, text: text, event: cue.event, styles: styles) : nil
        }
    }
}

/// Language tags as MP4 wants them: ISO 639-2, three letters.
enum Language {
    /// ISO 639-1 codes of the languages subtitles most often come in, to their 639-2 codes.
    static let twoLetter: [String: String] = [
        "ar": "ara", "bg": "bul", "ca": "cat", "cs": "ces", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "es": "spa",
        "et": "est", "fa": "fas", "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "id": "ind",
        "is": "isl", "it": "ita", "ja": "jpn", "ko": "kor", "lt": "lit", "lv": "lav", "ms": "msa", "nb": "nob", "nl": "nld",
        "no": "nor", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sr": "srp", "sv": "swe",
        "th": "tha", "tr": "tur", "uk": "ukr", "vi": "vie", "zh": "zho",
    ]

    /// ISO 639-2's bibliographic codes, which Matroska files often carry
    /// (`ger`, `fre`), to the terminology codes MP4 and `--subtitle-language` use.
    static let bibliographic: [String: String] = [
        "alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld", "fre": "fra",
        "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri", "may": "msa", "per": "fas",
        "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym",
    ]

    /// `tag` as three lowercase letters (a terminology code), or nil when it
    /// names no language ("und" included).
    static func code(_ tag: String?) -> String? {
        guard let tag = tag?.lowercased() else { return nil }
        let base = String(tag.prefix { $0 != "-" && $0 != "_" })
        if let code = twoLetter[base] ?? bibliographic[base] { return code }
        guard base.count == 3, base.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }), base != "und" else { return nil }
        return base
    }
}

extension ClipSubtitleReader {
    /// Reads the subtitles of every clip in `infos` (several at once) when
    /// the output carries or burns them: the clips with their subtitles, what
    /// the user should know, and (by index) the clips whose named subtitle
    /// file (or, with `strict`, any subtitles) can't be read.
    package static func readAll(_ infos: [ClipInfo], settings: StitchSettings, strict: Bool,
                        access: InputAccess) -> (infos: [ClipInfo], notices: [Warning], bad: [Int: BadInput]) {
        guard settings.subtitles != .none else { return (infos, [], [:]) }
        let width = infos.contains { InputAccess.isRemote($0.path) } ? 8 : ProcessInfo.processInfo.activeProcessorCount
        let results = concurrentMap(infos.count, width: width) { index -> Result<(ClipSubtitles?, [Warning]), BadInput> in
            let info = infos[index]
            guard info.use.card == nil,
                  !info.facts.subtitleStreams.isEmpty || !info.facts.sidecars.isEmpty || info.use.subtitleFile != nil else {
                return .success((nil, []))
            }
            do {
                return .success(try subtitles(of: info, language: settings.subtitleLanguage, strict: strict, access: access))
            } catch let BadInputReason.subtitles(source, reason) {
                return .failure(BadInput(path: info.path, cause: .subtitles(source: source, reason)))
            } catch let reason as BadInputReason {
                return .failure(BadInput(path: info.path, cause: .subtitles(source: info.use.subtitleFile ?? "", reason)))
            } catch {
                let source = info.use.subtitleFile ?? ""
                return .failure(BadInput(path: info.path, cause: .subtitles(source: source, .unreadableSubtitles("\(error)"))))
            }
        }
        var read = infos, notices: [Warning] = [], bad: [Int: BadInput] = [:]
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let (subtitles, warnings)):
                read[index].subtitles = subtitles
                notices += warnings
            case .failure(let input): bad[index] = input
            }
        }
        return (read, notices, bad)
    }
}
