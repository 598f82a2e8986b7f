import Foundation
import XCTest

/// Subtitles: every clip's text cues carried into one soft MP4
/// track (mov_text) at their new times, or burnt into the picture, or left
/// out. Each output's track is extracted by the ffmpeg CLI and compared cue
/// by cue, to the millisecond, with the track the rules give
/// (`PlacedClip.expectedTrack`).
final class SubtitleTests: XCTestCase {
    let store = FixtureStore.shared
    let fps = 30.0
    /// 0.5 s: 15 frames at 30 fps.
    let fade = ["--transition", "fade", "--transition-duration", "0.5"]

    struct StitchFailed: Error {}

    /// `segue stitch arguments` into a fresh output; fails the test and throws unless it exits 0.
    func stitch(_ arguments: [String], name: String = UUID().uuidString, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (result, output) = try run(arguments + ["--quiet"], name: name)
        guard result.status == 0 else {
            XCTFail("segue stitch exited \(result.status): \(result.standardError)", file: file, line: line)
            throw StitchFailed()
        }
        return output
    }

    /// `segue stitch arguments` into a fresh output, whatever its exit.
    func run(_ arguments: [String], name: String = UUID().uuidString) throws -> (SegueTool.Result, String) {
        let output = store.outputPath("subtitles-\(name)")
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--preset", "ultrafast", "--crf", "30"])
        return (result, output)
    }

    /// The Matroska (SRT, eng), MP4 (mov_text, fra) and WebM (WebVTT, ita) fixtures and their cues.
    func threeClips() throws -> (paths: [String], cues: [(frames: Int, cues: [SourceCue])]) {
        ([try SubtitleFixture.matroska(store), try SubtitleFixture.movText(store), try SubtitleFixture.webM(store)],
         [(45, SubtitleFixture.alpha), (45, SubtitleFixture.bravo), (45, SubtitleFixture.charlie)])
    }

    func assertTrack(_ path: String, _ placed: [PlacedClip], fps: Double = 30, file: StaticString = #filePath, line: UInt = #line) throws {
        SubtitleTrack.assertCues(try SubtitleTrack.cues(path, file: file, line: line), PlacedClip.expectedTrack(placed, fps: fps),
                                 file: file, line: line)
    }

    // MARK: The helpers themselves (these pass before the feature exists)

    func testFixturesHoldTheCuesTheyWereWrittenWith() throws {
        let embedded: [(String, [SourceCue], String)] = [
            (try SubtitleFixture.matroska(store), SubtitleFixture.alpha, "eng"),
            (try SubtitleFixture.movText(store), SubtitleFixture.bravo, "fra"),
            (try SubtitleFixture.webM(store), SubtitleFixture.charlie, "ita")]
        for (path, cues, language) in embedded {
            // On the file's clock, less the first picture's time: the clip's own clock.
            let start = try XCTUnwrap(SubtitleTrack.video(path, "start_time"))
            let read = try SubtitleTrack.cues(path).map { $0.earlier(by: start) }
            SubtitleTrack.assertCues(read, cues.map { Cue(start: $0.start, end: $0.end, text: $0.written) })
            XCTAssertEqual(try SubtitleTrack.streams(path).map(SubtitleTrack.language), [language], path)
            let video = try XCTUnwrap(FFprobe.streams(path).first { $0["codec_type"] as? String == "video" })
            XCTAssertEqual(video["nb_read_frames"] as? String, "45", path)
        }
        XCTAssertEqual(try SubtitleTrack.video(try SubtitleFixture.matroska(store), "start_time"), 1.5, "the Matroska clip starts late")
        for defaultSpanish in [true, false] {
            let path = try SubtitleFixture.twoLanguages(store, defaultSpanish: defaultSpanish)
            let streams = try SubtitleTrack.streams(path)
            XCTAssertEqual(streams.map(SubtitleTrack.language), ["eng", "spa"])
            XCTAssertEqual(streams.map { ($0["disposition"] as? [String: Any])?["default"] as? Int }, [0, defaultSpanish ? 1 : 0])
            XCTAssertEqual(try SubtitleTrack.cues(path, stream: 1).map(\.text), ["Palabras en español"])
        }
        // The Windows-1252 sidecar is not UTF-8 (ffmpeg refuses it as SRT unless told its encoding).
        let clip = try SubtitleFixture.windows1252Sidecar(store)
        let sidecar = store.folder.appendingPathComponent("side-cp1252.srt")
        XCTAssertNil(String(data: try Data(contentsOf: sidecar), encoding: .utf8))
        let read = try SubtitleTrack.cues(sidecar.path, input: ["-sub_charenc", "CP1252"])
        XCTAssertEqual(read, SubtitleFixture.windows1252.map { Cue(start: $0.start, end: $0.end, text: $0.written) })
        XCTAssertTrue(try SubtitleTrack.streams(clip).isEmpty, "the sidecar's clip has no stream of its own")
        _ = try SubtitleFixture.assSidecar(store)
        let ass = try SubtitleTrack.cues(store.folder.appendingPathComponent("side-ass.en.ass").path)
        // ffmpeg's SRT of an ASS script names its style's font too: compare without tags.
        XCTAssertEqual(ass.map { Cue(start: $0.start, end: $0.end, text: SubtitleTrack.untagged($0.text)) },
                       SubtitleFixture.ass.map { Cue(start: $0.start, end: $0.end, text: SubtitleTrack.untagged($0.shown)) })
    }

