import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// End-to-end: marker clips in, the real pipeline, the output decoded and checked frame by frame.
final class StitchTests: XCTestCase {
    let store = FixtureStore.shared

    /// Three 320x180 30 fps marker clips of `frames` frames each.
    func markerClips(_ frames: [Int]) throws -> [String] {
        try frames.enumerated().map { clip, count in
            try store.path("marker-\(clip)-\(count).mp4", MarkerClip(clip: clip, frames: count))
        }
    }

    func stitch(_ paths: [String], _ configure: (inout StitchSettings) -> Void = { _ in })
        throws -> (plan: Plan, report: StitchReport, output: DecodedOutput) {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 12
        configure(&settings)
        let (plan, report, path) = try store.stitch(paths.map { ClipEntry(path: $0) }, settings: settings)
        return (plan, report, try DecodedOutput(path: path))
    }

    /// What each output frame should show: a clip's own frame, or step `step` of join `join`.
    enum Expected: Equatable {
        case frame(clip: Int, frame: Int)
        case transition(join: Int, step: Int)
    }

    func expectedFrames(_ plan: Plan) -> [Expected] {
        var expected: [Expected] = []
        for clip in plan.clips {
            let head = clip.index > 0 ? plan.joins[clip.index - 1].frameCount : 0
            let tail = clip.index < plan.joins.count ? plan.joins[clip.index].frameCount : 0
            for frame in head..<(clip.frameCount - tail) { expected.append(.frame(clip: clip.index, frame: frame)) }
            for step in 0..<tail { expected.append(.transition(join: clip.index, step: step)) }
        }
        return expected
    }

    func assertExactOutsideTransitions(_ output: DecodedOutput, _ plan: Plan, file: StaticString = #filePath, line: UInt = #line) {
        for (index, expected) in expectedFrames(plan).enumerated() {
            guard case .frame(let clip, let frame) = expected else { continue }
            let marker = Marker.read(output.pictures[index])
            XCTAssertTrue(marker.map { $0 == (clip, frame) } ?? false, "output frame \(index): expected clip \(clip) frame \(frame), read \(String(describing: marker))",
                          file: file, line: line)
        }
    }

    func assertAudioFollowsVideo(_ output: DecodedOutput, _ plan: Plan, silentClips: Set<Int> = [],
                                 file: StaticString = #filePath, line: UInt = #line) {
        let rate = plan.canvas.frameRate.value
        XCTAssertEqual(output.sampleRate, 48_000, file: file, line: line)
        XCTAssertEqual(output.audioChannels, 2, file: file, line: line)
        // Audio lasts as long as the video, within one AAC frame.
        let expectedSamples = plan.sampleIndex(atFrame: plan.totalFrames)
        XCTAssertLessThanOrEqual(abs(output.audio.count - expectedSamples), 1024,
                                 "audio \(output.audio.count) samples, video needs \(expectedSamples)", file: file, line: line)
        let joinsAt = plan.clips.dropFirst().map(\.startFrame)
        for (index, expected) in expectedFrames(plan).enumerated() {
            guard case .frame(let clip, _) = expected else { continue }
            let nearJoin = joinsAt.contains { abs($0 - index) <= 1 } || plan.clips.contains { abs($0.startFrame + $0.frameCount - index) <= 1 }
            let chunk = output.audioChunk(frame: index, frameRate: rate)
            if silentClips.contains(clip) {
                if !nearJoin { XCTAssertLessThan(Tone.rms(chunk), 0.01, "frame \(index): clip \(clip) has no audio, expected silence", file: file, line: line) }
                continue
            }
            XCTAssertGreaterThan(Tone.rms(chunk), 0.1, "frame \(index): silent gap", file: file, line: line)
            if !nearJoin {
                XCTAssertEqual(Tone.dominantClip(chunk, sampleRate: output.sampleRate), clip,
                               "frame \(index): heard the wrong clip", file: file, line: line)
            }
        }
    }

    // MARK: Cut

    func testCutKeepsEveryFrameInOrderWithAudioInSync() throws {
        let (plan, report, output) = try stitch(try markerClips([30, 45, 30]))
        XCTAssertEqual(plan.totalFrames, 105)
        XCTAssertEqual(output.pictures.count, 105, "a cut keeps exactly the sum of the clips' frames")
        XCTAssertEqual(report.frames, 105)
        XCTAssertEqual(output.width, 320)
        XCTAssertEqual(output.height, 180)
        assertExactOutsideTransitions(output, plan)
        assertAudioFollowsVideo(output, plan)
    }

