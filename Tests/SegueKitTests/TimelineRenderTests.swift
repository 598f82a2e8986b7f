import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Editors' timelines rendered: every output frame judged against the
/// timeline's own arithmetic (source frame = source time − the media's start
/// timecode; transitions centred on their cuts; gaps black and silent).
/// Fixtures are marker clips, remuxed with a start timecode by the ffmpeg CLI.
final class TimelineRenderTests: XCTestCase {
    let store = FixtureStore.shared
    static let film = Rational(24000, 1001)
    static let ntsc = Rational(30000, 1001)

    /// A 320x180 marker clip, with the start timecode `timecode` (a MOV `tmcd` track) when given.
    func media(_ name: String, clip: Int, frames: Int = 48, rate: Rational = film, timecode: String? = nil) throws -> String {
        let plain = try store.path("tl-\(name)-plain.mp4", MarkerClip(clip: clip, frames: frames, frameRate: rate))
        guard let timecode else { return plain }
        return try store.path("tl-\(name).mov") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", plain, "-c", "copy", "-timecode", timecode, path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
    }

    /// The A, B and C clips of most tests: 48 frames at 23.976, starting at 01:00:00:00, 00:59:00:00 and (C) 0.
    func filmMedia() throws -> (a: String, b: String, c: String) {
        (try media("a", clip: 1, timecode: "01:00:00:00"), try media("b", clip: 2, timecode: "00:59:00:00"), try media("c", clip: 3))
    }

    static let aStart = 86_400.0, bStart = 84_960.0

    /// A clip of `frames` frames from `offset` frames past `origin`, at `rate` (as an OTIO reader gives it).
    func clip(_ name: String, _ path: String, origin: Double, offset: Double, frames: Double, rate: Rational = film) -> EditItem {
        .clip(EditClip(name: name, media: EditMedia(location: path),
                       source: EditRange(start: EditTime(value: origin + offset, rate: rate.value),
                                         duration: EditTime(value: frames, rate: rate.value))))
    }

    func dissolve(_ before: Double, _ after: Double, rate: Rational = film) -> EditItem {
        .transition(EditTransition(kind: .dissolve, before: EditTime(value: before, rate: rate.value),
                                   after: EditTime(value: after, rate: rate.value)))
    }

    /// Resolves, probes, plans and renders `timeline` as `segue stitch` does, with `fps` as `--fps`.
    func render(_ timeline: EditTimeline, fps: Rational? = nil, roots: [String] = [])
        throws -> (plan: Plan, output: DecodedOutput, warnings: [String]) {
        let resolved = try EditTimelineResolver(timelinePath: store.folder.appendingPathComponent("edit.otio").path,
                                                mediaRoots: roots, access: InputAccess()).resolve(timeline)
        var options = OutputOptions()
        options.preset = "ultrafast"
        options.crf = 12
        if let fps { options.frameRate = fps }
        let settings = StitchSettings(options: options.overriding(resolved.output))
        let probed = Prober.probeEach(resolved.entries)
        let infos = try probed.map { try $0.get() }
        let plan = try Plan(clips: infos, settings: settings, joins: resolved.entries.map(\.join))
        let path = store.outputPath()
        _ = try Stitcher(planned: PlannedStitch(plan: plan.aimed(at: path, settings: settings), settings: settings)).run()
        return (plan, try DecodedOutput(path: path), resolved.notices.map(\.description) + plan.warnings)
    }

    /// What an output frame should be: a clip's frame, black, or a dissolve
    /// `weight` of the way from one to the other.
    indirect enum Shown: Equatable {
        case frame(clip: Int, frame: Int)
        case black
        case blend(Shown, Shown, weight: Double)
    }

    /// The luma of marker block `bit`, or of the flat grey (`bit` nil), that `shown` has.
    func luma(_ shown: Shown, bit: Int?) -> Double {
        switch shown {
        case .black: return 16
        case .frame(let clip, let frame):
            guard let bit else { return Double(Marker.greys[clip % Marker.greys.count]) }
            return ((clip & 0xF) | (frame & 0xFFF) << 4) >> bit & 1 == 1 ? 235 : 16
        case .blend(let from, let to, let weight):
            return (1 - weight) * luma(from, bit: bit) + weight * luma(to, bit: bit)
        }
    }

