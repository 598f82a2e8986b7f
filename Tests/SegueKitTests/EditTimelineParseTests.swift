import Foundation
import SegueMedia
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// The OTIO, CMX 3600 and FCP 7 XML parsers and the OTIO writer, judged by
/// OpenTimelineIO and its own adapters (Tests/Support/edit_timelines.py in
/// Scripts/setup's .build/pyenv): the package writes each timeline in the three
/// formats, and what it reads back from a file is what Segue must read from it.
final class EditTimelineParseTests: XCTestCase {
    static let python = OTIOScript.python
    /// The cases edit_timelines.py makes, with the rate their EDL is read at.
    static let cases: [(name: String, rate: Rational)] = [
        ("cuts24", Rational(24, 1)), ("dissolves23976", Rational(24000, 1001)), ("dropframe2997", Rational(30000, 1001)),
        ("speeds24", Rational(24, 1)),
    ]
    static let edits = OTIOScript("edit_timelines.py", folder: "segue-edits")

    /// The package's files, made once for the whole class.
    static func folder() throws -> URL { try edits.folder() }

    override class func tearDown() {
        edits.remove()
        super.tearDown()
    }

    static func runPython(_ arguments: [String]) throws -> Data { try edits.run(arguments) }

    /// What the package reads from `path`.
    static func packageReading(_ path: String, rate: Rational? = nil) throws -> Reading {
        let data = try runPython(["dump", path] + (rate.map { ["\($0.numerator)/\($0.denominator)"] } ?? []))
        return try JSONDecoder().decode(Reading.self, from: data)
    }

    // MARK: parsed as the package reads the same file

    func testOTIOFilesReadAsTheOpenTimelineIOPackageReadsThem() throws {
        for (name, _) in Self.cases {
            let path = try Self.folder().appendingPathComponent("\(name).otio").path
            let parsed = try EditTimeline.parseOTIO(Data(contentsOf: URL(fileURLWithPath: path)))
            assertSame(Reading(parsed), try Self.packageReading(path), name + ".otio")
        }
    }

    func testEDLsReadAsTheCMX3600AdapterReadsThem() throws {
        for (name, rate) in Self.cases {
            let folder = try Self.folder()
            let path = folder.appendingPathComponent("\(name).edl").path
            let parsed = try EditTimeline.parseCMX3600(String(contentsOfFile: path, encoding: .utf8), rate: rate)
            var expected = try Self.packageReading(path, rate: rate)
            // The adapter gives a dissolve's incoming clip the outgoing one's `FROM CLIP` file;
            // the `TO CLIP` line names the right one, the file the timeline was made with.
            let original = try Self.packageReading(folder.appendingPathComponent("\(name).otio").path)
            for index in expected.items.indices where expected.items[index].kind == "clip" {
                expected.items[index].url = original.items[index].url
            }
            assertSame(Reading(parsed), expected, name + ".edl")
            XCTAssertEqual(parsed.rate, rate)
        }
    }

    func testFCP7XMLFilesReadAsTheFCPAdapterReadsThem() throws {
        for (name, _) in Self.cases {
            let path = try Self.folder().appendingPathComponent("\(name).xml").path
            let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
            assertSame(Reading(parsed), try Self.packageReading(path), name + ".xml")
        }
    }

    func testAnEDLWithDropFrameTimecodeIsRead2997ByDefault() throws {
        let path = try Self.folder().appendingPathComponent("dropframe2997.edl").path
        let parsed = try EditTimeline.parseCMX3600(String(contentsOfFile: path, encoding: .utf8))
        XCTAssertEqual(parsed.rate, Rational(30000, 1001))
        let plain = try EditTimeline.parseCMX3600("001 AX V C 01:00:00:00 01:00:01:00 01:00:00:00 01:00:01:00\n")
        XCTAssertEqual(plain.rate, Rational(24, 1))
        let said = try EditTimeline.parseCMX3600("FCM: DROP FRAME\n001 AX V C 01:00:00:00 01:01:00:02 01:00:00:00 01:01:00:02\n")
        XCTAssertEqual(said.rate, Rational(30000, 1001))
        // A minute of drop-frame labels is 1798 frames: 00 and 01 of minute one are skipped.
        guard case .clip(let clip) = said.items.first else { return XCTFail("no clip") }
        XCTAssertEqual(clip.source.duration.value, 1800)
        XCTAssertEqual(clip.source.start.value, 107_892)
    }