    func testAudioSwitchesClipAtTheSameFrameAsVideo() throws {
        let (plan, _, output) = try stitch(try markerClips([30, 45, 30]))
        // The tone heard one frame after each join is already the next clip's; one frame before, still the last one's.
        for clip in plan.clips.dropFirst() {
            let join = clip.startFrame
            XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: join + 1, frameRate: 30), sampleRate: 48_000), clip.index)
            XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: join - 2, frameRate: 30), sampleRate: 48_000), clip.index - 1)
        }
    }

    func testLateAndLongAudioIsCutToTheVideoAndStaysInSync() throws {
        var drifting = MarkerClip(clip: 0, frames: 30)
        drifting.audioDelay = 0.3
        drifting.audioOverrun = 0.5
        let paths = [try store.path("late-long-audio.mp4", drifting), try markerClips([30, 30])[1]]
        let (plan, _, output) = try stitch(paths)
        XCTAssertEqual(output.pictures.count, 60)
        assertExactOutsideTransitions(output, plan)
        // 0.3 s late: the first 9 frames are silent (one frame of slack for the codec).
        for frame in 0..<8 { XCTAssertLessThan(Tone.rms(output.audioChunk(frame: frame, frameRate: 30)), 0.05, "frame \(frame)") }
        for frame in 10..<29 { XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000), 0, "frame \(frame)") }
        // The half second it ran long is cut: clip 1 is heard from its first frame.
        for frame in 31..<60 { XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000), 1, "frame \(frame)") }
        XCTAssertLessThanOrEqual(abs(output.audio.count - 60 * 1600), 1024)
    }

    // MARK: Fade

    func testFadeShortensByJoinsTimesDurationExactly() throws {
        let (plan, _, output) = try stitch(try markerClips([45, 45, 45])) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        XCTAssertEqual(plan.joins.map(\.frameCount), [15, 15])
        XCTAssertEqual(output.pictures.count, 135 - 2 * 15)
        assertExactOutsideTransitions(output, plan)
        assertAudioFollowsVideo(output, plan)
    }

    func testFadeMovesTheGreyMonotonicallyFromOneClipToTheNext() throws {
        let (plan, _, output) = try stitch(try markerClips([45, 45, 45])) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        let expected = expectedFrames(plan)
        for join in plan.joins {
            let from = Double(Marker.greys[join.index]), to = Double(Marker.greys[join.index + 1])
            let greys = expected.indices.filter {
                if case .transition(join.index, _) = expected[$0] { return true } else { return false }
            }.map { Marker.grey(output.pictures[$0]) }
            XCTAssertEqual(greys.count, 15)
            for (step, grey) in greys.enumerated() {
                XCTAssertTrue(grey > min(from, to) + 1 && grey < max(from, to) - 1, "join \(join.index) step \(step): grey \(grey) not between \(from) and \(to)")
            }
            for (earlier, later) in zip(greys, greys.dropFirst()) {
                XCTAssertGreaterThan((later - earlier) * (to - from), 0, "join \(join.index): grey not moving from \(from) to \(to): \(greys)")
            }
        }
    }

    func testFadeCrossfadesTheAudioOverTheSameFrames() throws {
        let (plan, _, output) = try stitch(try markerClips([45, 45])) {
            $0.transition = .fade
            $0.transitionDuration = 0.5
        }
        let middle = plan.clips[1].startFrame + 7
        let chunk = output.audioChunk(frame: middle, frameRate: 30)
        let outgoing = Tone.power(chunk, frequency: Marker.tones[0], sampleRate: 48_000)
        let incoming = Tone.power(chunk, frequency: Marker.tones[1], sampleRate: 48_000)
        XCTAssertGreaterThan(outgoing, 0.2 * incoming, "mid-fade both clips are heard")
        XCTAssertGreaterThan(incoming, 0.2 * outgoing, "mid-fade both clips are heard")
        let early = output.audioChunk(frame: plan.clips[1].startFrame + 1, frameRate: 30)
        let late = output.audioChunk(frame: plan.clips[1].startFrame + 13, frameRate: 30)
        XCTAssertGreaterThan(Tone.power(early, frequency: Marker.tones[0], sampleRate: 48_000),
                             Tone.power(late, frequency: Marker.tones[0], sampleRate: 48_000), "the outgoing clip fades out")
    }

    // MARK: Slide

    /// Where the picture changes from the outgoing grey to the incoming one, along a line.
    func edge(_ values: [UInt8], from: UInt8, to: UInt8) -> Int {
        values.firstIndex { abs(Int($0) - Int(to)) < abs(Int($0) - Int(from)) } ?? values.count
    }

    func testSlideLeftPushesTheClipOutWithAMovingEdge() throws {
        let (plan, _, output) = try stitch(try markerClips([30, 30])) { $0.transition = TransitionKind(name: "slide")! }
        XCTAssertEqual(plan.joins.map(\.frameCount), [9], "slide defaults to 0.3 s")
        XCTAssertEqual(output.pictures.count, 60 - 9)
        assertExactOutsideTransitions(output, plan)
        let row = 150
        var edges: [Int] = []
        for step in 0..<9 {
            let picture = output.pictures[plan.clips[1].startFrame + step]
            let line = (0..<picture.width).map { picture[$0, row] }
            let edgeAt = edge(line, from: Marker.greys[0], to: Marker.greys[1])
            edges.append(edgeAt)
            // Left of the edge the outgoing clip, right of it the incoming one.
            XCTAssertTrue(line[..<max(edgeAt - 2, 0)].allSatisfy { abs(Int($0) - Int(Marker.greys[0])) < 8 }, "step \(step)")
            XCTAssertTrue(line[min(edgeAt + 2, line.count)...].allSatisfy { abs(Int($0) - Int(Marker.greys[1])) < 8 }, "step \(step)")
        }
        XCTAssertTrue(zip(edges, edges.dropFirst()).allSatisfy { $0 > $1 }, "edge must move left: \(edges)")
        XCTAssertTrue(edges.allSatisfy { $0 > 0 && $0 < 320 }, "\(edges)")
        assertAudioFollowsVideo(output, plan)
    }

    func testSlideUpMovesAHorizontalEdgeUpwards() throws {
        let (plan, _, output) = try stitch(try markerClips([30, 30])) {
            $0.transition = .slideUp
            $0.transitionDuration = 0.2
        }
        XCTAssertEqual(output.pictures.count, 60 - 6)
        var edges: [Int] = []
        for step in 0..<6 {
            let picture = output.pictures[plan.clips[1].startFrame + step]
            // Column 8 lies left of the marker blocks: only the two greys there.
            edges.append(edge((0..<picture.height).map { picture[8, $0] }, from: Marker.greys[0], to: Marker.greys[1]))
        }
        XCTAssertTrue(zip(edges, edges.dropFirst()).allSatisfy { $0 > $1 }, "edge must move up: \(edges)")
    }

    // MARK: Mixed inputs

    func testPortraitClipStandsUprightPillarboxedWithItsAudioInSync() throws {
        var portrait = MarkerClip(clip: 1, frames: 24, width: 180, height: 320, frameRate: Rational(24, 1))
        portrait.rotation = 90
        portrait.sampleRate = 44_100
        portrait.channels = 1
        let silent = MarkerClip(clip: 2, frames: 60, frameRate: Rational(60, 1), sampleRate: nil)
        let paths = [try markerClips([30])[0],
                     try store.path("portrait-24fps-mono44k.mp4", portrait),
                     try store.path("silent-60fps.mp4", silent)]
        let (plan, _, output) = try stitch(paths)
        XCTAssertEqual(plan.clips.map(\.frameCount), [30, 30, 30], "one second each at the first clip's 30 fps")
        XCTAssertEqual(output.pictures.count, 90)
        XCTAssertEqual(plan.clips[1].info.facts.displayWidth, 180)
        XCTAssertEqual(plan.clips[1].info.facts.displayHeight, 320)

        let picture = output.pictures[45]
        // 180x320 contained in 320x180: 102 wide, black bars of 108 and 110 pixels.
        XCTAssertLessThan(picture.mean(x: 0, y: 0, width: 100, height: 180), 24, "left bar is black")
        XCTAssertLessThan(picture.mean(x: 222, y: 0, width: 98, height: 180), 24, "right bar is black")
        XCTAssertGreaterThan(picture.mean(x: 115, y: 2, width: 88, height: 16), 200, "the white bar is at the top: upright")
        let centre = picture.mean(x: 115, y: 100, width: 88, height: 70)
        XCTAssertEqual(centre, Double(Marker.greys[1]), accuracy: 6, "below it, the clip's grey")

        // Mono 44.1 kHz arrives as 48 kHz stereo; the clip without audio is silent; sync holds.
        assertAudioFollowsVideo(output, plan, silentClips: [2])
        XCTAssertEqual(Marker.read(output.pictures[75])?.clip, 2)
    }

    func testSamplesStitchToTheRequestedCanvasWithTheExpectedDuration() throws {
        // The committed samples: rotated portrait, 24/25/60 fps, 5.1, mono 44.1 kHz, no audio, 10-bit 4:4:4.
        let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/clips.txt").path
        let output = store.outputPath("samples")
        let result = try SegueTool.run(["stitch", list, "-o", output, "--size", "640x360", "--fps", "30",
                                        "--transition", "fade", "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardError, "", "--quiet prints nothing on success")

        // ffprobe as an independent witness.
        let streams = try FFprobe.streams(output)
        let video = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        let audio = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "audio" })
        XCTAssertEqual(video["codec_name"] as? String, "h264")
        XCTAssertEqual(video["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(video["width"] as? Int, 640)
        XCTAssertEqual(video["height"] as? Int, 360)
        XCTAssertEqual(video["avg_frame_rate"] as? String, "30/1")
        // Five clips of 2 s, four 1 s fades: 6 s, 180 frames.
        XCTAssertEqual(video["nb_read_frames"] as? String, "180")
        XCTAssertEqual(Double(video["duration"] as? String ?? "") ?? 0, 6.0, accuracy: 1.0 / 30)
        XCTAssertEqual(audio["codec_name"] as? String, "aac")
        XCTAssertEqual(audio["sample_rate"] as? String, "48000")
        XCTAssertEqual(audio["channels"] as? Int, 2)
        XCTAssertEqual(Double(audio["duration"] as? String ?? "") ?? 0, 6.0, accuracy: 1024.0 / 48_000)
    }
}
