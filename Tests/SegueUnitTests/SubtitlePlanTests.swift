import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Where the clips' cues land on the output: placed by each clip's
/// start and in point, cut to its time on screen, held with a freeze's held
/// pictures, and flattened where they overlap. Pure planning: no files.
final class SubtitlePlanTests: XCTestCase {
    func clip(_ name: String, seconds: Double, cues: [(Double, Double, String)], inPoint: Double = 0) -> ClipInfo {
        var info = ClipInfo(path: name, container: "mp4", videoCodec: "h264", codedWidth: 320, codedHeight: 180,
                            sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p",
                            duration: seconds + inPoint, audio: nil)
        info.trim(inPoint: inPoint, outPoint: nil)
        info.subtitles = ClipSubtitles(source: "\(name).srt", language: "eng",
                                       cues: cues.map { SegueKit.Cue(start: $0.0, end: $0.1, text: $0.2, event: "0,Default,,0,0,0,,\($0.2)") })
        return info
    }

    func track(_ clips: [ClipInfo], transition: TransitionKind = .none, seconds: Double? = nil,
               mode: TransitionMode = .overlap) throws -> [TrackCue] {
        var settings = StitchSettings()
        settings.transition = transition
        settings.transitionDuration = seconds
        settings.mode = mode
        return try XCTUnwrap(Plan(clips: clips, settings: settings).subtitleTrack(settings)).cues
    }

    func testCutsMoveEachCueByItsClipsStart() throws {
        let cues = try track([clip("a", seconds: 2, cues: [(0.2, 0.8, "A1"), (1.5, 1.9, "A2")]),
                              clip("b", seconds: 2, cues: [(0.1, 0.6, "B1")])])
        XCTAssertEqual(cues, [TrackCue(start: 200, end: 800, text: "A1"), TrackCue(start: 1500, end: 1900, text: "A2"),
                              TrackCue(start: 2100, end: 2600, text: "B1")])
    }

    func testOverlapCutsCuesToTheirPicturesAndFlattensWhereBothShow() throws {
        // b starts at 1.5 s (a 0.5 s fade); a's cue runs past its end, b's starts before b does (it can't: 0 is b's start).
        let cues = try track([clip("a", seconds: 2, cues: [(1.2, 2.5, "A")]), clip("b", seconds: 2, cues: [(0.0, 0.4, "B")])],
                             transition: .fade, seconds: 0.5)
        XCTAssertEqual(cues, [TrackCue(start: 1200, end: 1500, text: "A"), TrackCue(start: 1500, end: 1900, text: "A\nB"),
                              TrackCue(start: 1900, end: 2000, text: "A")])
    }

    func testFreezeHoldsACueShowingOnAHeldPicture() throws {
        // 0.5 s of held pictures between a (0-2 s) and b (2.5-4.5 s).
        let cues = try track([clip("a", seconds: 2, cues: [(1.5, 3.0, "A")]), clip("b", seconds: 2, cues: [(0.0, 0.5, "B"), (1.0, 1.2, "C")])],
                             transition: .fade, seconds: 0.5, mode: .freeze)
        XCTAssertEqual(cues, [TrackCue(start: 1500, end: 2000, text: "A"), TrackCue(start: 2000, end: 2500, text: "A\nB"),
                              TrackCue(start: 2500, end: 3000, text: "B"), TrackCue(start: 3500, end: 3700, text: "C")])
    }

    func testTrimsTakeTheInPointOffAndDropCuesOutsideTheUsedPart() throws {
        let cues = try track([clip("a", seconds: 1, cues: [(0.5, 1.2, "before"), (1.5, 1.8, "in"), (3.0, 3.5, "after")], inPoint: 1)])
        XCTAssertEqual(cues, [TrackCue(start: 0, end: 200, text: "before"), TrackCue(start: 500, end: 800, text: "in")])
    }

    func testHundredsOfJoinsDoNotDrift() throws {
        // 300 clips of 1001/30000 s frames: each clip 10 frames; the last cue sits exactly where frame counting puts it.
        var clips: [ClipInfo] = []
        for index in 0..<300 {
            var info = clip("c\(index)", seconds: 10 * 1001 / 30000, cues: [(0.1, 0.2, "\(index)")])
            info.facts.frameRate = Rational(30000, 1001)
            clips.append(info)
        }
        var settings = StitchSettings()
        settings.frameRate = Rational(30000, 1001)
        let cues = try XCTUnwrap(Plan(clips: clips, settings: settings).subtitleTrack(settings)).cues
        XCTAssertEqual(cues.count, 300)
        XCTAssertEqual(cues.last, TrackCue(start: Int((2990 * 1001.0 / 30 + 100).rounded()), end: Int((2990 * 1001.0 / 30 + 200).rounded()),
                                           text: "299"))
    }

