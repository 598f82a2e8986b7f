import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--export-timeline x.fcpxml` judged by FCPXML's own readers: Apple's
/// FCPXML 1.10 DTD (xmllint), OpenTimelineIO's fcpx_xml adapter and an exact
/// reading of the spine with Fractions (Tests/Support/fcpx_export_judge.py),
/// and Segue stitching the export back to the frames it rendered. The scene
/// (ExportScene) at 25 fps: A's 48 frames, a fade of 0.4 s (10 frames, 5
/// either side of its cut), B's 40 frames at 29.97 (33 at 25), a cut, C's
/// frames 6..<30, a fade, the photo's 25 frames, a cut, A's frames 12 to 24.
final class FCPXMLExportTests: XCTestCase {
    static let judge = OTIOScript("fcpx_export_judge.py", folder: "segue-fcpx-export")
    static let dtd = SegueTool.repository.appendingPathComponent("Tests/Support/dtd/FCPXMLv1_10.dtd").path
    static let exports = FCPXMLExportCache()

    /// The scene stitched at `rate` with an FCPXML export, once per run.
    static func exported(_ rate: Rational) throws -> FCPXMLExportCache.Exported {
        try exports.value(rate) {
            let scene = try ExportScene.make(rate: rate)
            let fcpxml = scene.folder + "/cut.fcpxml"
            let (output, warnings) = try scene.stitch { $0.exportTimeline = fcpxml }
            return FCPXMLExportCache.Exported(scene: scene, output: output, fcpxml: fcpxml, warnings: warnings)
        }
    }

    /// xmllint's verdict on `path` against Apple's DTD.
    static func validate(_ path: String) throws -> SegueTool.Result {
        guard (try? Tool.run("xmllint", ["--version"]))?.status == 0 else {
            throw unavailable("no xmllint: run Scripts/setup (it installs libxml2-utils)")
        }
        return try Tool.run("xmllint", ["--noout", "--dtdvalid", dtd, path])
    }

    static func json<T>(_ command: String, _ path: String, as: T.Type) throws -> T {
        let data = try judge.run([command, path])
        guard let value = try JSONSerialization.jsonObject(with: data) as? T else {
            throw EditTimelineError("\(command) \(path): unexpected output \(String(decoding: data, as: UTF8.self).prefix(200))")
        }
        return value
    }

    // MARK: The scene

    func testTheSceneExportsValidAgainstApplesDTDAt25And2997And23976() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001), Rational(24000, 1001)] {
            let exported = try Self.exported(rate)
            XCTAssertEqual(exported.warnings, [], "\(rate)")
            let verdict = try Self.validate(exported.fcpxml)
            XCTAssertEqual(verdict.status, 0, "\(rate): \(verdict.standardError)")
        }
    }

    /// A clip as the scene's arithmetic has it: its medium, its source in and length in seconds.
    struct Expected {
        var path: String
        var start: Double
        var seconds: Double
    }

    func testTheAdapterReadsTheCutTheStitchRenderedAt25() throws {
        let exported = try Self.exported(Rational(25, 1))
        let scene = exported.scene
        // 25 fps: each fade 10 frames, 5 before its cut; B's 40 frames at 29.97 are 33; A's timecode 01:00:00:00 is 3600 s.
        let b = Int((40.0 * 1001 / 30000 * 25).rounded())
        let frames = [48 - 5, b - 5, 24 - 5, 25 - 5, 13]
        let expected = [
            Expected(path: scene.a, start: 3600, seconds: Double(frames[0]) / 25),
            Expected(path: scene.b, start: 5 / 25.0, seconds: Double(frames[1]) / 25),
            Expected(path: scene.c, start: 6 / 25.0, seconds: Double(frames[2]) / 25),
            Expected(path: scene.photo, start: 0, seconds: Double(frames[3]) / 25),
            Expected(path: scene.a, start: 3600 + 12 / 25.0, seconds: Double(frames[4]) / 25),
        ]
        let tracks = try Self.json("clips", exported.fcpxml, as: [String: [[Any]]].self)
        let clips = tracks["0"] ?? []
        XCTAssertEqual(tracks.count, 1, "one video track: \(tracks.keys)")
        XCTAssertEqual(clips.count, expected.count, "\(clips)")
        for (index, (clip, want)) in zip(clips, expected).enumerated() {
            guard let url = clip[1] as? String, let start = clip[2] as? Double, let startRate = clip[3] as? Double,
                  let length = clip[4] as? Double, let lengthRate = clip[5] as? Double else { XCTFail("clip \(index): \(clip)"); continue }
            XCTAssertEqual(URL(string: url)?.path, want.path, "clip \(index)'s medium")
            // The adapter counts B's 29.97 as 29 and truncates to its frames: within one of them; the others to the frame.
            let slack = startRate == 25 ? 1e-9 : 1 / startRate + 1e-9
            XCTAssertEqual(start / startRate, want.start, accuracy: slack, "clip \(index)'s source in")
            XCTAssertEqual(length / lengthRate, want.seconds, accuracy: slack, "clip \(index)'s length")
            if startRate == 25 { XCTAssertEqual(Int(start), Int((want.start * 25).rounded()), "clip \(index)'s first frame") }
        }
        // The adapter drops transitions: the spine read exactly says where they and the clips lie, in frames.
        let spine = try Self.json("spine", exported.fcpxml, as: [String: Any].self)
        let items = (spine["items"] as? [[Any]] ?? []).map { row in "\(row[0]) \(row[2])+\(row[3])" }
        XCTAssertEqual(items, ["asset-clip 0+43", "transition 38+10", "asset-clip 43+28", "asset-clip 71+19", "transition 85+10",
                               "video 90+20", "asset-clip 110+13"])
        XCTAssertEqual(spine["duration"] as? String, "123")
        XCTAssertEqual(spine["frameDuration"] as? String, "100/2500s")
    }

    func testTimesAreWholeFramesAt2997And23976() throws {
        for (rate, frameDuration) in [(Rational(30000, 1001), "1001/30000s"), (Rational(24000, 1001), "1001/24000s")] {
            let exported = try Self.exported(rate)
            let spine = try Self.json("spine", exported.fcpxml, as: [String: Any].self)
            XCTAssertEqual(spine["frameDuration"] as? String, frameDuration)
            let rows = spine["items"] as? [[Any]] ?? []
            XCTAssertEqual(rows.count, 7, "\(rows)")
            var cut: Int64 = 0
            for row in rows {
                let (tag, offset, length, start) = (row[0] as? String ?? "", row[2] as? String ?? "", row[3] as? String ?? "", row[4] as? String)
                XCTAssertFalse(offset.contains("/") || length.contains("/"), "\(rate): \(row): offset and duration are whole frames")
                if let start { XCTAssertFalse(start.contains("/"), "\(rate): \(row): the source in is a whole frame of its medium") }
                guard tag != "transition" else { continue }
                XCTAssertEqual(Int64(offset), cut, "\(rate): \(row) starts where the item before it ends")
                cut += Int64(length) ?? 0
            }
            XCTAssertEqual(spine["duration"] as? String, "\(cut)", "\(rate): the sequence is as long as its items")
        }
    }

    func testANameWithAmpersandAngleBracketsAndQuotesReadsBack() throws {
        let exported = try Self.exported(Rational(25, 1))
        let clips = try Self.json("clips", exported.fcpxml, as: [String: [[Any]]].self)["0"] ?? []
        XCTAssertEqual(clips.first?.first as? String, "A & <first>")
        XCTAssertEqual(clips.last?.first as? String, "A again")
        let text = try String(contentsOfFile: exported.fcpxml, encoding: .utf8)
        XCTAssertTrue(text.contains("name=\"A &amp; &lt;first&gt;\""), "escaped, never raw")
    }

    /// The scene's export stitched back: the same frames, at 25 and 29.97.
    func testStitchingTheExportShowsTheSameFramesAt25And2997() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001)] {
            let exported = try Self.exported(rate)
            var request = StitchRequest(inputs: [exported.fcpxml], output: FixtureStore.shared.outputPath())
            request.options.preset = "ultrafast"
            request.options.crf = 12
            _ = try StitchJob(request).run { _ in }
            let original = try DecodedOutput(path: exported.output), again = try DecodedOutput(path: request.output)
            XCTAssertEqual(again.pictures.count, original.pictures.count, "\(rate): frames")
            for (index, (a, b)) in zip(original.pictures, again.pictures).enumerated() {
                let blocks = (0..<Marker.bits).map { bit -> Double in
                    let (x, y) = Marker.position(bit)
                    return abs(a.mean(x: x + 8, y: y + 8, width: Marker.block - 16, height: Marker.block - 16)
                               - b.mean(x: x + 8, y: y + 8, width: Marker.block - 16, height: Marker.block - 16))
                }
                let grey = abs(Marker.grey(a) - Marker.grey(b))
                guard (blocks.max() ?? 0) >= 14 || grey >= 8 else { continue }
                XCTFail("\(rate) frame \(index): stitched \(String(describing: Marker.read(a))), from the export "
                        + "\(String(describing: Marker.read(b))) (block off by \(Int(blocks.max() ?? 0)), grey by \(Int(grey)))")
                break
            }
        }
    }
}

/// The scene's exports, made once per rate and run.
final class FCPXMLExportCache: @unchecked Sendable {
    struct Exported {
        let scene: ExportScene
        let output: String
        let fcpxml: String
        let warnings: [String]
    }

    private let lock = NSLock()
    private var made: [Rational: Exported] = [:]

    func value(_ rate: Rational, make: () throws -> Exported) throws -> Exported {
        try lock.withLock {
            if let known = made[rate] { return known }
            let value = try make()
            made[rate] = value
            return value
        }
    }
}
