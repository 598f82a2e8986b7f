import Foundation
import XCTest
@testable import SegueModel
import SegueCore

/// The FCPXML writer on timelines made by hand: each export valid against
/// Apple's DTD (xmllint), read back by Segue's FCPXML reader and, where
/// its shape matters, by ElementTree (Tests/Support/fcpx_export_judge.py `tree`).
final class FCPXMLWriterTests: XCTestCase {
    static let pal = Rational(25, 1)

    /// A medium with facts: `frames` frames at `rate`, stereo sound unless `sound` is false.
    func media(_ name: String, rate: Rational = pal, frames: Int = 250, timecode: Int64 = 0, sound: Bool = true) -> EditMedia {
        var facts = EditMediaFacts(rate: rate, width: 640, height: 360, seconds: Double(frames) / rate.value)
        facts.timecodeFrames = timecode
        if sound {
            facts.soundChannels = 2
            facts.sampleRate = 48000
        }
        return EditMedia(location: "/media/\(name).mov", facts: facts)
    }

    func time(_ frames: Double, _ rate: Rational = pal) -> EditTime { EditTime(value: frames, rate: rate.value) }

    func clip(_ name: String, _ media: EditMedia, from: Double, frames: Double, speed: PlaybackSpeed? = nil) -> EditClip {
        EditClip(name: name, media: media, source: EditRange(start: time(from), duration: time(frames)), speed: speed)
    }

    func timeline(_ items: [EditItem]) -> EditTimeline {
        var timeline = EditTimeline(rate: Self.pal, items: items)
        timeline.format = EditOutputFormat(width: 640, height: 360, sampleRate: 48000)
        timeline.clipSound = true
        return timeline
    }

    /// The export of `timeline`, checked against the DTD; its text and warnings.
    func exported(_ timeline: EditTimeline, file: StaticString = #filePath, line: UInt = #line) throws -> (path: String, warnings: [String]) {
        let export = try timeline.exported(as: .fcpxml)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("segue-fcpx-\(UUID().uuidString).fcpxml").path
        try export.data.write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        let verdict = try FCPXMLExportTests.validate(path)
        XCTAssertEqual(verdict.status, 0, verdict.standardError, file: file, line: line)
        return (path, export.warnings)
    }