    func testNoneAndBurnWriteNoTrackAndTheLanguageComesFromTheFirstSubtitledClip() throws {
        var settings = StitchSettings()
        var silent = clip("a", seconds: 1, cues: [])
        silent.subtitles = nil
        var french = clip("b", seconds: 1, cues: [(0, 0.5, "Bonjour")])
        french.subtitles?.language = "fra"
        let plan = try Plan(clips: [silent, french], settings: settings)
        XCTAssertEqual(plan.subtitleTrack(settings)?.language, "fra")
        settings.subtitleLanguage = "eng"
        XCTAssertEqual(plan.subtitleTrack(settings)?.language, "eng")
        settings.subtitles = .none
        XCTAssertNil(plan.subtitleTrack(settings))
        settings.subtitles = .burn
        XCTAssertNil(plan.subtitleTrack(settings))
    }

    func testSmartReencodesAClipWhoseCuesAreBurnedAndSaysWhy() throws {
        var settings = StitchSettings()
        let subtitled = clip("a", seconds: 1, cues: [(0, 0.5, "Hello")])
        let plan = try Plan(clips: [subtitled], settings: settings)
        settings.subtitles = .burn
        XCTAssertEqual(SmartPlan.disqualification(plan.clips[0], canvas: plan.canvas, settings: settings, form: .init()), .burnedSubtitles)
        XCTAssertEqual(NotCopied.burnedSubtitles.description, "its subtitles are burned into its pictures (--subtitles burn)")
        // A soft track changes no picture: the clip is judged on its video alone.
        settings.subtitles = .auto
        XCTAssertNotEqual(SmartPlan.disqualification(plan.clips[0], canvas: plan.canvas, settings: settings, form: .init()), .burnedSubtitles)
    }

    func testCueTextIsPlainAndAssEventsSplitAtTheirEighthComma() {
        XCTAssertEqual(CueText.plain("{\\i1}Hello{\\i0}\\Nworld\\h!"), "Hello\nworld !")
        XCTAssertEqual(CueText.plain("literal \\{brace\\} and C:\\path"), "literal {brace} and C:\\path")
        let cue = SegueKit.Cue(start: 1.5, end: 2.25, text: "a, b", event: "0,Default,,0,0,0,,a, b")
        let burned = BurnedCue.onGraphClock([cue], clip: clip("a", seconds: 4, cues: [], inPoint: 1))
        XCTAssertEqual(burned, [BurnedCue(start: "0:00:00.50", end: "0:00:01.25", layer: "0", fields: "Default,,0,0,0,", text: "a, b")])
        // At 2x the file's half second after the in point plays a quarter second in; a freeze shows what its in point shows throughout.
        var fast = clip("a", seconds: 4, cues: [], inPoint: 1)
        fast.use.speed = PlaybackSpeed(2)
        XCTAssertEqual(BurnedCue.onGraphClock([cue], clip: fast).map(\.start), ["0:00:00.25"])
        XCTAssertEqual(BurnedCue.onGraphClock([cue], clip: fast).map(\.end), ["0:00:00.63"])
        var frozen = clip("a", seconds: 4, cues: [], inPoint: 1.5)
        frozen.use.speed = PlaybackSpeed(0)
        XCTAssertEqual(BurnedCue.onGraphClock([cue], clip: frozen).map { [$0.start, $0.end] }, [["0:00:00.00", "0:00:04.00"]])
        frozen.use.inPoint = 1
        XCTAssertEqual(BurnedCue.onGraphClock([cue], clip: frozen), [], "a cue that starts after a freeze's frame never shows")
    }

    func testSidecarNamesAreFoundAsPlayersLookForThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sidecars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["clip.mp4", "clip.srt", "clip.en.srt", "clip.fra.vtt", "clip.notes.srt", "clipper.srt", "clip.txt", "other.ass"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let found = ClipSubtitleReader.sidecars(of: folder.appendingPathComponent("clip.mp4").path).map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(found, ["clip.srt", "clip.en.srt", "clip.fra.vtt"])
        XCTAssertEqual(Language.code(ClipSubtitleReader.sidecarLanguage("/x/clip.en.srt", clip: "/x/clip.mp4")), "eng")
        // Matroska's bibliographic codes match the terminology codes MP4 and --subtitle-language use.
        XCTAssertEqual(["ger", "fre", "pt-BR", "und", "english", "spa"].map(Language.code), ["deu", "fra", "por", nil, nil, "spa"])
    }
}
