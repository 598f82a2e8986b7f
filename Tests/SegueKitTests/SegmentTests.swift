import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
@testable import segue

/// Segmented render: a plan cut into segments, rendered by
/// separate processes in any order, joined by copy, is the plain stitch.
final class SegmentTests: XCTestCase {
    let store = FixtureStore.shared

    /// Two marker clips with a photo between them and a third clip: 60 + 45 + 60 + 60 frames at 30 fps.
    func inputs() throws -> [String] {
        let photo = try store.path("segments-photo.jpg") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x406080:size=320x180", "-frames:v", "1", path])
        }
        return [try store.path("marker-0-60.mp4", MarkerClip(clip: 0, frames: 60)), photo,
                try store.path("marker-1-60.mp4", MarkerClip(clip: 1, frames: 60)),
                try store.path("marker-2-60.mp4", MarkerClip(clip: 2, frames: 60))]
    }

    /// Lossless, so the same pictures decode to the same bytes: the joined
    /// output must equal the plain stitch's exactly. 0.5 s fades at frames
    /// 45-60, 75-90, 120-135; the photo's own frames 60-75.
    let flags = ["--transition", "fade", "--transition-duration", "0.5", "--still-duration", "1.5",
                 "--crf", "0", "--preset", "ultrafast", "-y"]

    func work(_ name: String) -> String {
        let path = store.folder.appendingPathComponent("work-\(name)-\(UUID().uuidString.prefix(6))").path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    func plan(_ work: String, output: String, seconds: String = "0.7", extra: [String] = []) throws -> Int {
        let result = try Tools.segue(["plan"] + (try inputs()) + ["-o", output, "--work", work, "--segment-duration", seconds] + flags + extra)
        XCTAssertEqual(result.status, 0, result.standardError)
        let last = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("segments: "), "plan's last line is '\(last)'")
        return Int(last.dropFirst("segments: ".count)) ?? 0
    }

    func plainStitch(extra: [String] = []) throws -> String {
        let output = store.outputPath()
        let result = try Tools.segue(["stitch"] + (try inputs()) + ["-o", output] + flags + extra)
        XCTAssertEqual(result.status, 0, result.standardError)
        return output
    }

    /// Boundaries every 21 frames: inside clip 0 (21, 42), inside the photo
    /// (63), inside fades (84, 126), inside clips 1 and 2 (105, 147, 168).
    func testSegmentsRenderedInAnyOrderJoinToThePlainStitchFrameForFrameWithSeamlessSound() throws {
        let work = work("order"), output = store.outputPath()
        let count = try plan(work, output: output)
        XCTAssertEqual(count, 9)
        let joined = try Tools.renderInAnyOrderAndJoin(work, segments: count)
        XCTAssertTrue(joined.standardError.contains("Joined 9 segments"), joined.standardError)

        let plain = try DecodedOutput(path: try plainStitch()), split = try DecodedOutput(path: output)
        XCTAssertEqual(split.pictures.count, 180)
        XCTAssertEqual(plain.pictures.count, split.pictures.count)
        for index in 0..<min(plain.pictures.count, split.pictures.count) where plain.pictures[index] != split.pictures[index] {
            XCTFail("frame \(index) differs from the plain stitch's")
            break
        }
        // The marker oracle reads the clips' own frames in place (clip 1's first own frame is output frame 90).
        XCTAssertEqual(Marker.read(split.pictures[20])?.clip, 0)
        XCTAssertEqual(Marker.read(split.pictures[20])?.frame, 20)
        XCTAssertEqual(Marker.read(split.pictures[105])?.clip, 1)
        XCTAssertEqual(Marker.read(split.pictures[105])?.frame, 30)
        XCTAssertEqual(Marker.read(split.pictures[147])?.clip, 2)
        XCTAssertEqual(Marker.read(split.pictures[147])?.frame, 27)

        // Sound: no gap, click or drift at any boundary; the same clip heard in every frame.
        Seam.check(plain, split, boundaries: Array(stride(from: 21, to: 180, by: 21)))
        let durations = try FFprobe.streams(output, entries: "stream=codec_type,duration")
        let plainDurations = try FFprobe.streams(try plainStitch(), entries: "stream=codec_type,duration")
        XCTAssertEqual(durations.map { $0["duration"] as? String }, plainDurations.map { $0["duration"] as? String })
    }

    /// Under a ducked music bed (ducked under the clips' tones, released under
    /// the silent photo): the sound at every boundary is still seamless and the plain stitch's.
    func testSoundUnderADuckedMusicBedIsThePlainStitchsAtEveryBoundary() throws {
        let bed = try store.path("segments-bed.m4a") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=220:duration=2.5", "-c:a", "aac", path])
        }
        let music = ["--music", bed, "--duck", "12"]
        let work = work("music"), output = store.outputPath()
        let count = try plan(work, output: output, seconds: "0.7", extra: music)
        try Tools.renderInAnyOrderAndJoin(work, segments: count)
        let plain = try DecodedOutput(path: try plainStitch(extra: music)), split = try DecodedOutput(path: output)
        Seam.check(plain, split, boundaries: Array(stride(from: 21, to: 180, by: 21)))
    }

    /// A segment starting 8 s into a 10 s clip seeks to the keyframe before
    /// its warm-up (2 s) instead of decoding the clip from its start, and still
    /// gives the plain stitch's pictures and samples.
    func testASegmentDeepInALongClipSeeksAndStillMatchesThePlainStitch() throws {
        let long = try store.path("marker-3-300.mp4", MarkerClip(clip: 3, frames: 300))
        let short = try store.path("marker-1-60.mp4", MarkerClip(clip: 1, frames: 60))
        let flags = ["--transition", "fade", "--transition-duration", "0.5", "--crf", "0", "--preset", "ultrafast", "-y"]
        let work = work("seek"), output = store.outputPath()
        let planned = try Tools.segue(["plan", long, short, "-o", output, "--work", work, "--segment-duration", "4"] + flags)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        XCTAssertEqual(planned.standardOutput, "segments: 3\n")
        for segment in [2, 1, 0] {
            XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0)
        }
        // Segment 2 starts at frame 240: it sought to shortly before it (its sound's
        // 2.7 s pre-roll); segment 1 (frame 120) played the clip from its start.
        let warmUp = try XCTUnwrap(SegmentFiles.manifest(work: work, segment: 2)?.warmUpFrames)
        XCTAssertTrue((60..<120).contains(warmUp), "segment 2 warmed up over \(warmUp) frames")
        XCTAssertEqual(SegmentFiles.manifest(work: work, segment: 1)?.warmUpFrames, 120)
        XCTAssertEqual(try Tools.segue(["join", work]).status, 0)
        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch", long, short, "-o", plainPath] + flags).status, 0)
        let plain = try DecodedOutput(path: plainPath), split = try DecodedOutput(path: output)
        XCTAssertEqual(split.pictures.count, 345)
        XCTAssertTrue(plain.pictures == split.pictures, "pictures differ from the plain stitch's")
        Seam.check(plain, split, boundaries: [120, 240])
        XCTAssertEqual(Marker.read(split.pictures[250])?.frame, 250)
    }

    /// A segment starting inside a 3 s fade out of a long clip seeks into that
    /// clip's own frames and plays the fade from both clips in step.
    func testASegmentStartingInAFadeAfterALongClipSeeksAndMatches() throws {
        let long = try store.path("marker-3-300.mp4", MarkerClip(clip: 3, frames: 300))
        let next = try store.path("marker-1-60.mp4", MarkerClip(clip: 1, frames: 60))
        let flags = ["--transition", "fade", "--transition-duration", "3", "--crf", "0", "--preset", "ultrafast", "-y"]
        let work = work("seek-fade"), output = store.outputPath()
        // 300 + 60 - 60 (the fade, shortened to half the short clip) = 300 frames; the fade is 240-300; a boundary at 255.
        XCTAssertEqual(try Tools.segue(["plan", long, next, "-o", output, "--work", work, "--segment-duration", "8.5"] + flags).status, 0)
        for segment in [1, 0] {
            XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0)
        }
        XCTAssertLessThan(try XCTUnwrap(SegmentFiles.manifest(work: work, segment: 1)?.warmUpFrames), 255, "segment 1 did not seek")
        XCTAssertEqual(try Tools.segue(["join", work]).status, 0)
        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch", long, next, "-o", plainPath] + flags).status, 0)
        let plain = try DecodedOutput(path: plainPath), split = try DecodedOutput(path: output)
        XCTAssertEqual(split.pictures.count, plain.pictures.count)
        XCTAssertTrue(plain.pictures == split.pictures, "pictures differ from the plain stitch's")
        Seam.check(plain, split, boundaries: [255])
    }

    /// `--smart` composes: boundaries move off copied GOPs to their ends, the
    /// copied GOPs stay copied (byte for byte, as in the plain `--smart`
    /// stitch), and every frame shows what the plain `--smart` stitch shows.
    func testSmartSegmentsKeepCopiedGOPsCopiedAndJoinToThePlainSmartStitch() throws {
        let phones = try (0..<3).map { clip -> String in
            let source = try store.path("marker-\(clip)-60.mp4", MarkerClip(clip: clip, frames: 60))
            return try store.path("segments-phone-\(clip)-60.mp4") { path in
                try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264", "-profile:v", "high", "-preset", "fast",
                                         "-crf", "18", "-x264-params", "keyint=30:min-keyint=30:bframes=3:b-pyramid=normal:scenecut=0:ref=2",
                                         "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                                         "-c:a", "copy", "-f", "mp4", path])
            }
        }
        let flags = ["--smart", "--transition", "fade", "--transition-duration", "0.5", "--preset", "ultrafast", "-y"]
        let work = work("smart"), output = store.outputPath()
        let planned = try Tools.segue(["plan"] + phones + ["-o", output, "--work", work, "--segment-duration", "0.5"] + flags)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        // 150 frames; GOPs 0-30 and 120-150 are copied (the others hold a fade). The nominal
        // boundaries at 15 and 135 lie inside them and move to their ends (already boundaries).
        let starts = try SegmentPlan.load(work: work).segments.map(\.startFrame)
        XCTAssertEqual(starts, [0, 30, 45, 60, 75, 90, 105, 120])
        try Tools.renderInAnyOrderAndJoin(work, segments: starts.count)
        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + phones + ["-o", plainPath] + flags).status, 0)
        // The copied GOPs are the sources' packets, as many as in the plain --smart stitch.
        var sourcePackets = Set<[UInt8]>()
        for phone in phones { for packet in try SmartTestCase.videoPackets(phone).list { sourcePackets.insert(packet.bytes) } }
        let copied = { (path: String) in try SmartTestCase.videoPackets(path).list.filter { sourcePackets.contains($0.bytes) }.count }
        XCTAssertEqual(try copied(plainPath), 60)
        XCTAssertEqual(try copied(output), 60)
        let plain = try DecodedOutput(path: plainPath), split = try DecodedOutput(path: output)
        XCTAssertEqual(split.pictures.count, 150)
        for index in 0..<min(plain.pictures.count, split.pictures.count) {
            guard let shown = Marker.read(plain.pictures[index]) else { continue }
            let read = Marker.read(split.pictures[index])
            XCTAssertTrue(read?.clip == shown.clip && read?.frame == shown.frame, "frame \(index) shows \(String(describing: read)), not \(shown)")
        }
        // A segment encodes its stretch of the sound as one process does without copying it
        // (one --smart process copies AAC frames, each clip moved onto the frame grid).
        let exactPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + phones + ["-o", exactPath] + flags.filter { $0 != "--smart" }).status, 0)
        Seam.check(try DecodedOutput(path: exactPath), split, boundaries: starts.dropFirst().map { $0 })
        let decoded = try Tools.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
        XCTAssertEqual(decoded.standardError, "", "the joined --smart output does not decode cleanly")
    }

    /// Remote clips stay remote in the plan; a segment opens only the clips it shows.
    func testASegmentReadsOnlyTheRemoteClipsItShows() throws {
        let local = [try store.path("marker-0-60.mp4", MarkerClip(clip: 0, frames: 60)),
                     try store.path("marker-1-60.mp4", MarkerClip(clip: 1, frames: 60)),
                     try store.path("marker-2-60.mp4", MarkerClip(clip: 2, frames: 60))]
        let server = try TestServer(root: store.folder.path)
        let urls = local.map { "\(server.base)/\(($0 as NSString).lastPathComponent)" }
        let flags = ["--crf", "0", "--preset", "ultrafast", "-y", "--segment-duration", "1"]
        let work = work("remote"), output = store.outputPath()
        XCTAssertEqual(try Tools.segue(["plan"] + urls + ["-o", output, "--work", work] + flags).status, 0)
        XCTAssertEqual(try SegmentPlan.load(work: work).clips.map(\.path), urls)
        func requests(_ index: Int) throws -> Int {
            ((try server.stats()["paths"] as? [String: Int]) ?? [:])["/" + (local[index] as NSString).lastPathComponent] ?? 0
        }
        let before = try (0..<3).map(requests)
        XCTAssertEqual(try Tools.segue(["render", work, "--segment", "0", "--quiet"]).status, 0)
        XCTAssertGreaterThan(try requests(0), before[0])
        XCTAssertEqual(try requests(1), before[1], "segment 0 (frames 0-29) opened clip 1")
        XCTAssertEqual(try requests(2), before[2], "segment 0 (frames 0-29) opened clip 2")
        for segment in 1..<6 {
            XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0)
        }
        XCTAssertEqual(try Tools.segue(["join", work]).status, 0)
        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + local + ["-o", plainPath, "--crf", "0", "--preset", "ultrafast", "-y"]).status, 0)
        let plain = try DecodedOutput(path: plainPath), split = try DecodedOutput(path: output)
        XCTAssertTrue(plain.pictures == split.pictures, "the remote segments' pictures differ from the plain stitch's")
    }

    func testRenderTwiceIsIdempotent() throws {
        let work = work("twice")
        _ = try plan(work, output: store.outputPath(), seconds: "3")
        let first = try Tools.segue(["render", work, "--segment", "1"])
        XCTAssertEqual(first.status, 0, first.standardError)
        let receipt = SegmentFiles.manifestPath(work: work, segment: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: receipt))
        let files = try FileManager.default.contentsOfDirectory(atPath: work).sorted()
        let second = try Tools.segue(["render", work, "--segment", "1"])
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertTrue(second.standardError.contains("already rendered"), second.standardError)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: receipt)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work).sorted(), files)
    }

    func testAnOutputInsideTheWorkFolderIsPlannedBeforeTheFolderExistsAndJoinedThere() throws {
        let work = work("output-inside")
        let output = (work as NSString).appendingPathComponent("result/out.mp4")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work))
        let count = try plan(work, output: output, seconds: "3")
        try Tools.renderInAnyOrderAndJoin(work, segments: count)
        let frames = try FFprobe.streams(output).first { $0["codec_type"] as? String == "video" }?["nb_read_frames"] as? String
        XCTAssertEqual(frames, try FFprobe.streams(plainStitch()).first { $0["codec_type"] as? String == "video" }?["nb_read_frames"] as? String)
        // --jobs with its output in its own work folder, too.
        let jobsWork = self.work("jobs-output-inside")
        let jobsOutput = (jobsWork as NSString).appendingPathComponent("out.mp4")
        let jobs = try Tools.segue(["stitch"] + (try inputs()) + ["-o", jobsOutput, "--jobs", "2", "--work", jobsWork,
                                                                  "--segment-duration", "3", "--quiet"] + flags)
        XCTAssertEqual(jobs.status, 0, jobs.standardError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: jobsOutput))
    }

    func testAnOutputWhoseFolderCantBeMadeIsRefusedWithExit2AndNothingWritten() throws {
        let blocker = store.folder.appendingPathComponent("a-file-\(UUID().uuidString.prefix(6))").path
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let work = work("unmakeable")
        let result = try Tools.segue(["plan"] + (try inputs()) + ["-o", blocker + "/sub/out.mp4", "--work", work] + flags)
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(blocker) is a file"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work), "no plan written")
    }

    func testRenderWithoutASegmentExits2SayingSo() throws {
        let work = work("no-index")
        _ = try plan(work, output: store.outputPath(), seconds: "3")
        let result = try Tools.segue(["render", work], environment: [:])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("no segment given"), result.standardError)
        XCTAssertTrue(result.standardError.contains("SLURM_ARRAY_TASK_ID"), result.standardError)
    }

    func testRenderTakesItsSegmentFromTheArrayJobEngine() throws {
        let work = work("env")
        _ = try plan(work, output: store.outputPath(), seconds: "3")
        let result = try Tools.segue(["render", work, "--quiet"], environment: ["JOB_COMPLETION_INDEX": "1"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertNotNil(SegmentFiles.manifest(work: work, segment: 1))
        XCTAssertNil(SegmentFiles.manifest(work: work, segment: 0))
        XCTAssertEqual(try RenderJob.segmentFromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "JOB_COMPLETION_INDEX": "1"]), 4)
        XCTAssertEqual(try RenderJob.segmentFromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "2"]), 2)
        XCTAssertNil(try RenderJob.segmentFromEnvironment([:]))
    }

    func testJoinRefusesMissingAndDamagedSegmentsNamingEachAndWritesNothing() throws {
        let work = work("missing"), output = store.outputPath()
        let count = try plan(work, output: output, seconds: "1.5")
        XCTAssertEqual(count, 4)
        for segment in [0, 2, 3] {
            XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0)
        }
        // Segment 2's video damaged in place: same size, one byte changed.
        let video = try XCTUnwrap(SegmentFiles.manifest(work: work, segment: 2)?.video)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: (work as NSString).appendingPathComponent(video)))
        try handle.seek(toOffset: 2000)
        let byte = try XCTUnwrap(handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: 2000)
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()

        let result = try Tools.segue(["join", work])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("segments 1, 2 missing or damaged"), result.standardError)
        XCTAssertTrue(result.standardError.contains("segment 1: not rendered"), result.standardError)
        XCTAssertTrue(result.standardError.contains("segment 2: "), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testAKilledJobsRunResumesKeepingTheSegmentsItFinished() throws {
        let work = work("resume"), output = store.outputPath()
        let arguments = ["stitch"] + (try inputs()) + ["-o", output, "--jobs", "2", "--work", work, "--segment-duration", "0.5"] + flags
        let process = Process()
        process.executableURL = SegueTool.executable
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SIGKILL once a few segments are done (or give up waiting).
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline, (0..<12).filter({ SegmentFiles.manifest(work: work, segment: $0) != nil }).count < 3 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        usleep(500_000) // its orphaned renders finish or die; either is fine
        let kept = (0..<12).compactMap { SegmentFiles.manifest(work: work, segment: $0).map { ($0.segment, $0.video) } }
        XCTAssertGreaterThanOrEqual(kept.count, 3)

        let rerun = try Tools.segue(arguments)
        XCTAssertEqual(rerun.status, 0, rerun.standardError)
        XCTAssertTrue(rerun.standardError.contains("resuming:"), rerun.standardError)
        for (segment, video) in kept {
            XCTAssertEqual(SegmentFiles.manifest(work: work, segment: segment)?.video, video, "segment \(segment) was rendered again")
        }
        let plain = try DecodedOutput(path: try plainStitch()), split = try DecodedOutput(path: output)
        XCTAssertEqual(plain.pictures.count, split.pictures.count)
        XCTAssertTrue(plain.pictures == split.pictures, "the resumed output differs from the plain stitch")
        Seam.check(plain, split, boundaries: Array(stride(from: 15, to: 180, by: 15)))
    }

    func testPlanRecordsAbsolutePathsAndTheSegmentsFrames() throws {
        let work = work("record")
        _ = try plan(work, output: "relative-out.mp4", seconds: "1.3")
        let record = try SegmentPlan.load(work: work)
        XCTAssertTrue(record.output.hasPrefix("/"))
        XCTAssertTrue(record.clips.allSatisfy { $0.path.hasPrefix("/") })
        XCTAssertEqual(record.segments.map(\.startFrame), [0, 39, 78, 117, 156])
        XCTAssertEqual(record.segments.last?.endFrame, 180)
        XCTAssertEqual(record.totalFrames, try record.timeline().totalFrames)
    }

    /// A receipt copied or renamed onto another segment's name is named for
    /// what it is, not as a frame count that differs (its count may even agree).
    func testAReceiptOfAnotherSegmentIsReportedAsSuch() throws {
        let work = work("receipt-swap")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let video = "segment-00003-run.mp4"
        try Data("video".utf8).write(to: URL(fileURLWithPath: (work as NSString).appendingPathComponent(video)))
        let receipt = SegmentManifest(plan: "p", segment: 3, frames: 30, samples: 48_000, audioPackets: nil, video: video,
                                      videoBytes: 5, videoSHA256: "", sound: nil, soundBytes: nil, soundSHA256: nil,
                                      wallSeconds: 1, host: "here", warmUpFrames: 0)
        try JSONEncoder().encode(receipt).write(to: URL(fileURLWithPath: SegmentFiles.manifestPath(work: work, segment: 2)))
        let segment = SegmentPlan.Segment(index: 2, startFrame: 60, endFrame: 90, startSample: 96_000, endSample: 144_000,
                                          audioStart: 95_232, audioEnd: 143_360)
        XCTAssertEqual(SegmentFiles.problem(with: segment, isLast: true, work: work, includeAudio: false, deep: false),
                       "its receipt is for segment 3")
        var other = segment
        other.index = 3
        other.endFrame = 100
        try JSONEncoder().encode(receipt).write(to: URL(fileURLWithPath: SegmentFiles.manifestPath(work: work, segment: 3)))
        XCTAssertEqual(SegmentFiles.problem(with: other, isLast: true, work: work, includeAudio: false, deep: false),
                       "it holds 30 frames, the plan 40")
        other.endFrame = 90
        XCTAssertNil(SegmentFiles.problem(with: other, isLast: true, work: work, includeAudio: false, deep: false))
    }

    /// `join --report` to a file that can't be written warns as `stitch` does
    /// (the output was written, exit 0), and says nothing under --quiet.
    func testAJoinsReportThatCantBeWrittenIsAWarningAsAStitchsIs() throws {
        let work = work("join-report"), output = store.outputPath()
        let count = try plan(work, output: output, seconds: "3")
        for segment in 0..<count {
            XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0)
        }
        // A name longer than a file name may be: the checks before the join pass it, the write can't.
        let report = store.folder.appendingPathComponent(String(repeating: "r", count: 300) + ".json").path
        let joined = try Tools.segue(["join", work, "--report", report])
        XCTAssertEqual(joined.status, 0, joined.standardError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
        XCTAssertTrue(joined.standardError.contains("segue: warning: \(report): can't write the report ("), joined.standardError)
        XCTAssertTrue(joined.standardError.contains("); \(output) was written"), joined.standardError)
        let quiet = try Tools.segue(["join", work, "--report", report, "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.standardError)
        XCTAssertEqual(quiet.standardError, "")
        // The same report path to stitch: the same words.
        let stitched = try Tools.segue(["stitch"] + (try inputs()) + ["-o", store.outputPath(), "--report", report] + flags)
        XCTAssertEqual(stitched.status, 0, stitched.standardError)
        XCTAssertTrue(stitched.standardError.contains("segue: warning: \(report): can't write the report ("), stitched.standardError)
    }

    /// `stitch --jobs --export-otio` exports through the library what the plain stitch's --export-otio does.
    func testJobsExportTheSameTimelineAsThePlainStitch() throws {
        let plain = store.outputPath("plain-otio") + ".otio", split = store.outputPath("jobs-otio") + ".otio"
        let stitched = try Tools.segue(["stitch"] + (try inputs()) + ["-o", store.outputPath(), "--export-otio", plain, "--quiet"] + flags)
        XCTAssertEqual(stitched.status, 0, stitched.standardError)
        let jobs = try Tools.segue(["stitch"] + (try inputs()) + ["-o", store.outputPath(), "--export-otio", split, "--jobs", "2",
                                                                  "--segment-duration", "3", "--quiet"] + flags)
        XCTAssertEqual(jobs.status, 0, jobs.standardError)
        XCTAssertEqual(try String(contentsOfFile: split, encoding: .utf8), try String(contentsOfFile: plain, encoding: .utf8))
    }

    /// A child render that fails is a failed render (exit 1) naming the
    /// segment and how its child ended, not a read failure.
    func testAFailedChildRenderIsAProcessingFailureNamingTheSegmentAndItsExitStatus() throws {
        let work = work("child-fails")
        let runner = SegmentRunner(work: work, jobs: 1, quiet: true, program: "/bin/false")
        XCTAssertThrowsError(try runner.render([4, 5], of: 6, stop: StopRequest())) { error in
            let failure = error as? SegueError
            XCTAssertEqual(failure?.reason, .processingFailed)
            XCTAssertEqual(failure?.exitCode, 1)
            XCTAssertEqual(failure?.description, "\(work): the render of segment 4 exited with status 1; "
                           + "the segments rendered are kept: run the same command again to resume")
        }
        // A child killed by a signal says so.
        let program = store.folder.appendingPathComponent("kill-self-\(UUID().uuidString.prefix(6))").path
        try "#!/bin/sh\nkill -9 $$\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        XCTAssertThrowsError(try SegmentRunner(work: work, jobs: 1, quiet: true, program: program).render([0], of: 1, stop: StopRequest())) {
            XCTAssertTrue("\($0)".contains("\(work): the render of segment 0 was killed by signal 9;"), "\($0)")
        }
    }
}

/// Tools run as a user (or a cluster) would: exit code, stdout and stderr.
enum Tools {
    /// Runs `segue`; `environment`, when given, replaces the inherited one (PATH and HOME kept).
    static func segue(_ arguments: [String], environment: [String: String]? = nil) throws -> SegueTool.Result {
        try run(SegueTool.executable.path, arguments, environment: environment)
    }

    /// Renders every segment of the plan in `work`, each by its own process in
    /// a shuffled order, then joins them; each must exit 0. The join's result.
    @discardableResult
    static func renderInAnyOrderAndJoin(_ work: String, segments: Int, file: StaticString = #filePath,
                                        line: UInt = #line) throws -> SegueTool.Result {
        for segment in (0..<segments).shuffled() {
            let result = try segue(["render", work, "--segment", String(segment), "--quiet"])
            XCTAssertEqual(result.status, 0, "segment \(segment): \(result.standardError)", file: file, line: line)
        }
        let joined = try segue(["join", work])
        XCTAssertEqual(joined.status, 0, joined.standardError, file: file, line: line)
        return joined
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> SegueTool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        if let environment {
            let inherited = ProcessInfo.processInfo.environment
            process.environment = environment.merging(["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/"]) { a, _ in a }
        }
        let result = try SegueTool.capture(process)
        if program != SegueTool.executable.path, result.status != 0 {
            throw NSError(domain: "Tools", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: "\(program): \(result.standardError)"])
        }
        return result
    }
}

