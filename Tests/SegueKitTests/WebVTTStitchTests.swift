import Foundation
import XCTest

/// WebVTT files and styled cues through `segue stitch`: a real
/// WebVTT file (STYLE, REGION and NOTE blocks, identifiers, settings, tags),
/// which libavformat's own demuxer reads no cue from, becomes the output's
/// soft track cue by cue; bold, italic and underline reach it as 3GPP style
/// records, read back from the file's samples byte by byte and through
/// ffmpeg's own decoder.
final class WebVTTStitchTests: XCTestCase {
    let store = FixtureStore.shared

    /// `segue stitch arguments` into a fresh output: its exit, standard error and path.
    func run(_ arguments: [String]) throws -> (SegueTool.Result, String) {
        let output = store.outputPath("vtt-\(UUID().uuidString)")
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--preset", "ultrafast", "--crf", "30", "--quiet"])
        return (result, output)
    }

    func stitch(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (result, output) = try run(arguments)
        XCTAssertEqual(result.status, 0, "segue stitch: \(result.standardError)", file: file, line: line)
        return output
    }

    /// A file as browsers see it: a header with a title, a STYLE, a REGION and
    /// NOTE blocks, identifiers (one numeric), settings, a voice, references,
    /// nested styles, two overlapping cues, one that lasts nothing, ruby and a
    /// timestamp tag; CRLF line endings.
    static let realFile = """
        WEBVTT - Segue reads this as browsers do

        STYLE
        ::cue { color: yellow; }
        ::cue(b) { color: peachpuff; }

        REGION
        id:bottom
        width:40%

        NOTE The cues follow.
        This note has two lines.

        1
        00:00.200 --> 00:00.900 align:start line:0 region:bottom
        <v Fred>Hello &amp; <i>welcome</i>

        two
        00:00:01.000 --> 00:00:01.800
        <b>Bold <u>both</u></b> &lt;3

        00:01.500 --> 00:02.200 position:10%
        Overlaps the second

        00:02.300 --> 00:02.300
        never shown

        00:02.300 --> 00:02.900
        <ruby>漢<rt>kan</rt></ruby> <00:00:02.500>Café
        """.replacingOccurrences(of: "\n", with: "\r\n")

    /// The track the file gives on a clip starting at 0, as ffmpeg's SRT writer shows it
    /// (it opens and closes every style of each record; `<` is written as is).
    static let realTrack = [
        Cue(start: 200, end: 900, text: "Hello & <i>welcome</i>"),
        Cue(start: 1000, end: 1500, text: "<b>Bold </b><b><u>both</u></b> <3"),
        Cue(start: 1500, end: 1800, text: "<b>Bold </b><b><u>both</u></b> <3\nOverlaps the second"),
        Cue(start: 1800, end: 2200, text: "Overlaps the second"),
        Cue(start: 2300, end: 2900, text: "漢(kan) Café"),
    ]

    /// The same track's samples: text and style records (characters from, to, flags).
    static let realSamples = [
        TimedText.Sample(text: "Hello & welcome", records: [.init(8, 15, 2)]),
        TimedText.Sample(text: "Bold both <3", records: [.init(0, 5, 1), .init(5, 9, 5)]),
        TimedText.Sample(text: "Bold both <3\nOverlaps the second", records: [.init(0, 5, 1), .init(5, 9, 5)]),
        TimedText.Sample(text: "Overlaps the second", records: []),
        TimedText.Sample(text: "漢(kan) Café", records: []),
    ]

    func testARealWebVTTSidecarKeepsEveryCueItsTextAndItsStyles() throws {
        let clip = try SubtitleFixture.withSidecar(store, "vtt-real.mp4", clip: 0, frames: 90, sidecar: "vtt-real.vtt",
                                                   Data(Self.realFile.utf8))
        let path = try stitch([clip])
        try SubtitleTrack.assertOneMovText(path, language: "und")
        SubtitleTrack.assertCues(try SubtitleTrack.cues(path), Self.realTrack)
        XCTAssertEqual(try TimedText.samples(path), Self.realSamples)
    }

