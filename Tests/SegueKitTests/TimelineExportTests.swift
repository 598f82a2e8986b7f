import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--export-timeline` as a whole: the format from the name, the checks
/// before rendering, what an export holds beyond the cut (facts, titles,
/// music), paths absolute or relative.
final class TimelineExportTests: XCTestCase {
    let store = FixtureStore.shared

    func testTheSceneStitchesAndItsOTIOExportNamesEveryClip() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let exported = scene.folder + "/cut.otio"
        let (output, warnings) = try scene.stitch { $0.exportTimeline = exported }
        XCTAssertEqual(warnings, [])
        let decoded = try DecodedOutput(path: output)
        // 48 + 40 frames at 29.97 (33 at 25) + 24 + 25 + 12 frames, less two 10-frame fades.
        XCTAssertEqual(decoded.pictures.count, 48 + 33 + 24 + 25 + 12 - 20, accuracy: 1)
        let text = try String(contentsOfFile: exported, encoding: .utf8).replacingOccurrences(of: "\\/", with: "/")
        for path in [scene.a, scene.b, scene.c, scene.photo] { XCTAssertTrue(text.contains(path), path) }
    }
}

extension TimelineExportTests {
    /// Debian's `melt` renders the MLT export to the frames Segue rendered:
    /// each whole frame the same clip's same frame (B, at another rate, one
    /// source frame apart at most: melt rounds a frame's time its own way),
    /// each dissolve's frame the same mix of the two clips' greys (within 3).
    func testMeltRendersTheMLTExportToTheSameFrames() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001), Rational(24000, 1001)] {
            let scene = try ExportScene.make(rate: rate)
            let exported = scene.folder + "/cut.mlt"
            let (output, _) = try scene.stitch { $0.exportTimeline = exported }
            let rendered = scene.folder + "/melt.mkv"
            let melt = try Tool.run("melt", ["-quiet", exported, "-consumer", "avformat:" + rendered, "vcodec=ffv1", "acodec=aac"])
            XCTAssertEqual(melt.status, 0, melt.standardError)
            let mine = try DecodedOutput(path: output), theirs = try DecodedOutput(path: rendered)
            XCTAssertEqual(mine.pictures.count, theirs.pictures.count, "frames at \(rate)")
            let reads = mine.pictures.map(Marker.read)
            for (index, (a, b)) in zip(mine.pictures, theirs.pictures).enumerated() {
                let nearB = reads[max(0, index - 12)..<min(reads.count, index + 13)].contains { $0?.clip == 2 }
                if let shown = reads[index], let drawn = Marker.read(b) {
                    XCTAssertTrue(shown.clip == drawn.clip && abs(shown.frame - drawn.frame) <= (shown.clip == 2 ? 1 : 0),
                                  "frame \(index) at \(rate): Segue shows \(shown), melt \(drawn)")
                } else {
                    XCTAssertLessThan(abs(Marker.grey(a) - Marker.grey(b)), 3, "frame \(index) at \(rate): another mix")
                    if !nearB {
                        XCTAssertNil(ExportScene.firstDifference(a, b), "frame \(index) at \(rate)")
                    }
                }
            }
        }
    }
}

// MARK: The command line
extension TimelineExportTests {
    /// A name without a known extension, an export that exists without -y, and
    /// --export-relative alone: exit 2, nothing written.
    func testBadExportRequestsAreRefusedBeforeAnythingIsWritten() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let output = scene.folder + "/out.mp4"
        let refused: [([String], String)] = [
            (["--export-timeline", scene.folder + "/cut.aaf"], ".fcpxml, .xml, .edl, .mlt or .otio"),
            (["--export-relative"], "--export-relative needs --export-timeline"),
            (["--export-timeline", scene.folder + "/same.otio", "--export-otio", scene.folder + "/same.otio"], "name the same file"),
            (["--export-timeline", scene.manifest.replacingOccurrences(of: ".json", with: ".xml"), "--mode", "freeze"], "needs --mode overlap"),
        ]
        for (flags, message) in refused {
            let result = try Tools.segue(["stitch", scene.manifest, "-o", output, "--quiet"] + flags)
            XCTAssertEqual(result.status, 2, "\(flags): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(message), "\(flags): \(result.standardError)")
        }
        let existing = scene.folder + "/kept.fcpxml"
        try "mine".write(toFile: existing, atomically: true, encoding: .utf8)
        let result = try Tools.segue(["stitch", scene.manifest, "-o", output, "--quiet", "--export-timeline", existing])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains(existing), result.standardError)
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "mine")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no output after a refusal")
    }

    /// A stitch that fails while rendering writes no export.
    func testAFailedRenderWritesNoExport() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        // A clip whose bytes stop halfway: probing passes, the render fails under --strict.
        let broken = scene.folder + "/broken.mp4"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scene.c))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: broken))
        let exported = scene.folder + "/cut.mlt"
        let result = try Tools.segue(["stitch", scene.a, broken, "-o", scene.folder + "/out.mp4", "--strict", "--quiet",
                                      "--export-timeline", exported])
        XCTAssertNotEqual(result.status, 0, "a truncated clip under --strict fails")
        XCTAssertFalse(FileManager.default.fileExists(atPath: exported), "an export after a failed render")
    }

    /// `segue plan --export-timeline` writes the cut without rendering: the same file a stitch writes.
    func testPlanWritesTheExportWithoutRendering() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let planned = scene.folder + "/planned.mlt", stitched = scene.folder + "/stitched.mlt"
        let plan = try Tools.segue(["plan", scene.manifest, "-o", scene.folder + "/out.mp4", "--work", scene.folder + "/work",
                                    "--export-timeline", planned, "--quiet"])
        XCTAssertEqual(plan.status, 0, plan.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scene.folder + "/out.mp4"), "plan renders nothing")
        _ = try scene.stitch { $0.exportTimeline = stitched }
        XCTAssertEqual(try String(contentsOfFile: planned, encoding: .utf8), try String(contentsOfFile: stitched, encoding: .utf8))
    }

    /// --export-relative names media from the export's folder; a `--jobs` stitch exports what one process does.
    func testRelativePathsAndSegmentedStitchesExportTheSameCut() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let nested = scene.folder + "/exports/deeper"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        let relative = nested + "/cut.mlt", jobs = scene.folder + "/jobs.mlt", plain = scene.folder + "/plain.mlt"
        _ = try scene.stitch { $0.exportTimeline = relative; $0.exportRelative = true }
        let text = try String(contentsOfFile: relative, encoding: .utf8)
        let name = (scene.c as NSString).lastPathComponent
        let expected = ExportPaths.relative(scene.c, from: nested)
        XCTAssertTrue(expected.hasPrefix("../../") && expected.hasSuffix(name), expected)
        XCTAssertTrue(text.contains("<property name=\"resource\">\(expected)</property>"), text)
        XCTAssertFalse(text.contains(scene.c), "an absolute path in a relative export")
        // melt resolves them from the file's folder: the same frames.
        let melt = try Tool.run("melt", ["-quiet", relative, "-consumer", "avformat:" + scene.folder + "/relative.mkv", "vcodec=ffv1", "an=1"])
        XCTAssertEqual(melt.status, 0, melt.standardError)
        XCTAssertEqual(try DecodedOutput(path: scene.folder + "/relative.mkv").pictures.count, 48 + 33 + 24 + 25 + 13 - 20)

        _ = try scene.stitch { $0.exportTimeline = plain }
        let result = try Tools.segue(["stitch", scene.manifest, "-o", scene.folder + "/jobs.mp4", "--jobs", "2", "--segment-duration", "1",
                                      "--preset", "ultrafast", "--crf", "12", "--export-timeline", jobs, "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try String(contentsOfFile: jobs, encoding: .utf8), try String(contentsOfFile: plain, encoding: .utf8))
    }

    func testRelativePathsClimbOutOfTheExportsFolder() {
        XCTAssertEqual(ExportPaths.relative("/a/b/c.mp4", from: "/a/x/y"), "../../b/c.mp4")
        XCTAssertEqual(ExportPaths.relative("/a/b/c.mp4", from: "/a/b"), "c.mp4")
        XCTAssertEqual(ExportPaths.relative("/a/b/c.mp4", from: "/"), "a/b/c.mp4")
        let paths = ExportPaths(currentFolder: "/work", relativeTo: "/work/out", cachedCopy: { "/cache/" + ($0 as NSString).lastPathComponent })
        XCTAssertEqual(paths.location(of: "clips/a b.mp4"), "../clips/a b.mp4")
        XCTAssertEqual(paths.location(of: "https://example.com/v/b.mp4"), "../../cache/b.mp4")
        XCTAssertEqual(ExportPaths(currentFolder: "/work").location(of: "https://example.com/v/b.mp4"), "https://example.com/v/b.mp4")
    }
}

// MARK: What the rendered timeline carries
extension TimelineExportTests {
    /// A variable-rate medium is warned about once; MLT writes titles as text, the music bed faded at its level.
    func testVariableRateTitlesAndMusicReachTheExport() throws {
        let rate = Rational(25, 1)
        var facts = EditMediaFacts(rate: Rational(30, 1), width: 320, height: 180, seconds: 2)
        facts.variableRate = true
        let clip = EditClip(name: "phone", media: EditMedia(location: "/m/phone.mov", facts: facts, startSeconds: 0),
                            source: EditRange(start: EditTime(value: 0, rate: 25), duration: EditTime(value: 50, rate: 25)))
        var timeline = EditTimeline(rate: rate, items: [.clip(clip), .clip(clip)])
        timeline.format = EditOutputFormat(width: 320, height: 180, sampleRate: 48_000)
        timeline.titles = [EditTitle(kind: .caption, text: "Tom & <Jerry>", start: 10, frames: 20)]
        let bed = EditClip(name: "bed", media: EditMedia(location: "/m/bed.m4a"),
                           source: EditRange(start: EditTime(value: 0, rate: 25), duration: EditTime(value: 100, rate: 25)))
        timeline.music = EditMusicBed(track: EditAudioTrack(name: "Music", items: [.clip(EditAudioClip(clip: bed, level: -12))]),
                                      fadeIn: 1, fadeOut: 2, duck: 12)
        let export = try timeline.exported(as: .mlt)
        XCTAssertEqual(export.warnings.filter { $0.contains("variable frame rate") }.count, 1, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("ducking") }, "\(export.warnings)")
        let text = String(decoding: export.data, as: UTF8.self)
        XCTAssertTrue(text.contains("Tom &amp; &lt;Jerry&gt;"), text)
        XCTAssertTrue(text.contains("<property name=\"level\">-12</property>"), text)
        XCTAssertTrue(text.contains("<property name=\"level\">0=-60;24=0</property>"), "a 1 s fade in at 25 fps: \(text)")
        XCTAssertTrue(text.contains("<property name=\"level\">50=0;99=-60</property>"), "a 2 s fade out: \(text)")
        // The OTIO alias keeps today's shape and says what it leaves out.
        XCTAssertTrue(try timeline.exported(as: .otio).warnings.contains { $0.contains("music bed is not written") })
    }
}

extension TimelineExportTests {
    /// An out point half a frame into a picture: the plan counts that picture (12.5 frames make 13), and the
    /// render shows it rather than holding the one before; an export names the same frames.
    func testAnOutPointHalfAFrameInShowsThatFrame() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let manifest = scene.folder + "/half.json"
        let json: [String: Any] = ["clips": [["path": scene.c, "in": 0.48, "out": 0.98]]]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        var request = StitchRequest(inputs: [manifest], output: store.outputPath())
        request.options.preset = "ultrafast"
        request.exportTimeline = scene.folder + "/half.mlt"
        _ = try StitchJob(request).run()
        let shown = try DecodedOutput(path: request.output).pictures.map { Marker.read($0)?.frame }
        XCTAssertEqual(shown, (12...24).map { $0 })
        let melt = try Tool.run("melt", ["-quiet", scene.folder + "/half.mlt", "-consumer", "avformat:" + scene.folder + "/half.mkv", "vcodec=ffv1", "an=1"])
        XCTAssertEqual(melt.status, 0, melt.standardError)
        XCTAssertEqual(try DecodedOutput(path: scene.folder + "/half.mkv").pictures.map { Marker.read($0)?.frame }, shown)
    }
}

extension TimelineExportTests {
    /// `--music` reaches the export as played: looped to the output at its level, and melt renders it.
    func testTheMusicBedIsExportedAsPlayed() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let exported = scene.folder + "/music.mlt"
        _ = try scene.stitch {
            $0.options.music = scene.c
            $0.exportTimeline = exported
        }
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        // C's 36 frames of sound looped under 123 output frames: 4 pieces, the last 15 frames.
        XCTAssertEqual(text.components(separatedBy: "<playlist id=\"music\">").count, 2, text)
        let music = text.components(separatedBy: "<playlist id=\"music\">")[1].components(separatedBy: "</playlist>")[0]
        XCTAssertEqual(music.components(separatedBy: "<entry ").count - 1, 4, music)
        XCTAssertTrue(music.contains("in=\"0\" out=\"14\""), music)
        XCTAssertTrue(text.contains("<property name=\"level\">-12</property>"), "at --music-volume")
        let melt = try Tool.run("melt", ["-quiet", exported, "-consumer", "avformat:" + scene.folder + "/music.mkv", "vcodec=ffv1", "acodec=aac"])
        XCTAssertEqual(melt.status, 0, melt.standardError)
        XCTAssertEqual(try DecodedOutput(path: scene.folder + "/music.mkv").pictures.count, 123)
    }
}