    func testAPremiereStyleXMLReadsAsTheFCPAdapterReadsIt() throws {
        let path = try Self.folder().appendingPathComponent("premiere.xml")
        try Data(EditSamples.premiereXML.utf8).write(to: path)
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: path))
        assertSame(Reading(parsed, track: 0), try Self.packageReading(path.path), "premiere.xml")
        XCTAssertEqual(parsed.rate, Rational(30000, 1001))
        XCTAssertEqual(parsed.videoTracks.count, 2)
        guard case .clip(let title) = parsed.items.first else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(title.name, "Title", "V2's clip covers V1's first 30 frames")
        guard case .clip(let second) = parsed.videoTracks[0].items[2] else { return XCTFail("\(parsed.videoTracks[0].items)") }
        XCTAssertEqual(second.media.location, "file://localhost/media/a%20b.mov", "a file given by id only is the first one's")
    }

    func testAnOTIOWithClip2AndMoreTracksReadsAsThePackageReadsIt() throws {
        let path = try Self.folder().appendingPathComponent("clip2.otio")
        try Data(EditSamples.clip2OTIO.utf8).write(to: path)
        let parsed = try EditTimeline.parseOTIO(Data(contentsOf: path))
        assertSame(Reading(parsed), try Self.packageReading(path.path), "clip2.otio")
        XCTAssertEqual(parsed.rate, Rational(24000, 1001))
        XCTAssertEqual(parsed.notes, [], "its empty V2 is read, and says nothing")
        XCTAssertEqual(parsed.videoTracks.map(\.name), ["V1", "V2"])
        XCTAssertEqual(parsed.audioTracks, [EditAudioTrack(name: "A1")], "its empty Audio track is read: the timeline's sound is silence")
    }

    // MARK: the writer

    func testWrittenOTIOIsReadByThePackageAsTheTimelineSays() throws {
        for timeline in try everyParsedTimeline() {
            let path = try Self.folder().appendingPathComponent("written-\(timeline.name ?? "none").otio")
            try timeline.otioJSON().write(to: path)
            assertSame(Reading(timeline), try Self.packageReading(path.path), "written \(timeline.name ?? "")")
        }
    }

    /// The writer writes what is rendered (`items`, one video track): read back, it is the same timeline.
    func testWrittenOTIOParsesBackToTheSameTimeline() throws {
        for timeline in try everyParsedTimeline() + [try wipeTimeline()] {
            var reread = try EditTimeline.parseOTIO(timeline.otioJSON())
            XCTAssertEqual(reread.videoTracks.map(\.items), [timeline.items])
            reread.videoTracks = timeline.videoTracks
            XCTAssertEqual(reread, timeline)
        }
    }

    private func everyParsedTimeline() throws -> [EditTimeline] {
        let folder = try Self.folder()
        return try Self.cases.flatMap { name, rate -> [EditTimeline] in
            let file = { (suffix: String) in folder.appendingPathComponent(name + suffix) }
            return [try EditTimeline.parseOTIO(Data(contentsOf: file(".otio"))),
                    try EditTimeline.parseCMX3600(String(contentsOf: file(".edl"), encoding: .utf8), rate: rate),
                    try EditTimeline.parseFCP7XML(Data(contentsOf: file(".xml")))]
        }
    }

    private func wipeTimeline() throws -> EditTimeline {
        var timeline = try EditTimeline.parseCMX3600("""
            001 AX V C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            002 AX V C 00:00:01:00 00:00:01:00 01:00:01:00 01:00:01:00
            002 R2 V W011 006 00:00:02:00 00:00:03:00 01:00:01:00 01:00:02:00
            * LOC: 00:00:02:12 RED half way
            """, rate: Rational(25, 1))
        timeline.notes = ["a note"]
        return timeline
    }

    // MARK: comparison

    /// Equal items in order; times equal within a fifth of a frame (Segue snaps 23.976 to 24000/1001, which the package doesn't).
    private func assertSame(_ actual: Reading, _ expected: Reading, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let accuracy = 0.2 / (actual.rate ?? 24)
        XCTAssertEqual(actual.items.map(\.kind), expected.items.map(\.kind), "\(what): kinds", file: file, line: line)
        XCTAssertEqual(actual.name, expected.name, "\(what): name", file: file, line: line)
        if let start = expected.start { XCTAssertEqual(actual.start ?? -1, start, accuracy: accuracy, "\(what): start", file: file, line: line) }
        for (index, (mine, theirs)) in zip(actual.items, expected.items).enumerated() {
            let label = "\(what) item \(index + 1)"
            XCTAssertEqual(mine.name, theirs.name, "\(label): name", file: file, line: line)
            XCTAssertEqual(mine.url, theirs.url, "\(label): url", file: file, line: line)
            for (a, b, field) in [(mine.start, theirs.start, "start"), (mine.duration, theirs.duration, "duration"),
                                  (mine.before, theirs.before, "before"), (mine.after, theirs.after, "after"),
                                  (mine.speed, theirs.speed, "speed")] {
                XCTAssertEqual(a ?? -1, b ?? -1, accuracy: accuracy, "\(label): \(field)", file: file, line: line)
            }
        }
        XCTAssertEqual(actual.markers.map(\.name), expected.markers.map(\.name), "\(what): markers", file: file, line: line)
        for (mine, theirs) in zip(actual.markers, expected.markers) {
            XCTAssertEqual(mine.time, theirs.time, accuracy: accuracy, "\(what): marker \(mine.name)", file: file, line: line)
        }
    }
}

/// A timeline as edit_timelines.py dumps it: times in seconds.
struct Reading: Decodable {
    struct Item: Decodable {
        var kind: String
        var name: String?
        var url: String?
        var start: Double?
        var duration: Double?
        var before: Double?
        var after: Double?
        /// A clip's speed (1 without a change, 0 a freeze frame).
        var speed: Double?
    }
    struct Marker: Decodable {
        var name: String
        var time: Double
    }
    var name: String?
    var rate: Double?
    var start: Double?
    var items: [Item]
    var markers: [Marker]

    /// The timeline's stacked items, or (`track`) those of one of its video tracks.
    init(_ timeline: EditTimeline, track: Int? = nil) {
        name = timeline.name
        rate = timeline.rate.value
        start = timeline.start?.seconds
        items = (track.map { timeline.videoTracks[$0].items } ?? timeline.items).map { item in
            switch item {
            case .clip(let clip):
                return Item(kind: "clip", name: clip.name, url: clip.media.location, start: clip.source.start.seconds,
                            duration: clip.source.duration.seconds, speed: clip.speed?.rate.value ?? 1)
            case .gap, .fill:
                return Item(kind: "gap", duration: item.blank?.seconds)
            case .transition(let transition):
                return Item(kind: "transition", before: transition.before.seconds, after: transition.after.seconds)
            case .nested(let nested):
                return Item(kind: "nested", name: nested.name, duration: nested.source.duration.seconds)
            }
        }
        markers = timeline.markers.map { Marker(name: $0.name, time: $0.time.seconds) }
    }
}
