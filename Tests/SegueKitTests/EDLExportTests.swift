import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--export-timeline cut.edl`: the scene's video track as a CMX 3600 EDL,
/// judged by OTIO's cmx_3600 adapter (the cut, dissolves as CMX counts
/// them), by Segue stitching it back to the same frames, and by what it
/// refuses (a rate CMX can't count, timecode past 24 hours) before rendering.
final class EDLExportTests: XCTestCase {
    override class func tearDown() {
        ExportedScenes.judge.remove()
        super.tearDown()
    }

    // MARK: The scene

    func testTheCMXAdapterReadsTheSceneAsTheSameCutAtEachRate() throws {
        for rate in XMEMLExportTests.rates {
            let stitched = try ExportedScenes.shared.stitched(rate: rate, format: "edl")
            XCTAssertEqual(stitched.warnings, [], "\(rate)")
            let judged = try ExportedScenes.judged(["edl", stitched.exported, "\(rate.numerator)", "\(rate.denominator)"])
            guard let video = judged.tracks.first(where: { $0.name == "V" }), var cut = SceneCut.read(video) else {
                return XCTFail("\(rate): no video track read")
            }
            // The adapter doesn't read `* SOURCE FILE:` (Segue does): the media are judged by name here.
            var expected = SceneCut(stitched.scene).edl
            for index in expected.clips.indices { expected.clips[index].path = "" }
            for index in cut.clips.indices { cut.clips[index].path = "" }
            XCTAssertEqual(cut, expected, "\(rate): the cut as the cmx_3600 adapter reads it")
            let reels = video.items.compactMap(\.reel)
            XCTAssertEqual(reels.count, 5)
            XCTAssertEqual(reels[0], reels[4], "\(rate): A's reel both times")
            XCTAssertEqual(Set(reels).count, 4, "\(rate): a reel per medium")
            XCTAssertTrue(reels.allSatisfy { $0.count <= 8 && $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } }, "\(reels)")
            XCTAssertEqual(judged.tracks.filter { $0.kind == "Audio" }.map(\.name), ["A1", "A2"], "\(rate): AA/V events")
        }
    }

    func testAt2997TheEDLCountsDropFrame() throws {
        let ntsc = try String(contentsOfFile: ExportedScenes.shared.stitched(rate: Rational(30000, 1001), format: "edl").exported, encoding: .utf8)
        let lines = ntsc.split(separator: "\n")
        XCTAssertEqual(lines.prefix(2).last, "FCM: DROP FRAME")
        XCTAssertTrue(lines[2].hasPrefix("001  "), String(lines[2]))
        // A shows 42 frames between its cuts, 36 before the dissolve into B starts (at its cut, as CMX counts).
        XCTAssertTrue(lines[2].hasSuffix(" 01:00:00;00 01:00:01;06 01:00:00;00 01:00:01;06"), String(lines[2]))
        let pal = try String(contentsOfFile: ExportedScenes.shared.stitched(rate: Rational(25, 1), format: "edl").exported, encoding: .utf8)
        XCTAssertTrue(pal.contains("\nFCM: NON-DROP FRAME\n"))
        XCTAssertFalse(pal.contains(";"))
    }

    func testTheExportStitchesBackToTheSameFrames() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001)] {
            let stitched = try ExportedScenes.shared.stitched(rate: rate, format: "edl")
            var request = StitchRequest(inputs: [stitched.exported], output: FixtureStore.shared.outputPath())
            request.options.preset = "ultrafast"
            request.options.crf = 12
            request.options.frameRate = rate
            var warnings: [String] = []
            _ = try StitchJob(request).run { if case .warning(let text) = $0 { warnings.append(text) } }
            let original = try DecodedOutput(path: stitched.output)
            assertSameFrames(original, try DecodedOutput(path: request.output), "EDL at \(rate)")
        }
    }

    // MARK: Timecode

    func testDropFrameLabelsSkipTwoNumbersAMinuteButEveryTenth() {
        let counter = Timecode(rate: Rational(30000, 1001), dropFrame: true)
        XCTAssertEqual(counter.label(1800), "00:01:00;02")
        XCTAssertEqual(counter.label(1799), "00:00:59;29")
        XCTAssertEqual(counter.label(17_982), "00:10:00;00")
        XCTAssertEqual(counter.label(107_892), "01:00:00;00")
        XCTAssertEqual(counter.framesPerDay, 2_589_408)
        XCTAssertEqual(counter.label(counter.framesPerDay - 1), "23:59:59;29")
        XCTAssertEqual(Timecode(rate: Rational(60000, 1001), dropFrame: true).label(3600), "00:01:00;04")
        XCTAssertEqual(Timecode(rate: Rational(25, 1), dropFrame: true).label(90_000), "01:00:00:00", "25 fps never drops")
        XCTAssertEqual(Timecode(rate: Rational(24000, 1001), dropFrame: true).label(86_400), "01:00:00:00", "23.976 counts at 24")
        for rate in [Rational(30000, 1001), Rational(60000, 1001), Rational(25, 1), Rational(24000, 1001)] {
            let timecode = Timecode(rate: rate, dropFrame: true)
            for frames in Array(0..<40_000).filter({ $0 % 7 == 0 || $0 % 1798 < 4 }).map(Int64.init) + [timecode.framesPerDay - 1] {
                XCTAssertEqual(timecode.frames(Substring(timecode.label(frames))), frames, "\(rate): \(timecode.label(frames))")
            }
        }
    }

    // MARK: Refused

    /// A clip of `frames` frames at 25 fps from source frame `start`, named `name`.
    private func clip(_ name: String, start: Int64, frames: Int64, path: String = "/media/a.mov") -> EditItem {
        .clip(EditClip(name: name, media: EditMedia(location: path), source: EditRange(
            start: EditTime(value: Double(start), rate: 25), duration: EditTime(value: Double(frames), rate: 25))))
    }

    func testARecordTimecodePastTwentyFourHoursIsRefusedNamingIt() throws {
        let fiveHours: Int64 = 5 * 3600 * 25
        var late = EditTimeline(rate: Rational(25, 1), items: [clip("long", start: 0, frames: fiveHours)], start: EditTime(value: 20 * 3600 * 25, rate: 25))
        XCTAssertThrowsError(try late.exported(as: .edl)) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("23:59:59:24") && message.contains("20:00:00:00"), message)
        }
        late.start = nil
        let fits = try String(decoding: late.exported(as: .edl).data, as: UTF8.self)
        XCTAssertTrue(fits.contains(" 01:00:00:00 06:00:00:00\n"), fits)
    }

    func testASourceTimecodePastTwentyFourHoursIsRefusedNamingTheEvent() {
        let timeline = EditTimeline(rate: Rational(25, 1), items: [clip("midnight", start: 24 * 3600 * 25 - 25, frames: 48)])
        XCTAssertThrowsError(try timeline.exported(as: .edl)) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("event 001 (clip 'midnight'): its source out") && message.contains("source out") && message.contains("24:00:00:23"), message)
        }
    }

    func testTheCommandRefusesAnEDLPastMidnightBeforeRenderingAndWritesNothing() throws {
        let plain = try FixtureStore.shared.path("edl-midnight-plain.mp4", MarkerClip(clip: 1, frames: 48, frameRate: Rational(25, 1)))
        let late = try FixtureStore.shared.path("edl-midnight.mov") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", plain, "-c", "copy", "-timecode", "23:59:59:00", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-edl-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Tools.segue(["stitch", late, "-o", folder + "/out.mp4", "--export-timeline", folder + "/cut.edl", "--quiet"])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("cut.edl") && result.standardError.contains("source out"), result.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing written")
    }

    func testARateCMXCantCountIsRefused() {
        XCTAssertThrowsError(try EditTimeline(rate: Rational(25, 2), items: [clip("a", start: 0, frames: 10)]).exported(as: .edl)) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("12.5 fps"), message)
        }
    }

    // MARK: What an EDL holds

    func testALineBreakInANameIsNeverWrittenRaw() throws {
        let timeline = EditTimeline(name: "reel\none", rate: Rational(25, 1), items: [
            clip("two\nlines", start: 0, frames: 10), clip("tab\there\r", start: 0, frames: 10, path: "/media/b.mov"),
        ])
        let text = try String(decoding: timeline.exported(as: .edl).data, as: UTF8.self)
        XCTAssertFalse(text.contains("two\n") || text.contains("\t") || text.contains("\r"), text)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            XCTAssertTrue(line.hasPrefix("TITLE: ") || line.hasPrefix("FCM: ") || line.hasPrefix("* ") || line.first?.isNumber == true, "\(line)")
        }
        let read = try EditTimeline.parseCMX3600(text, rate: Rational(25, 1))
        XCTAssertEqual(read.name, "reel one")
        XCTAssertEqual(read.items.compactMap { if case .clip(let clip) = $0 { return clip.name } else { return nil } }, ["two lines", "tab here"])
    }

    func testWhatAnEDLCantHoldIsLeftOutWithAWarningEach() throws {
        var timeline = EditTimeline(rate: Rational(25, 1), items: [clip("a", start: 0, frames: 25)])
        timeline.videoTracks = [EditVideoTrack(name: "V1", items: timeline.items), EditVideoTrack(name: "V2", items: [clip("pip", start: 0, frames: 10)])]
        timeline.titles = [EditTitle(kind: .caption, text: "hello", start: 0, frames: 10)]
        timeline.audioTracks = [EditAudioTrack(name: "A1")]
        timeline.music = EditMusicBed(track: EditAudioTrack(name: "Music"), fadeIn: 1, fadeOut: 2, duck: 12)
        let warnings = try timeline.exported(as: .edl).warnings
        XCTAssertEqual(warnings.count, 4, "\(warnings)")
        for word in ["title", "video track", "sound track", "music"] {
            XCTAssertEqual(warnings.filter { $0.contains(word) }.count, 1, "\(word): \(warnings)")
        }
    }

    func testSpeedWipesChaptersAndGapsReadBackThroughBothReaders() throws {
        let export = try FullTimeline.make().exported(as: .edl)
        XCTAssertEqual(export.warnings.count, 3, "titles, V2, music: \(export.warnings)")
        let text = String(decoding: export.data, as: UTF8.self)
        let motion = text.split(separator: "\n").first { $0.hasPrefix("M2 ") }.map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(motion, ["M2", "A", "012.5", "01:00:00:10"], "half speed at 25 fps is 12.5 fps from the clip's source in")
        let read = try EditTimeline.parseCMX3600(text, rate: FullTimeline.rate)
        XCTAssertEqual(read.name, "Full & <all>")
        XCTAssertEqual(read.start, EditTime(value: 90_000, rate: 25))
        // Each dissolve (here SMPTE wipe 1, xfade's wiperight) starts at its cut, over both halves.
        XCTAssertEqual(read.items.map(\.described), ["clip slow 90010 16 x0.5", "wipe(1) 0 8", "clip silent 1 34", "gap 10", "clip last 90100 15"])
        XCTAssertEqual(read.markers, [EditMarker(name: "Two", time: EditTime(value: 20, rate: 25))])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("segue-full-\(UUID().uuidString.prefix(8)).edl")
        try export.data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let judged = try ExportedScenes.judged(["edl", file.path, "25", "1"])
        let video = judged.tracks.first { $0.name == "V" }?.items ?? []
        XCTAssertEqual(video.map { $0.kind + " " + ($0.cmx ?? $0.name ?? "") }, ["clip slow", "transition W001", "clip silent", "gap ", "clip last"])
        XCTAssertEqual(video.first?.effects, ["LinearTimeWarp:0.5"])
        XCTAssertEqual(judged.tracks.map(\.name), ["V", "A1", "A2"], "AA/V for the clips with sound, V for the silent one")
    }
}
