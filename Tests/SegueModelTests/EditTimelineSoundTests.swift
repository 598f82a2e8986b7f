import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// Timelines' sound tracks as the three readers take them, placed on the
/// record timeline, written back as OTIO, and refused where they can't be played.
final class EditTimelineSoundTests: XCTestCase {
    static func otio(audio: [[String: Any]], video: [[String: Any]]? = nil) throws -> Data {
        let picture = video ?? [clip("V", start: 0, frames: 48)]
        let tracks: [[String: Any]] = [["OTIO_SCHEMA": "Track.1", "kind": "Video", "name": "V1", "children": picture]]
            + audio.enumerated().map { ["OTIO_SCHEMA": "Track.1", "kind": "Audio", "name": "A\($0 + 1)", "children": $1["children"] ?? []] }
        return try JSONSerialization.data(withJSONObject: ["OTIO_SCHEMA": "Timeline.1", "name": "sound",
                                                           "tracks": ["OTIO_SCHEMA": "Stack.1", "children": tracks]])
    }

    static func time(_ value: Double) -> [String: Any] { ["OTIO_SCHEMA": "RationalTime.1", "value": value, "rate": 24.0] }

    static func clip(_ name: String, start: Double, frames: Double, effects: [[String: Any]] = [], enabled: Bool = true) -> [String: Any] {
        ["OTIO_SCHEMA": "Clip.2", "name": name, "enabled": enabled, "effects": effects,
         "source_range": ["start_time": time(start), "duration": time(frames)],
         "media_references": ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "ExternalReference.1", "target_url": "/m/\(name).wav"]]]
    }

    static func gap(_ frames: Double) -> [String: Any] {
        ["OTIO_SCHEMA": "Gap.1", "source_range": ["start_time": time(0), "duration": time(frames)]]
    }

    static func dissolve(_ before: Double, _ after: Double) -> [String: Any] {
        ["OTIO_SCHEMA": "Transition.1", "transition_type": "SMPTE_Dissolve", "in_offset": time(before), "out_offset": time(after)]
    }

    /// An Audio Levels effect as the fcp_xml adapter keeps an xmeml filter: a linear `value`, keyframes when animated.
    static func levels(_ value: String, keyframed: Bool = false) -> [String: Any] {
        var parameter: [String: Any] = ["parameterid": "level", "name": "Level", "value": value]
        if keyframed { parameter["keyframe"] = [["when": "0", "value": "1"], ["when": "10", "value": "0.5"]] }
        return ["OTIO_SCHEMA": "Effect.1", "name": "Audio Levels", "effect_name": "",
                "metadata": ["fcp_xml": ["effectid": "audiolevels", "parameter": parameter]]]
    }

    func testOTIOAudioTracksAreReadWithGapsCrossfadesLevelsAndNotes() throws {
        let parsed = try EditTimeline.parseOTIO(try Self.otio(audio: [
            ["children": [Self.clip("a", start: 10, frames: 20), Self.dissolve(3, 3), Self.clip("b", start: 0, frames: 28, effects: [Self.levels("0.5")])]],
            ["children": [Self.gap(12), Self.clip("m", start: 0, frames: 24, effects: [Self.levels("0.25", keyframed: true)]),
                          Self.clip("off", start: 0, frames: 12, enabled: false)]],
        ]))
        XCTAssertEqual(parsed.audioTracks.count, 2)
        XCTAssertEqual(parsed.audioTracks.map(\.name), ["A1", "A2"])
        guard case .clip(let a) = parsed.audioTracks[0].items[0], case .transition(let fade) = parsed.audioTracks[0].items[1],
              case .clip(let b) = parsed.audioTracks[0].items[2], case .gap(let hole) = parsed.audioTracks[1].items[0],
              case .clip(let m) = parsed.audioTracks[1].items[1], case .gap(let off) = parsed.audioTracks[1].items[2] else {
            return XCTFail("\(parsed.audioTracks)")
        }
        XCTAssertEqual(a.clip.media.location, "/m/a.wav")
        XCTAssertEqual(a.clip.source.start.value, 10)
        XCTAssertEqual(a.level, 0)
        XCTAssertEqual(fade.before.value, 3)
        XCTAssertEqual(b.level, 20 * log10(0.5), accuracy: 1e-6)
        XCTAssertEqual(hole.value, 12)
        XCTAssertEqual(m.level, -12.041, accuracy: 0.001, "the constant value is kept")
        XCTAssertEqual(off.value, 12, "a disabled clip is silence")
        XCTAssertTrue(parsed.notes.contains { $0.contains("'m'") && $0.contains("keyframed") }, "\(parsed.notes)")
        XCTAssertTrue(parsed.notes.contains { $0.contains("'off'") && $0.contains("disabled, so silent") }, "\(parsed.notes)")
        XCTAssertFalse(parsed.notes.contains { $0.contains("audio track") && $0.contains("not used") }, "\(parsed.notes)")
    }

    func testSoundTracksArePlacedWithCrossfadesCentredOnTheirCuts() throws {
        let track = EditAudioTrack(name: "A1", items: [
            .clip(EditAudioClip(clip: EditClip(media: EditMedia(location: "a"), source: range(10, 20)))),
            .transition(EditTransition(kind: .dissolve, before: frames(4), after: frames(2))),
            .clip(EditAudioClip(clip: EditClip(media: EditMedia(location: "b"), source: range(0, 28)), level: -6)),
            .gap(frames(5)),
            .transition(EditTransition(kind: .dissolve, before: frames(0), after: frames(6))),
            .clip(EditAudioClip(clip: EditClip(media: EditMedia(location: "c"), source: range(0, 10)))),
        ])
        let placed = try track.placed(at: Rational(24, 1))
        XCTAssertEqual(placed.map(\.recordStart), [0, 16, 53])
        XCTAssertEqual(placed.map(\.recordFrames), [22, 32, 10], "a: 20 + 2 after the cut; b: 4 before it + 28")
        XCTAssertEqual(placed.map(\.fadeOut), [6, 0, 0])
        XCTAssertEqual(placed.map(\.fadeIn), [0, 6, 6], "c fades in from the gap over the transition's whole length")
        XCTAssertEqual(placed.map(\.before), [0, 4, 0])
        XCTAssertEqual(placed.map(\.after), [2, 0, 0])
    }

    func testACrossfadeFromTheTrackStartIsCutAtRecordFrameZero() throws {
        let track = EditAudioTrack(items: [
            .transition(EditTransition(kind: .dissolve, before: frames(4), after: frames(4))),
            .clip(EditAudioClip(clip: EditClip(media: EditMedia(location: "a"), source: range(10, 20)))),
        ])
        let placed = try track.placed(at: Rational(24, 1))
        XCTAssertEqual(placed.map(\.recordStart), [0])
        XCTAssertEqual(placed.map(\.recordFrames), [20])
        XCTAssertEqual(placed.map(\.fadeIn), [4], "the half after record frame 0 is kept")
        XCTAssertEqual(placed.map(\.before), [0])
    }

    func testEDLChannelsMakeTracksA1AndA2AndAStereoPairPlaysOnce() throws {
        let parsed = try EditTimeline.parseCMX3600("""
            TITLE: channels
            001 R1 B C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            * FROM CLIP NAME: a.mov
            002 R2 V C 00:00:00:00 00:00:01:00 01:00:01:00 01:00:02:00
            003 R3 AA C 00:00:02:00 00:00:03:00 01:00:01:00 01:00:02:00
            004 MUSIC A2 C 00:00:10:00 00:00:11:12 01:00:00:12 01:00:02:00
            005 R4 A C 00:00:04:00 00:00:04:12 01:00:01:12 01:00:02:00
            """, rate: Rational(24, 1))
        XCTAssertEqual(parsed.items.count, 2, "the picture: events 001 and 002")
        XCTAssertEqual(parsed.audioTracks.map(\.name), ["A1", "A2"])
        let a1 = parsed.audioTracks[0].items, a2 = parsed.audioTracks[1].items
        guard a1.count == 3, case .clip(let first) = a1[0], case .clip(let pair) = a1[1], case .clip(let last) = a1[2],
              a2.count == 2, case .gap(let lead) = a2[0], case .clip(let music) = a2[1] else {
            return XCTFail("\(parsed.audioTracks)")
        }
        XCTAssertTrue(first.withPicture, "B is picture and sound")
        XCTAssertEqual(first.clip.name, "a.mov")
        XCTAssertFalse(pair.withPicture)
        XCTAssertEqual(pair.clip.media.reel, "R3")
        XCTAssertEqual(pair.clip.source.duration.value, 12, "event 005 records over its second half")
        XCTAssertEqual(last.clip.source.start.value, 96)
        XCTAssertEqual(lead.value, 12)
        XCTAssertEqual(music.clip.source.start.value, 240)
        XCTAssertEqual(music.clip.media.reel, "MUSIC")
        XCTAssertTrue(parsed.notes.contains { $0.contains("event 005") && $0.contains("12 frames before") }, "\(parsed.notes)")
    }

    func testEDLSoundBeforeTheTimelinesStartIsCutThere() throws {
        // After the fuzz target's finding (a sound event recorded from frame 0, before the first picture event's
        // 01:00:00:00): sound that starts before the timeline does is cut there.
        let parsed = try EditTimeline.parseCMX3600("""
            001 R1 B C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            003 M A2 C 00:00:10:00 00:00:11:12 00:59:59:12 01:00:01:00
            004 N A2 C 00:00:10:00 00:00:11:00 00:59:00:00 00:59:01:00
            005 L A C 00:00:20:00 00:00:21:00 00:59:59:12 01:00:00:12
            """, rate: Rational(24, 1))
        guard parsed.audioTracks.count == 2, case .clip(let lead) = parsed.audioTracks[0].items.last,
              case .clip(let late) = parsed.audioTracks[1].items.first else { return XCTFail("\(parsed.audioTracks)") }
        XCTAssertEqual(late.clip.source.start.value, 240 + 12, "its 12 frames before the start are cut")
        XCTAssertEqual(late.clip.source.duration.value, 24)
        XCTAssertEqual(lead.clip.source.start.value, 492, "event 005 records over event 001's sound from frame 0 on, 12 frames in")
        XCTAssertEqual(lead.clip.source.duration.value, 12)
        XCTAssertTrue(parsed.notes.contains { $0.contains("event 004") && $0.contains("ends before the timeline starts") }, "\(parsed.notes)")
        XCTAssertThrowsError(try EditTimeline.parseCMX3600("""
            001 R1 B C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            003 M A2 C 00:00:10:00 00:00:11:00 0 01:00:01:00
            """, rate: Rational(24, 1))) { XCTAssertTrue(message($0).contains("event 003: its sound lasts 86424 frames"), message($0)) }
        // An M2 on a sound event plays it at that speed for the record's length, as the picture.
        let fast = try EditTimeline.parseCMX3600("""
            001 R1 B C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            002 R1 A2 C 00:00:00:00 00:00:02:00 01:00:00:00 01:00:01:00
            M2   R1       048.0                00:00:00:00
            """, rate: Rational(24, 1))
        guard case .clip(let stretched) = fast.audioTracks.last?.items.last else { return XCTFail("\(fast.audioTracks)") }
        XCTAssertEqual(stretched.clip.speed?.rate, Rational(2, 1))
        XCTAssertEqual(stretched.clip.source.duration.value, 24, "its record length")
    }

    func testAPictureOnlyEDLHasNoSoundTracks() throws {
        let parsed = try EditTimeline.parseCMX3600("001 R1 V C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00\n", rate: Rational(24, 1))
        XCTAssertEqual(parsed.audioTracks, [])
    }

    func testXMEMLAudioTracksKeepTheirAudioLevelsAndNoteKeyframes() throws {
        let parsed = try EditTimeline.parseFCP7XML(Data(Self.xmeml.utf8))
        XCTAssertEqual(parsed.audioTracks.count, 2)
        guard case .clip(let a) = parsed.audioTracks[0].items.first, parsed.audioTracks[1].items.count == 2,
              case .gap(let hole) = parsed.audioTracks[1].items[0], case .clip(let m) = parsed.audioTracks[1].items[1] else {
            return XCTFail("\(parsed.audioTracks)")
        }
        XCTAssertEqual(a.level, 0)
        XCTAssertEqual(a.clip.media.location, "file:///m/a.mov")
        XCTAssertEqual(hole.value, 12)
        XCTAssertEqual(m.level, -6.0206, accuracy: 0.001)
        XCTAssertEqual(m.clip.source.start.value, 24)
        XCTAssertTrue(parsed.notes.contains { $0.contains("audio track 2") && $0.contains("keyframed") }, "\(parsed.notes)")
        XCTAssertFalse(parsed.notes.contains { $0.contains("Audio Levels") }, "the levels are applied, not noted as ignored: \(parsed.notes)")
    }

    static let xmeml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xmeml version="4"><sequence><name>s</name><rate><timebase>24</timebase></rate><media>
        <video><track><clipitem id="v1"><name>A</name><start>0</start><end>48</end><in>0</in><out>48</out>
        <file id="fa"><name>a.mov</name><pathurl>file:///m/a.mov</pathurl></file></clipitem></track></video>
        <audio>
        <track><clipitem id="a1"><name>A</name><start>0</start><end>48</end><in>0</in><out>48</out><file id="fa"/></clipitem></track>
        <track><clipitem id="a2"><name>M</name><start>12</start><end>36</end><in>24</in><out>48</out>
        <file id="fm"><name>m.wav</name><pathurl>file:///m/m.wav</pathurl></file>
        <filter><effect><name>Audio Levels</name><effectid>audiolevels</effectid><effecttype>audiolevels</effecttype>
        <parameter><parameterid>level</parameterid><name>Level</name><value>0.5</value>
        <keyframe><when>0</when><value>0.5</value></keyframe><keyframe><when>10</when><value>1</value></keyframe></parameter>
        </effect></filter></clipitem></track>
        </audio></media></sequence></xmeml>
        """

    func testSoundTracksReadBackFromTheOTIOTheyAreWrittenAs() throws {
        var timeline = try EditTimeline.parseCMX3600("""
            001 R1 B C 00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00
            002 R2 A2 D 006 00:00:02:00 00:00:03:00 01:00:00:00 01:00:01:00
            """, rate: Rational(24, 1))
        timeline.audioTracks[0].items.append(.clip(EditAudioClip(clip: EditClip(name: "x", media: EditMedia(location: "/x.wav"),
                                                                                 source: range(0, 5)), level: -7.5)))
        let again = try EditTimeline.parseOTIO(timeline.otioJSON())
        XCTAssertEqual(again.audioTracks, timeline.audioTracks)
        // A level from a linear gain (-6.0206 dB, not a round number of dB) reads back the same too.
        let leveled = try EditTimeline.parseOTIO(try Self.otio(audio: [["children": [Self.clip("m", start: 0, frames: 5, effects: [Self.levels("0.501187")])]]]))
        XCTAssertEqual(try EditTimeline.parseOTIO(leveled.otioJSON()).audioTracks, leveled.audioTracks)
    }

    func testHostileSoundTracksAreRefusedNamingTheItem() throws {
        let many = try Self.otio(audio: Array(repeating: ["children": [Self.gap(1)]], count: 65))
        XCTAssertThrowsError(try EditTimeline.parseOTIO(many)) { XCTAssertTrue(message($0).contains("65 audio tracks"), "\($0)") }
        for bad in ["nan", "-1", "inf", "1e300"] {
            let data = try Self.otio(audio: [["children": [Self.clip("x", start: 0, frames: 5, effects: [Self.levels(bad)])]]])
            XCTAssertThrowsError(try EditTimeline.parseOTIO(data), bad) { XCTAssertTrue(message($0).contains("clip 1 'x'"), "\($0)") }
        }
        let speed: [String: Any] = ["OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 2.0]
        let warped = try Self.otio(audio: [["children": [Self.clip("w", start: 0, frames: 5, effects: [speed])]]])
        XCTAssertEqual(try EditTimeline.parseOTIO(warped).audioTracks.first?.items.first.flatMap { item -> Rational? in
            if case .clip(let sound) = item { return sound.clip.speed?.rate } else { return nil }
        }, Rational(2, 1), "a speed change on sound reads as the picture's")
        let backwards: [String: Any] = ["OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": -1.0]
        let reversed = try Self.otio(audio: [["children": [Self.clip("r", start: 0, frames: 5, effects: [backwards])]]])
        XCTAssertThrowsError(try EditTimeline.parseOTIO(reversed)) { XCTAssertTrue(message($0).contains("'r': reverse speed"), "\($0)") }
        let levels = Array(repeating: Self.levels("3.98"), count: 10)
        let loud = try Self.otio(audio: [["children": [Self.clip("loud", start: 0, frames: 5, effects: levels)]]])
        XCTAssertThrowsError(try EditTimeline.parseOTIO(loud)) { XCTAssertTrue(message($0).contains("beyond ±96 dB"), "\($0)") }
        let xml = Self.xmeml.replacingOccurrences(of: "<value>0.5</value>\n", with: "<value>NaN</value>\n")
        XCTAssertThrowsError(try EditTimeline.parseFCP7XML(Data(xml.utf8))) { XCTAssertTrue(message($0).contains("audio track 2"), "\($0)") }
    }

    func testSamplePositionsComeFromRecordFramesWithoutDrift() {
        let sound = TimelineSound(rate: Rational(24000, 1001), tracks: [])
        XCTAssertEqual(sound.sample(atRecordFrame: 24_000, origin: 0, sampleRate: 48_000), 48_048_000)
        XCTAssertEqual(sound.sample(atRecordFrame: 1, origin: 100, sampleRate: 48_000), 100 + 2002)
        let odd = TimelineSound(rate: Rational(999_999_999, 1_000_000), tracks: [])
        XCTAssertEqual(odd.sample(atRecordFrame: 863_000_000_000, origin: 0, sampleRate: 48_000), 41_424_000_041_424, accuracy: 2)
    }

    private func message(_ error: Error) -> String { (error as? EditTimelineError)?.message ?? "\(error)" }

    private func frames(_ value: Double) -> EditTime { EditTime(value: value, rate: 24) }
    private func range(_ start: Double, _ length: Double) -> EditRange { EditRange(start: frames(start), duration: frames(length)) }
}