    func testTheExpectedTrackFollowsTheRulesWrittenOutByHand() throws {
        let three = try threeClips().cues
        // Fades: clips at 0, 1.0 and 2.0 s; each cue cut to its clip's picture; overlaps flattened.
        XCTAssertEqual(PlacedClip.expectedTrack(PlacedClip.sequence(three, join: .overlap(frames: 15)), fps: fps), [
            Cue(start: 300, end: 700, text: "Alpha one"), Cue(start: 900, end: 1000, text: "Alpha <i>two</i>"),
            Cue(start: 1000, end: 1100, text: "Alpha <i>two</i>\nBravo <b>one</b>"), Cue(start: 1100, end: 1300, text: "Bravo <b>one</b>"),
            Cue(start: 1300, end: 1500, text: "Alpha three\nBravo <b>one</b>"), Cue(start: 1700, end: 1900, text: "Bravo two\nline two"),
            Cue(start: 2100, end: 2250, text: "Charlie <i>one</i>"), Cue(start: 2250, end: 2500, text: "Bravo three\nCharlie <i>one</i>"),
            Cue(start: 2500, end: 2600, text: "Charlie <i>one</i>"), Cue(start: 3000, end: 3400, text: "Charlie two")])
        // Freeze: clips at 0, 2.0 and 4.0 s; cues at a clip's edge pictures held over the 0.5 s of held frames.
        XCTAssertEqual(PlacedClip.expectedTrack(PlacedClip.sequence(three, join: .freeze(frames: 15)), fps: fps), [
            Cue(start: 300, end: 700, text: "Alpha one"), Cue(start: 900, end: 1100, text: "Alpha <i>two</i>"),
            Cue(start: 1300, end: 1500, text: "Alpha three"), Cue(start: 1500, end: 2000, text: "Alpha three\nBravo <b>one</b>"),
            Cue(start: 2000, end: 2500, text: "Bravo <b>one</b>"), Cue(start: 2700, end: 2900, text: "Bravo two\nline two"),
            Cue(start: 3250, end: 4000, text: "Bravo three"), Cue(start: 4100, end: 4600, text: "Charlie <i>one</i>"),
            Cue(start: 5000, end: 5400, text: "Charlie two")])
        // Trims: 0.5-1.2 s of the first clip, 0.6 s to the end of the second, cut.
        let trimmed = PlacedClip.sequence([(21, SubtitleFixture.alpha), (27, SubtitleFixture.bravo)], join: .cut, inPoints: [0.5, 0.6])
        XCTAssertEqual(PlacedClip.expectedTrack(trimmed, fps: fps), [
            Cue(start: 0, end: 200, text: "Alpha one"), Cue(start: 400, end: 600, text: "Alpha <i>two</i>"),
            Cue(start: 800, end: 1000, text: "Bravo two\nline two"), Cue(start: 1350, end: 1600, text: "Bravo three")])
        // Clips of 10 frames at 30 fps start on thirds of a second: rounded to the millisecond.
        let ticks = PlacedClip.sequence(Array(repeating: (10, [SourceCue(100, 200, "Tick")]), count: 3), join: .cut)
        XCTAssertEqual(PlacedClip.expectedTrack(ticks, fps: fps).map(\.start), [100, 433, 767])
    }