    func readBack(_ path: String) throws -> EditTimeline {
        try EditTimeline.parseFCPXML(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every element of the document named `tag`, as ElementTree reads it.
    func elements(_ tag: String, in path: String) throws -> [[String: Any]] {
        func walk(_ node: [String: Any]) -> [[String: Any]] {
            let children = node["children"] as? [[String: Any]] ?? []
            return ((node["tag"] as? String) == tag ? [node] : []) + children.flatMap(walk)
        }
        return walk(try FCPXMLExportTests.json("tree", path, as: [String: Any].self))
    }

    func attributes(_ element: [String: Any]?) -> [String: String] { element?["attributes"] as? [String: String] ?? [:] }

    func testATitleAndACaptionAreBasicTitlesWithTheirTextEscaped() throws {
        var timeline = timeline([.clip(clip("A", media("a"), from: 0, frames: 50)), .gap(time(25))])
        timeline.titles = [EditTitle(kind: .caption, text: "Hello", start: 10, frames: 20),
                           EditTitle(kind: .card, text: "Day <one> & \"two\"", start: 50, frames: 25)]
        let (path, warnings) = try exported(timeline)
        XCTAssertEqual(warnings, [])
        let titles = try elements("title", in: path)
        XCTAssertEqual(titles.map { attributes($0)["lane"] }, ["1", "1"])
        XCTAssertEqual(titles.map { attributes($0)["duration"] }, ["2000/2500s", "1s"])
        let texts = try elements("text-style", in: path).compactMap { $0["text"] as? String }
        XCTAssertEqual(texts, ["Hello", "Day <one> & \"two\""])
        XCTAssertEqual(try elements("effect", in: path).map { attributes($0)["name"] }, ["Basic Title"])
        // The card sits on the gap, at the gap's own time 0; the caption on A, 10 frames after its start.
        XCTAssertEqual(attributes(titles.last)["offset"], "0s")
        XCTAssertEqual(attributes(titles.first)["offset"], "1000/2500s")
        XCTAssertTrue(try readBack(path).notes.contains { $0.contains("a title; its text isn't drawn") })
    }

    func testTheMusicBedIsAConnectedStorylineAtItsLevelFadedInAndOut() throws {
        var timeline = timeline([.clip(clip("A", media("a"), from: 0, frames: 100))])
        let bed = EditClip(name: "bed.m4a", media: EditMedia(location: "/media/bed.m4a"), source: EditRange(start: time(0), duration: time(100)))
        timeline.music = EditMusicBed(track: EditAudioTrack(name: "Music", items: [.clip(EditAudioClip(clip: bed, level: -12))]),
                                      fadeIn: 1, fadeOut: 2, duck: 6)
        let (path, warnings) = try exported(timeline)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("ducking") ?? false, "\(warnings)")
        let lanes = try elements("spine", in: path).filter { attributes($0)["lane"] != nil }
        XCTAssertEqual(lanes.map { attributes($0)["lane"] }, ["-1"])
        XCTAssertEqual(try elements("adjust-volume", in: path).map { attributes($0)["amount"] }, ["-12dB"])
        XCTAssertEqual(try elements("fadeIn", in: path).map { attributes($0)["duration"] }, ["1s"])
        XCTAssertEqual(try elements("fadeOut", in: path).map { attributes($0)["duration"] }, ["2s"])
        let music = try elements("asset", in: path).first { attributes($0)["name"] == "bed" }
        XCTAssertEqual(attributes(music)["hasVideo"], "0")
        // Segue reads the bed back as a sound track at its level.
        let read = try readBack(path)
        let sounds = read.audioTracks.flatMap(\.items).compactMap { item -> EditAudioClip? in
            if case .clip(let sound) = item { return sound } else { return nil }
        }
        XCTAssertEqual(sounds.first { $0.clip.media.location == "file:///media/bed.m4a" }?.level, -12)
    }

    func testAClipAt2xIsATimeMapSegueReadsAs2xAndAFreezeAsAFreeze() throws {
        let fast = clip("Fast", media("a"), from: 100, frames: 40, speed: PlaybackSpeed(2))
        let held = clip("Held", media("b"), from: 30, frames: 20, speed: PlaybackSpeed(0))
        let (path, _) = try exported(timeline([.clip(fast), .clip(held)]))
        let points = try elements("timept", in: path).map { "\(attributes($0)["time"] ?? "")→\(attributes($0)["value"] ?? "")" }
        XCTAssertEqual(points, ["4s→4s", "14000/2500s→18000/2500s", "3000/2500s→3000/2500s", "2s→3000/2500s"])
        let clips = try readBack(path).items.compactMap { item -> EditClip? in if case .clip(let clip) = item { return clip } else { return nil } }
        XCTAssertEqual(clips.map { $0.speed?.rate }, [Rational(2, 1), Rational(0, 1)])
        XCTAssertEqual(clips.map(\.source.start.value), [100, 30])
        XCTAssertEqual(clips.map(\.source.duration.value), [40, 20])
    }

    func testAPlacedClipsLayoutReadsBackAsItWasPlaced() throws {
        var layout = EditLayout()
        layout.scaleX = 0.5
        layout.scaleY = 0.5
        layout.centreX = 0.25
        layout.centreY = -0.2
        layout.rotation = 10
        layout.opacity = 0.6
        layout.cropLeft = 0.1
        layout.cropBottom = 0.05
        layout.conform = .fill
        var over = clip("Over", media("b"), from: 12, frames: 30)
        over.layout = layout
        var timeline = timeline([.clip(clip("A", media("a"), from: 0, frames: 100))])
        timeline.videoTracks = [EditVideoTrack(name: "V1", items: timeline.items), EditVideoTrack(name: "V2", items: [.gap(time(20)), .clip(over)])]
        let (path, _) = try exported(timeline)
        let read = try readBack(path)
        XCTAssertEqual(read.videoTracks.count, 2)
        guard let placed = read.videoTracks.last?.items.compactMap({ item -> EditClip? in
            if case .clip(let clip) = item { return clip } else { return nil }
        }).first, let back = placed.layout else { return XCTFail("no placed clip read back: \(read.videoTracks)") }
        for (name, a, b) in [("scaleX", back.scaleX, 0.5), ("scaleY", back.scaleY, 0.5), ("centreX", back.centreX, 0.25),
                             ("centreY", back.centreY, -0.2), ("rotation", back.rotation, 10), ("opacity", back.opacity, 0.6),
                             ("cropLeft", back.cropLeft, 0.1), ("cropBottom", back.cropBottom, 0.05)] {
            XCTAssertEqual(a, b, accuracy: 1e-5, name)
        }
        XCTAssertEqual(back.conform, .fill)
        XCTAssertEqual(read.overlays.first?.recordStart, 20)
        XCTAssertEqual(placed.source.start.value, 12)
    }

    func testAWipeIsACrossDissolveWithAWarningNamingIt() throws {
        let wipe = EditTransition(kind: .dissolve, name: "wipeleft", before: time(5), after: time(5))
        let items: [EditItem] = [.clip(clip("A", media("a"), from: 0, frames: 40)), .transition(wipe), .clip(clip("B", media("b"), from: 20, frames: 40))]
        let (path, warnings) = try exported(timeline(items))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("'wipeleft' is written as a Cross Dissolve") ?? false, "\(warnings)")
        XCTAssertEqual(try elements("transition", in: path).map { attributes($0)["offset"] }, ["3500/2500s"])
        let read = try readBack(path)
        let joins = read.items.compactMap { item -> [Double]? in
            if case .transition(let join) = item { return [join.before.value, join.after.value] } else { return nil }
        }
        XCTAssertEqual(joins, [[5, 5]])
    }

