import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel

/// Timelines of several video tracks and nested stacks, read by the OTIO and
/// FCP 7 XML parsers and stacked: each record frame shows what OpenTimelineIO
/// says it shows (Tests/Support/stacked_timelines.py in Scripts/setup's
/// .build/pyenv): the top-most visible layer. The three Premiere files are the
/// otio-fcp-adapter's sample data (Tests/Support/timelines/README.md).
final class EditTimelineStackingTests: XCTestCase {
    static let samples = SegueTool.repository.appendingPathComponent("Tests/Support/timelines")
    static let stacked = OTIOScript("stacked_timelines.py", folder: "segue-stacked")

    /// The script's cases, made once for the whole class.
    static func folder() throws -> URL { try stacked.folder() }

    override class func tearDown() {
        stacked.remove()
        super.tearDown()
    }

    static func run(_ arguments: [String]) throws -> Data { try stacked.run(arguments) }

    // MARK: made with OpenTimelineIO

    func testEveryVideoTrackOfAnOTIOFileStacksAsOpenTimelineIOShowsIt() throws {
        for name in ["layers", "nested", "joins", "trackintrack"] {
            let folder = try Self.folder()
            let parsed = try EditTimeline.parseOTIO(Data(contentsOf: folder.appendingPathComponent("\(name).otio")))
            let expected = try JSONDecoder().decode(Judged.self, from: Data(contentsOf: folder.appendingPathComponent("\(name).frames.json")))
            assertShows(parsed, expected.frames.map { $0.first }, "\(name).otio")
        }
    }