    func testSRTParsingAndWritingRoundTrip() {
        let cues = [SourceCue(0, 1234, "One"), SourceCue(3_723_004, 3_723_005, "Two\nlines")]
        XCTAssertEqual(SubtitleText.parseSRT(SubtitleText.srt(cues).replacingOccurrences(of: "Two\n", with: "Two\r\n")),
                       [Cue(start: 0, end: 1234, text: "One"), Cue(start: 3_723_004, end: 3_723_005, text: "Two\nlines")])
        XCTAssertEqual(SubtitleText.windows1252("café €"), Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0x80]))
    }

    // MARK: Times: cuts, fades, freeze, trims

    func testCutsGiveOneMovTextTrackHoldingEveryClipsCuesAtTheirNewTimes() throws {
        let (paths, cues) = try threeClips()
        let path = try stitch(paths)
        try assertTrack(path, PlacedClip.sequence(cues, join: .cut))
        // The first clip's stream language; the Matroska clip's 1.5 s start is taken off as for its picture.
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }

    func testFadesCutEachCueToItsClipsPictureAndFlattenWhereCuesOverlap() throws {
        let (paths, cues) = try threeClips()
        let path = try stitch(paths + fade)
        try assertTrack(path, PlacedClip.sequence(cues, join: .overlap(frames: 15)))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }

    func testFreezeHoldsCuesShowingAtAClipsEdgeOverItsHeldFrames() throws {
        let (paths, cues) = try threeClips()
        let path = try stitch(paths + fade + ["--mode", "freeze"])
        try assertTrack(path, PlacedClip.sequence(cues, join: .freeze(frames: 15)))
    }

    func testTrimsMoveCuesByTheInPointAndDropThoseOutsideTheUsedPart() throws {
        let clips: [Any] = [["path": try SubtitleFixture.matroska(store), "in": 0.5, "out": 1.2],
                            ["path": try SubtitleFixture.movText(store), "in": 0.6]]
        let path = try stitch([try store.manifest("subtitles-trims.json", clips: clips)])
        try assertTrack(path, PlacedClip.sequence([(21, SubtitleFixture.alpha), (27, SubtitleFixture.bravo)], join: .cut, inPoints: [0.5, 0.6]))
    }

    func testAClipWithoutSubtitlesBetweenTwoWithLeavesAGapInTheTrack() throws {
        let paths = [try SubtitleFixture.matroska(store), try SubtitleFixture.marker(store, 3), try SubtitleFixture.movText(store)]
        let path = try stitch(paths)
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.alpha), (45, []), (45, SubtitleFixture.bravo)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }

    // MARK: Sidecars, text and languages

    func testAWindows1252SidecarIsReadAsSuchAndKeepsItsBold() throws {
        let path = try stitch([try SubtitleFixture.windows1252Sidecar(store)])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.windows1252)], join: .cut))
        // No language anywhere: und.
        try SubtitleTrack.assertOneMovText(path, language: "und")
    }

    func testAnASSSidecarKeepsItsBoldAndItalicOverridesItsLineBreaksAndNamesItsLanguage() throws {
        let path = try stitch([try SubtitleFixture.assSidecar(store)])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.ass)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }

    func testAManifestSubtitlesFileRelativeToTheManifestWinsOverTheClipsOwnStream() throws {
        // The manifest and its subtitles file in a folder of their own, the clips elsewhere.
        let folder = store.folder.appendingPathComponent("subtitles-manifest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let echo = [SourceCue(200, 900, "Echo <i>one</i>"), SourceCue(1000, 1300, "Echo two")]
        try Data(SubtitleText.webVTT(echo).utf8).write(to: folder.appendingPathComponent("explicit-cues.vtt"))
        let clips: [Any] = [["path": try SubtitleFixture.matroska(store), "subtitles": "explicit-cues.vtt"],
                            ["path": try SubtitleFixture.movText(store)]]
        let path = try stitch([try store.manifest("subtitles-manifest/explicit.json", clips: clips)])
        try assertTrack(path, PlacedClip.sequence([(45, echo), (45, SubtitleFixture.bravo)], join: .cut))
    }

    func testSubtitleLanguageChoosesTheStreamInThatLanguage() throws {
        let clip = try SubtitleFixture.twoLanguages(store, defaultSpanish: true)
        let path = try stitch([clip, "--subtitle-language", "eng"])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.english)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
        // The manifest's output key does the same.
        let list = try store.manifest("subtitles-language.json", clips: [["path": clip]], output: ["subtitleLanguage": "eng"])
        let listed = try stitch([list])
        try assertTrack(listed, PlacedClip.sequence([(45, SubtitleFixture.english)], join: .cut))
        try SubtitleTrack.assertOneMovText(listed, language: "eng")
    }

    func testWithoutAMatchingLanguageTheDefaultFlaggedStreamIsChosen() throws {
        let clip = try SubtitleFixture.twoLanguages(store, defaultSpanish: true)
        let path = try stitch([clip])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.spanish)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "spa")
        // Asked for a language no stream has: the default stream, under the language asked for.
        let french = try stitch([clip, "--subtitle-language", "fra"])
        try assertTrack(french, PlacedClip.sequence([(45, SubtitleFixture.spanish)], join: .cut))
        try SubtitleTrack.assertOneMovText(french, language: "fra")
    }

    func testWithoutAMatchOrADefaultFlagTheFirstStreamIsChosen() throws {
        let path = try stitch([try SubtitleFixture.twoLanguages(store, defaultSpanish: false)])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.english)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }
}
