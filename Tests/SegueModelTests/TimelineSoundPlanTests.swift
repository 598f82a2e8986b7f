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
    func sound(clipCount: Int) throws -> TimelineSound {
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
        return TimelineSound(rate: Rational(24, 1), clipCount: clipCount, tracks: [.init(name: "A2", pieces: pieces)])
    }

    func range(_ start: Double, _ frames: Double) -> EditRange {
        EditRange(start: EditTime(value: start, rate: 24), duration: EditTime(value: frames, rate: 24))
    }

    func testATimelinesSoundCoversItsOwnClipsOnly() throws {
        var timeline = [clip("a", seconds: 1), clip("b", seconds: 1)]
        timeline[0].timelineSound = try sound(clipCount: 2)
        let plan = try Plan(clips: [clip("before", seconds: 0.5)] + timeline + [clip("after", seconds: 1)], settings: StitchSettings())
        XCTAssertEqual(plan.timelineSounds.map(\.frames), [12..<60], "from the timeline's first clip to its last")
        XCTAssertEqual(plan.timelineSounds.map(\.origin), [24_000])
        XCTAssertEqual(plan.clips.map { plan.soundIsTimelines(clipIndex: $0.index) }, [false, true, true, false])
    }

    func testAClipCountPastThePlansEndStopsAtItsLastClip() throws {
        var only = clip("a", seconds: 1)
        only.timelineSound = try sound(clipCount: Int.max)
        let plan = try Plan(clips: [only, clip("b", seconds: 1)], settings: StitchSettings())
        XCTAssertEqual(plan.timelineSounds.map(\.frames), [0..<48])
        XCTAssertEqual(plan.soundIsTimelines(clipIndex: 1), true)
        XCTAssertNotNil(only.timelineSound?.problem, "a plan file can't hold it")
    }

    func testAPlanFilesSoundIsCheckedValueByValue() throws {
        let good = try sound(clipCount: 2)
        XCTAssertNil(good.problem)
        var bad = good
        bad.rate = Rational(0, 1)
        XCTAssertEqual(bad.problem, "its rate, clip count or tracks")
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
        var timeline = clip("a", seconds: 2)
        timeline.timelineSound = try sound(clipCount: 1)
        let plan = try Plan(clips: [timeline], settings: StitchSettings())
        let tracks = EditTimeline.renderedSound(from: plan, currentFolder: "/work")
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