    func testAManifestsWebVTTFileIsReadTheSameAndSecondClipsCuesMoveWithIt() throws {
        let folder = store.folder.appendingPathComponent("vtt-manifest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.realFile.utf8).write(to: folder.appendingPathComponent("vtt-cues.vtt"))
        // A 1.5 s clip without subtitles first: the cues start 1.5 s later.
        let clips: [Any] = [["path": try SubtitleFixture.marker(store, 1)],
                            ["path": try SubtitleFixture.marker(store, 0, frames: 90), "subtitles": "vtt-cues.vtt"]]
        let path = try stitch([try store.manifest("vtt-manifest/list.json", clips: clips)])
        SubtitleTrack.assertCues(try SubtitleTrack.cues(path), Self.realTrack.map { $0.earlier(by: -1.5) })
    }

    func testAVTTFileThatIsNotWebVTTExitsTwoNamingItAndWhy() throws {
        let folder = store.folder.appendingPathComponent("vtt-bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nSubRip in disguise\n".utf8).write(to: folder.appendingPathComponent("vtt-bad.vtt"))
        let list = try store.manifest("vtt-bad/list.json", clips: [["path": try SubtitleFixture.marker(store, 0), "subtitles": "vtt-bad.vtt"]])
        let (result, path) = try run([list])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("vtt-bad.vtt"), result.standardError)
        XCTAssertTrue(result.standardError.contains("not a WebVTT file"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing written")
    }

    func testSRTStylesGiveTheSameSamplesAsTheFFmpegCLIsMovTextEncoder() throws {
        let srt = SubtitleText.srt([SourceCue(200, 700, "Café <i>noir</i> and <b>bold</b> <u>under</u>"),
                                    SourceCue(800, 1200, "plain"), SourceCue(1300, 1400, "<b><i>bold italic</i></b>")])
        let clip = try SubtitleFixture.withSidecar(store, "vtt-srt-styles.mp4", clip: 2, sidecar: "vtt-srt-styles.srt", Data(srt.utf8))
        let path = try stitch([clip])
        let reference = store.outputPath("vtt-srt-reference.mp4")
        try SubtitleFixture.ffmpeg(["-i", clip, "-i", store.folder.appendingPathComponent("vtt-srt-styles.srt").path,
                                    "-map", "0:v", "-map", "1", "-c:v", "copy", "-c:s", "mov_text", reference])
        let ours = try TimedText.samples(path), theirs = try TimedText.samples(reference)
        XCTAssertEqual(ours, theirs, "the same text and style records as ffmpeg -c:s mov_text")
        XCTAssertEqual(ours.first, TimedText.Sample(text: "Café noir and bold under", records: [.init(5, 9, 2), .init(14, 18, 1), .init(19, 24, 4)]))
        XCTAssertEqual(try TimedText.rawSamples(path), try TimedText.rawSamples(reference), "byte for byte")
        XCTAssertEqual(try SubtitleTrack.cues(path).map(\.text), ["Café <i>noir</i> and <b>bold</b> <u>under</u>", "plain",
                                                                  "<b><i>bold italic</i></b>"])
    }

    func testAnASSSidecarsStyleDefaultsAndOverridesAreKept() throws {
        let ass = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 384
            PlayResY: 288

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,DejaVu Sans,16,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1
            Style: Lyrics,DejaVu Sans,16,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.20,0:00:00.60,Lyrics,,0,0,0,,sung {\\i0}spoken
            Dialogue: 0,0:00:00.70,0:00:01.20,Default,,0,0,0,,{\\b1}loud{\\b0} {\\u1}under{\\u0} {\\bord3}outlined

            """
        let clip = try SubtitleFixture.withSidecar(store, "vtt-ass-styles.mp4", clip: 3, sidecar: "vtt-ass-styles.ass", Data(ass.utf8))
        let path = try stitch([clip])
        XCTAssertEqual(try TimedText.samples(path), [
            TimedText.Sample(text: "sung spoken", records: [.init(0, 5, 2)]),
            TimedText.Sample(text: "loud under outlined", records: [.init(0, 4, 1), .init(5, 10, 4)])])
        XCTAssertEqual(try SubtitleTrack.cues(path).map(\.text), ["<i>sung </i>spoken", "<b>loud</b> <u>under</u> outlined"])
    }
}

/// An MP4 timed-text track's samples, as the file holds them (read by
/// ffprobe, parsed here by 3GPP TS 26.245): the gaps' empty samples left out.
enum TimedText {
    struct Record: Equatable, CustomStringConvertible {
        var start: Int
        var end: Int
        var flags: UInt8

        init(_ start: Int, _ end: Int, _ flags: UInt8) {
            self.start = start
            self.end = end
            self.flags = flags
        }

        var description: String { "\(start)..<\(end):\(flags)" }
    }

    struct Sample: Equatable {
        var text: String
        var records: [Record]
    }

    /// Each sample's bytes, empty ones (a 0 length and nothing after) left out.
    static func rawSamples(_ path: String) throws -> [[UInt8]] {
        let json = try FFprobe.run(["-select_streams", "s", "-show_packets", "-show_data", path])
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.compactMap { $0["data"] as? String }.map(bytes).filter { $0 != [0, 0] }
    }

    /// The samples' text and style records. Every record must name font 1, size 16 and white, the track's defaults.
    static func samples(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Sample] {
        try rawSamples(path).map { sample in
            let length = Int(sample[0]) << 8 | Int(sample[1])
            let text = String(decoding: sample[2..<2 + length], as: UTF8.self)
            var records: [Record] = []
            var box = 2 + length
            while box + 8 <= sample.count {
                let size = sample[box..<box + 4].reduce(0) { $0 << 8 | Int($1) }
                if String(decoding: sample[box + 4..<box + 8], as: UTF8.self) == "styl" {
                    let count = Int(sample[box + 8]) << 8 | Int(sample[box + 9])
                    for index in 0..<count {
                        let record = Array(sample[(box + 10 + 12 * index)..<(box + 22 + 12 * index)])
                        XCTAssertEqual(Array(record[4..<6]) + [record[7]] + Array(record[8...]), [0, 1, 16, 255, 255, 255, 255],
                                       "font 1, size 16, white", file: file, line: line)
                        records.append(Record(Int(record[0]) << 8 | Int(record[1]), Int(record[2]) << 8 | Int(record[3]), record[6]))
                    }
                }
                box += max(size, 8)
            }
            return Sample(text: text, records: records)
        }
    }

    /// The bytes of an ffprobe hex dump (`00000000: 0000 000f 4865  ..He`).
    static func bytes(_ dump: String) -> [UInt8] {
        dump.split(separator: "\n").flatMap { line -> [UInt8] in
            guard let colon = line.firstIndex(of: ":") else { return [] }
            let hex = line[line.index(colon, offsetBy: 2)...].prefix(39).filter { $0 != " " }
            return stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }
        }
    }
}
