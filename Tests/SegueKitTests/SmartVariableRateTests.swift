import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel

/// `--smart` on variable-frame-rate clips, as a phone records in low light:
/// a GOP whose pictures are off the frame grid is copied at its pictures' own
/// times; the re-encoded parts keep to the grid, and every picture stays
/// within half a frame of its sound.
final class SmartVariableRateTests: SmartTestCase {
    /// Marker clip `clip` as an Android phone writes it in the dark: every
    /// third picture of a 30 fps marker clip, 60 to 140 ms apart (10 fps on
    /// average, no common step a grid could keep), a keyframe every 10
    /// pictures, no B-frames, stamped at 90 kHz; its sound 48 kHz mono AAC
    /// ending 0.12 s before its picture; tagged BT.709.
    /// `steady`: the same phone in daylight, every picture of the marker clip at 30 fps.
    func lowLightClip(_ clip: Int, pictures: Int = 50, steady: Bool = false) throws -> String {
        let frames = steady ? pictures : 3 * pictures
        let source = try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
        return try store.path("\(steady ? "daylight" : "low-light")-\(clip)-\(pictures).mp4") { path in
            // Seven pictures every 0.7 s, at 0, 60, 180, 260, 400, 470 and 570 ms.
            let offsets = [0.06, 0.18, 0.26, 0.4, 0.47, 0.57]
            var offset = "0"
            for (index, value) in offsets.enumerated().reversed() { offset = "if(eq(mod(N,7),\(index + 1)),\(value),\(offset))" }
            let retime = steady ? "settb=1/90000,setpts='N/30/TB'" : "select='not(mod(n,3))',settb=1/90000,setpts='(floor(N/7)*0.7+\(offset))/TB'"
            // The last picture shows until 0.7 s after the period's first (a 30 fps picture after it); the sound stops 0.12 s earlier.
            let pictureEnd = steady ? Double(pictures) / 30 : Double(pictures / 7) * 0.7 + ([0] + offsets)[pictures % 7] + 0.03
            let result = try Tool.run("ffmpeg", [
                "-v", "error", "-y", "-i", source, "-vf", retime, "-fps_mode", "passthrough", "-enc_time_base:v", "1/90000",
                "-c:v", "libx264", "-profile:v", "high", "-preset", "fast", "-crf", "18",
                "-x264-params", "keyint=10:min-keyint=10:bframes=0:scenecut=0", "-pix_fmt", "yuv420p",
                "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                "-af", "atrim=end=\(pictureEnd - 0.12)", "-c:a", "aac", "-ac", "1", "-ar", "48000", "-video_track_timescale", "90000", path,
            ])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    func testALowLightClipCutToItselfIsCopiedAtItsOwnTimes() throws {
        let clip = try lowLightClip(0)
        let (smart, plain) = try stitch([clip, clip])
        XCTAssertTrue(smart.plan.clips[0].info.facts.variableFrameRate)
        let clips = try XCTUnwrap(smart.report.smart)
        let pictures = try Self.videoPackets(clip).list.count
        XCTAssertEqual(pictures, 50)
        let copied = clips.map(\.picturesCopied)
        XCTAssertGreaterThanOrEqual(Double(copied.reduce(0, +)) / Double(2 * pictures), 0.9, "\(copied)")
        XCTAssertEqual(try identicalPackets(smart.path, sources: [clip]), copied.reduce(0, +), "every copied picture a source packet")
        let sound = (smart.report.audioFramesCopied, smart.report.audioFramesReencoded)
        XCTAssertGreaterThanOrEqual(Double(sound.0) / Double(sound.0 + sound.1), 0.8, "\(sound)")
        try assertShownAtOwnTimes(smart, sources: [clip, clip], markerClips: [0, 0])
        try assertLikeThePlainStitch(smart, plain)
        try assertDecodesCleanly(smart.path)
    }

    func testFadesBetweenLowLightClipsCopyTheGOPsTheyDontTouch() throws {
        let paths = try (0..<3).map { try lowLightClip($0) }
        let (smart, plain) = try stitch(paths) { $0.transition = .fade; $0.transitionDuration = 0.5 }
        let copied = try XCTUnwrap(smart.report.smart).map(\.picturesCopied)
        XCTAssertGreaterThanOrEqual(Double(copied.reduce(0, +)) / 150, 0.6, "\(copied)")
        try assertShownAtOwnTimes(smart, sources: paths, markerClips: [0, 1, 2])
        try assertLikeThePlainStitch(smart, plain)
        try assertDecodesCleanly(smart.path)
    }

    func testTrimmedLowLightClipsCopyTheGOPsWithinTheirPoints() throws {
        let paths = try (0..<2).map { try lowLightClip($0, pictures: 70) }
        let entries = [ClipEntry(path: paths[0], inPoint: 0.45, outPoint: 5.3), ClipEntry(path: paths[1], inPoint: 1.25, outPoint: 6.1)]
        let (smart, plain) = try stitch(entries) { $0.transition = .fade; $0.transitionDuration = 0.3 }
        let copied = try XCTUnwrap(smart.report.smart).map(\.picturesCopied)
        XCTAssertTrue(copied.allSatisfy { $0 >= 20 }, "\(copied)")
        try assertShownAtOwnTimes(smart, sources: paths, markerClips: [0, 1])
        try assertLikeThePlainStitch(smart, plain)
    }

    func testALowLightClipAmongPhoneClipsIsCopiedAtItsOwnTimesOnTheirGrid() throws {
        // The same phone's 30 fps clips set the canvas; the low-light clip's GOPs are off its grid.
        let paths = try [lowLightClip(0, pictures: 60, steady: true), lowLightClip(1), lowLightClip(2, pictures: 60, steady: true)]
        let (smart, plain) = try stitch(paths)
        XCTAssertEqual(smart.plan.canvas.frameRate, Rational(30, 1))
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertEqual(clips.map(\.picturesCopied), [60, 50, 60], "\(clips.map(\.notCopied))")
        try assertShownAtOwnTimes(smart, sources: paths, markerClips: [0, 1, 2])
        try assertLikeThePlainStitch(smart, plain)
        try assertDecodesCleanly(smart.path)
        // Asked for 30 fps, the same clip is converted to it: re-encoded, with the reason.
        let asked = try stitch(paths, smart: true) { $0.frameRate = Rational(30, 1) }
        XCTAssertEqual(asked.report.smart?[1].framesCopied, 0)
        XCTAssertTrue(asked.report.smart?[1].notCopied.contains { if case .frameRate(_, true, _) = $0 { true } else { false } } == true)
    }

    func testSegmentsAndJobsJoinToTheWholeSmartStitch() throws {
        try assertJobsJoinToTheWholeStitch(try (0..<2).map { try lowLightClip($0) },
                                           ["--smart", "--transition", "fade", "--transition-duration", "0.5"])
    }
}

/// Checks of outputs that copy pictures at their own times, beside the plain stitch.
extension SmartTestCase {
    func stitch(_ paths: [String], _ configure: @escaping (inout StitchSettings) -> Void = { _ in }) throws -> (smart: Run, plain: Run) {
        try stitch(paths.map { ClipEntry(path: $0) }, configure)
    }

    func stitch(_ entries: [ClipEntry], _ configure: @escaping (inout StitchSettings) -> Void = { _ in }) throws -> (smart: Run, plain: Run) {
        (try stitch(entries, smart: true, configure), try stitch(entries, smart: false, configure))
    }

    /// `--jobs 2` in segments of 1.3 s gives what one process gives: the same
    /// pictures at the same times (markers, or blends within coding noise),
    /// and a file that decodes cleanly.
    func assertJobsJoinToTheWholeStitch(_ paths: [String], _ flags: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let flags = flags + ["--preset", "ultrafast", "-y"]
        let whole = store.outputPath(), jobs = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + paths + ["-o", whole] + flags).status, 0, file: file, line: line)
        let split = try Tools.segue(["stitch"] + paths + ["-o", jobs, "--jobs", "2", "--segment-duration", "1.3"] + flags)
        XCTAssertEqual(split.status, 0, split.standardError, file: file, line: line)
        let one = try DecodedOutput(path: whole), joined = try DecodedOutput(path: jobs)
        XCTAssertEqual(joined.pictures.count, one.pictures.count, file: file, line: line)
        for index in 0..<min(one.pictures.count, joined.pictures.count) {
            XCTAssertEqual(joined.times[index], one.times[index], accuracy: 1e-4, "picture \(index)'s time", file: file, line: line)
            if let shown = Marker.read(one.pictures[index]) {
                let read = Marker.read(joined.pictures[index])
                XCTAssertTrue(read?.clip == shown.clip && read?.frame == shown.frame, "picture \(index): \(String(describing: read)), not \(shown)",
                              file: file, line: line)
            } else {
                XCTAssertGreaterThan(Self.psnr(joined.pictures[index], one.pictures[index]), 38, "picture \(index)", file: file, line: line)
            }
        }
        try assertDecodesCleanly(jobs, file: file, line: line)
    }

