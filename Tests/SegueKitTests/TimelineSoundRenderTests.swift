import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
@testable import SegueRender

/// A timeline's sound tracks rendered by the command line and judged in 10 ms
/// windows (Tests/Support/timeline_sound_judge.py): each medium at the right
/// source time and weight on every track, J and L cuts at their frame, the
/// crossfade at its weights, gaps silent. The media's sound is a tone that
/// names the medium plus seeded pink noise that names the time; the
/// timelines are written by opentimelineio and its fcp_xml adapter
/// (Tests/Support/sound_timelines.py, its "jl" timeline), or by hand as an EDL.
final class TimelineSoundRenderTests: XCTestCase {
    let store = FixtureStore.shared
    static let support = SegueTool.repository.appendingPathComponent("Tests/Support")

    struct Media { var a, b, m, n: String }

    /// A sound file made by the ffmpeg CLI: a tone of `hz` and pink noise seeded by `seed`, below 5 kHz (kept by AAC).
    func sound(_ name: String, hz: Int, seed: Int, rate: Int = 48_000, seconds: Double, channels: Int = 2) throws -> String {
        try store.path("snd-\(name).wav") { path in
            let graph = "sine=f=\(hz):r=\(rate):d=\(seconds),volume=0.5[s];anoisesrc=a=0.3:c=pink:seed=\(seed):r=\(rate):d=\(seconds),"
                + "lowpass=f=5000[n];[s][n]amix=inputs=2:normalize=0"
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", graph, "-ac", String(channels), path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
    }

    /// A marker clip of 48 frames at 24 fps with `sound` as its own (PCM in MOV), or none.
    func picture(_ name: String, clip: Int, sound: String?) throws -> String {
        let plain = try store.path("snd-\(name)-picture.mp4", MarkerClip(clip: clip, frames: 48, frameRate: Rational(24, 1), sampleRate: nil))
        guard let sound else { return plain }
        return try store.path("snd-\(name).mov") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", plain, "-i", sound, "-map", "0:v", "-map", "1:a",
                                               "-c:v", "copy", "-c:a", "pcm_s16le", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
    }

    func media() throws -> Media {
        Media(a: try picture("a", clip: 1, sound: try sound("a", hz: 440, seed: 1, seconds: 2)),
              b: try picture("b", clip: 2, sound: try sound("b", hz: 660, seed: 2, seconds: 2)),
              m: try sound("m", hz: 990, seed: 3, seconds: 4),
              n: try sound("n", hz: 1320, seed: 4, rate: 44_100, seconds: 2, channels: 1))
    }

    /// Runs a Python script of Tests/Support with opentimelineio's interpreter.
    func otioPython(_ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: EditTimelineParseTests.python) else {
            throw unavailable("no \(EditTimelineParseTests.python): run Scripts/setup (it installs opentimelineio and its adapters)")
        }
        let run = try Tool.run(EditTimelineParseTests.python, arguments)
        XCTAssertEqual(run.status, 0, run.standardError)
    }

    /// The "jl" timeline as opentimelineio writes it.
    func otioTimeline(_ media: Media) throws -> String {
        try store.path("snd-jl.otio") { path in
            try otioPython([Self.support.appendingPathComponent("sound_timelines.py").path, "jl", path, media.a, media.b, media.m, media.n])
        }
    }