    func testATransitionLongerThanTheClipBeforeItIsRefused() throws {
        let long = EditTransition(kind: .dissolve, before: time(30), after: time(5))
        let items: [EditItem] = [.clip(clip("A", media("a"), from: 0, frames: 20)), .transition(long), .clip(clip("B", media("b"), from: 40, frames: 40))]
        XCTAssertThrowsError(try timeline(items).exported(as: .fcpxml)) { error in
            XCTAssertTrue((error as? EditTimelineError)?.message.contains("reach past the 20") ?? false, "\(error)")
        }
    }

    func testANestedSequenceIsACompoundClipReadBackNested() throws {
        let inner = [EditVideoTrack(name: "V1", items: [.clip(clip("C", media("c"), from: 0, frames: 30)), .clip(clip("D", media("d"), from: 5, frames: 30))])]
        let nested = EditNested(name: "Compound", tracks: inner, source: EditRange(start: time(10), duration: time(40)))
        let (path, _) = try exported(timeline([.clip(clip("A", media("a"), from: 0, frames: 25)), .nested(nested)]))
        XCTAssertEqual(try elements("media", in: path).map { attributes($0)["name"] }, ["Compound"])
        XCTAssertEqual(try elements("ref-clip", in: path).map { attributes($0)["start"] }, ["1000/2500s"])
        let read = try readBack(path)
        guard case .nested(let back)? = read.videoTracks.first?.items.last else { return XCTFail("\(read.videoTracks)") }
        XCTAssertEqual(back.source.start.value, 10)
        XCTAssertEqual(back.source.duration.value, 40)
    }

    func testMarkersAreChapterMarkersInTheClipUnderThem() throws {
        var timeline = timeline([.clip(clip("A", media("a", timecode: 90000), from: 90000, frames: 50)), .clip(clip("B", media("b"), from: 0, frames: 50))])
        timeline.markers = [EditMarker(name: "One", time: time(0)), EditMarker(name: "Two & more", time: time(60))]
        let (path, _) = try exported(timeline)
        let markers = try elements("chapter-marker", in: path)
        XCTAssertEqual(markers.map { attributes($0)["start"] }, ["3600s", "1000/2500s"])
        XCTAssertEqual(markers.map { attributes($0)["value"] }, ["One", "Two & more"])
        XCTAssertEqual(try readBack(path).markers.map { [$0.time.value] }, [[0], [60]])
    }

