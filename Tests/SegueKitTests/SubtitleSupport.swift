import Foundation
import XCTest

/// One cue as a subtitle track or file holds it: milliseconds on its clock and its text.
struct Cue: Equatable, CustomStringConvertible {
    var start: Int
    var end: Int
    var text: String

    var description: String { "\(start)-\(end) \(text.debugDescription)" }

    /// The cue `seconds` earlier (to the nearest millisecond).
    func earlier(by seconds: Double) -> Cue {
        let ms = Int((seconds * 1000).rounded())
        return Cue(start: start - ms, end: end - ms, text: text)
    }
}

/// A cue written into a fixture: milliseconds on its clip's own clock (its
/// first picture is 0), the text as written, and the text the output's soft
/// track must give back through ffmpeg's SRT writer: bold, italic and
/// underline as `<b>`, `<i>`, `<u>`, other formatting removed.
struct SourceCue {
    var start: Int
    var end: Int
    var written: String
    var shown: String

    init(_ start: Int, _ end: Int, _ written: String, shown: String? = nil) {
        self.start = start
        self.end = end
        self.written = written
        self.shown = shown ?? written
    }
}

/// The track the feature's rules say an output must carry, computed from
/// where each clip sits: its cues moved to the clip's start, cut to its time
/// on screen (held through a freeze's frames), rounded to milliseconds, then
/// flattened where cues overlap.
struct PlacedClip {
    var startFrame: Int
    var frames: Int
    /// Seconds into the clip where its use starts.
    var inPoint = 0.0
    /// Freeze frames held before and after the clip's own (0 with overlap joins or cuts).
    var heldBefore = 0
    var heldAfter = 0
    var cues: [SourceCue]

    enum Join {
        case cut
        case overlap(frames: Int)
        case freeze(frames: Int)
    }

    /// Clips of `frames` each, met by `join` everywhere; `inPoints` default to 0.
    static func sequence(_ clips: [(frames: Int, cues: [SourceCue])], join: Join, inPoints: [Double] = []) -> [PlacedClip] {
        var start = 0, placed: [PlacedClip] = []
        for (index, clip) in clips.enumerated() {
            var next = PlacedClip(startFrame: start, frames: clip.frames, cues: clip.cues)
            next.inPoint = index < inPoints.count ? inPoints[index] : 0
            let last = index == clips.count - 1
            switch join {
            case .cut:
                start += clip.frames
            case .overlap(let frames):
                start += clip.frames - frames
            case .freeze(let frames):
                next.heldBefore = index == 0 ? 0 : frames
                next.heldAfter = last ? 0 : frames
                start += clip.frames + frames
            }
            placed.append(next)
        }
        return placed
    }

    /// The output's frame count when the clips are laid out as `sequence` lays them.
    static func totalFrames(_ clips: [PlacedClip]) -> Int {
        clips.last.map { $0.startFrame + $0.frames } ?? 0
    }

    /// The expected track of an output of `outputFrames` at `fps` made of `clips`.
    static func expectedTrack(_ clips: [PlacedClip], fps: Double, outputFrames: Int? = nil) -> [Cue] {
        let outputEnd = Double(outputFrames ?? totalFrames(clips)) / fps * 1000
        var placed: [Cue] = []
        for clip in clips {
            let start = Double(clip.startFrame) / fps * 1000, end = Double(clip.startFrame + clip.frames) / fps * 1000
            for cue in clip.cues.sorted(by: { $0.start < $1.start }) {
                var from = start + Double(cue.start) - clip.inPoint * 1000
                var to = start + Double(cue.end) - clip.inPoint * 1000
                guard to > start, from < end else { continue }
                // Showing at the clip's first (last) picture: shown over the held frames before (after) it too.
                from = from <= start ? start - Double(clip.heldBefore) / fps * 1000 : from
                to = to >= end ? end + Double(clip.heldAfter) / fps * 1000 : to
                to = min(to, outputEnd)
                guard to > from else { continue }
                placed.append(Cue(start: Int(from.rounded()), end: Int(to.rounded()), text: cue.shown))
            }
        }
        return flattened(placed)
    }