    func assertFrames(_ output: DecodedOutput, _ expected: [Shown], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(output.pictures.count, expected.count, "frames in the output", file: file, line: line)
        for (index, (picture, shown)) in zip(output.pictures, expected).enumerated() {
            let blocks = (0..<Marker.bits).map { bit -> Double in
                let (x, y) = Marker.position(bit)
                return picture.mean(x: x + 8, y: y + 8, width: Marker.block - 16, height: Marker.block - 16)
            }
            let worst = (0..<Marker.bits).map { abs(blocks[$0] - luma(shown, bit: $0)) }.max() ?? 0
            let grey = abs(Marker.grey(picture) - luma(shown, bit: nil))
            XCTAssertTrue(worst < 14 && grey < 8, "output frame \(index): expected \(shown), read \(String(describing: Marker.read(picture))) "
                          + "(block off by \(Int(worst)), grey by \(Int(grey)))", file: file, line: line)
            if worst >= 14 || grey >= 8 { return }
        }
    }

    /// A dissolve's steps, Segue's fade weights: step k of n is (k + 1) / (n + 1) of the way.
    func dissolveFrames(_ from: [Shown], _ to: [Shown]) -> [Shown] {
        zip(from, to).enumerated().map { step, pair in .blend(pair.0, pair.1, weight: Double(step + 1) / Double(from.count + 1)) }
    }

    func frames(_ clip: Int, _ range: ClosedRange<Int>) -> [Shown] { range.map { .frame(clip: clip, frame: $0) } }

    // MARK: Timecode

    func testStartTimecodeIsProbedFromTheTimecodeTrack() throws {
        let (a, _, c) = try filmMedia()
        let info = try Prober.probe(a).get()
        XCTAssertEqual(info.facts.startTimecode?.text, "01:00:00:00")
        XCTAssertEqual(info.facts.startTimecode?.frames, 86_400)
        XCTAssertEqual(info.facts.startTimecode?.seconds ?? 0, 3603.6, accuracy: 1e-9)
        XCTAssertNil(try Prober.probe(c).get().facts.startTimecode, "a file without one starts at 0")
        let dropFrame = try Prober.probe(try media("d", clip: 1, frames: 40, rate: Self.ntsc, timecode: "01:00:00;00")).get()
        XCTAssertEqual(dropFrame.facts.startTimecode?.frames, 107_892, "drop-frame: 108000 less 2 numbers a minute but every tenth")
        XCTAssertEqual(dropFrame.facts.startTimecode?.rate, Self.ntsc)
        XCTAssertTrue(ProbeJob.table([.success(info)]).contains("01:00:00:00"))
        let json = try ProbeJob.json([.success(info)])
        XCTAssertTrue(json.contains("\"timecode\" : \"01:00:00:00\""), json)
    }

    // MARK: Cuts, dissolves, holds, gaps

