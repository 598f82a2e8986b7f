import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// Constant speed changes and freeze frames as the three formats write them
/// (issue 46): which source frame each output frame shows, and how a
/// transition's handles line up with the source range.
final class EditSpeedTests: XCTestCase {
    func testOutputFrameKShowsSourceFrameFloorOfKTimesTheSpeed() throws {
        for speed in [2.0, 0.5, 1.5, 0.25, 3.0, 1.0 / 3.0, 0.75, 23.976 / 24] {
            let playback = try XCTUnwrap(PlaybackSpeed(speed))
            for k in Int64(0)..<200 {
                let shown = playback.sourceFrame(at: k)
                XCTAssertEqual(shown, Int64((Double(k) * playback.rate.value + 1e-9).rounded(.down)), "\(speed)x, frame \(k)")
                // The first output frame showing a source frame is the one `fps` places it at.
                XCTAssertEqual(playback.firstFrame(showing: shown).map { $0 <= k }, true, "\(speed)x, frame \(k)")
                if let next = playback.firstFrame(showing: shown + 1) { XCTAssertGreaterThan(next, k, "\(speed)x, frame \(k)") }
            }
        }
        XCTAssertEqual((0..<6).map { PlaybackSpeed(2)!.sourceFrame(at: $0) }, [0, 2, 4, 6, 8, 10])
        XCTAssertEqual((0..<6).map { PlaybackSpeed(0.5)!.sourceFrame(at: $0) }, [0, 0, 1, 1, 2, 2])
        let freeze = try XCTUnwrap(PlaybackSpeed(0))
        XCTAssertTrue(freeze.isFreeze)
        XCTAssertEqual((0..<4).map { freeze.sourceFrame(at: $0) }, [0, 0, 0, 0])
        XCTAssertEqual(freeze.firstFrame(showing: 0), 0)
        XCTAssertNil(freeze.firstFrame(showing: 1), "a freeze shows no later frame")
    }

    func testHandlesBeforeARangeEndOnItsFirstFrame() throws {
        for speed in [2.0, 0.5, 1.5, 1.0 / 3.0, 0.0] {
            for before in Int64(0)...7 {
                let placed = try XCTUnwrap(PlaybackSpeed(speed)).placingHandles(before: before)
                XCTAssertEqual(placed.speed.sourceFrame(at: before), placed.frames, "\(speed)x after \(before) frames of handle")
                XCTAssertEqual(placed.frames, Int64((Double(before) * speed - 1e-9).rounded(.up)), "\(speed)x, \(before)")
            }
        }
    }

    func testSpeedsOutOfRangeAreNotSpeeds() {
        for bad in [-1.0, .nan, .infinity, 100.5] { XCTAssertNil(PlaybackSpeed(bad), "\(bad)") }
        XCTAssertEqual(PlaybackSpeed(100)?.rate, Rational(100, 1))
        XCTAssertEqual(PlaybackSpeed(0.5)?.isAudible, true)
        XCTAssertEqual(PlaybackSpeed(8)?.isAudible, false)
        XCTAssertEqual(PlaybackSpeed(0)?.isAudible, false)
        XCTAssertEqual(PlaybackSpeed(2)?.description, "2x")
        XCTAssertEqual(PlaybackSpeed(0.5)?.description, "0.5x")
    }

    func testAnEDLsM2AndFreezeFrameReadAsTheAdapterReadsThem() throws {
        let edl = """
            TITLE: speeds
            001  A001  V  C  01:00:00:00 01:00:01:00 01:00:00:00 01:00:00:12
            M2   A001       048.0                01:00:00:00
            * FROM CLIP NAME:  fast
            002  A002   V  C  01:00:02:00 01:00:02:12 01:00:00:12 01:00:01:12
            M2   A 002       012.0                01:00:02:00
            * FROM CLIP NAME:  slow
            003  A003  V  C  01:00:03:00 01:00:03:01 01:00:01:12 01:00:02:00
            * FROM CLIP NAME:  held FF
            * * FREEZE FRAME
            004  A004  V  C  01:00:04:00 01:00:04:06 01:00:02:00 01:00:02:06
            M2   A004       000.0                01:00:04:00

            """
        let parsed = try EditTimeline.parseCMX3600(edl, rate: Rational(24, 1))
        let clips = parsed.items.compactMap { item -> EditClip? in if case .clip(let clip) = item { return clip }; return nil }
        XCTAssertEqual(clips.map { $0.speed?.rate }, [Rational(2, 1), Rational(1, 2), Rational(0, 1), Rational(0, 1)])
        // The source range runs from source in for the record's length, whatever source out says (as the adapter reads it).
        XCTAssertEqual(clips.map(\.source.duration.value), [12, 24, 12, 6])
        XCTAssertEqual(clips.map(\.source.start.value), [86_400, 86_448, 86_472, 86_496])
    }

    func testOTIOTimeWarpsMultiplyAndADisabledOneIsIgnored() throws {
        func otio(_ effects: String) -> Data {
            Data(#"""
                {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
                {"OTIO_SCHEMA": "Clip.1", "name": "A", "effects": \#(effects),
                 "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24},
                                  "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 24, "rate": 24}},
                 "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "/m/a.mov"}}]}]}}
                """#.utf8)
        }
        func speed(_ effects: String) throws -> PlaybackSpeed? {
            guard case .clip(let clip) = try EditTimeline.parseOTIO(otio(effects)).items.first else { throw EditTimelineError("no clip") }
            return clip.speed
        }
        XCTAssertEqual(try speed(#"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 2}, {"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 0.25}]"#)?.rate,
                       Rational(1, 2))
        XCTAssertEqual(try speed(#"[{"OTIO_SCHEMA": "FreezeFrame.1", "time_scalar": 0}]"#)?.isFreeze, true)
        XCTAssertNil(try speed(#"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 3, "enabled": false}]"#))
    }

    func testPremieresTimeRemapIsAConstantSpeed() throws {
        let xmeml = """
            <xmeml version="4"><sequence><name>S</name><rate><timebase>24</timebase></rate><media><video><track>
            <clipitem id="c1"><name>A</name><start>0</start><end>12</end><in>4</in><out>28</out>
            <file id="f1"><pathurl>file://localhost/m/a.mov</pathurl></file>
            <filter><effect><name>Time Remap</name><effectid>timeremap</effectid><effecttype>motion</effecttype>
            <parameter authoringApp="PremierePro"><parameterid>variablespeed</parameterid><name>variablespeed</name><value>0</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>speed</parameterid><name>speed</name><value>200</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>reverse</parameterid><name>reverse</name><value>FALSE</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>frameblending</parameterid><name>frameblending</name><value>FALSE</value></parameter>
            </effect></filter></clipitem>
            </track></video></media></sequence></xmeml>
            """
        let parsed = try EditTimeline.parseFCP7XML(Data(xmeml.utf8))
        guard case .clip(let clip) = parsed.items.first else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(clip.speed?.rate, Rational(2, 1))
        XCTAssertEqual(clip.source.start.value, 4)
        XCTAssertEqual(clip.source.duration.value, 12, "the record's length, played from <in> at 2x")
        XCTAssertFalse(parsed.notes.contains { $0.contains("Time Remap") }, "\(parsed.notes)")
    }
}