/// The joined sound against the plain stitch's. Each segment encodes its own
/// stretch of the AAC packets (with a pre-roll), so the two are two encodes of
/// the same samples: equal within coding noise, not bit for bit.
enum Seam {
    /// At each boundary (output frames at 30 fps), ±2048 samples: the difference
    /// at least 20 dB under the sound, no step larger than the plain stitch's
    /// (a click); over the whole output, the same length and the same clip heard in every frame.
    static func check(_ plain: DecodedOutput, _ joined: DecodedOutput, boundaries: [Int],
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(plain.audio.count, joined.audio.count, "sound lengths differ", file: file, line: line)
        let count = min(plain.audio.count, joined.audio.count)
        func step(_ samples: ArraySlice<Float>) -> Float {
            zip(samples.dropFirst(), samples).map { abs($0 - $1) }.max() ?? 0
        }
        for boundary in boundaries {
            let centre = boundary * 48_000 / 30
            let range = max(0, centre - 2048)..<min(count, centre + 2048)
            let difference = zip(plain.audio[range], joined.audio[range]).map { $0 - $1 }
            let noise = Tone.rms(difference[...]), level = Tone.rms(plain.audio[range])
            XCTAssertLessThanOrEqual(noise, 0.1 * level + 1e-4,
                                     "around boundary \(boundary) the sound differs by \(noise) (rms) under a level of \(level)",
                                     file: file, line: line)
            XCTAssertLessThanOrEqual(step(joined.audio[range]), step(plain.audio[range]) * 1.25 + 0.005,
                                     "a click around boundary \(boundary)", file: file, line: line)
        }
        let frames = count / 1600
        for frame in 0..<frames {
            let heard = Tone.dominantClip(plain.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000)
            guard let heard else { continue }
            XCTAssertEqual(Tone.dominantClip(joined.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000), heard,
                           "frame \(frame) sounds like another clip", file: file, line: line)
        }
    }
}