    /// When each marked picture of a source shows: from its time to the next picture's.
    struct SourceTimes {
        var shows: [Int: Range<Double>] = [:]

        init(_ path: String) throws {
            let decoded = try DecodedOutput(path: path)
            let marked = zip(decoded.pictures, decoded.times).compactMap { picture, time in Marker.read(picture).map { ($0.frame, time) } }
                .sorted { $0.1 < $1.1 }
            for (index, (frame, time)) in marked.enumerated() {
                shows[frame] = time..<(index + 1 < marked.count ? marked[index + 1].1 : time + 1)
            }
        }
    }

    /// Every marked picture of `run` shows what its clip shows within half a
    /// frame of then (its source time after the clip's in point), so within
    /// half a frame of its sound, at its own time and at every frame of the
    /// grid; the pictures come in time order. `markerClips`: the marker clip
    /// each of the plan's clips shows.
    func assertShownAtOwnTimes(_ run: Run, sources: [String], markerClips: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
        let frame = 1 / run.plan.canvas.frameRate.value
        var times: [String: SourceTimes] = [:]
        for source in Set(sources) { times[source] = try SourceTimes(source) }
        XCTAssertEqual(run.output.times, run.output.times.sorted(), "pictures out of time order", file: file, line: line)
        // Each picture at its own time, and what shows at each frame of the grid.
        let grid = (0..<run.plan.totalFrames).map { Double($0) * frame }
        var checked = 0
        for time in run.output.times + grid {
            let shown = run.output.times.lastIndex { $0 <= time + 1e-6 } ?? 0
            guard let marker = Marker.read(run.output.pictures[shown]) else { continue }
            let slot = Int((time / frame + 1e-6).rounded(.down))
            // The clip showing then with that marker (in a fade, the outgoing one may still read).
            let clip = try XCTUnwrap(run.plan.clips.last { markerClips[$0.index] == marker.clip && $0.startFrame <= slot },
                                     "clip \(marker.clip) at \(time) s", file: file, line: line)
            let own = try XCTUnwrap(times[sources[clip.index]]?.shows[marker.frame], "clip \(marker.clip) frame \(marker.frame)",
                                    file: file, line: line)
            let then = time - Double(clip.startFrame) * frame + clip.info.use.inPoint
            XCTAssertTrue(own.lowerBound <= then + frame / 2 + 1e-3 && then - frame / 2 - 1e-3 < own.upperBound,
                          "at \(time) s clip \(marker.clip) frame \(marker.frame), shown in its source \(own), not near \(then)",
                          file: file, line: line)
            checked += 1
        }
        XCTAssertGreaterThan(checked, run.plan.totalFrames / 2, file: file, line: line)
    }

