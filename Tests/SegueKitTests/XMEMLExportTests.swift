import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--export-timeline cut.xml`: the scene written as xmeml version 5, judged
/// by OTIO's fcp_xml adapter (the cut), by the file's own links and rates,
/// and by Segue stitching it back to the same frames.
final class XMEMLExportTests: XCTestCase {
    static let rates = [Rational(25, 1), Rational(30000, 1001), Rational(24000, 1001)]

    override class func tearDown() {
        ExportedScenes.judge.remove()
        super.tearDown()
    }

    func testTheFCPAdapterReadsTheSceneAsTheSameCutAtEachRate() throws {
        for rate in Self.rates {
            let stitched = try ExportedScenes.shared.stitched(rate: rate, format: "xml")
            XCTAssertEqual(stitched.warnings, [], "\(rate)")
            let judged = try ExportedScenes.judged(["xmeml", stitched.exported])
            XCTAssertEqual(judged.rate, rate.value, accuracy: 1e-9)
            let video = judged.tracks.filter { $0.kind == "Video" }
            XCTAssertEqual(video.count, 1, "\(rate): one video track")
            guard let first = video.first, let cut = SceneCut.read(first) else { return XCTFail("\(rate): no video track read") }
            XCTAssertEqual(cut, SceneCut(stitched.scene), "\(rate): the cut as the fcp_xml adapter reads it")
            XCTAssertEqual(judged.start, Double(SceneCut.hour(rate)), "\(rate): the sequence starts at 01:00:00:00")
        }
    }

    func testEachClipsSoundIsAnExplodedStereoPairLinkedToItsPicture() throws {
        let stitched = try ExportedScenes.shared.stitched(rate: Rational(25, 1), format: "xml")
        let links = try JSONSerialization.jsonObject(with: ExportedScenes.judge.run(["links", stitched.exported])) as? [String: Any]
        let items = links?["clipitems"] as? [[String: Any]] ?? []
        let pictures = items.filter { $0["mediatype"] as? String == "video" }
        let sounds = items.filter { $0["mediatype"] as? String == "audio" }
        XCTAssertEqual(pictures.count, 5)
        // A, B, C and A again have sound (the photo has none): one clip item on each track of the pair.
        XCTAssertEqual(sounds.count, 8)
        XCTAssertEqual(Set(sounds.map { "\($0["track"]!) \($0["exploded"]!) \($0["sourcetrack"]!)" }), ["1 0 1", "2 1 2"])
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0["id"] as! String, $0) })
        func linked(_ item: [String: Any]) -> [String] { (item["links"] as? [[String: Any]] ?? []).compactMap { $0["ref"] as? String } }
        for sound in sounds {
            let group = linked(sound)
            let picture = group.compactMap { byID[$0] }.filter { $0["mediatype"] as? String == "video" }
            XCTAssertEqual(picture.count, 1, "\(sound["id"]!) links one picture")
            guard let video = picture.first else { continue }
            XCTAssertTrue(linked(video).contains(sound["id"] as! String), "\(video["id"]!) links back to \(sound["id"]!)")
            XCTAssertEqual(video["start"] as? String, sound["start"] as? String, "a picture and its sound start together")
            for link in sound["links"] as? [[String: Any]] ?? [] {
                let target = byID[link["ref"] as! String]
                XCTAssertEqual(link["clipindex"] as? String, "\(target?["clipindex"] ?? "")", "clipindex of \(link["ref"]!)")
                XCTAssertEqual(link["track"] as? String, "\(target?["track"] ?? "")", "trackindex of \(link["ref"]!)")
            }
        }
        XCTAssertEqual(pictures.filter { linked($0).isEmpty }.count, 1, "the photo has no sound to link")
        XCTAssertEqual(links?["files"] as? Int, 4, "each medium's file defined once")
    }

    func testTheSequenceSaysItsRateAsTimebaseAndNTSC() throws {
        let expected = [("25", "FALSE", "01:00:00:00", "NDF"), ("30", "TRUE", "01:00:00;00", "DF"), ("24", "TRUE", "01:00:00:00", "NDF")]
        for (rate, (timebase, ntsc, timecode, format)) in zip(Self.rates, expected) {
            let stitched = try ExportedScenes.shared.stitched(rate: rate, format: "xml")
            let said = try JSONSerialization.jsonObject(with: ExportedScenes.judge.run(["links", stitched.exported])) as? [String: Any]
            XCTAssertEqual(said?["version"] as? String, "5")
            XCTAssertEqual(said?["sequence_rate"] as? [String: String], ["timebase": timebase, "ntsc": ntsc], "\(rate)")
            XCTAssertEqual(said?["timecode"] as? String, timecode, "\(rate)")
            XCTAssertEqual(said?["displayformat"] as? String, format, "\(rate)")
            XCTAssertEqual(said?["width"] as? String, "320")
            for item in said?["clipitems"] as? [[String: Any]] ?? [] {
                XCTAssertEqual(item["rate"] as? [String: String], ["timebase": timebase, "ntsc": ntsc], "\(rate): \(item["id"]!)")
            }
        }
    }

    func testANameWithMarkupIsEscapedAndReadBack() throws {
        let stitched = try ExportedScenes.shared.stitched(rate: Rational(25, 1), format: "xml")
        let text = try String(contentsOfFile: stitched.exported, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE xmeml>\n<xmeml version=\"5\">"))
        XCTAssertTrue(text.contains("<name>A &amp; &lt;first&gt;</name>"))
        XCTAssertFalse(text.contains("A & <first>"))
        let timeline = try EditTimeline.parseFCP7XML(Data(text.utf8))
        guard case .clip(let first)? = timeline.items.first else { return XCTFail("no first clip") }
        XCTAssertEqual(first.name, "A & <first>")
    }

    func testTheExportStitchesBackToTheSameFrames() throws {
        for rate in [Rational(25, 1), Rational(30000, 1001)] {
            let stitched = try ExportedScenes.shared.stitched(rate: rate, format: "xml")
            var request = StitchRequest(inputs: [stitched.exported], output: FixtureStore.shared.outputPath())
            request.options.preset = "ultrafast"
            request.options.crf = 12
            _ = try StitchJob(request).run()
            let original = try DecodedOutput(path: stitched.output)
            assertSameFrames(original, try DecodedOutput(path: request.output), "xmeml at \(rate)")
        }
    }

    func testARateWithoutAWholeTimebaseIsRefusedBeforeRendering() throws {
        let scene = try ExportScene.make(rate: Rational(25, 1))
        let exported = scene.folder + "/cut.xml"
        var output = ""
        XCTAssertThrowsError(try scene.stitch { request in
            request.exportTimeline = exported
            request.options.frameRate = Rational(25, 2)
            output = request.output
        }) { error in
            XCTAssertTrue("\(error)".contains("12.5 fps"), "\(error)")
            XCTAssertEqual((error as? SegueError)?.reason, .usage, "a usage error (exit 2): \(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: exported))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertThrowsError(try EditTimeline(rate: Rational(25, 2), items: []).exported(as: .xmeml))
    }

    func testAnUnevenlySplitDissolveMovesItsCutSoTheSameFramesAreSeen() throws {
        let rate = Rational(25, 1)
        func clip(_ name: String, start: Double, length: Double) -> EditItem {
            .clip(EditClip(name: name, media: EditMedia(location: "/m/\(name).mov"), source: EditRange(
                start: EditTime(value: start, rate: 25), duration: EditTime(value: length, rate: 25))))
        }
        let dissolve = EditItem.transition(EditTransition(kind: .dissolve, before: EditTime(value: 2, rate: 25), after: EditTime(value: 8, rate: 25)))
        let timeline = EditTimeline(rate: rate, items: [clip("a", start: 0, length: 20), dissolve, clip("b", start: 100, length: 20)])
        let read = try EditTimeline.parseFCP7XML(timeline.exported(as: .xmeml).data)
        guard read.items.count == 3, case .clip(let a) = read.items[0], case .transition(let moved) = read.items[1], case .clip(let b) = read.items[2] else {
            return XCTFail("read \(read.items)")
        }
        // The dissolve still covers record frames 18..<28, from a's 18 and b's 98 on; its cut moved 3 frames later.
        XCTAssertEqual([a.source.start.value, a.source.duration.value, moved.before.value, moved.after.value, b.source.start.value, b.source.duration.value],
                       [0, 23, 5, 5, 103, 17])
    }

    func testSpeedLayoutTitlesChaptersAndMusicReadBackThroughSeguesReader() throws {
        let export = try FullTimeline.make().exported(as: .xmeml)
        XCTAssertEqual(export.warnings.count, 2, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("'wiperight' is written as a Cross Dissolve") }, "\(export.warnings)")
        XCTAssertTrue(export.warnings.contains { $0.contains("ducking") }, "\(export.warnings)")
        let read = try EditTimeline.parseFCP7XML(export.data)
        XCTAssertEqual(read.name, "Full & <all>")
        XCTAssertEqual(read.markers, [EditMarker(name: "Two", time: EditTime(value: 20, rate: 25))])
        XCTAssertEqual(read.start, EditTime(value: 90_000, rate: 25))
        XCTAssertEqual(read.videoTracks.count, 3, "V1, the placed clip, the titles")
        XCTAssertEqual(read.videoTracks.first?.items.map(\.described), [
            "clip slow 90010 20 x0.5", "dissolve 4 4", "clip silent 5 30", "fill colour(\"#336699\") 10", "clip last 90100 15",
        ])
        XCTAssertEqual(read.videoTracks[1].items.map(\.described), ["gap 5", "clip pip 0 10"])
        if case .clip(let pip) = read.videoTracks[1].items.last { XCTAssertEqual(pip.layout, FullTimeline.pipLayout) }
        XCTAssertEqual(read.videoTracks[2].items.map(\.described), ["gap 20", "gap 30", "gap 10"], "titles are Text generators")
        XCTAssertEqual(read.notes.filter { $0.contains("a title or graphic") }.count, 2, "\(read.notes)")
        let sounds = read.audioTracks.flatMap(\.items).compactMap { item -> EditAudioClip? in
            if case .clip(let sound) = item { return sound } else { return nil }
        }
        XCTAssertEqual(sounds.map { $0.clip.name ?? "" }.sorted(), ["bed", "last", "last", "slow", "slow"])
        XCTAssertEqual(Set(sounds.filter { $0.clip.name == "slow" }.map { "\($0.channel?.source ?? 0) \($0.channel?.side ?? .both)" }), ["1 left", "2 right"])
        XCTAssertEqual(sounds.first { $0.clip.name == "bed" }?.level ?? 0, -12, accuracy: 1e-5)
        XCTAssertEqual(sounds.first { $0.clip.name == "slow" }?.clip.speed, PlaybackSpeed(0.5))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("segue-full-\(UUID().uuidString.prefix(8)).xml")
        try export.data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let judged = try ExportedScenes.judged(["xmeml", file.path])
        XCTAssertEqual(judged.tracks.filter { $0.kind == "Video" }.first?.items.map { $0.name ?? $0.kind }, ["slow", "Cross Dissolve", "silent", "Color", "last"])
    }
}