    /// The "jl" timeline through the fcp_xml adapter, with M's Audio Levels filter written in as Premiere writes
    /// it (the adapter doesn't write effects).
    func xmlTimeline(_ media: Media) throws -> String {
        let otio = try otioTimeline(media) // made first: the store's lock isn't reentrant
        let adapter = try store.path("snd-jl-adapter.xml") { path in
            try otioPython([Self.support.appendingPathComponent("sound_timelines.py").path, "xml", otio, path])
        }
        return try store.path("snd-jl.xml") { path in
            var text = try String(contentsOfFile: adapter, encoding: .utf8)
            let filter = "<filter><effect><name>Audio Levels</name><effectid>audiolevels</effectid><effectcategory>audiolevels</effectcategory>"
                + "<effecttype>audiolevels</effecttype><mediatype>audio</mediatype><parameter authoringApp=\"PremierePro\">"
                + "<parameterid>level</parameterid><name>Level</name><valuemin>0</valuemin><valuemax>3.98109</valuemax>"
                + "<value>0.501187</value></parameter></effect></filter>"
            guard let name = text.range(of: "<name>M</name>") else { throw EditTimelineError("the fcp_xml adapter wrote no clip item M") }
            text.insert(contentsOf: filter, at: name.upperBound)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// The "jl" timeline's sound (seconds at 24 fps; source time = output time + offset).
    static func jlPieces(levels: Bool = true, crossfade: Bool = true) -> [[String: Any]] {
        let frame = 1.0 / 24
        return [
            ["medium": "A", "start": 0, "end": 20 * frame, "offset": 0],
            ["medium": "B", "start": 20 * frame, "end": 28 * frame, "offset": -4 * frame],
            ["medium": "A", "start": 28 * frame, "end": 44 * frame, "offset": -2 * frame],
            ["medium": "M", "start": 12 * frame, "end": (crossfade ? 27 : 24) * frame, "offset": 12 * frame,
             "gain": levels ? 0.501187 : 1.0, "fade_out": crossfade ? 6 * frame : 0],
            ["medium": "N", "start": (crossfade ? 21 : 24) * frame, "end": 36 * frame, "offset": -18 * frame,
             "fade_in": crossfade ? 6 * frame : 0],
        ]
    }

    /// The judge's verdict on `output` against `pieces`, up to `until` seconds (the AAC encoder's last frames not judged).
    func judge(_ output: String, _ media: Media, pieces: [[String: Any]], until: Double = 1.95) throws -> [String: Any] {
        let spec: [String: Any] = ["output": output, "until": until, "pieces": pieces,
                                   "media": ["A": media.a, "B": media.b, "M": media.m, "N": media.n]]
        let path = store.folder.appendingPathComponent("judge-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: path))
        let run = try Tool.run("python3", [Self.support.appendingPathComponent("timeline_sound_judge.py").path, path])
        XCTAssertEqual(run.status, 0, run.standardError)
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] ?? [:]
    }

    /// Every window right, every hard edge within 5 ms, silence below -60 dBFS.
    func assertHeard(_ verdict: [String: Any], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let failures = verdict["failures"] as? [String] ?? ["no verdict"]
        XCTAssertEqual(failures, [], what, file: file, line: line)
        let edges = verdict["edges"] as? [[String: Any]] ?? []
        XCTAssertGreaterThanOrEqual(edges.count, 5, "\(what): the J and L cuts and M's start are measured", file: file, line: line)
        for edge in edges {
            XCTAssertLessThanOrEqual(abs(edge["error_ms"] as? Double ?? 99), 5, "\(what): \(edge)", file: file, line: line)
        }
        XCTAssertLessThan(abs(verdict["worst_weight_error"] as? Double ?? 1), 0.15, what, file: file, line: line)
        XCTAssertLessThan(verdict["loudest_silence_dbfs"] as? Double ?? 0, -60, what, file: file, line: line)
        XCTAssertGreaterThan(verdict["snr_db"] as? Double ?? 0, 15, what, file: file, line: line)
    }

    func stitch(_ arguments: [String]) throws -> String {
        let output = store.outputPath()
        let run = try SegueTool.run(["stitch"] + arguments + ["-o", output, "-y", "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(run.status, 0, run.standardError)
        return output
    }

    // MARK: The timeline's own sound

    func testOTIOSoundTracksPlayEachMediumAtItsTimeWithJAndLCutsACrossfadeAndALevel() throws {
        let media = try media()
        let output = try stitch([try otioTimeline(media)])
        assertHeard(try judge(output, media, pieces: Self.jlPieces()), "OTIO")
    }

    func testTheFCPAdaptersXMLWithPremiereAudioLevelsSoundsTheSameAndSoDoesItsOTIOReading() throws {
        let media = try media()
        let xml = try xmlTimeline(media)
        assertHeard(try judge(try stitch([xml]), media, pieces: Self.jlPieces()), "xmeml")
        // The adapter reads the Audio Levels filter into an effect's metadata: that OTIO sounds the same.
        let converted = try store.path("snd-jl-from-xml.otio") { path in
            try otioPython(["-c", "import sys, opentimelineio as otio; otio.adapters.write_to_file("
                            + "otio.adapters.read_from_file(sys.argv[1]), sys.argv[2])", xml, path])
        }
        assertHeard(try judge(try stitch([converted]), media, pieces: Self.jlPieces()), "the adapter's reading of the xmeml")
    }

    func testAnEDLsSoundEventsPlayOnTracksA1AndA2() throws {
        let media = try media()
        let edl = try store.path("snd-jl.edl") { path in
            let event = Self.edlEvent
            let text = "TITLE: JL\nFCM: NON-DROP FRAME\n\n"
                + event(1, "V", (0, 16), (0, 16), media.a) + event(2, "A", (0, 20), (0, 20), media.a)
                + event(3, "A2", (24, 36), (12, 24), media.m) + event(4, "V", (12, 28), (16, 32), media.b)
                + event(5, "A", (16, 24), (20, 28), media.b) + event(6, "A2", (6, 18), (24, 36), media.n)
                + event(7, "A", (26, 42), (28, 44), media.a) + event(8, "V", (30, 46), (32, 48), media.a)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        assertHeard(try judge(try stitch([edl]), media, pieces: Self.jlPieces(levels: false, crossfade: false)), "EDL")
    }

    /// An EDL event at 24 fps: `number`, its channels (V, A, A2), source and record frames, and its file.
    static func edlEvent(_ number: Int, _ channels: String, _ source: (Int, Int), _ record: (Int, Int), _ file: String) -> String {
        func timecode(_ frames: Int) -> String { String(format: "00:00:%02d:%02d", frames / 24, frames % 24) }
        return String(format: "%03d  AX       %-5@ C        ", number, channels) + "\(timecode(source.0)) \(timecode(source.1)) "
            + "\(timecode(record.0)) \(timecode(record.1))\n* SOURCE FILE: \(file)\n"
    }

    func testAClipLeftOutBySkipBadTakesItsStretchOfTheTimelinesSoundWithIt() throws {
        let media = try media()
        let broken = store.folder.appendingPathComponent("snd-broken.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: broken))
        // A, the broken clip and B a second each, M under all three on A2 (its seconds 0 to 3).
        let edl = try store.path("snd-skip.edl") { path in
            let event = Self.edlEvent
            let text = "TITLE: SKIP\nFCM: NON-DROP FRAME\n\n" + event(1, "V", (0, 24), (0, 24), media.a)
                + event(2, "V", (0, 24), (24, 48), broken) + event(3, "V", (0, 24), (48, 72), media.b)
                + event(4, "A2", (0, 72), (0, 72), media.m)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let run = try SegueTool.run(["stitch", edl, "-o", store.outputPath(), "-y", "--preset", "ultrafast", "--quiet"])
        XCTAssertNotEqual(run.status, 0, "without --skip-bad the broken clip is refused")
        let output = try stitch([edl, "--skip-bad"])
        // A keeps M's first second; B, now at 1 s, keeps the third it had in the timeline (M from 2 s), cut in at 1 s.
        let verdict = try judge(output, media, pieces: [["medium": "M", "start": 0, "end": 1.0, "offset": 0],
                                                        ["medium": "M", "start": 1.0, "end": 2.0, "offset": 1.0]])
        XCTAssertEqual(verdict["failures"] as? [String], [], "\(verdict)")
        XCTAssertGreaterThan(verdict["snr_db"] as? Double ?? 0, 15, "\(verdict)")
        XCTAssertLessThan(abs(verdict["worst_weight_error"] as? Double ?? 1), 0.15, "\(verdict)")
        XCTAssertEqual(try DecodedOutput(path: output).pictures.count, 48, "A and B, the broken clip left out")
    }

    func testSegmentsJobsAndSmartHearWhatOneProcessHears() throws {
        let media = try media()
        let otio = try otioTimeline(media)
        assertHeard(try judge(try stitch([otio, "--jobs", "2", "--segment-duration", "0.5"]), media, pieces: Self.jlPieces()), "--jobs 2")
        let work = store.folder.appendingPathComponent("snd-plan-\(UUID().uuidString)").path
        let output = store.outputPath()
        let planned = try SegueTool.run(["plan", otio, "-o", output, "--work", work, "--segment-duration", "0.4", "--preset", "ultrafast"])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let count = Int(planned.standardOutput.split(separator: "\n").last?.split(separator: " ").last ?? "") ?? 0
        XCTAssertGreaterThanOrEqual(count, 4, planned.standardOutput)
        for segment in (0..<count).reversed() {
            let rendered = try SegueTool.run(["render", work, "--segment", String(segment)])
            XCTAssertEqual(rendered.status, 0, rendered.standardError)
        }
        XCTAssertEqual(try SegueTool.run(["join", work]).status, 0)
        assertHeard(try judge(output, media, pieces: Self.jlPieces()), "plan, render (last segment first), join")
        let report = store.folder.appendingPathComponent("snd-smart-\(UUID().uuidString).json").path
        assertHeard(try judge(try stitch([otio, "--smart", "--report", report]), media, pieces: Self.jlPieces()), "--smart")
        let smart = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let reasons = ((smart?["smart"] as? [String: Any])?["clips"] as? [[String: Any]] ?? []).map { ($0["sound"] as? [String: Any])?["reason"] as? String }
        XCTAssertEqual(reasons, Array(repeating: SoundNotCopied.timelineSound.description, count: 3))
    }

    func testExportOTIOWritesTheSoundTracksItRenderedAndTheyPlayAgain() throws {
        let media = try media()
        let exported = store.folder.appendingPathComponent("snd-export-\(UUID().uuidString).otio").path
        _ = try stitch([try otioTimeline(media), "--export-otio", exported])
        let listing = store.folder.appendingPathComponent("snd-export-\(UUID().uuidString).txt").path
        try otioPython(["-c", """
            import sys, opentimelineio as otio
            t = otio.adapters.read_from_file(sys.argv[1])
            with open(sys.argv[2], "w") as out:
                for track in t.tracks:
                    for item in track:
                        span = item.source_range if not isinstance(item, otio.schema.Transition) else None
                        level = item.metadata.get("segue", {}).get("level_db")
                        level = None if level is None else float(round(level, 3))
                        out.write(f"{track.kind} {type(item).__name__} {item.name} "
                                  f"{span.start_time.to_frames() if span else item.in_offset.to_frames()} "
                                  f"{span.duration.to_frames() if span else item.out_offset.to_frames()} {level}\\n")
            """, exported, listing])
        let lines = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("Audio") }, [
            "Audio Clip A 0 20 None", "Audio Clip B 16 8 None", "Audio Clip A again 26 16 None",
            "Audio Gap  0 12 None", "Audio Clip M 24 12 -6.0", "Audio Transition  3 3 None", "Audio Clip N 6 12 None",
        ])
        assertHeard(try judge(try stitch([exported]), media, pieces: Self.jlPieces()), "the exported timeline rendered again")
    }

    func testTheMusicBedStillPlaysOverATimelinesSound() throws {
        let media = try media()
        let otio = try otioTimeline(media)
        let bed = try sound("bed", hz: 200, seed: 9, seconds: 3)
        let plain = try judge(try stitch([otio]), media, pieces: Self.jlPieces())
        let verdict = try judge(try stitch([otio, "--music", bed, "--duck", "0"]), media, pieces: Self.jlPieces())
        // The bed is heard over the timeline's sound (its 1 s fade in and 2 s fade out span this short output) ...
        XCTAssertLessThan(verdict["snr_db"] as? Double ?? 99, (plain["snr_db"] as? Double ?? 0) - 3, "the bed is mixed in")
        // ... and every medium of the timeline is still where it was, at about its weight.
        XCTAssertEqual(verdict["worst_lag_ms"] as? Double, 0)
        XCTAssertLessThan(abs(verdict["worst_weight_error"] as? Double ?? 1), 0.3)
        for edge in verdict["edges"] as? [[String: Any]] ?? [] { XCTAssertLessThanOrEqual(abs(edge["error_ms"] as? Double ?? 99), 5, "\(edge)") }
    }

    /// The integrated loudness (LUFS) the ffmpeg CLI's ebur128 measures in `path`.
    func integratedLoudness(_ path: String) throws -> Double {
        let run = try Tool.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128", "-f", "null", "-"])
        let summary = run.standardError.components(separatedBy: "Integrated loudness:").last ?? ""
        let value = summary.split(separator: "\n").first { $0.contains("I:") }?.split(separator: " ").dropFirst().first
        return value.flatMap { Double($0) } ?? .nan
    }

    func testLoudnessGivesTheTimelinesMixOneGainToTheTarget() throws {
        let otio = try otioTimeline(try media())
        let plain = try integratedLoudness(try stitch([otio]))
        for target in [-16.0, -30.0] {
            for extra in [[], ["--jobs", "2", "--segment-duration", "0.5"]] {
                let measured = try integratedLoudness(try stitch([otio, "--loudness", String(target)] + extra))
                XCTAssertEqual(measured, target, accuracy: 1, "--loudness \(target) \(extra) (the mix alone: \(plain) LUFS)")
            }
        }
    }

    // MARK: Bad input

    /// An OTIO timeline of A's picture with `audio` (one track's children) as its sound.
    func handTimeline(_ name: String, picture: String, audio: [[String: Any]]) throws -> String {
        let path = store.folder.appendingPathComponent("snd-\(name).otio").path
        let video = [Self.otioClip("V", picture, start: 0, frames: 24)]
        let stack: [String: Any] = ["OTIO_SCHEMA": "Stack.1", "children": [
            ["OTIO_SCHEMA": "Track.1", "kind": "Video", "children": video],
            ["OTIO_SCHEMA": "Track.1", "kind": "Audio", "name": "A1", "children": audio]]]
        try JSONSerialization.data(withJSONObject: ["OTIO_SCHEMA": "Timeline.1", "tracks": stack]).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testSoundPastItsMediaAndSoundlessMediaAreRefusedNamingTheItem() throws {
        let media = try media()
        let silent = try picture("silent", clip: 3, sound: nil)
        let late = try handTimeline("late", picture: media.a, audio: [Self.otioClip("Late", media.m, start: 200, frames: 24)])
        var run = try SegueTool.run(["stitch", late, "-o", store.outputPath(), "-y"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("audio track A1: clip 1 'Late'") && run.standardError.contains("outside"), run.standardError)
        let mute = try handTimeline("mute", picture: media.a, audio: [Self.otioClip("Mute", silent, start: 0, frames: 24)])
        run = try SegueTool.run(["stitch", mute, "-o", store.outputPath(), "-y"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("clip 1 'Mute'") && run.standardError.contains("has no sound"), run.standardError)
        let partly = try handTimeline("partly", picture: media.a, audio: [Self.otioClip("Long", media.n, start: 36, frames: 24)])
        run = try SegueTool.run(["stitch", partly, "-o", store.outputPath(), "-y", "--preset", "ultrafast"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("clip 1 'Long'") && run.standardError.contains("silent beyond it"), run.standardError)
        let missing = try handTimeline("missing", picture: media.a, audio: [Self.otioClip("Gone", "/nowhere/gone.wav", start: 0, frames: 24)])
        run = try SegueTool.run(["stitch", missing, "-o", store.outputPath(), "-y"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("clip 'Gone' on audio track 'A1': its media /nowhere/gone.wav is not found"), run.standardError)
        run = try SegueTool.run(["stitch", missing, "-o", store.outputPath(), "-y", "--preset", "ultrafast", "--no-audio"])
        XCTAssertEqual(run.status, 0, "--no-audio doesn't look for the sound's media: \(run.standardError)")
        let over = try handTimeline("over", picture: media.a, audio: [Self.otioClip("Over", media.m, start: 0, frames: 30)])
        run = try SegueTool.run(["stitch", over, "-o", store.outputPath(), "-y", "--preset", "ultrafast"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("audio track A1 runs 6 frames past the picture's end"), run.standardError)
    }

    func testAnEDLEventOfPictureAndSoundOnSoundlessMediaIsSilentWithAWarning() throws {
        let silent = try picture("silent", clip: 3, sound: nil)
        let edl = store.folder.appendingPathComponent("snd-b-\(UUID().uuidString).edl").path
        try "001  AX       B     C        00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00\n* SOURCE FILE: \(silent)\n"
            .write(toFile: edl, atomically: true, encoding: .utf8)
        let output = store.outputPath()
        let run = try SegueTool.run(["stitch", edl, "-o", output, "-y", "--preset", "ultrafast"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("has no sound, so silent"), run.standardError)
    }
}

extension TimelineSoundRenderTests {
    /// A clip of `frames` frames at 24 from `start`, of the medium at `path`, as OTIO JSON.
    static func otioClip(_ name: String, _ path: String, start: Double, frames: Double) -> [String: Any] {
        func time(_ value: Double) -> [String: Any] { ["OTIO_SCHEMA": "RationalTime.1", "value": value, "rate": 24.0] }
        return ["OTIO_SCHEMA": "Clip.2", "name": name, "source_range": ["start_time": time(start), "duration": time(frames)],
                "media_references": ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "ExternalReference.1", "target_url": path]]]
    }
}
