import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// The readers' video tracks, nested sequences, layouts and nested sound
/// (issue 55), on files written here; SegueKitTests' EditTimelineStackingTests
/// judges the stacking against OpenTimelineIO.
final class EditTimelineTracksTests: XCTestCase {
    /// An xmeml file: sequence `S` at 24 fps with `video` tracks (each a string of items) and `audio` tracks, then `more` (other sequences).
    private func xmeml(_ video: [String], audio: [String] = [], more: String = "") -> Data {
        let tracks = video.map { "<track>\($0)</track>" }.joined()
        let sound = audio.isEmpty ? "" : "<audio>" + audio.map { "<track>\($0)</track>" }.joined() + "</audio>"
        return Data("""
            <xmeml version="4"><sequence id="S"><name>S</name><rate><timebase>24</timebase></rate>
            <media><video>\(tracks)</video>\(sound)</media></sequence>\(more)</xmeml>
            """.utf8)
    }

    private func clipItem(_ name: String, _ start: Int, _ end: Int, in inPoint: Int = 0, extra: String = "",
                          file: String = "<file id='f'><pathurl>/m/a.mov</pathurl></file>") -> String {
        "<clipitem><name>\(name)</name><start>\(start)</start><end>\(end)</end><in>\(inPoint)</in><out>\(inPoint + end - start)</out>\(file)\(extra)</clipitem>"
    }

    /// A clip item playing sequence `id` (defined elsewhere) from its `in`.
    private func nestedItem(_ name: String, _ start: Int, _ end: Int, in inPoint: Int, id: String, extra: String = "") -> String {
        "<clipitem><name>\(name)</name><start>\(start)</start><end>\(end)</end><in>\(inPoint)</in><out>\(inPoint + end - start)</out><sequence id='\(id)'/>\(extra)</clipitem>"
    }

    private func sequence(_ id: String, video: [String], audio: [String] = []) -> String {
        let sound = audio.isEmpty ? "" : "<audio>" + audio.map { "<track>\($0)</track>" }.joined() + "</audio>"
        return "<sequence id='\(id)'><name>\(id)</name><rate><timebase>24</timebase></rate><media><video>"
            + video.map { "<track>\($0)</track>" }.joined() + "</video>\(sound)</media></sequence>"
    }

    private func filter(_ name: String, _ id: String, _ parameters: String) -> String {
        "<filter><effect><name>\(name)</name><effectid>\(id)</effectid>\(parameters)</effect></filter>"
    }

    private func parameter(_ id: String, _ value: String) -> String {
        "<parameter><parameterid>\(id)</parameterid><value>\(value)</value></parameter>"
    }