    func testTheClipsOwnSoundIsLeftOutWhenTheTimelineHasItsOwn() throws {
        let a = media("a")
        var timeline = timeline([.clip(clip("A", a, from: 0, frames: 50))])
        timeline.clipSound = false
        let sound = EditAudioClip(clip: EditClip(name: "A", media: a, source: EditRange(start: time(0), duration: time(50))), level: -3)
        timeline.audioTracks = [EditAudioTrack(name: "A1", items: [.clip(sound)])]
        let (path, _) = try exported(timeline)
        XCTAssertEqual(try elements("asset-clip", in: path).map { attributes($0)["srcEnable"] }, ["video"])
        XCTAssertEqual(try elements("audio", in: path).map { attributes($0)["ref"] }, try elements("asset-clip", in: path).map { attributes($0)["ref"] })
        let read = try readBack(path)
        XCTAssertEqual(read.audioTracks.count, 1, "\(read.audioTracks)")
        let levels = read.audioTracks.flatMap(\.items).compactMap { item -> Double? in if case .clip(let c) = item { return c.level } else { return nil } }
        XCTAssertEqual(levels, [-3])
    }

    func testEverythingAtOnceIsValidAndEachLossIsAWarning() throws {
        let a = media("a", timecode: 90000), b = media("b", rate: Rational(30000, 1001)), photo = EditMedia(location: "/media/p.png", facts: {
            var facts = EditMediaFacts(rate: Rational(30, 1), width: 800, height: 600, seconds: 1)
            facts.still = true
            return facts
        }())
        var over = clip("Over", b, from: 3, frames: 20)
        over.layout = EditLayout()
        let nested = EditNested(name: "N", tracks: [EditVideoTrack(items: [.clip(clip("C", media("c"), from: 0, frames: 30))])],
                                source: EditRange(start: time(0), duration: time(30)), speed: PlaybackSpeed(0.5))
        let v1: [EditItem] = [
            .clip(clip("A", a, from: 90000, frames: 50)), .transition(EditTransition(kind: .wipe(1), before: time(5), after: time(5))),
            .clip(EditClip(name: "Photo", media: photo, source: EditRange(start: time(0), duration: time(25)))),
            .fill(EditFill(look: .colour("#336699"), duration: time(10))), .nested(nested), .gap(time(5)),
        ]
        var timeline = timeline(v1)
        timeline.videoTracks = [EditVideoTrack(name: "V1", items: v1), EditVideoTrack(name: "V2", items: [.gap(time(30)), .clip(over)])]
        timeline.titles = [EditTitle(kind: .card, text: "Two\nlines", background: "#112233", start: 85, frames: 10)]
        timeline.markers = [EditMarker(name: "Start", time: time(0)), EditMarker(name: "Late", time: time(500))]
        let sound = EditClip(name: "Talk", media: b, source: EditRange(start: EditTime(value: 12.5, rate: 29.97), duration: time(40)))
        timeline.audioTracks = [EditAudioTrack(name: "A1", items: [
            .gap(time(10)), .transition(EditTransition(kind: .dissolve, before: time(3), after: time(3))),
            .clip(EditAudioClip(clip: sound, level: -3, channel: EditAudioChannel(source: 2, side: .right))),
            .transition(EditTransition(kind: .dissolve, before: time(4), after: time(0))),
        ])]
        timeline.clipSound = false
        let (path, warnings) = try exported(timeline)
        XCTAssertEqual(warnings.count, 4, "\(warnings)")
        for said in ["SMPTE wipe 1", "colour #336699 is written as a gap", "background #112233", "marker 'Late'"] {
            XCTAssertTrue(warnings.contains { $0.contains(said) }, "\(said): \(warnings)")
        }
        let read = try readBack(path)
        XCTAssertEqual(read.videoTracks.count, 2)
        XCTAssertEqual(read.audioTracks.count, 1)
        XCTAssertEqual(try elements("audio", in: path).map { attributes($0)["start"] }, ["20020/48000s"], "12.5 frames at 29.97, to the sample")
    }
}
