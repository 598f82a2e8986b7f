import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The transition catalogue: every xfade transition by its own
/// name, each join frame the picture the ffmpeg CLI's own `xfade` draws for
/// the same progress, in overlap and freeze modes, per join, with `--smart`;
/// `random`; `segue transitions` and its previews.
///
/// The reference is the ffmpeg CLI on the same two clips. Segue draws join
/// frame k of N at progress (k + 1) / (N + 1) of the way to the next clip,
/// as its fade does; xfade draws its frame j after `offset` at 1 - j /
/// duration. So the reference runs xfade for N + 1 frames, starting one frame
/// before the join (j = k + 1), with the next clip's first picture cloned once
/// in front so that xfade's frame j pairs it with that clip's picture k (in
/// freeze mode the held pictures are clones on both sides). FFmpeg 5.1's
/// xfade drops its last frames when its first input ends first: the first
/// clip's last picture is held on (tpad) in the reference.
final class TransitionCatalogueTests: XCTestCase, LosslessClips {
    let store = FixtureStore.shared
    typealias Size = (width: Int, height: Int)
    static let size: Size = (320, 180)
    static let frameRate = 25

    /// A shape of each kind: a wipe, a circle, dissolve,
    /// pixelize, radial, a smooth wipe, a slice, squeeze, zoomin, fadeblack.
    static let spread = ["wipeleft", "circleopen", "dissolve", "pixelize", "radial", "smoothleft", "hlslice", "squeezeh",
                         "zoomin", "fadeblack"]

    // MARK: Fixtures

    /// The same pictures coded like a phone's (H.264 High, a keyframe every 25 frames, B-frames), for `--smart`.
    func phoneClip(_ source: String) throws -> String {
        let lossless = try clip(source)
        return try store.path("xfade-phone-\(source).mp4") { path in
            try ffmpeg(["-i", lossless, "-c:v", "libx264", "-profile:v", "high", "-preset", "fast", "-crf", "16", "-pix_fmt", "yuv420p",
                        "-x264-params", "keyint=25:min-keyint=25:bframes=2:scenecut=0",
                        "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", path])
        }
    }

    /// The pictures the ffmpeg CLI's xfade draws for a join of `frames` frames
    /// from `from` (`length` frames) to `to` in `mode`, at the places they take
    /// in Segue's output (overlap: from `length - frames`; freeze: from `length`).
    func reference(_ transition: String, from: String, to: String, length: Int = 50, frames: Int,
                   mode: TransitionMode = .overlap, size: Size = size) throws -> [[UInt8]] {
        let key = "\(transition)-\((from as NSString).lastPathComponent)-\((to as NSString).lastPathComponent)-\(frames)-\(mode)"
        let raw = try store.path("xfade-reference-\(key).yuv") { path in
            // xfade's frame j = 0 is one frame before the join: all outgoing.
            let offset = mode == .overlap ? length - frames - 1 : length - 1
            let clonedIn = mode == .overlap ? 1 : frames + 1
            let rate = Double(Self.frameRate)
            let graph = "[0:v]tpad=stop_mode=clone:stop=\(frames + 3)[a];[1:v]tpad=start=\(clonedIn):start_mode=clone[b];"
                + "[a][b]xfade=transition=\(transition):duration=\(Double(frames + 1) / rate):offset=\(Double(offset) / rate),format=yuv420p"
            try ffmpeg(["-i", from, "-i", to, "-filter_complex", graph, "-f", "rawvideo", path])
        }
        let all = split(try Data(contentsOf: URL(fileURLWithPath: raw)), size: size)
        let first = mode == .overlap ? length - frames : length
        return Array(all[first..<(first + frames)])
    }