    func testEveryVideoTrackOfAnXMEMLFileStacksAsTheTimelineItWasWrittenFromShowsIt() throws {
        for name in ["layers", "nested", "joins"] {
            let folder = try Self.folder()
            let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: folder.appendingPathComponent("\(name).xml")))
            let expected = try JSONDecoder().decode(Judged.self, from: Data(contentsOf: folder.appendingPathComponent("\(name).frames.json")))
            assertShows(parsed, expected.frames.map { $0.first }, "\(name).xml", urls: false)
        }
    }

    func testLayersReadAsTracksWithDisabledOnesKept() throws {
        let parsed = try EditTimeline.parseOTIO(Data(contentsOf: try Self.folder().appendingPathComponent("layers.otio")))
        XCTAssertEqual(parsed.videoTracks.map(\.name), ["V1", "V2", "V3"])
        XCTAssertEqual(parsed.videoTracks.map(\.enabled), [true, true, false])
        XCTAssertTrue(parsed.notes.contains { $0.contains("video track 'V3' is disabled") }, "\(parsed.notes)")
        XCTAssertTrue(parsed.notes.contains { $0.contains("clip 5 'Off': disabled, so not drawn") }, "\(parsed.notes)")
        XCTAssertFalse(parsed.notes.contains { $0.contains("not used") }, "\(parsed.notes)")
        let xml = try EditTimeline.parseFCP7XML(Data(contentsOf: try Self.folder().appendingPathComponent("layers.xml")))
        XCTAssertEqual(xml.videoTracks.map(\.enabled), [true, true, false])
    }

    func testAnUpperTracksTransitionsFromAndToItsGapsBlendWithTheTrackBelow() throws {
        let parsed = try EditTimeline.parseOTIO(Data(contentsOf: try Self.folder().appendingPathComponent("joins.otio")))
        // A (V1) into Up (V2) over 8 frames after the cut; Up out to A's rest over 8 before; Cover (V3) cuts in and out.
        let kinds = parsed.items.map { item -> String in
            switch item {
            case .clip(let clip): return clip.name ?? "?"
            case .transition(let join): return "T\(join.before.value)/\(join.after.value)"
            default: return "-"
            }
        }
        XCTAssertEqual(kinds, ["A", "T0.0/8.0", "Up", "Cover", "B"], "the V1 dissolve at 96 lies under Cover and Up's fade out is cut by Cover")
    }

    // MARK: the otio-fcp-adapter's Premiere samples

    /// premiere_example.xml: four video tracks; V2 nests sequence-2 (which the adapter reads
    /// without its tracks: its frames are taken from the file by hand), V3 holds a Premiere
    /// title (a Slug with alpha named test_title), transparent in Segue where OTIO draws it opaque.
    func testPremiereExampleStacksAsOpenTimelineIOReadsItWithItsNestedSequenceAndTitle() throws {
        let path = Self.samples.appendingPathComponent("premiere_example.xml").path
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
        let judged = try JSONDecoder().decode(Judged.self, from: Self.run(["frames", path]))
        let expected = judged.frames.map { layers -> Judged.Layer? in
            guard let top = layers.first(where: { $0.name != "test_title" }) else { return nil }
            guard let nested = top.nested, let frame = top.frame else { return top }
            XCTAssertEqual(nested, "sc01_sh010_anim")
            // sequence-2's V1: sc01_sh010_anim.mov for frames 0 to 99, then sc01_sh030_anim.mov from its frame 0.
            return frame < 100 ? Judged.Layer(name: "sc01_sh010_anim.mov", source: Double(frame) / 30)
                : Judged.Layer(name: "sc01_sh030_anim.mov", source: Double(frame - 100) / 30)
        }
        assertShows(parsed, expected, "premiere_example.xml", urls: false)
        XCTAssertTrue(parsed.notes.contains { $0.contains("'test_title': a title or graphic isn't drawn") }, "\(parsed.notes)")
        XCTAssertEqual(parsed.videoTracks.count, 4)
        // A 30 fps sequence whose first clip is 15 fps: written as OTIO (no sequence rate there) and read
        // back, it keeps its rate and its items (the parse fuzzer's find: it came back at 15 fps).
        let reread = try EditTimeline.parseOTIO(parsed.otioJSON())
        XCTAssertEqual(parsed.rate, Rational(30, 1))
        XCTAssertEqual(reread.rate, parsed.rate)
        XCTAssertEqual(reread.items, parsed.items)
        guard case .nested(let nested) = parsed.videoTracks[1].items.last else { return XCTFail("\(parsed.videoTracks[1].items)") }
        XCTAssertEqual(nested.tracks.count, 3)
        XCTAssertEqual(nested.source.duration.value, 320)
        // Sound: A3 and A4 nest sequence-2 at 636: its A1 plays there on each, its A2 on a track of its own beside each.
        XCTAssertEqual(parsed.audioTracks.count, 10)
        var record = 0.0
        let placed = parsed.audioTracks[2].items.compactMap { item -> String? in
            defer { if case .gap(let length) = item { record += length.value } else if case .clip(let sound) = item { record += sound.clip.source.duration.value } }
            guard case .clip(let sound) = item else { return nil }
            return "\(sound.clip.name ?? "")@\(EditReading.number(record))+\(EditReading.number(sound.clip.source.duration.value))"
        }
        XCTAssertEqual(placed, ["sc01_placeholder.wav@335+170", "sc01_sh010_anim.mov@636+100"])
    }

    func testPremiereEnablePropertyLetsTheTracksBelowShowThroughDisabledItemsAndTracks() throws {
        let path = Self.samples.appendingPathComponent("premiere_enable_property.xml").path
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
        let judged = try JSONDecoder().decode(Judged.self, from: Self.run(["frames", path]))
        assertShows(parsed, judged.frames.map { $0.first }, "premiere_enable_property.xml", urls: false)
        XCTAssertEqual(parsed.videoTracks.map(\.enabled), [true, true, false])
        XCTAssertEqual(parsed.videoTracks.map(\.name), ["base", "overlay_1", "disabled_track"])
        // Its notes name a track as the OTIO reader does (by its name): written as OTIO and read back, the
        // disabled track isn't noted a second time under another label (the parse fuzzer's find).
        XCTAssertTrue(parsed.notes.contains("video track 'disabled_track' is disabled, so not drawn (the tracks below it show through)"),
                      "\(parsed.notes)")
        XCTAssertEqual(try EditTimeline.parseOTIO(parsed.otioJSON()).notes, parsed.notes)
    }

    func testPremiereGeneratorsStackAsOpenTimelineIOReadsThem() throws {
        let path = Self.samples.appendingPathComponent("premiere_generators.xml").path
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
        let judged = try JSONDecoder().decode(Judged.self, from: Self.run(["frames", path]))
        assertShows(parsed, judged.frames.map { $0.first }, "premiere_generators.xml", urls: false)
    }

    // MARK: comparison

    /// What the stacked `timeline.items` show frame by frame equals `expected` (nil: nothing; a
    /// generator: a generator's fill), a clip's name, file and source time within a quarter frame.
    private func assertShows(_ timeline: EditTimeline, _ expected: [Judged.Layer?], _ what: String, urls: Bool = true,
                             file: StaticString = #filePath, line: UInt = #line) {
        let shown = Shown.frames(of: timeline)
        XCTAssertEqual(shown.count, expected.count, "\(what): frames", file: file, line: line)
        var wrong: [String] = []
        for (frame, (mine, theirs)) in zip(shown, expected).enumerated() where !mine.matches(theirs, rate: timeline.rate.value, urls: urls) {
            wrong.append("frame \(frame): \(mine) but OTIO \(theirs.map { "\($0)" } ?? "nothing")")
        }
        XCTAssertTrue(wrong.isEmpty, "\(what): \(wrong.count) frames differ: \(wrong.prefix(6).joined(separator: "; "))", file: file, line: line)
    }
}

