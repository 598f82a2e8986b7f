import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// Timelines as other tools write them (issue 46): disabled items, Premiere's
/// generators, Hiero's decimal frame counts, Windows paths in EDLs, PAL EDLs.
/// SegueKitTests' EditTimelineToolsRenderTests judges the same cases against
/// OpenTimelineIO's reading and renders them.
final class EditTimelineToolsTests: XCTestCase {
    /// An xmeml sequence at 24 fps whose one video track holds `items`.
    private func xmeml(_ items: String, trackEnabled: Bool = true) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xmeml>
            <xmeml version="4"><sequence id="sequence-1"><name>tools</name>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate>
            <media><video><track>\(items)<enabled>\(trackEnabled ? "TRUE" : "FALSE")</enabled></track></video></media>
            </sequence></xmeml>
            """.utf8)
    }

    private func clipItem(_ name: String, _ start: String, _ end: String, _ inPoint: String, _ outPoint: String,
                          file: String = "<file id=\"file-1\"><name>a.mov</name><pathurl>file://localhost/media/a.mov</pathurl></file>",
                          enabled: Bool = true, extra: String = "") -> String {
        """
        <clipitem id="clipitem-\(name)"><name>\(name)</name><enabled>\(enabled ? "TRUE" : "FALSE")</enabled>
        <start>\(start)</start><end>\(end)</end><in>\(inPoint)</in><out>\(outPoint)</out>\(file)\(extra)</clipitem>
        """
    }

    private func assertRefused(_ expected: String..., parse: () throws -> EditTimeline, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(), file: file, line: line) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            for part in expected { XCTAssertTrue(message.contains(part), "'\(message)' doesn't say '\(part)'", file: file, line: line) }
        }
    }

    // MARK: Disabled items

    func testADisabledXMLClipItemIsBlackAndSilentWithANoteNamingIt() throws {
        let parsed = try EditTimeline.parseFCP7XML(xmeml(clipItem("A", "0", "10", "0", "10") + clipItem("Off", "10", "20", "0", "10", enabled: false)))
        XCTAssertEqual(parsed.items.count, 2)
        guard case .clip = parsed.items[0], case .gap(let black) = parsed.items[1] else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(black.value, 10)
        XCTAssertTrue(parsed.notes.contains { $0.contains("clipitem 2 'Off'") && $0.contains("disabled") }, "\(parsed.notes)")
    }

    func testADisabledTrackIsBlackForItsLength() throws {
        let xml = try EditTimeline.parseFCP7XML(xmeml(clipItem("A", "0", "10", "0", "10"), trackEnabled: false))
        XCTAssertEqual(xml.items, [.gap(EditTime(value: 10, rate: 24))])
        XCTAssertTrue(xml.notes.contains { $0.contains("track 1 is disabled") }, "\(xml.notes)")
        let otio = try EditTimeline.parseOTIO(Data(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [
             {"OTIO_SCHEMA": "Track.1", "name": "V1", "kind": "Video", "enabled": false, "children": [
              {"OTIO_SCHEMA": "Clip.1", "name": "A", "enabled": true,
               "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24},
                                "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 12, "rate": 24}},
               "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/media/a.mov"}},
              {"OTIO_SCHEMA": "Clip.1", "name": "Off", "enabled": false,
               "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24},
                                "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 6, "rate": 24}},
               "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/media/a.mov"}}]}]}}
            """#.utf8))
        XCTAssertEqual(otio.items, [.gap(EditTime(value: 18, rate: 24))], "nothing below it: black for its whole length")
        XCTAssertTrue(otio.notes.contains { $0.contains("clip 2 'Off'") && $0.contains("disabled") }, "\(otio.notes)")
        XCTAssertTrue(otio.notes.contains { $0.contains("track 'V1' is disabled") }, "\(otio.notes)")
    }

    // MARK: Generators

    func testPremiereGeneratorsAreDrawnAsBlackTheirColourOrBarsEachNamed() throws {
        let slug = { (name: String) in "<file id=\"file-\(name.replacingOccurrences(of: " ", with: "-"))\"><name>\(name)</name><mediaSource>Slug</mediaSource></file>" }
        let matte = """
            <file id="file-m"><name>Color Matte</name></file>
            <filter><effect><name>Color Matte</name><effectid>PR.ADBE Color</effectid><effecttype>generator</effecttype>
            <parameter><parameterid>fillcolor</parameterid><name>Color</name><value><alpha>255</alpha><red>255</red><green>128</green><blue>0</blue></value></parameter>
            </effect></filter>
            """
        let generator = """
            <generatoritem id="generatoritem-1"><name>Slug</name><start>25</start><end>30</end><in>0</in><out>5</out>
            <effect><name>Slug</name><effectid>Slug</effectid><effecttype>generator</effecttype></effect></generatoritem>
            """
        let parsed = try EditTimeline.parseFCP7XML(xmeml(
            clipItem("Black Video", "0", "5", "0", "5", file: slug("Black Video"))
            + clipItem("Color Matte", "5", "10", "0", "5", file: matte)
            + clipItem("Bars and Tone", "10", "15", "0", "5", file: slug("Bars and Tone"))
            + clipItem("Universal Counting Leader", "15", "20", "0", "5", file: slug("Universal Counting Leader"))
            + clipItem("Swirl", "20", "25", "0", "5", file: slug("Swirl")) + generator))
        let looks = parsed.items.compactMap { item -> EditFill.Look? in
            if case .fill(let fill) = item { return fill.look }
            return nil
        }
        XCTAssertEqual(looks, [.black, .colour("#FF8000"), .bars, .black, .black, .black])
        XCTAssertEqual(parsed.items.compactMap(\.blank).map(\.value), [5, 5, 5, 5, 5, 5])
        for name in ["Black Video", "Color Matte", "Bars and Tone", "Universal Counting Leader", "unknown generator 'Swirl'", "generatoritem 6"] {
            XCTAssertTrue(parsed.notes.contains { $0.contains(name) }, "no note names \(name): \(parsed.notes)")
        }
        // Written as OTIO GeneratorReferences (black, SolidColor, SMPTEBars), they read back as drawn.
        XCTAssertEqual(try EditTimeline.parseOTIO(parsed.otioJSON()).items, parsed.items)
    }

    func testAClipItemWhoseFileHasNoPathIsStillMediaToFindUnlessItIsAGenerator() throws {
        let parsed = try EditTimeline.parseFCP7XML(xmeml(clipItem("Offline", "0", "5", "0", "5", file: "<file id=\"file-9\"><name>offline.mov</name></file>")))
        guard case .clip(let clip) = parsed.items.first else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(clip.media.clipName, "offline.mov")
    }

    func testColourValuesAreBounded() {
        XCTAssertEqual(EditGenerators.colour(red: "255", green: "0", blue: "16"), "#FF0010")
        XCTAssertEqual(EditGenerators.colour(red: "1", green: "0.5", blue: "0"), "#FF8000", "unit values")
        XCTAssertNil(EditGenerators.colour(red: "nan", green: "0", blue: "0"))
        XCTAssertNil(EditGenerators.colour(red: "1e300", green: "0", blue: "0"))
        XCTAssertNil(EditGenerators.colour(red: "-1", green: "0", blue: nil))
    }

    // MARK: Numbers

    func testHieroDecimalFrameCountsReadAsFramesAndAFractionIsRefused() throws {
        let parsed = try EditTimeline.parseFCP7XML(xmeml(clipItem("Hiero", "0", "24", "0.0", "24.0") + clipItem("Next", "24.0", "36", "1234.0", "1246.0")))
        guard case .clip(let first) = parsed.items[0], case .clip(let second) = parsed.items[1] else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(first.source.start.value, 0)
        XCTAssertEqual(first.source.duration.value, 24)
        XCTAssertEqual(second.source.start.value, 1234)
        assertRefused("clipitem 1 'Half'", "12.5", "not a whole frame") {
            try EditTimeline.parseFCP7XML(self.xmeml(self.clipItem("Half", "0", "24", "12.5", "36.5")))
        }
        for bad in ["nan", "inf", "1e300", "0x10", "--1"] {
            assertRefused("clipitem 1 'Bad'", "bad <in>") { try EditTimeline.parseFCP7XML(self.xmeml(self.clipItem("Bad", "0", "24", bad, "24"))) }
        }
    }

    // MARK: EDLs

    static let palEDL = """
        TITLE: PAL
        FCM: NON-DROP FRAME

        001  A001C002 V     C        10:00:00:05 10:00:01:02 01:00:00:00 01:00:00:22
        * FROM CLIP NAME: A001_C002
        * SOURCE FILE: S:\\PROJECT\\MEDIA\\A001_C002.0001.exr

        002  A001C003 V     C        10:00:00:24 10:00:01:10 01:00:00:22 01:00:01:08
        * SOURCE FILE: \\\\server\\share\\Shot%203.MOV

        """

    func testAPALEDLReadsAt25WhenTold() throws {
        let parsed = try EditTimeline.parseCMX3600(Self.palEDL, rate: Rational(25, 1))
        XCTAssertEqual(parsed.rate, Rational(25, 1))
        guard case .clip(let first) = parsed.items[0], case .clip(let second) = parsed.items[1] else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(first.source.start.value, 900_005)
        XCTAssertEqual(first.source.duration.value, 22)
        XCTAssertEqual(second.source.start.value, 900_024, "frame 24 exists at 25")
        XCTAssertEqual(second.source.duration.value, 11)
        XCTAssertEqual(first.media.location, "S:\\PROJECT\\MEDIA\\A001_C002.0001.exr", "the path as written; the finder takes its name")
        XCTAssertEqual(second.name, "Shot%203", "a Windows path's name ends at its last backslash")
        XCTAssertEqual(try EditTimeline.cmx3600GuessedRate(Self.palEDL), Rational(24, 1))
    }

    func testAnEDLsBarsReelIsDrawnAsBars() throws {
        let parsed = try EditTimeline.parseCMX3600("001 BARS V C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00\n", rate: Rational(25, 1))
        XCTAssertEqual(parsed.items, [.fill(EditFill(look: .bars, duration: EditTime(value: 25, rate: 25)))])
        XCTAssertTrue(parsed.notes.contains { $0.contains("event 001") && $0.contains("bars") }, "\(parsed.notes)")
    }

    func testAFrameFieldThatReachesTheRateIsRefusedNamingTheEventAndTheRate() {
        assertRefused("event 002", "10:00:00:24", "frame 24", "24 fps", "--fps") { try EditTimeline.parseCMX3600(Self.palEDL) }
        assertRefused("event 001", "frame 25", "25 fps") {
            try EditTimeline.parseCMX3600("001 AX V C 01:00:00:25 01:00:01:00 01:00:00:00 01:00:00:01\n", rate: Rational(25, 1))
        }
    }
}
