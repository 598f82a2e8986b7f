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
    static let python = SegueTool.repository.appendingPathComponent(".build/pyenv/bin/python3").path
    static let script = SegueTool.repository.appendingPathComponent("Tests/Support/edit_timelines.py").path
    /// The cases edit_timelines.py makes, with the rate their EDL is read at.
    static let cases: [(name: String, rate: Rational)] = [
        ("cuts24", Rational(24, 1)), ("dissolves23976", Rational(24000, 1001)), ("dropframe2997", Rational(30000, 1001)),
    ]
    nonisolated(unsafe) static var madeFolder: URL?

    /// The package's files, made once for the whole class.
    static func folder() throws -> URL {
        if let madeFolder { return madeFolder }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw unavailable("no \(python): run Scripts/setup (it installs opentimelineio and its adapters)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-edits-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try runPython(["make", folder.path])
        madeFolder = folder
        return folder
    }

    override class func tearDown() {
        if let madeFolder { try? FileManager.default.removeItem(at: madeFolder) }
        madeFolder = nil
        super.tearDown()
    }

    static func runPython(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let result = try SegueTool.capture(process)
        guard result.status == 0 else { throw EditTimelineError("edit_timelines.py \(arguments.joined(separator: " ")): \(result.standardError)") }
        return Data(result.standardOutput.utf8)
    }

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

    func testEDLSoundOnlyEventsAndLinesAreSkippedAndBlackIsAGap() throws {
        let parsed = try EditTimeline.parseCMX3600("""
            TITLE: mixed
            001 AX V C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            * FROM CLIP NAME: a.mov
            * SOURCE FILE: /media/a.mov
            002 AX AA C 00:00:00:00 00:00:05:00 01:00:00:00 01:00:05:00
            003 BL V C 00:00:00:00 00:00:00:12 01:00:01:00 01:00:01:12
            004 R2 V W001 006 00:00:02:00 00:00:03:00 01:00:02:00 01:00:03:00
            005 R3 A C 00:00:05:00 00:00:06:00 01:00:03:00 01:00:04:00
            005 R3 V C 00:00:05:00 00:00:06:00 01:00:03:00 01:00:04:00
            """, rate: Rational(24, 1))
        XCTAssertEqual(parsed.name, "mixed")
        XCTAssertEqual(parsed.items.count, 6)
        guard case .clip(let first) = parsed.items[0], case .gap(let black) = parsed.items[1], case .gap(let hole) = parsed.items[2],
              case .transition(let wipe) = parsed.items[3], case .clip(let wiped) = parsed.items[4], case .clip(let last) = parsed.items[5] else {
            return XCTFail("\(parsed.items)")
        }
        XCTAssertEqual(first.media, EditMedia(location: "/media/a.mov", clipName: "a.mov"))
        XCTAssertEqual(black.value, 12)
        XCTAssertEqual(hole.value, 12)
        XCTAssertEqual(wipe.kind, .wipe(1))
        XCTAssertEqual(wipe.after.value, 6)
        XCTAssertEqual(wiped.media.reel, "R2")
        XCTAssertEqual(last.source.start.value, 120, "an event's video line, though its sound line comes first")
    }

    func testAPremiereStyleXMLReadsAsTheFCPAdapterReadsIt() throws {
        let path = try Self.folder().appendingPathComponent("premiere.xml")
        try Data(EditSamples.premiereXML.utf8).write(to: path)
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: path))
        assertSame(Reading(parsed), try Self.packageReading(path.path), "premiere.xml")
        XCTAssertEqual(parsed.rate, Rational(30000, 1001))
        XCTAssertTrue(parsed.notes.contains { $0.contains("video track 2 not used") }, "\(parsed.notes)")
        guard case .clip(let second) = parsed.items[2] else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(second.media.location, "file://localhost/media/a%20b.mov", "a file given by id only is the first one's")
    }

    func testAnOTIOWithClip2AndMoreTracksReadsAsThePackageReadsIt() throws {
        let path = try Self.folder().appendingPathComponent("clip2.otio")
        try Data(EditSamples.clip2OTIO.utf8).write(to: path)
        let parsed = try EditTimeline.parseOTIO(Data(contentsOf: path))
        assertSame(Reading(parsed), try Self.packageReading(path.path), "clip2.otio")
        XCTAssertEqual(parsed.rate, Rational(24000, 1001))
        XCTAssertEqual(parsed.notes.count, 2, "\(parsed.notes)")
    }

    // MARK: the writer

    func testWrittenOTIOIsReadByThePackageAsTheTimelineSays() throws {
        for timeline in try everyParsedTimeline() {
            let path = try Self.folder().appendingPathComponent("written-\(timeline.name ?? "none").otio")
            try timeline.otioJSON().write(to: path)
            assertSame(Reading(timeline), try Self.packageReading(path.path), "written \(timeline.name ?? "")")
        }
    }

    func testWrittenOTIOParsesBackToTheSameTimeline() throws {
        for timeline in try everyParsedTimeline() + [try wipeTimeline()] {
            XCTAssertEqual(try EditTimeline.parseOTIO(timeline.otioJSON()), timeline)
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
                                  (mine.before, theirs.before, "before"), (mine.after, theirs.after, "after")] {
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

    init(_ timeline: EditTimeline) {
        name = timeline.name
        rate = timeline.rate.value
        start = timeline.start?.seconds
        items = timeline.items.map { item in
            switch item {
            case .clip(let clip):
                return Item(kind: "clip", name: clip.name, url: clip.media.location, start: clip.source.start.seconds,
                            duration: clip.source.duration.seconds)
            case .gap(let duration):
                return Item(kind: "gap", duration: duration.seconds)
            case .transition(let transition):
                return Item(kind: "transition", before: transition.before.seconds, after: transition.after.seconds)
            }
        }
        markers = timeline.markers.map { Marker(name: $0.name, time: $0.time.seconds) }
    }
}

/// Hostile and broken timelines: each refused quickly, the message naming the item and what is wrong.
final class EditTimelineParseHostileTests: XCTestCase {
    /// `within`: seconds in a debug build on a shared machine; the inputs of 100,000 items and more get longer.
    private func assertRefused(_ expected: String, within: TimeInterval = 3, file: StaticString = #filePath, line: UInt = #line,
                               _ parse: () throws -> EditTimeline) {
        let started = Date()
        XCTAssertThrowsError(try parse(), file: file, line: line) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(expected), "'\(message)' doesn't say '\(expected)'", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), within, "refused too slowly", file: file, line: line)
    }

    private func time(_ value: String, _ rate: String = "24") -> String {
        #"{"OTIO_SCHEMA": "RationalTime.1", "value": \#(value), "rate": \#(rate)}"#
    }

    /// A timeline whose one track holds `items` (JSON objects).
    private func otio(_ items: [String]) -> Data {
        Data(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [
             {"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(items.joined(separator: ","))]}]}}
            """#.utf8)
    }

    private func clip(start: String = "0", duration: String = "24", rate: String = "24", effects: String = "[]") -> String {
        #"""
        {"OTIO_SCHEMA": "Clip.1", "name": "B-roll", "effects": \#(effects),
         "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(start, rate)), "duration": \#(time(duration, rate))},
         "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/m/b.mov"}}
        """#
    }

    func testOTIOHostileInputsAreRefusedNamingTheItem() {
        assertRefused("JSON nested more than 64 deep") { try .parseOTIO(Data(String(repeating: "[", count: 100_000).utf8)) }
        assertRefused("clip 1 'B-roll': source_range has rate 0") { try .parseOTIO(self.otio([self.clip(rate: "0")])) }
        assertRefused("clip 1 'B-roll': source_range has rate -24") { try .parseOTIO(self.otio([self.clip(rate: "-24")])) }
        assertRefused("clip 1 'B-roll': source_range has a negative duration") { try .parseOTIO(self.otio([self.clip(duration: "-5")])) }
        assertRefused("clip 1 'B-roll': source_range is") { try .parseOTIO(self.otio([self.clip(start: "1e300")])) }
        assertRefused("clip 1 'B-roll': speed change (LinearTimeWarp)") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 2}]"#)]))
        }
        assertRefused("clip 1 'B-roll': effect 'Blur' (Effect)") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "Effect.1", "effect_name": "Blur"}]"#)]))
        }
        assertRefused("stack 2 'inner': a nested Stack") {
            try .parseOTIO(self.otio([self.clip(), #"{"OTIO_SCHEMA": "Stack.1", "name": "inner", "children": []}"#]))
        }
        assertRefused("transition 2: transition type 'Custom_Wipe'") {
            try .parseOTIO(self.otio([self.clip(), #"{"OTIO_SCHEMA": "Transition.1", "transition_type": "Custom_Wipe", "in_offset": \#(self.time("1")), "out_offset": \#(self.time("1"))}"#, self.clip()]))
        }
        assertRefused("clip 1 'lost': no source_range, and its media has no available_range") {
            try .parseOTIO(self.otio([#"{"OTIO_SCHEMA": "Clip.1", "name": "lost", "media_reference": {"OTIO_SCHEMA": "MissingReference.1"}}"#]))
        }
        assertRefused("more than 100000 items", within: 10) { try .parseOTIO(self.otio(Array(repeating: "{}", count: 100_001))) }
        assertRefused("not an OTIO timeline") { try .parseOTIO(Data(#"{"OTIO_SCHEMA": "Clip.1"}"#.utf8)) }
        assertRefused("not valid JSON") { try .parseOTIO(Data("{\"OTIO_SCHEMA\": ".utf8)) }
    }

    func testEDLHostileInputsAreRefusedNamingTheEvent() {
        let first = "001 AX V C 01:00:00:00 01:00:01:00 01:00:00:00 01:00:01:00\n"
        assertRefused("event 012: bad timecode 01:00:61:00") { try .parseCMX3600("012 AX V C 01:00:61:00 01:00:62:00 01:00:00:00 01:00:01:00") }
        assertRefused("event 002: speed change (M2") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:01:00 01:00:01:12\nM2   AX       048.0                01:00:00:00\n")
        }
        assertRefused("event 002: source lasts 24 frames but record 12") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:01:00 01:00:01:12\n")
        }
        assertRefused("event 002: record in 01:00:00:12 overlaps") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:00:12 01:00:01:12\n")
        }
        assertRefused("event 002: edit type K can't be drawn") {
            try .parseCMX3600(first + "002 AX V C 01:00:01:00 01:00:01:00 01:00:01:00 01:00:01:00\n002 BB V K 010 01:00:00:00 01:00:01:00 01:00:01:00 01:00:02:00\n")
        }
        assertRefused("event 002: bad transition length 'x1'") {
            try .parseCMX3600(first + "002 BB V D x1 01:00:00:00 01:00:01:00 01:00:01:00 01:00:02:00\n")
        }
        assertRefused("event 001: freeze frame") { try .parseCMX3600(first + "* * FREEZE FRAME\n") }
        assertRefused("event 003: 5 fields") { try .parseCMX3600("003 AX V C 01:00:00:00\n") }
        assertRefused("rate 0 is not a frame rate") { try .parseCMX3600(first, rate: Rational(0, 1)) }
        assertRefused("no video events") { try .parseCMX3600("TITLE: sound only\n001 AX A C 01:00:00:00 01:00:01:00 01:00:00:00 01:00:01:00\n") }
        let block = (0..<1000).map { String(format: "%03d AX V C 00:00:00:00 00:00:00:01 00:00:00:00 00:00:00:01\n", $0) }.joined()
        let million = String(repeating: block, count: 1000)
        assertRefused("more than 100000 events", within: 10) { try .parseCMX3600(million) }
    }

    /// An xmeml file whose first video track holds `items`.
    private func xmeml(_ items: String, rate: String = "24") -> Data {
        Data("""
            <xmeml version="4"><sequence><name>S</name><rate><timebase>\(rate)</timebase></rate>
            <media><video><track>\(items)</track></video></media></sequence></xmeml>
            """.utf8)
    }

    private let clipItem = "<clipitem><name>A</name><start>0</start><end>24</end><in>0</in><out>24</out><file><pathurl>/m/a.mov</pathurl></file></clipitem>"

    func testXMLHostileInputsAreRefusedNamingTheItem() {
        assertRefused("nested more than 64 deep") { try .parseFCP7XML(Data(String(repeating: "<a>", count: 100_000).utf8)) }
        assertRefused("clipitem 1 'A': bad <start> 'x'") { try .parseFCP7XML(self.xmeml(self.clipItem.replacingOccurrences(of: "<start>0", with: "<start>x"))) }
        assertRefused("sequence 'S': rate 0 is not a frame rate") { try .parseFCP7XML(self.xmeml(self.clipItem, rate: "0")) }
        assertRefused("clipitem 1 'A': speed change (Time Remap)") {
            try .parseFCP7XML(self.xmeml(self.clipItem.replacingOccurrences(of: "</clipitem>", with: "<filter><effect><name>Time Remap</name><effectid>timeremap</effectid></effect></filter></clipitem>")))
        }
        assertRefused("clipitem 1 'A': a nested sequence") {
            try .parseFCP7XML(self.xmeml(self.clipItem.replacingOccurrences(of: "</clipitem>", with: "<sequence id='s2'/></clipitem>")))
        }
        assertRefused("clipitem 2 'A': start -1 without a transition") {
            try .parseFCP7XML(self.xmeml(self.clipItem + self.clipItem.replacingOccurrences(of: "<start>0", with: "<start>-1")))
        }
        assertRefused("not an FCP 7 XML file") { try .parseFCP7XML(Data("<fcpxml version='1.9'/>".utf8)) }
        assertRefused("is never closed") { try .parseFCP7XML(Data("<xmeml><sequence>".utf8)) }
        assertRefused("more than 100000 items") { try .parseFCP7XML(self.xmeml(String(repeating: self.clipItem, count: 100_001))) }
    }

    func testDeclaredEntitiesAreNotExpanded() throws {
        let laughs = "<!DOCTYPE xmeml [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
        let data = Data((laughs + String(decoding: xmeml(clipItem.replacingOccurrences(of: "<name>A", with: "<name>&b;")), as: UTF8.self)).utf8)
        let parsed = try EditTimeline.parseFCP7XML(data)
        guard case .clip(let clip) = parsed.items.first else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(clip.name, "&b;")
    }
}