    /// Mean absolute difference of two pictures over all three planes.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0
        for index in a.indices { sum += abs(Int(a[index]) - Int(b[index])) }
        return Double(sum) / Double(a.count)
    }

    /// The mean absolute difference of each join frame of `output` (from `start`) from `reference`'s.
    static func joinDifferences(_ output: [[UInt8]], start: Int, _ reference: [[UInt8]]) -> [Double] {
        reference.indices.map { difference(output[start + $0], reference[$0]) }
    }

    // MARK: Frame-exact against the CLI's xfade

    func testEveryJoinFrameIsTheFFmpegCLIsXfadePictureForASpreadOfShapes() throws {
        let a = try clip("testsrc"), b = try clip("testsrc2")
        for transition in Self.spread {
            let (plan, output) = try stitch([a, b], transition, frames: 10)
            XCTAssertEqual(output.count, 90, "\(transition): 50 + 50 frames less a 10-frame overlap")
            XCTAssertEqual(plan.joins[0].frameCount, 10)
            let differences = Self.joinDifferences(output, start: 40, try reference(transition, from: a, to: b, frames: 10))
            // Lossless both sides: measured 0 for every frame; 0.5 leaves room for nothing but rounding.
            XCTAssertLessThanOrEqual(differences.max() ?? .infinity, 0.5, "\(transition): \(differences)")
            // The frames around the join are the clips' own.
            XCTAssertEqual(Self.difference(output[39], try pictures(a)[39]), 0, accuracy: 0.5, "\(transition): the frame before the join")
        }
    }

    func testEveryXfadeTransitionIsFrameExactOnSmallPictures() throws {
        // Every name of the library, on 96x54 pictures: 20 + 20 frames with a 5-frame join.
        let tiny: Size = (96, 54)
        let a = try clip("testsrc", frames: 20, size: tiny), b = try clip("testsrc2", frames: 20, size: tiny)
        for transition in XfadeGraph.transitionNames.map(\.name) where transition != "fade" {
            let (_, output) = try stitch([a, b], transition, frames: 5, size: tiny)
            XCTAssertEqual(output.count, 35, transition)
            let expected = try reference(transition, from: a, to: b, length: 20, frames: 5, size: tiny)
            XCTAssertLessThanOrEqual(Self.joinDifferences(output, start: 15, expected).max() ?? .infinity, 0.5, transition)
        }
    }

    func testTheComparisonFailsWhenAnotherTransitionIsDrawn() throws {
        let a = try clip("testsrc"), b = try clip("testsrc2")
        let (_, output) = try stitch([a, b], "wipeleft", frames: 10)
        XCTAssertLessThanOrEqual(Self.joinDifferences(output, start: 40, try reference("wipeleft", from: a, to: b, frames: 10)).max()!, 0.5)
        // The same join checked against other transitions' pictures: clearly not them.
        for other in ["wiperight", "circleopen", "dissolve", "slideleft", "smoothleft"] {
            let differences = Self.joinDifferences(output, start: 40, try reference(other, from: a, to: b, frames: 10))
            XCTAssertGreaterThan(differences.max()!, 8, "wipeleft drawn where \(other) is expected would pass: \(differences)")
        }
        // And a frame off in progress (the reference one frame later) fails too.
        let late = try reference("wipeleft", from: a, to: b, frames: 10)
        let shifted = (0..<9).map { Self.difference(output[40 + $0], late[$0 + 1]) }
        XCTAssertGreaterThan(shifted.max()!, 3, "a join drawn one step late would pass: \(shifted)")
    }

    func testFreezeModeDrawsXfadeBetweenTheHeldPictures() throws {
        let a = try clip("testsrc"), b = try clip("testsrc2")
        for transition in ["circleopen", "wipeup", "zoomin"] {
            let (_, output) = try stitch([a, b], transition, frames: 7, mode: .freeze)
            XCTAssertEqual(output.count, 107, "\(transition): 50 + 7 held + 50 frames")
            let differences = Self.joinDifferences(output, start: 50, try reference(transition, from: a, to: b, frames: 7, mode: .freeze))
            XCTAssertLessThanOrEqual(differences.max() ?? .infinity, 0.5, "\(transition): \(differences)")
            // No content lost: the last picture of one clip and the first of the next play whole.
            XCTAssertEqual(Self.difference(output[49], try pictures(a)[49]), 0, accuracy: 0.5)
            XCTAssertEqual(Self.difference(output[57], try pictures(b)[0]), 0, accuracy: 0.5)
        }
    }

    func testAManifestGivesEachJoinItsOwnTransitionAndTheReportNamesThem() throws {
        let a = try clip("testsrc"), b = try clip("testsrc2"), c = try clip("rgbtestsrc")
        let manifest = store.folder.appendingPathComponent("xfade-joins.json").path
        try """
            {
              "clips": [
                {"path": "\((a as NSString).lastPathComponent)", "join": {"transition": "wipeleft", "duration": 0.4}},
                {"path": "\((b as NSString).lastPathComponent)", "join": {"duration": 0.2}},
                "\((c as NSString).lastPathComponent)"
              ],
              "output": {"transition": "zoomin", "crf": 0, "preset": "ultrafast", "audio": false}
            }
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let output = store.outputPath("xfade-manifest"), reportPath = store.folder.appendingPathComponent("xfade-manifest.json").path
        let result = try SegueTool.run(["stitch", manifest, "-o", output, "-y", "--quiet", "--report", reportPath])
        XCTAssertEqual(result.status, 0, result.standardError)
        let decoded = try pictures(output)
        XCTAssertEqual(decoded.count, 150 - 10 - 5)
        // Join 1: a → b, a 10-frame wipe from frame 40; join 2: b → c, a 5-frame zoom where b's last 5 frames play.
        XCTAssertLessThanOrEqual(Self.joinDifferences(decoded, start: 40, try reference("wipeleft", from: a, to: b, frames: 10)).max()!, 0.5)
        XCTAssertLessThanOrEqual(Self.joinDifferences(decoded, start: 85, try reference("zoomin", from: b, to: c, frames: 5)).max()!, 0.5)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any])
        let joins = try XCTUnwrap(report["joins"] as? [[String: Any]])
        XCTAssertEqual(joins.compactMap { $0["transition"] as? String }, ["wipeleft", "zoomin"])
        XCTAssertEqual(joins.compactMap { $0["frames"] as? Int }, [10, 5])
    }

    func testSmartReencodesOnlyTheGOPsAWipeTouches() throws {
        let a = try phoneClip("testsrc"), b = try phoneClip("testsrc2")
        var settings = StitchSettings()
        settings.transition = try XCTUnwrap(TransitionKind(name: "circleclose"))
        settings.transitionDuration = 0.4
        settings.includeAudio = false
        settings.preset = "ultrafast"
        settings.crf = 12
        settings.smart = true
        let (_, report, path) = try store.stitch([a, b].map { ClipEntry(path: $0) }, settings: settings)
        // 10 join frames: a's last GOP (frames 25-49) and b's first (0-24) are decoded and drawn; the rest is copied.
        XCTAssertEqual(report.smart?.map(\.framesCopied), [25, 25])
        let output = try pictures(path)
        XCTAssertEqual(output.count, 90)
        let differences = Self.joinDifferences(output, start: 40, try reference("circleclose", from: a, to: b, frames: 10))
        XCTAssertLessThanOrEqual(differences.max()!, 2, "within encoder noise: \(differences)")
    }

    func testTransitionsWorkFromAPhotoWithZoomIntoAClipOfAnotherShape() throws {
        let photo = try store.path("xfade-photo.png") { path in
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=400x300", "-frames:v", "1", path])
        }
        let portrait = try store.path("xfade-portrait.mp4") { path in
            try ffmpeg(["-f", "lavfi", "-i", "smptebars=s=180x320:r=25", "-frames:v", "50", "-c:v", "libx264", "-preset", "ultrafast",
                        "-pix_fmt", "yuv420p", path])
        }
        let a = try clip("testsrc")
        let (plan, output) = try stitch([a, photo, portrait], "radial", frames: 10) { $0.stillMotion = .zoom }
        XCTAssertEqual(plan.canvas.width, 320)
        // 50 + 75 (a photo lasts 3 s unless its entry says) + 50 frames, less two 10-frame joins.
        XCTAssertEqual(output.count, 175 - 20)
        // Each join frame is a mix: unlike the frames on either side of it.
        for join in [40, 105] {
            for step in [2, 5, 8] {
                XCTAssertGreaterThan(Self.difference(output[join + step], output[join - 1]), 2, "join at \(join), step \(step)")
                XCTAssertGreaterThan(Self.difference(output[join + step], output[join + 10]), 2, "join at \(join), step \(step)")
            }
        }
    }

    // MARK: Names, defaults, random

    func testAnXfadeTransitionWithoutADurationLastsOneSecond() throws {
        let a = try clip("testsrc"), b = try clip("testsrc2")
        let clips = try [a, b].map { try Prober.probe(ClipEntry(path: $0)).get() }
        var settings = StitchSettings()
        settings.transition = try XCTUnwrap(TransitionKind(name: "wipetl"))
        let plan = try Plan(clips: clips, settings: settings)
        XCTAssertEqual(plan.joins[0].frameCount, 25)
        XCTAssertEqual(plan.totalFrames, 75)
    }

    func testRandomPicksTheSameTransitionPerJoinOnEveryRunAndTheReportNamesThem() throws {
        let paths = try ["testsrc", "testsrc2", "rgbtestsrc", "smptebars"].map { try clip($0, frames: 25) }
        var picks: [[String]] = []
        for run in 0..<2 {
            let reportPath = store.folder.appendingPathComponent("xfade-random-\(run).json").path
            let result = try SegueTool.run(["stitch"] + paths + ["-o", store.outputPath("xfade-random-\(run)"), "-y", "--quiet",
                                            "--transition", "random", "--transition-duration", "0.2", "--no-audio",
                                            "--preset", "ultrafast", "--report", reportPath])
            XCTAssertEqual(result.status, 0, result.standardError)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any])
            picks.append(try XCTUnwrap(report["joins"] as? [[String: Any]]).compactMap { $0["transition"] as? String })
        }
        XCTAssertEqual(picks[0].count, 3)
        XCTAssertEqual(picks[0], picks[1], "a rerun picks the same")
        // Each pick is a real transition, the one the library's pick gives for the join.
        for (index, pick) in picks[0].enumerated() {
            XCTAssertEqual(pick, TransitionCatalogue.pick(join: index, from: paths[index], to: paths[index + 1]).rawValue)
            XCTAssertNotEqual(pick, "random")
            XCTAssertNotEqual(pick, "none")
        }
        // Picks spread over the catalogue: many joins don't all get one transition.
        let many = Set((0..<40).map { TransitionCatalogue.pick(join: $0, from: "a.mp4", to: "b.mp4") })
        XCTAssertGreaterThan(many.count, 15)
    }

    // MARK: The command line

    func testSegueTransitionsListsEveryAcceptedNameFirstOnItsLine() throws {
        let result = try SegueTool.run(["transitions"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let names = lines.map { String($0.prefix { $0 != " " }) }
        let expected = ["none", "fade", "slide", "slide-left", "slide-right", "slide-up", "slide-down"]
            + XfadeGraph.transitionNames.map(\.name).filter { $0 != "fade" && TransitionShape(rawValue: $0) == nil }
            + TransitionShape.allCases.map(\.rawValue) + GLEffect.allCases.map(\.transitionName) + ["random"]
        XCTAssertEqual(names, expected)
        for (line, name) in zip(lines, names) {
            XCTAssertNotNil(TransitionKind(name: name), "\(name) is listed but not accepted")
            XCTAssertGreaterThan(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).count, 8, "a few words on \(name)")
        }
    }

    func testPreviewWritesOnePNGStripPerTransition() throws {
        let folder = store.folder.appendingPathComponent("xfade-previews-\(UUID().uuidString)").path
        let result = try SegueTool.run(["transitions", "--preview", folder])
        XCTAssertEqual(result.status, 0, result.standardError)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(files, TransitionCatalogue.pickable.map { "\($0.rawValue).png" }.sorted())
        // Five 192x108 pictures, 4 pixels apart, as an RGB PNG.
        let streams = try FFprobe.streams(folder + "/circleopen.png", entries: "stream=codec_name,width,height,pix_fmt")
        XCTAssertEqual(streams.first?["codec_name"] as? String, "png")
        XCTAssertEqual(streams.first?["width"] as? Int, 5 * 192 + 4 * 4)
        XCTAssertEqual(streams.first?["height"] as? Int, 108)
        XCTAssertEqual(streams.first?["pix_fmt"] as? String, "rgb24")
        // A wipe's strip goes from the first picture to the second: its first and last frames differ from each other.
        let raw = folder + "/wipeleft.gray"
        try ffmpeg(["-i", folder + "/wipeleft.png", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let gray = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        var sum = 0
        for y in 0..<108 { for x in 0..<192 { sum += abs(Int(gray[y * 976 + x]) - Int(gray[y * 976 + 4 * 196 + x])) } }
        XCTAssertGreaterThan(Double(sum) / Double(108 * 192), 20, "the first and last frames of a wipe look alike")
    }

    func testAnUnknownTransitionIsExit2PointingAtTheList() throws {
        let a = try clip("testsrc")
        let output = store.outputPath("xfade-unknown")
        let result = try SegueTool.run(["stitch", a, a, "-o", output, "--transition", "wipe"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("unknown transition 'wipe'") && result.standardError.contains("segue transitions"),
                      result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        // The same from a manifest, naming the key.
        let manifest = store.folder.appendingPathComponent("xfade-unknown.json").path
        try #"{"clips": [{"path": "\#((a as NSString).lastPathComponent)", "join": {"transition": "circle"}}, "\#((a as NSString).lastPathComponent)"]}"#
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let fromManifest = try SegueTool.run(["stitch", manifest, "-o", output])
        XCTAssertEqual(fromManifest.status, 2)
        XCTAssertTrue(fromManifest.standardError.contains("clips[0].join.transition") && fromManifest.standardError.contains("segue transitions"),
                      fromManifest.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