    /// Where cues overlap, one cue per stretch between consecutive starts and
    /// ends, holding the texts showing then joined by a newline, in the order
    /// given (clip order, then cue start); stretches without a cue are left out.
    static func flattened(_ cues: [Cue]) -> [Cue] {
        let edges = Set(cues.flatMap { [$0.start, $0.end] }).sorted()
        return zip(edges, edges.dropFirst()).compactMap { from, to in
            let showing = cues.filter { $0.start <= from && $0.end >= to }
            return showing.isEmpty ? nil : Cue(start: from, end: to, text: showing.map(\.text).joined(separator: "\n"))
        }
    }
}

/// Subtitle text files: written for fixtures, read back from extractions.
enum SubtitleText {
    /// An SRT file of `cues`, as written.
    static func srt(_ cues: [SourceCue]) -> String {
        cues.enumerated().map { "\($0.offset + 1)\n\(time($0.element.start, ",")) --> \(time($0.element.end, ","))\n\($0.element.written)\n" }
            .joined(separator: "\n")
    }

    /// A WebVTT file of `cues`, as written.
    static func webVTT(_ cues: [SourceCue]) -> String {
        "WEBVTT\n\n" + cues.map { "\(time($0.start, ".")) --> \(time($0.end, "."))\n\($0.written)\n" }.joined(separator: "\n")
    }

    /// An ASS script of `cues` (times in centiseconds, so each a multiple of 10 ms).
    static func ass(_ cues: [SourceCue]) -> String {
        func centi(_ ms: Int) -> String {
            precondition(ms % 10 == 0, "ASS times are centiseconds")
            return String(format: "%d:%02d:%02d.%02d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms / 10 % 100)
        }
        let header = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 384
            PlayResY: 288

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,DejaVu Sans,16,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        return header + cues.map { "Dialogue: 0,\(centi($0.start)),\(centi($0.end)),Default,,0,0,0,,\($0.written)\n" }.joined()
    }

    /// `HH:MM:SS<separator>mmm`.
    static func time(_ ms: Int, _ separator: String) -> String {
        String(format: "%02d:%02d:%02d%@%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, separator, ms % 1000)
    }

    /// `text` in Windows-1252 bytes (only the few letters the fixtures use beyond ASCII).
    static func windows1252(_ text: String) -> Data {
        let table: [Character: UInt8] = ["é": 0xE9, "è": 0xE8, "û": 0xFB, "€": 0x80, "’": 0x92]
        return Data(text.map { character -> UInt8 in
            if let ascii = character.asciiValue { return ascii }
            guard let byte = table[character] else { preconditionFailure("no Windows-1252 byte for \(character)") }
            return byte
        })
    }

    /// The cues of an SRT text as ffmpeg's srt muxer writes them (CRLF inside a cue's text folded to LF).
    static func parseSRT(_ text: String) -> [Cue] {
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
        return blocks.compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
            guard lines.count >= 2 else { return nil }
            let times = lines[1].components(separatedBy: " --> ")
            guard times.count == 2, let start = milliseconds(times[0]), let end = milliseconds(times[1]) else { return nil }
            return Cue(start: start, end: end, text: lines.dropFirst(2).joined(separator: "\n"))
        }
    }

    /// `HH:MM:SS,mmm` in milliseconds.
    static func milliseconds(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Int($0) }
        guard parts.count == 4 else { return nil }
        return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + parts[3]
    }
}

/// What ffmpeg and ffprobe, independent of Segue, find in a file's subtitles.
enum SubtitleTrack {
    /// The cues of subtitle stream `index` of `path`, extracted to SRT by the
    /// ffmpeg CLI on the file's own clock (`-copyts`: not moved by another stream's start).
    /// `input` goes before `-i` (e.g. `-sub_charenc CP1252`: ffmpeg refuses an SRT that isn't UTF-8 without it).
    static func cues(_ path: String, stream index: Int = 0, input: [String] = [], file: StaticString = #filePath,
                     line: UInt = #line) throws -> [Cue] {
        let result = try Tool.run("ffmpeg", ["-v", "error", "-copyts"] + input
                                  + ["-i", path, "-map", "0:s:\(index)", "-c:s", "srt", "-f", "srt", "-"])
        XCTAssertEqual(result.status, 0, "extracting subtitles from \(path): \(result.standardError)", file: file, line: line)
        return SubtitleText.parseSRT(result.standardOutput)
    }