/// What stacked_timelines.py says each frame shows.
struct Judged: Decodable {
    struct Layer: Decodable, CustomStringConvertible {
        var name: String?
        var url: String?
        var source: Double?
        var generator: String?
        var nested: String?
        var frame: Int?

        var description: String { generator.map { "generator \($0)" } ?? "'\(name ?? "")' at \(source ?? -1) s" }
    }
    var rate: Double
    var frames: [[Layer]]
}

/// What one record frame of Segue's stacked track shows.
enum Shown: Equatable, CustomStringConvertible {
    case nothing
    case clip(name: String?, url: String?, source: Double)
    case generator

    static func frames(of timeline: EditTimeline) -> [Shown] {
        let rate = timeline.rate
        var result: [Shown] = []
        for item in timeline.items {
            switch item {
            case .clip(let clip):
                for frame in 0..<clip.source.duration.frameCount(at: rate) {
                    let picked = clip.speed?.sourceFrame(at: frame) ?? frame
                    result.append(.clip(name: clip.name, url: clip.media.location, source: clip.source.start.seconds + Double(picked) / rate.value))
                }
            case .gap(let duration): result += Array(repeating: .nothing, count: Int(duration.frameCount(at: rate)))
            case .fill(let fill): result += Array(repeating: .generator, count: Int(fill.duration.frameCount(at: rate)))
            case .transition, .nested: continue
            }
        }
        return result
    }

    func matches(_ layer: Judged.Layer?, rate: Double, urls: Bool) -> Bool {
        switch (self, layer) {
        case (.nothing, nil): return true
        case (.generator, let layer?): return layer.generator != nil
        case (.clip(let name, let url, let source), let layer?):
            guard layer.generator == nil, name == layer.name, let expected = layer.source else { return false }
            if urls, url.map({ URL(fileURLWithPath: $0).lastPathComponent }) != layer.url.map({ URL(fileURLWithPath: $0).lastPathComponent }) {
                return false
            }
            return abs(source - expected) < 0.25 / rate
        default: return false
        }
    }

    var description: String {
        switch self {
        case .nothing: return "nothing"
        case .generator: return "a generator"
        case .clip(let name, _, let source): return "'\(name ?? "")' at \(source) s"
        }
    }
}
