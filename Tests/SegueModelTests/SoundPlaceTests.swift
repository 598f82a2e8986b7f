import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// Where a list's clips stand under its timelines' sounds: the places a list
/// gathers as it appends timelines read apart, and the stretches of output
/// frames the plan gives each timeline's sound from them.
final class SoundPlaceTests: XCTestCase {
    func clip(_ name: String) -> ClipInfo {
        ClipInfo(path: name, container: "mp4", videoCodec: "h264", codedWidth: 320, codedHeight: 180,
                 sampleAspectRatio: Rational(1, 1), frameRate: Rational(24, 1), pixelFormat: "yuv420p", duration: 1, audio: nil)
    }

    let sound = TimelineSound(rate: Rational(24, 1), tracks: [])

    func entry(_ path: String, track: Int?, entry: Int = 0) -> ClipEntry {
        var clip = ClipEntry(path: path)
        clip.soundPlace = track.map { SoundPlace(track: $0, entry: entry, recordFrame: Int64(entry * 24)) }
        return clip
    }

    func testASecondTimelinesPlacesNameItsOwnSound() {
        var contents = ClipList.Contents()
        contents.append([entry("a.mp4", track: 0)], sounds: [sound])
        contents.append([entry("b.mp4", track: 0)], sounds: [sound])
        XCTAssertEqual(contents.sounds.count, 2)
        XCTAssertEqual(contents.entries.map { $0.soundPlace?.track }, [0, 1])
    }

    func testAnEntryUnderNoTimelineKeepsNoPlace() {
        var contents = ClipList.Contents()
        contents.append([entry("a.mp4", track: 0)], sounds: [sound])
        contents.append([entry("plain.mp4", track: nil)], sounds: [])
        XCTAssertEqual(contents.entries.map { $0.soundPlace?.track }, [0, nil])
        XCTAssertEqual(contents.sounds.count, 1)
    }

    func testAnEntrysPlaceInItsTimelineIsKeptWhenItsTrackMoves() {
        var contents = ClipList.Contents()
        contents.append([], sounds: [sound, sound])
        contents.append([entry("c.mp4", track: 0, entry: 3)], sounds: [sound])
        XCTAssertEqual(contents.entries.first?.soundPlace, SoundPlace(track: 2, entry: 3, recordFrame: 72))
    }

    func testAPlaceNamingNoSoundOfThePlanIsDropped() throws {
        let plan = try Plan(clips: [clip("a"), clip("b")], settings: StitchSettings(), joins: [], sounds: [sound],
                            places: [SoundPlace(track: 4, entry: 0, recordFrame: 0), nil])
        XCTAssertEqual(plan.clips.map(\.soundPlace), [nil, nil])
        XCTAssertEqual(plan.soundTracks.map(\.clips), [[]])
        XCTAssertEqual(plan.soundTracks.map(\.stretches), [[]], "a timeline whose clips were all left out plays nowhere")
    }

    func testEntriesOutOfTheirTimelinesOrderStartAStretchEach() throws {
        let plan = try Plan(clips: [clip("a"), clip("b")], settings: StitchSettings(), joins: [], sounds: [sound],
                            places: [SoundPlace(track: 0, entry: 1, recordFrame: 24), SoundPlace(track: 0, entry: 0, recordFrame: 0)])
        XCTAssertEqual(plan.soundTracks[0].stretches, [PlannedSound.Stretch(frames: 0..<24, origin: -48_000),
                                                       PlannedSound.Stretch(frames: 24..<48, origin: 48_000)])
    }

    func testEachTimelinesSoundCoversItsOwnClips() throws {
        let plan = try Plan(clips: [clip("a"), clip("b"), clip("c")], settings: StitchSettings(), joins: [], sounds: [sound, sound],
                            places: [SoundPlace(track: 0, entry: 0, recordFrame: 0), SoundPlace(track: 1, entry: 0, recordFrame: 0), nil])
        XCTAssertEqual(plan.soundTracks.map(\.clips), [[0], [1]])
        XCTAssertEqual(plan.soundTracks.map { [0, 23, 24, 47, 48].map($0.covers(frame:)) },
                       [[true, true, false, false, false], [false, false, true, true, false]])
        XCTAssertEqual(plan.clips.map { plan.soundIsTimelines(clipIndex: $0.index) }, [true, true, false])
    }
}