    /// The file's subtitle streams: codec_name, codec_tag_string, duration and tags (language).
    static func streams(_ path: String) throws -> [[String: Any]] {
        let entries = "stream=codec_type,codec_name,codec_tag_string,start_time,duration:stream_tags=language:stream_disposition=default"
        return try FFprobe.streams(path, entries: entries).filter { $0["codec_type"] as? String == "subtitle" }
    }

    /// `text` without its HTML-like tags (`<i>`, `<font face=…>`), as the srt encoder writes formatting.
    static func untagged(_ text: String) -> String {
        text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
    }

    /// A stream's language tag.
    static func language(_ stream: [String: Any]) -> String? {
        (stream["tags"] as? [String: Any])?["language"] as? String
    }

    /// Seconds of the video stream's `key` (start_time or duration).
    static func video(_ path: String, _ key: String) throws -> Double? {
        let streams = try FFprobe.streams(path, entries: "stream=codec_type,start_time,duration")
        return (streams.first { $0["codec_type"] as? String == "video" }?[key] as? String).flatMap(Double.init)
    }

    /// Asserts that `path` holds exactly one subtitle stream, MP4 timed text (mov_text, tx3g) in `language`.
    static func assertOneMovText(_ path: String, language: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let streams = try streams(path)
        XCTAssertEqual(streams.count, 1, "subtitle streams: \(streams)", file: file, line: line)
        guard let stream = streams.first else { return }
        XCTAssertEqual(stream["codec_name"] as? String, "mov_text", file: file, line: line)
        XCTAssertEqual(stream["codec_tag_string"] as? String, "tx3g", file: file, line: line)
        XCTAssertEqual(Self.language(stream), language, "the track's language", file: file, line: line)
    }

    /// Asserts the cues one by one, so a failure says which cue differs.
    static func assertCues(_ cues: [Cue], _ expected: [Cue], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(cues.count, expected.count, "cue count; got \(cues), expected \(expected)", file: file, line: line)
        for (index, (got, want)) in zip(cues, expected).enumerated() where got != want {
            XCTFail("cue \(index): got \(got), expected \(want)", file: file, line: line)
        }
    }
}

/// The subtitle fixtures: 45-frame marker clips (1.5 s at 30 fps) with cues
/// muxed in by the ffmpeg CLI or written beside them, made once per run.
/// Cue sources are written in a folder of their own, so none lies beside a
/// clip as a sidecar by accident. (The store's lock is not reentrant: a
/// fixture's marker clip is made before the fixture's own `make` runs.)
enum SubtitleFixture {
    static let frames = 45

    /// In the Matroska fixture (SRT, eng): one cue inside, one near the end, one running a second past the picture.
    static let alpha = [SourceCue(300, 700, "Alpha one"), SourceCue(900, 1100, "Alpha <i>two</i>"),
                        SourceCue(1300, 2500, "Alpha three")]
    /// In the MP4 fixture (mov_text, fra): from the first picture, two lines, and up to the last picture's end.
    static let bravo = [SourceCue(0, 500, "Bravo <b>one</b>"), SourceCue(700, 900, "Bravo two\nline two"),
                        SourceCue(1250, 1500, "Bravo three")]
    /// In the WebM fixture (WebVTT, ita): neither at the first nor at the last picture.
    static let charlie = [SourceCue(100, 600, "Charlie <i>one</i>"), SourceCue(1000, 1400, "Charlie two")]

    static func marker(_ store: FixtureStore, _ clip: Int, frames: Int = frames) throws -> String {
        try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
    }