    private func assertRefused(_ expected: String, within: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                               _ parse: () throws -> EditTimeline) {
        let started = Date()
        XCTAssertThrowsError(try parse(), file: file, line: line) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(expected), "'\(message)' doesn't say '\(expected)'", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), within, "refused too slowly", file: file, line: line)
    }

    private func clipNames(_ items: [EditItem]) -> [String] {
        items.compactMap { item in
            switch item {
            case .clip(let clip): return "\(clip.name ?? "?")+\(EditReading.number(clip.source.duration.value))"
            case .gap(let duration): return "gap+\(EditReading.number(duration.value))"
            case .fill(let fill): return "fill+\(EditReading.number(fill.duration.value))"
            case .transition, .nested: return nil
            }
        }
    }

    // MARK: layouts

    func testBasicMotionCropAndOpacityFillTheClipsLayout() throws {
        let motion = filter("Basic Motion", "basic", parameter("scale", "50") + parameter("rotation", "90")
                            + "<parameter><parameterid>center</parameterid><value><horiz>0.25</horiz><vert>-0.125</vert></value></parameter>")
        let crop = filter("Crop", "crop", parameter("left", "10") + parameter("right", "0") + parameter("top", "5") + parameter("bottom", "20"))
        let opacity = filter("Opacity", "opacity", parameter("opacity", "75"))
        let parsed = try EditTimeline.parseFCP7XML(xmeml([clipItem("Base", 0, 48), clipItem("PIP", 0, 24, extra: motion + crop + opacity)]))
        guard case .clip(let pip) = parsed.videoTracks[1].items.first, let layout = pip.layout else { return XCTFail("\(parsed.videoTracks)") }
        XCTAssertEqual([layout.scaleX, layout.scaleY, layout.rotation, layout.centreX, layout.centreY, layout.opacity], [0.5, 0.5, 90, 0.25, -0.125, 0.75])
        XCTAssertEqual([layout.cropLeft, layout.cropRight, layout.cropTop, layout.cropBottom], [0.1, 0, 0.05, 0.2])
        guard case .clip(let base) = parsed.videoTracks[0].items.first else { return XCTFail("\(parsed.videoTracks)") }
        XCTAssertNil(base.layout, "no filter: no layout")
        XCTAssertEqual(parsed.notes, [])
    }

    func testADefaultBasicMotionIsNoLayoutAndAKeyframedOneIsPlacedAtItsValueWithANote() throws {
        let still = filter("Basic Motion", "basic", parameter("scale", "100") + parameter("rotation", "0")
                           + "<parameter><parameterid>center</parameterid><value><horiz>0</horiz><vert>0</vert></value></parameter>")
        let keyed = filter("Basic Motion", "basic", "<parameter><parameterid>scale</parameterid><name>Scale</name><value>80</value>"
                           + "<keyframe><when>0</when><value>80</value></keyframe><keyframe><when>10</when><value>120</value></keyframe></parameter>")
        let parsed = try EditTimeline.parseFCP7XML(xmeml([clipItem("A", 0, 24, extra: still) + clipItem("B", 24, 48, extra: keyed)]))
        guard case .clip(let a) = parsed.items[0] else { return XCTFail("\(parsed.items)") }
        XCTAssertNil(a.layout)
        // B is placed: drawn over what is below it (black here), not in the track's items.
        XCTAssertEqual(parsed.items[1], .gap(EditTime(value: 24, rate: 24)))
        XCTAssertEqual(parsed.overlays.map(\.clip.layout?.scaleX), [0.8])
        XCTAssertEqual(parsed.overlays.map(\.recordStart), [24])
        XCTAssertTrue(parsed.notes.contains { $0.contains("clipitem 2 'B': its Scale is keyframed") }, "\(parsed.notes)")
    }

    func testAnUnknownFilterIsNotedNamingTheItemAndTheFilterNotRefused() throws {
        let blur = filter("Gaussian Blur", "gaussianblur", parameter("radius", "4"))
        let parsed = try EditTimeline.parseFCP7XML(xmeml([clipItem("Base", 0, 48), clipItem("Soft", 0, 24, extra: blur)]))
        XCTAssertTrue(parsed.notes.contains("video track 2: clipitem 1 'Soft': filter 'Gaussian Blur' not applied (drawn without it)"), "\(parsed.notes)")
    }

    func testALayoutValueThatIsNoNumberIsRefusedNamingTheItem() {
        assertRefused("clipitem 1 'A': Basic Motion scale 'big' is not a number") {
            try .parseFCP7XML(self.xmeml([self.clipItem("A", 0, 24, extra: self.filter("Basic Motion", "basic", self.parameter("scale", "big")))]))
        }
        assertRefused("clipitem 1 'A': Opacity opacity '250' is not a number from 0 to 100") {
            try .parseFCP7XML(self.xmeml([self.clipItem("A", 0, 24, extra: self.filter("Opacity", "opacity", self.parameter("opacity", "250")))]))
        }
    }

    // MARK: titles

    func testATitleAboveTheFirstTrackIsTransparentAndOnTheFirstIsDrawnBlackAsBefore() throws {
        let text = "<generatoritem><name>Lower Third</name><start>0</start><end>24</end><in>0</in><out>24</out>"
            + "<effect><name>Text</name><effectid>Text</effectid><effectcategory>Text</effectcategory><effecttype>generator</effecttype></effect></generatoritem>"
        let parsed = try EditTimeline.parseFCP7XML(xmeml([clipItem("Base", 0, 48), text]))
        XCTAssertEqual(clipNames(parsed.items), ["Base+48"], "the title lets V1 show through")
        XCTAssertTrue(parsed.notes.contains { $0.contains("generatoritem 1 'Lower Third': a title or graphic isn't drawn") }, "\(parsed.notes)")
        let alone = try EditTimeline.parseFCP7XML(xmeml([text]))
        XCTAssertEqual(clipNames(alone.items), ["fill+24"])
        let bars = "<generatoritem><name>Bars</name><start>0</start><end>24</end><in>0</in><out>24</out>"
            + "<effect><name>Bars and Tone (NTSC)</name><effectid>Bars</effectid><effecttype>generator</effecttype></effect></generatoritem>"
        let covered = try EditTimeline.parseFCP7XML(xmeml([clipItem("Base", 0, 48), bars]))
        XCTAssertEqual(clipNames(covered.items), ["fill+24", "Base+24"], "bars above are a full frame")
    }

    // MARK: nested sequences

    func testAClipItemHoldingASequenceNestsItWithItsInOutSpeedAndEnabledState() throws {
        let inner = sequence("N", video: [clipItem("X", 0, 50) + clipItem("Y", 50, 100, in: 200)])
        let remap = filter("Time Remap", "timeremap", parameter("speed", "200"))
        let parsed = try EditTimeline.parseFCP7XML(xmeml([
            clipItem("Base", 0, 200),
            nestedItem("Nest", 10, 40, in: 40, id: "N") + nestedItem("Fast", 50, 60, in: 0, id: "N", extra: remap)
                + nestedItem("Off", 100, 120, in: 0, id: "N", extra: "<enabled>FALSE</enabled>"),
        ], more: inner))
        guard case .nested(let nest) = parsed.videoTracks[1].items[1], case .nested(let fast) = parsed.videoTracks[1].items[3] else {
            return XCTFail("\(parsed.videoTracks[1].items)")
        }
        XCTAssertEqual(nest.name, "Nest")
        XCTAssertEqual([nest.source.start.value, nest.source.duration.value], [40, 30])
        XCTAssertEqual(nest.tracks.count, 1)
        XCTAssertEqual(fast.speed, PlaybackSpeed(2))
        XCTAssertEqual(parsed.videoTracks[1].items[5], .gap(EditTime(value: 20, rate: 24)))
        XCTAssertTrue(parsed.notes.contains { $0.contains("clipitem 3 'Off': disabled, so not drawn") }, "\(parsed.notes)")
        XCTAssertEqual(clipNames(parsed.items), ["Base+10", "X+10", "Y+20", "Base+10", "X+10", "Base+140"],
                       "Nest shows X's frames 40 to 49 then Y's 200 to 219; Fast X's 0, 2 … 18")
    }

    func testASequenceReferencedBeforeItIsDefinedIsFoundAndAnInlineOneIsRead() throws {
        let reference = nestedItem("Early", 0, 24, in: 0, id: "later")
        let inline = "<clipitem><name>Inline</name><start>24</start><end>48</end><in>0</in><out>24</out>"
            + sequence("inside", video: [clipItem("Deep", 0, 24, in: 7)]) + "</clipitem>"
        let parsed = try EditTimeline.parseFCP7XML(xmeml([reference + inline], more: sequence("later", video: [clipItem("Late", 0, 24, in: 3)])))
        XCTAssertEqual(clipNames(parsed.items), ["Late+24", "Deep+24"])
    }

    func testANestingLoopIsRefusedNamingTheSequence() {
        assertRefused("clipitem 1 'Me': sequence 'S' contains itself") {
            try .parseFCP7XML(self.xmeml([self.nestedItem("Me", 0, 24, in: 0, id: "S")]))
        }
        let a = sequence("A", video: [nestedItem("to B", 0, 24, in: 0, id: "B")])
        let b = sequence("B", video: [nestedItem("to A", 0, 24, in: 0, id: "A")])
        assertRefused("sequence 'A' contains itself") {
            try .parseFCP7XML(self.xmeml([self.nestedItem("start", 0, 24, in: 0, id: "A")], more: a + b))
        }
    }

    func testDeepNestingAndADanglingSequenceAreRefusedQuicklyNamingThem() {
        let chain = (0..<100).map { sequence("s\($0)", video: [nestedItem("next", 0, 24, in: 0, id: "s\($0 + 1)")]) }.joined()
        assertRefused("sequences nested more than 64 deep") {
            try .parseFCP7XML(self.xmeml([self.nestedItem("first", 0, 24, in: 0, id: "s0")], more: chain))
        }
        assertRefused("clipitem 1 'Lost': its sequence 'nowhere' is defined nowhere in the file") {
            try .parseFCP7XML(self.xmeml([self.nestedItem("Lost", 0, 24, in: 0, id: "nowhere")]))
        }
        // 20 sequences each using the next 30 times: read once each, refused when stacked past the item bound.
        let wide = (0..<20).map { level in
            sequence("w\(level)", video: [(0..<30).map { self.nestedItem("n", $0, $0 + 1, in: 0, id: "w\(level + 1)") }.joined()])
        }.joined() + sequence("w20", video: [clipItem("Leaf", 0, 1)])
        assertRefused("more than 100000 items", within: 20) {
            try .parseFCP7XML(self.xmeml([self.nestedItem("top", 0, 30, in: 0, id: "w0")], more: wide))
        }
    }

    func testOverlappingClipItemsOnAVideoTrackAreRefusedNamingBoth() {
        assertRefused("clipitem 2 'B' starts at frame 20, before clipitem 1 'A' ends (frame 24)") {
            try .parseFCP7XML(self.xmeml([self.clipItem("A", 0, 24) + self.clipItem("B", 20, 40)]))
        }
    }

    // MARK: nested sound

    func testANestedSequencesSoundTracksAreFlattenedIntoTheParentsAtItsLevel() throws {
        let inner = sequence("N", video: [clipItem("V", 0, 100)], audio: [
            clipItem("Voice", 0, 60, in: 10) + clipItem("More", 60, 100),
            "<clipitem><name>Music</name><start>20</start><end>100</end><in>0</in><out>80</out><file id='g'><pathurl>/m/music.wav</pathurl></file></clipitem>",
        ])
        let levels = filter("Audio Levels", "audiolevels", parameter("level", "0.5"))
        let parsed = try EditTimeline.parseFCP7XML(xmeml([clipItem("Pic", 0, 200)], audio: [
            clipItem("Lead", 0, 50) + nestedItem("Nest", 50, 130, in: 30, id: "N", extra: levels),
        ], more: inner))
        XCTAssertEqual(parsed.audioTracks.count, 2, "A1, and N's second track beside it")
        let first = parsed.audioTracks[0].items.compactMap { item -> String? in
            guard case .clip(let sound) = item else { return nil }
            return "\(sound.clip.name ?? "")@\(EditReading.number(sound.clip.source.start.value))+\(EditReading.number(sound.clip.source.duration.value))"
                + " \(EditReading.number((sound.level * 10).rounded() / 10))dB"
        }
        XCTAssertEqual(first, ["Lead@0+50 0dB", "Voice@40+30 -6dB", "More@0+40 -6dB"], "N's frames 30 to 109: Voice from its frame 40, then More")
        guard case .gap(let before) = parsed.audioTracks[1].items.first, case .clip(let music) = parsed.audioTracks[1].items[1] else {
            return XCTFail("\(parsed.audioTracks[1])")
        }
        XCTAssertEqual(before.value, 50, "silent until Nest starts")
        XCTAssertEqual([music.clip.source.start.value, music.clip.source.duration.value], [10, 70])
    }

    func testASpeedChangeOnANestedSequencesSoundIsRefused() {
        let inner = sequence("N", video: [clipItem("V", 0, 48)], audio: [clipItem("Voice", 0, 48)])
        let remap = filter("Time Remap", "timeremap", parameter("speed", "50"))
        assertRefused("audio track 1: clipitem 1 'Nest': a speed change on a nested sequence's sound can't be played") {
            try .parseFCP7XML(self.xmeml([self.clipItem("Pic", 0, 48)], audio: [self.nestedItem("Nest", 0, 48, in: 0, id: "N", extra: remap)], more: inner))
        }
    }

    func testAStackInAnOTIOAudioTrackIsFlattenedIntoTheSound() throws {
        func time(_ value: Int) -> String { #"{"OTIO_SCHEMA": "RationalTime.1", "value": \#(value), "rate": 24}"# }
        func range(_ start: Int, _ duration: Int) -> String {
            #"{"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(start)), "duration": \#(time(duration))}"#
        }
        func clip(_ name: String, _ start: Int, _ duration: Int) -> String {
            #"{"OTIO_SCHEMA": "Clip.1", "name": "\#(name)", "source_range": \#(range(start, duration)), "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/m/\#(name).wav"}}"#
        }
        func track(_ kind: String, _ items: [String]) -> String {
            #"{"OTIO_SCHEMA": "Track.1", "kind": "\#(kind)", "children": [\#(items.joined(separator: ","))]}"#
        }
        let stack = #"{"OTIO_SCHEMA": "Stack.1", "name": "inner", "source_range": \#(range(12, 24)), "children": [\#(track("Audio", [clip("S1", 100, 48)])), \#(track("Audio", [clip("S2", 500, 48)])), \#(track("Video", [clip("Pic", 0, 48)]))]}"#
        let parsed = try EditTimeline.parseOTIO(Data(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [\#(track("Video", [clip("V", 0, 48)])), \#(track("Audio", [clip("A", 0, 24), stack]))]}}
            """#.utf8))
        XCTAssertEqual(parsed.audioTracks.count, 2)
        guard case .clip(let s1) = parsed.audioTracks[0].items[1], case .clip(let s2) = parsed.audioTracks[1].items[1] else {
            return XCTFail("\(parsed.audioTracks)")
        }
        XCTAssertEqual([s1.clip.source.start.value, s1.clip.source.duration.value, s2.clip.source.start.value], [112, 24, 512])
        XCTAssertEqual(parsed.audioTracks[1].items.first, .gap(EditTime(value: 24, rate: 24)))
    }

    func testAnOTIOTrackHoldingOnlyAStackTakesItsRateAndPlaysItWholeWithoutASourceRange() throws {
        func time(_ value: Int) -> String { #"{"OTIO_SCHEMA": "RationalTime.1", "value": \#(value), "rate": 25}"# }
        let clip = #"{"OTIO_SCHEMA": "Clip.1", "name": "In", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(5)), "duration": \#(time(50))}, "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/m/in.mov"}}"#
        let gap = #"{"OTIO_SCHEMA": "Gap.1", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(0)), "duration": \#(time(10))}}"#
        let stack = #"{"OTIO_SCHEMA": "Stack.1", "name": "whole", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(0)), "duration": \#(time(60))}, "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(gap), \#(clip)]}]}"#
        let parsed = try EditTimeline.parseOTIO(Data(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(stack)]}]}}
            """#.utf8))
        XCTAssertEqual(parsed.rate, Rational(25, 1))
        XCTAssertEqual(clipNames(parsed.items), ["gap+10", "In+50"])
        let whole = try EditTimeline.parseOTIO(Data(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(stack.replacingOccurrences(of: #""source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(time(0)), "duration": \#(time(60))}, "#, with: ""))]}]}}
            """#.utf8))
        guard case .nested(let nested) = whole.videoTracks[0].items.first else { return XCTFail("\(whole.videoTracks)") }
        XCTAssertEqual(nested.source.duration.seconds, 60.0 / 25, "its tracks' whole length")
    }

    func testNestedSoundBeyondTheTrackLimitIsRefused() {
        let inner = sequence("N", video: [clipItem("V", 0, 48)], audio: Array(repeating: clipItem("Voice", 0, 48), count: 40))
        assertRefused("sound tracks with those of the nested sequences (at most 64 are mixed)") {
            try .parseFCP7XML(self.xmeml([self.clipItem("Pic", 0, 48)], audio: Array(repeating: self.nestedItem("Nest", 0, 48, in: 0, id: "N"), count: 2),
                                         more: inner))
        }
    }
}