    func testCutsPlayTheFramesTheTimelineNamesAt23976() throws {
        let (a, b, c) = try filmMedia()
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 5, frames: 20),
            clip("B", b, origin: Self.bStart, offset: 10, frames: 15),
            clip("C", c, origin: 0, offset: 0, frames: 12),
        ])
        let (plan, output, warnings) = try render(timeline)
        XCTAssertEqual(plan.canvas.frameRate, Self.film, "the output runs at the timeline's rate")
        assertFrames(output, frames(1, 5...24) + frames(2, 10...24) + frames(3, 0...11))
        XCTAssertEqual(warnings, [])
    }

    func testDissolveWithFullHandlesIsCentredOnTheCut() throws {
        let (a, b, _) = try filmMedia()
        // Cut at record frame 20; the dissolve runs from 16 to 26: A plays 6 frames past its range, B starts 4 before its.
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 5, frames: 20),
            dissolve(4, 6),
            clip("B", b, origin: Self.bStart, offset: 15, frames: 20),
        ])
        let (plan, output, warnings) = try render(timeline)
        XCTAssertEqual(plan.totalFrames, 40, "the output is as long as the timeline")
        XCTAssertEqual(plan.joins.map(\.frameCount), [10])
        assertFrames(output, frames(1, 5...20) + dissolveFrames(frames(1, 21...30), frames(2, 11...20)) + frames(2, 21...34))
        XCTAssertEqual(warnings, [])
    }

    func testShortHandlesHoldTheEdgeFramesAndSayHowMany() throws {
        let (a, b, _) = try filmMedia()
        // A ends 2 frames before its media does and needs 6 after; B starts 2 frames in and needs 6 before.
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 30, frames: 16),
            dissolve(6, 6),
            clip("B", b, origin: Self.bStart, offset: 2, frames: 20),
        ])
        let (plan, output, warnings) = try render(timeline)
        XCTAssertEqual(plan.totalFrames, 36)
        let outgoing = frames(1, 40...47) + Array(repeating: .frame(clip: 1, frame: 47), count: 4)
        let incoming = Array(repeating: .frame(clip: 2, frame: 0), count: 4) + frames(2, 0...7)
        assertFrames(output, frames(1, 30...39) + dissolveFrames(outgoing, incoming) + frames(2, 8...21))
        XCTAssertTrue(warnings.contains { $0.hasPrefix("clip 'A' (\(a))") && $0.contains("4 frames after its last frame") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("clip 'B' (\(b))") && $0.contains("4 frames before its first frame") }, "\(warnings)")
    }

    func testRangesPastTheMediaHoldItsEdgeFramesInSilence() throws {
        let (a, b, c) = try filmMedia()
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 40, frames: 14), // 6 frames past its end
            clip("B", b, origin: Self.bStart, offset: -3, frames: 10), // 3 frames before its start
            clip("C", c, origin: 0, offset: 0, frames: 12),
        ])
        let (_, output, warnings) = try render(timeline)
        let held = Array(repeating: Shown.frame(clip: 1, frame: 47), count: 6)
        let early = Array(repeating: Shown.frame(clip: 2, frame: 0), count: 3)
        assertFrames(output, frames(1, 40...47) + held + early + frames(2, 0...6) + frames(3, 0...11))
        let rate = Self.film.value
        // A's own frames 0-7, held 8-13; B held 14-16, its own 17-23; C from 24.
        for (frame, clip) in [(1, 1), (6, 1), (19, 2), (22, 2), (26, 3), (30, 3)] {
            XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: frame, frameRate: rate), sampleRate: 48_000), clip, "frame \(frame) heard")
        }
        for frame in [9, 10, 11, 12, 15] {
            XCTAssertLessThan(Tone.rms(output.audioChunk(frame: frame, frameRate: rate)), 0.01, "frame \(frame): held, so silent")
        }
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
    }

    func testGapIsBlackAndSilentAndFadesIntoTheNextClip() throws {
        let (a, b, _) = try filmMedia()
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 0, frames: 12),
            .gap(EditTime(value: 12, rate: Self.film.value)),
            dissolve(3, 3),
            clip("B", b, origin: Self.bStart, offset: 6, frames: 12),
        ])
        let (plan, output, warnings) = try render(timeline)
        XCTAssertEqual(plan.totalFrames, 36)
        let black = Array(repeating: Shown.black, count: 9)
        assertFrames(output, frames(1, 0...11) + black + dissolveFrames(Array(repeating: .black, count: 6), frames(2, 3...8))
                     + frames(2, 9...17))
        for frame in 13...19 {
            XCTAssertLessThan(Tone.rms(output.audioChunk(frame: frame, frameRate: Self.film.value)), 0.01, "frame \(frame): a gap is silent")
        }
        XCTAssertEqual(warnings, [])
    }

    func testDropFrameTimecodeAt2997() throws {
        let d = try media("d", clip: 1, frames: 40, rate: Self.ntsc, timecode: "01:00:00;00")
        let timeline = EditTimeline(rate: Self.ntsc, items: [
            clip("D1", d, origin: 107_892, offset: 7, frames: 20, rate: Self.ntsc),
            clip("D2", d, origin: 107_892, offset: 25, frames: 10, rate: Self.ntsc),
        ])
        let (plan, output, _) = try render(timeline)
        XCTAssertEqual(plan.canvas.frameRate, Self.ntsc)
        assertFrames(output, frames(1, 7...26) + frames(1, 25...34))
    }

    /// Why in points aim at a frame's own time: the frame-rate filter rounds
    /// to the nearest output frame, so an in point anywhere within half a frame
    /// of it picks the same frame; a timeline's exact time sits in the middle of that margin.
    func testAnInPointWithinHalfAFrameOfAFramesTimePicksThatFrame() throws {
        let (_, _, c) = try filmMedia()
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 12
        for offset in [-0.45, -0.2, 0, 0.2, 0.45] {
            let inPoint = (10 + offset) / Self.film.value
            let (_, _, path) = try store.stitch([ClipEntry(path: c, inPoint: inPoint, outPoint: inPoint + 4 / Self.film.value)],
                                                settings: settings)
            assertFrames(try DecodedOutput(path: path), frames(3, 10...13))
        }
    }

    // MARK: Rate

    func testFpsOverridesTheTimelinesRateAndKeepsItsLength() throws {
        let (a, b, _) = try filmMedia()
        let timeline = EditTimeline(rate: Self.film, items: [
            clip("A", a, origin: Self.aStart, offset: 0, frames: 24),
            clip("B", b, origin: Self.bStart, offset: 0, frames: 24),
        ])
        let (plan, output, _) = try render(timeline, fps: Self.ntsc)
        XCTAssertEqual(plan.canvas.frameRate, Self.ntsc)
        XCTAssertEqual(output.pictures.count, 60, "48 frames at 23.976 last 60 at 29.97")
        XCTAssertEqual(Marker.read(output.pictures[0])?.clip, 1)
        XCTAssertEqual(Marker.read(output.pictures[59])?.clip, 2)
    }

    // MARK: Finding media

    func testMediaIsFoundByNameUnderAMediaRoot() throws {
        let (a, _, _) = try filmMedia()
        let moved = EditTimeline(rate: Self.film, items: [
            clip("A", "/nonexistent/footage/" + (a as NSString).lastPathComponent, origin: Self.aStart, offset: 5, frames: 6),
        ])
        let (_, output, _) = try render(moved, roots: [store.folder.path])
        assertFrames(output, frames(1, 5...10))
        XCTAssertThrowsError(try render(moved, roots: [])) { error in
            guard case .mediaNotFound(let clip, _, let looked) = error as? BadInputReason else { return XCTFail("\(error)") }
            XCTAssertEqual(clip, "A")
            XCTAssertEqual(looked.first, "/nonexistent/footage/" + (a as NSString).lastPathComponent)
        }
    }

    func testAnEDLsClipIsFoundByItsClipNameThenItsReel() throws {
        let (a, _, _) = try filmMedia()
        let name = (a as NSString).lastPathComponent
        let finder = MediaFinder(folder: "/nonexistent", roots: [store.folder.path], access: InputAccess())
        XCTAssertEqual(try finder.locate(EditMedia(clipName: name, reel: "R1"), clipName: "A"), a)
        XCTAssertEqual(try finder.locate(EditMedia(clipName: "missing.mov", reel: "tl-a"), clipName: "A"), a, "the reel matches a name without extension")
        let percentEncoded = "file://" + a.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        XCTAssertEqual(try finder.locate(EditMedia(location: percentEncoded), clipName: "A"), a)
    }

    func testInputRootRefusesMediaOutsideIt() throws {
        let (a, _, _) = try filmMedia()
        let root = store.folder.appendingPathComponent("tl-root-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let access = InputAccess(policy: try InputPolicy.confined(to: [root], allowRemote: true))
        let timeline = EditTimeline(rate: Self.film, items: [clip("A", a, origin: Self.aStart, offset: 0, frames: 6)])
        XCTAssertThrowsError(try EditTimelineResolver(timelinePath: root + "/edit.otio", mediaRoots: [], access: access).resolve(timeline)) {
            XCTAssertTrue("\($0)".contains("clip 'A'") && "\($0)".contains("outside the allowed folders"), "\($0)")
        }
    }

    // MARK: Files made by OpenTimelineIO, end to end

    /// Runs `code` with the OpenTimelineIO package (Scripts/setup's .build/pyenv); its standard output.
    func python(_ code: String, _ arguments: [String] = []) throws -> String {
        let python = EditTimelineParseTests.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw unavailable("no \(python): run Scripts/setup (it installs opentimelineio and its adapters)")
        }
        let result = try Tool.run(python, ["-c", code] + arguments)
        XCTAssertEqual(result.status, 0, result.standardError)
        return result.standardOutput
    }

    /// A folder of its own with A under a name with a space, for one test's files.
    func scene() throws -> (folder: String, a: String, b: String, c: String) {
        let (a, b, c) = try filmMedia()
        let folder = store.folder.appendingPathComponent("tl-scene-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder + "/media dir", withIntermediateDirectories: true)
        let spaced = folder + "/media dir/a clip.mov"
        try FileManager.default.copyItem(atPath: a, toPath: spaced)
        return (folder, spaced, b, c)
    }

    /// Stitches `inputs` as `segue stitch` does; the report and the warnings said.
    func stitch(_ inputs: [String], _ configure: (inout StitchRequest) -> Void = { _ in }) throws -> (output: String, warnings: [String]) {
        var request = StitchRequest(inputs: inputs, output: store.outputPath())
        request.options.preset = "ultrafast"
        request.options.crf = 12
        configure(&request)
        var warnings: [String] = []
        _ = try StitchJob(request).run { if case .warning(let text) = $0 { warnings.append(text) } }
        return (request.output, warnings)
    }

    static let makeOTIO = """
    import sys, urllib.parse, opentimelineio as otio
    RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
    path, a, b, rate = sys.argv[1], sys.argv[2], sys.argv[3], 24000 / 1001
    def clip(name, url, start, duration):
        return otio.schema.Clip(name=name, media_reference=otio.schema.ExternalReference(target_url=url),
                                source_range=TR(RT(start, rate), RT(duration, rate)))
    track = otio.schema.Track(kind="Video")
    track.append(clip("A", "file://" + urllib.parse.quote(a), 86405, 20))
    track.append(otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(4, rate), out_offset=RT(6, rate)))
    track.append(clip("B", b, 84975, 20))
    track.append(otio.schema.Gap(source_range=TR(RT(0, rate), RT(6, rate))))
    track.append(clip("C", "/nowhere/tl-c-plain.mp4", 0, 12))
    timeline = otio.schema.Timeline(name="scene")
    timeline.tracks.append(track)
    otio.adapters.write_to_file(timeline, path)
    """

    static let dumpOTIO = """
    import sys, json, opentimelineio as otio
    timeline = otio.adapters.read_from_file(sys.argv[1])
    items = []
    for item in timeline.video_tracks()[0]:
        if isinstance(item, otio.schema.Transition):
            items.append(["transition", item.in_offset.value, item.out_offset.value])
        elif isinstance(item, otio.schema.Gap):
            items.append(["gap", item.source_range.duration.value])
        else:
            items.append(["clip", item.name, item.media_reference.target_url, item.source_range.start_time.value,
                          item.source_range.duration.value, round(item.source_range.duration.rate, 3)])
    print(json.dumps(items))
    """

    func testAnOTIOFileRendersFrameExactAndExportsWhatWasRendered() throws {
        let scene = try scene()
        let timeline = scene.folder + "/edit.otio"
        // B by a path relative to the timeline's folder, C found under the media root.
        let relativeB = "../" + (scene.b as NSString).lastPathComponent
        _ = try python(Self.makeOTIO, [timeline, scene.a, relativeB])
        let exported = scene.folder + "/rendered.otio"
        let (output, warnings) = try stitch([timeline]) {
            $0.mediaRoots = [self.store.folder.path]
            $0.exportOTIO = exported
        }
        XCTAssertEqual(warnings, [])
        let decoded = try DecodedOutput(path: output)
        let black = Array(repeating: Shown.black, count: 6)
        assertFrames(decoded, frames(1, 5...20) + dissolveFrames(frames(1, 21...30), frames(2, 11...20)) + frames(2, 21...34)
                     + black + frames(3, 0...11))
        let read = try JSONSerialization.jsonObject(with: Data(try python(Self.dumpOTIO, [exported]).utf8)) as? [[Any]]
        let items = try XCTUnwrap(read).map { $0.map { "\($0)" } }
        XCTAssertEqual(items, [
            ["clip", "A", scene.a, "86405.0", "20.0", "23.976"], ["transition", "4.0", "6.0"],
            ["clip", "B", scene.b, "84975.0", "20.0", "23.976"], ["gap", "6.0"],
            ["clip", "C", store.folder.appendingPathComponent("tl-c-plain.mp4").path, "0.0", "12.0", "23.976"],
        ])
    }

    func testA23976EDLCountsAtItsMediasRateAndFindsClipsByName() throws {
        let (a, b, _) = try filmMedia()
        let folder = store.folder.appendingPathComponent("tl-edl-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // 23.976 material counts its timecode at 24; the EDL doesn't say its rate.
        let edl = """
        TITLE: tl film
        FCM: NON-DROP FRAME

        001  AX       V     C        01:00:00:05 01:00:01:01 01:00:00:00 01:00:00:20
        * FROM CLIP NAME: \((a as NSString).lastPathComponent)

        002  AX       V     C        00:59:00:10 00:59:00:22 01:00:00:20 01:00:01:08
        * FROM CLIP NAME: \((b as NSString).lastPathComponent)

        """
        try edl.write(toFile: folder + "/cut.edl", atomically: true, encoding: .utf8)
        let (output, warnings) = try stitch([folder + "/cut.edl"]) { $0.mediaRoots = [self.store.folder.path] }
        XCTAssertEqual(warnings, [])
        let decoded = try DecodedOutput(path: output)
        assertFrames(decoded, frames(1, 5...24) + frames(2, 10...21))
        let rate = try Prober.probe(output).get().facts.frameRate
        XCTAssertEqual(rate, Self.film, "an EDL of 23.976 media renders at 23.976, not 24")
    }

    // MARK: The command line

    func testTheCommandLineRefusesWhatATimelineCantPlayWithExit2NamingIt() throws {
        let scene = try scene()
        let timeline = scene.folder + "/edit.otio"
        _ = try python(Self.makeOTIO, [timeline, scene.a, scene.b])
        let output = store.outputPath()
        // C isn't where the timeline says, and no --media-root is given.
        let missing = try Tools.segue(["stitch", timeline, "-o", output, "--quiet"])
        XCTAssertEqual(missing.status, 2, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("edit.otio") && missing.standardError.contains("clip 'C'")
                      && missing.standardError.contains("/nowhere/tl-c-plain.mp4"), missing.standardError)
        let freeze = try Tools.segue(["stitch", timeline, "-o", output, "--media-root", store.folder.path, "--mode", "freeze"])
        XCTAssertEqual(freeze.status, 2, freeze.standardError)
        XCTAssertTrue(freeze.standardError.contains("--mode freeze"), freeze.standardError)
        let confined = try Tools.segue(["stitch", timeline, "-o", output, "--media-root", store.folder.path, "--input-root", scene.folder])
        XCTAssertEqual(confined.status, 2, confined.standardError)
        XCTAssertTrue(confined.standardError.contains("outside the allowed folders"), confined.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "nothing written")
        let speed = scene.folder + "/speed.otio"
        _ = try python("""
            import sys, opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            timeline.video_tracks()[0][0].effects.append(otio.schema.LinearTimeWarp(time_scalar=-1.0))
            otio.adapters.write_to_file(timeline, sys.argv[2])
            """, [timeline, speed])
        let refused = try Tools.segue(["stitch", speed, "-o", output, "--media-root", store.folder.path])
        XCTAssertEqual(refused.status, 2, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("speed.otio") && refused.standardError.contains("'A': reverse speed"), refused.standardError)
        let probed = try Tools.segue(["probe", timeline, "--media-root", store.folder.path])
        XCTAssertEqual(probed.status, 0, probed.standardError)
        XCTAssertTrue(probed.standardOutput.contains("01:00:00:00") && probed.standardOutput.contains("TIMECODE"), probed.standardOutput)
    }

    func testAFinalCutPro7XMLRendersTheSameFramesAsItsOTIO() throws {
        let (a, b, _) = try filmMedia()
        let folder = store.folder.appendingPathComponent("tl-xml-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // xmeml counts in and out points from the file's start, and states the file's timecode.
        _ = try python("""
            import sys, opentimelineio as otio
            RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
            rate = 24000 / 1001
            def clip(name, path, start, duration, origin):
                reference = otio.schema.ExternalReference(target_url="file://" + path, available_range=TR(RT(origin, rate), RT(48, rate)))
                return otio.schema.Clip(name=name, media_reference=reference, source_range=TR(RT(start, rate), RT(duration, rate)))
            track = otio.schema.Track(kind=otio.schema.TrackKind.Video)
            track.append(clip("A", sys.argv[2], 86405, 20, 86400))
            track.append(otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(4, rate), out_offset=RT(6, rate)))
            track.append(clip("B", sys.argv[3], 84975, 20, 84960))
            timeline = otio.schema.Timeline(name="sequence")
            timeline.tracks.append(track)
            otio.adapters.write_to_file(timeline, sys.argv[1], adapter_name="fcp_xml")
            """, [folder + "/sequence.xml", a, b])
        let (output, warnings) = try stitch([folder + "/sequence.xml"])
        XCTAssertEqual(warnings, [])
        assertFrames(try DecodedOutput(path: output),
                     frames(1, 5...20) + dissolveFrames(frames(1, 21...30), frames(2, 11...20)) + frames(2, 21...34))
    }
}
