import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// The CMX 3600 reader on an EDL written here (the files the OpenTimelineIO
/// package judges are in SegueKitTests' EditTimelineParseTests).
final class EditTimelineParseModelTests: XCTestCase {
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

    /// A zero-length cut numbered apart from the dissolve that follows it (the fuzzer's find) stays a
    /// zero-length clip; written as OTIO and read back, its one track keeps the dissolve rather than
    /// being stacked window by window (which lost it).
    func testAZeroLengthCutBeforeADissolveReadsBackFromOTIO() throws {
        let edl = """
        TITLE: Drop frame 29.97
        FCM: DROP FRAME

        001  long     V     C        01:00:59;20 01:01:09;14 00:00:00;00 00:00:09;22
        * FROM CLIP NAME:  Long
        002  long     V     C        01:01:09;14 01:01:09;14 00:00:09;22 00:00:09;22
        003  next     V     D 016    01:09:59;10 01:10:07;18 00:00:09;22 00:00:18;00
        * TO CLIP NAME:  Next
        """
        let timeline = try EditTimeline.parseCMX3600(edl)
        let dissolves = timeline.items.filter { if case .transition = $0 { true } else { false } }
        XCTAssertEqual(dissolves.count, 1)
        let again = try EditTimeline.parseOTIO(timeline.otioJSON())
        XCTAssertEqual(again.items, timeline.items, "the one track as it was, its dissolve too")
    }

    /// The fuzzer's second find: a disabled track is noted when read; written as OTIO (the notes go with it)
    /// and read back, it was noted a second time.
    func testNotesAreNotRepeatedByReadingTheOTIOSegueWrote() throws {
        func clip(_ name: String) -> String {
            """
            {"OTIO_SCHEMA": "Clip.1", "name": "\(name)", "media_reference": {"OTIO_SCHEMA": "ExternalReference.1",
             "target_url": "/media/\(name).mov"}, "source_range": {"OTIO_SCHEMA": "TimeRange.1",
             "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 24, "value": 0},
             "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 24, "value": 48}}}
            """
        }
        let json = """
        {"OTIO_SCHEMA": "Timeline.1", "name": "Layers", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [
          {"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\(clip("a"))]},
          {"OTIO_SCHEMA": "Track.1", "kind": "Video", "enabled": false, "children": [\(clip("b"))]}]}}
        """
        let timeline = try EditTimeline.parseOTIO(Data(json.utf8))
        XCTAssertEqual(timeline.notes.filter { $0.contains("is disabled") }.count, 1, "\(timeline.notes)")
        let again = try EditTimeline.parseOTIO(timeline.otioJSON())
        XCTAssertEqual(again.notes, timeline.notes)
    }

    func testOTIOHostileInputsAreRefusedNamingTheItem() {
        assertRefused("JSON nested more than 64 deep") { try .parseOTIO(Data(String(repeating: "[", count: 100_000).utf8)) }
        assertRefused("clip 1 'B-roll': source_range has rate 0") { try .parseOTIO(self.otio([self.clip(rate: "0")])) }
        assertRefused("clip 1 'B-roll': source_range has rate -24") { try .parseOTIO(self.otio([self.clip(rate: "-24")])) }
        assertRefused("clip 1 'B-roll': source_range has a negative duration") { try .parseOTIO(self.otio([self.clip(duration: "-5")])) }
        assertRefused("clip 1 'B-roll': source_range is") { try .parseOTIO(self.otio([self.clip(start: "1e300")])) }
        assertRefused("clip 1 'B-roll': reverse speed (time_scalar -2)") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": -2}]"#)]))
        }
        assertRefused("clip 1 'B-roll': speed 101x is beyond 100x") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 101}]"#)]))
        }
        assertRefused("clip 1 'B-roll': LinearTimeWarp's time_scalar isn't a number") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": "fast"}]"#)]))
        }
        assertRefused("clip 1 'B-roll': time effect 'ramp' (a ramp or time remap)") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "TimeEffect.1", "effect_name": "ramp"}]"#)]))
        }
        assertRefused("clip 1 'B-roll': effect 'Blur' (Effect)") {
            try .parseOTIO(self.otio([self.clip(effects: #"[{"OTIO_SCHEMA": "Effect.1", "effect_name": "Blur"}]"#)]))
        }
        assertRefused("stack 2 'inner': child 1 is not a Track") {
            try .parseOTIO(self.otio([self.clip(), #"{"OTIO_SCHEMA": "Stack.1", "name": "inner", "children": [\#(self.clip())]}"#]))
        }
        assertRefused("stack 2 'inner': effect 'Blur' (Effect)") {
            try .parseOTIO(self.otio([self.clip(), #"{"OTIO_SCHEMA": "Stack.1", "name": "inner", "children": [], "effects": [{"OTIO_SCHEMA": "Effect.1", "effect_name": "Blur"}]}"#]))
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
        assertRefused("event 002: reverse motion (M2 -048.0)") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:01:00 01:00:01:12\nM2   AX       -048.0                01:00:00:00\n")
        }
        assertRefused("event 002: M2 speed 'nan' isn't a number") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:01:00 01:00:01:12\nM2   AX       nan                01:00:00:00\n")
        }
        assertRefused("event 002: M2 9999.0 at 24 fps is beyond 100x") {
            try .parseCMX3600(first + "002 AX V C 01:00:00:00 01:00:01:00 01:00:01:00 01:00:01:12\nM2   AX       9999.0                01:00:00:00\n")
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
        func remap(_ parameters: String) -> Data {
            self.xmeml(self.clipItem.replacingOccurrences(of: "</clipitem>", with: "<filter><effect><name>Time Remap</name><effectid>timeremap</effectid>\(parameters)</effect></filter></clipitem>"))
        }
        func parameter(_ id: String, _ value: String) -> String { "<parameter><parameterid>\(id)</parameterid><value>\(value)</value></parameter>" }
        assertRefused("clipitem 1 'A': reverse speed (Time Remap)") { try .parseFCP7XML(remap(parameter("speed", "50") + parameter("reverse", "TRUE"))) }
        assertRefused("clipitem 1 'A': variable speed (a Time Remap ramp)") { try .parseFCP7XML(remap(parameter("variablespeed", "1"))) }
        assertRefused("clipitem 1 'A': reverse speed (Time Remap -100 %)") { try .parseFCP7XML(remap(parameter("speed", "-100"))) }
        assertRefused("clipitem 1 'A': Time Remap speed 'inf' isn't a number") { try .parseFCP7XML(remap(parameter("speed", "inf"))) }
        assertRefused("clipitem 1 'A': Time Remap speed 20000 % is beyond 100x") { try .parseFCP7XML(remap(parameter("speed", "20000"))) }
        assertRefused("clipitem 1 'A': its sequence 's2' is defined nowhere in the file") {
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
