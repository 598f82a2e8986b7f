import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// A timeline's resolved sound in the plan: which output frames hear it,
/// which clips' own sound it replaces, what a plan file may hold, and the
/// sound tracks `--export-otio` writes from it.
final class TimelineSoundPlanTests: XCTestCase {
    func clip(_ name: String, seconds: Double) -> ClipInfo {
        ClipInfo(path: name, container: "mp4", videoCodec: "h264", codedWidth: 320, codedHeight: 180,
                 sampleAspectRatio: Rational(1, 1), frameRate: Rational(24, 1), pixelFormat: "yuv420p", duration: seconds, audio: nil)
    }

    /// Pieces of the "jl" timeline's A2: M (-6 dB) crossfading into N over 3 + 3 frames, after a 12-frame gap.
    func sound() throws -> TimelineSound {
        let track = EditAudioTrack(name: "A2", items: [
            .gap(EditTime(value: 12, rate: 24)),
            .clip(EditAudioClip(clip: EditClip(name: "M", media: EditMedia(location: "/m/m.wav"), source: range(24, 12)), level: -6)),
            .transition(EditTransition(kind: .dissolve, before: EditTime(value: 3, rate: 24), after: EditTime(value: 3, rate: 24))),
            .clip(EditAudioClip(clip: EditClip(name: "N", media: EditMedia(location: "/m/n.wav"), source: range(6, 12)))),
        ])
        let pieces = try track.placed(at: Rational(24, 1)).map { placed in
            TimelineSound.Piece(name: placed.item.clip.name ?? "", path: placed.item.clip.media.location ?? "", placed: placed,
                                fileStart: (placed.item.clip.source.start.value - Double(placed.before)) / 24, mediaStart: 0, silent: false)
        }
        return TimelineSound(rate: Rational(24, 1), tracks: [.init(name: "A2", pieces: pieces)])
    }

    func range(_ start: Double, _ frames: Double) -> EditRange {
        EditRange(start: EditTime(value: start, rate: 24), duration: EditTime(value: frames, rate: 24))
    }

    /// `clips` (each a second at 24 fps) under track 0 at entries `entries` of its timeline, each where it starts in record frames.
    func places(_ entries: [Int?]) -> [SoundPlace?] {
        entries.map { $0.map { SoundPlace(track: 0, entry: $0, recordFrame: Int64($0 * 24)) } }
    }

    func testATimelinesSoundCoversItsOwnClipsOnly() throws {
        let plan = try Plan(clips: [clip("before", seconds: 0.5), clip("a", seconds: 1), clip("b", seconds: 1), clip("after", seconds: 1)],
                            settings: StitchSettings(), joins: [], sounds: [try sound()], places: places([nil, 0, 1, nil]))
        XCTAssertEqual(plan.soundTracks.map(\.stretches), [[PlannedSound.Stretch(frames: 12..<60, origin: 24_000)]],
                       "from the timeline's first clip to its last, one stretch")
        XCTAssertEqual(plan.clips.map { plan.soundIsTimelines(clipIndex: $0.index) }, [false, true, true, false])
    }

    func testAClipLeftOutTakesItsStretchOfTheSoundWithIt() throws {
        // Entries 0, 1 and 2 of the timeline; entry 1 was left out (`--skip-bad`).
        let plan = try Plan(clips: [clip("a", seconds: 1), clip("c", seconds: 1)], settings: StitchSettings(), joins: [],
                            sounds: [try sound()], places: places([0, 2]))
        let stretches = plan.soundTracks[0].stretches
        XCTAssertEqual(stretches.map(\.frames), [0..<24, 24..<48])
        // c shows at output frame 24, at record frame 48: record frame 0 lands a second before the output starts.
        XCTAssertEqual(stretches.map(\.origin), [0, -48_000])
        XCTAssertEqual(plan.soundTracks[0].clips, [0, 1])
        // Its export holds M's frames under a and under c, not those under the clip left out.
        let items = EditTimeline.renderedSound(from: plan, paths: ExportPaths(currentFolder: "/work"))[0].items
        let clips = items.compactMap { item -> EditClip? in if case .clip(let sound) = item { return sound.clip } else { return nil } }
        XCTAssertEqual(clips.map(\.name), ["M"], "M plays under a; N from record frame 24 on, under the clip left out")
        XCTAssertEqual(clips.first?.source, range(24, 12))
    }

    func testAnEntryAfterAnotherTimelinesClipStartsAStretchOfItsOwn() throws {
        // Entries 0 and 1 of one timeline with a clip of the list between them: two stretches, each at its own record time.
        let plan = try Plan(clips: [clip("a", seconds: 1), clip("other", seconds: 1), clip("b", seconds: 1)], settings: StitchSettings(),
                            joins: [], sounds: [try sound()], places: places([0, nil, 1]))
        XCTAssertEqual(plan.soundTracks[0].stretches.map(\.frames), [0..<24, 48..<72])
        XCTAssertEqual(plan.soundTracks[0].stretches.map(\.origin), [0, 48_000])
        XCTAssertEqual(plan.clips.map { plan.soundIsTimelines(clipIndex: $0.index) }, [true, false, true])
    }

    func testAPlanFilesSoundIsCheckedValueByValue() throws {
        let good = try sound()
        XCTAssertNil(good.problem)
        var bad = good
        bad.rate = Rational(0, 1)
        XCTAssertEqual(bad.problem, "its rate or tracks")
        for change in [{ (piece: inout TimelineSound.Piece) in piece.fileStart = .nan }, { $0.level = 500 }, { $0.recordFrames = -1 },
                       { $0.fadeIn = $0.recordFrames + 1 }, { $0.mediaStart = .infinity }] {
            bad = good
            change(&bad.tracks[0].pieces[1])
            XCTAssertEqual(bad.problem, "piece 2")
        }
        bad = good
        bad.loudness = ClipInfo.Loudness(integrated: .nan, truePeak: 0)
        XCTAssertEqual(bad.problem, "its loudness")
    }

    func testExportWritesTheSoundAtItsCutsWithTheCrossfadeAndTheLevel() throws {
        let plan = try Plan(clips: [clip("a", seconds: 2)], settings: StitchSettings(), joins: [], sounds: [try sound()],
                            places: places([0]))
        let tracks = EditTimeline.renderedSound(from: plan, paths: ExportPaths(currentFolder: "/work"))
        XCTAssertEqual(tracks.count, 1)
        guard tracks[0].items.count == 4, case .gap(let lead) = tracks[0].items[0], case .clip(let m) = tracks[0].items[1],
              case .transition(let fade) = tracks[0].items[2], case .clip(let n) = tracks[0].items[3] else {
            return XCTFail("\(tracks)")
        }
        XCTAssertEqual(lead.value, 12)
        XCTAssertEqual(m.clip.source, range(24, 12), "the frames between its cuts, as the timeline named them")
        XCTAssertEqual(m.level, -6)
        XCTAssertEqual(fade.before.value, 3)
        XCTAssertEqual(fade.after.value, 3)
        XCTAssertEqual(n.clip.source, range(6, 12))
        XCTAssertEqual(n.clip.media.location, "/m/n.wav")
    }
}