    /// The plain stitch's length, sound and clips: at every frame of the grid
    /// the same clip's picture shows (`assertShownAtOwnTimes` says which),
    /// a blend within coding noise.
    func assertLikeThePlainStitch(_ smart: Run, _ plain: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let frame = 1 / plain.plan.canvas.frameRate.value
        XCTAssertEqual(smart.report.frames, plain.plan.totalFrames, file: file, line: line)
        XCTAssertEqual(smart.output.times.last ?? 0, Double(plain.plan.totalFrames - 1) * frame, accuracy: 5 * frame, file: file, line: line)
        for (index, theirs) in plain.output.pictures.enumerated() {
            let shown = smart.output.times.lastIndex { $0 <= Double(index) * frame + 1e-6 } ?? 0
            let mine = smart.output.pictures[shown]
            if let expected = Marker.read(theirs), let read = Marker.read(mine) {
                XCTAssertEqual(read.clip, expected.clip, "frame \(index)", file: file, line: line)
            } else if Marker.read(theirs) == nil {
                XCTAssertGreaterThan(Self.psnr(mine, theirs), 30, "frame \(index): drawn differently", file: file, line: line)
            }
        }
        XCTAssertEqual(Double(smart.output.audio.count), Double(plain.output.audio.count), accuracy: 1024, "audio length", file: file, line: line)
    }
}