    /// A cue source file in the sources folder.
    static func source(_ store: FixtureStore, _ name: String, _ contents: Data) throws -> String {
        let folder = store.folder.appendingPathComponent("subtitle-sources")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs the ffmpeg CLI; throws when it fails, so no half-made fixture counts as made.
    static func ffmpeg(_ arguments: [String]) throws {
        try Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    }

    /// Marker clip 0 in Matroska with `alpha` as an SRT stream (eng), every stream moved 1.5 s later.
    static func matroska(_ store: FixtureStore) throws -> String {
        let clip = try marker(store, 0)
        return try store.path("subs-srt.mkv") { path in
            let srt = try source(store, "alpha.srt", Data(SubtitleText.srt(alpha).utf8))
            try ffmpeg(["-i", clip, "-i", srt, "-map", "0:v", "-map", "0:a", "-map", "1", "-c:v", "copy", "-c:a", "copy",
                        "-c:s", "srt", "-metadata:s:s:0", "language=eng", "-output_ts_offset", "1.5", path])
        }
    }

    /// Marker clip 1 in MP4 with `bravo` as a mov_text stream (fra).
    static func movText(_ store: FixtureStore) throws -> String {
        let clip = try marker(store, 1)
        return try store.path("subs-movtext.mp4") { path in
            let srt = try source(store, "bravo.srt", Data(SubtitleText.srt(bravo).utf8))
            try ffmpeg(["-i", clip, "-i", srt, "-map", "0:v", "-map", "0:a", "-map", "1", "-c:v", "copy", "-c:a", "copy",
                        "-c:s", "mov_text", "-metadata:s:s:0", "language=fra", path])
        }
    }

    /// Marker clip 2 as VP8 and Opus in WebM with `charlie` as a WebVTT stream (ita).
    static func webM(_ store: FixtureStore) throws -> String {
        let clip = try marker(store, 2)
        return try store.path("subs-vtt.webm") { path in
            let vtt = try source(store, "charlie.vtt", Data(SubtitleText.webVTT(charlie).utf8))
            try ffmpeg(["-i", clip, "-i", vtt, "-map", "0:v", "-map", "0:a", "-map", "1", "-c:v", "libvpx",
                        "-deadline", "realtime", "-cpu-used", "8", "-b:v", "400k", "-c:a", "libopus", "-c:s", "webvtt",
                        "-metadata:s:s:0", "language=ita", path])
        }
    }

    static let english = [SourceCue(200, 800, "English words")]
    static let spanish = [SourceCue(400, 1200, "Palabras en español")]

    /// Marker clip 3 in Matroska with two SRT streams, eng then spa; `defaultSpanish`: spa default-flagged, else neither.
    static func twoLanguages(_ store: FixtureStore, defaultSpanish: Bool) throws -> String {
        let clip = try marker(store, 3)
        return try store.path(defaultSpanish ? "subs-two-flagged.mkv" : "subs-two-unflagged.mkv") { path in
            let eng = try source(store, "english.srt", Data(SubtitleText.srt(english).utf8))
            let spa = try source(store, "spanish.srt", Data(SubtitleText.srt(spanish).utf8))
            try ffmpeg(["-i", clip, "-i", eng, "-i", spa, "-map", "0:v", "-map", "0:a", "-map", "1", "-map", "2",
                        "-c:v", "copy", "-c:a", "copy", "-c:s", "srt", "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=spa",
                        "-disposition:s:0", "0", "-disposition:s:1", defaultSpanish ? "default" : "0", path])
        }
    }

    /// A copy of marker clip `clip` named `name`, with `contents` beside it as `sidecar`.
    static func withSidecar(_ store: FixtureStore, _ name: String, clip: Int, frames: Int = frames, sidecar: String,
                            _ contents: Data) throws -> String {
        let source = try marker(store, clip, frames: frames)
        return try store.path(name) { path in
            try FileManager.default.copyItem(atPath: source, toPath: path)
            try contents.write(to: store.folder.appendingPathComponent(sidecar))
        }
    }

    /// Written as Windows-1252 bytes: é, è, û and € (0x80, which ISO 8859-1 has no letter for).
    static let windows1252 = [SourceCue(200, 700, "Un café <b>noir</b>"), SourceCue(900, 1300, "Crème brûlée 5 €")]

    /// Marker clip 1 with a Windows-1252 SRT beside it (no language in its name).
    static func windows1252Sidecar(_ store: FixtureStore) throws -> String {
        try withSidecar(store, "side-cp1252.mp4", clip: 1, sidecar: "side-cp1252.srt", SubtitleText.windows1252(SubtitleText.srt(windows1252)))
    }

    /// ASS bold and italic overrides kept as styles, `\N` a line break.
    static let ass = [SourceCue(300, 1000, #"{\b1}Delta{\b0} one\Nsecond line"#, shown: "<b>Delta</b> one\nsecond line"),
                      SourceCue(1100, 1400, #"{\i1}Delta two{\i0}"#, shown: "<i>Delta two</i>")]

    /// Marker clip 2 with an English ASS script beside it (`.en.ass`).
    static func assSidecar(_ store: FixtureStore) throws -> String {
        try withSidecar(store, "side-ass.mp4", clip: 2, sidecar: "side-ass.en.ass", Data(SubtitleText.ass(ass).utf8))
    }
}
