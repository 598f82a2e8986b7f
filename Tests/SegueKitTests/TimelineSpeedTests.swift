import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Constant speed changes and freeze frames (issue 46), in timelines written
/// by OpenTimelineIO and its CMX 3600 adapter, and by hand as Premiere writes
/// xmeml: output frame k of a clip shows source frame in + floor(k × speed),
/// its sound keeps its pitch, a freeze is silent, and a dissolve into a speed
/// change takes its handles at that speed.
extension TimelineRenderTests {
    /// At 24 fps on A and B (48 frames each): A at 2x from frame 2 (12
    /// frames), a dissolve 2 + 2 frames (a cut when a fourth argument is
    /// given), B at 0.5x from frame 5 (10), A frozen at frame 7 (6), B at 1.5x from frame 0 (8).
    static let makeSpeedOTIO = """
    import sys, opentimelineio as otio
    RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
    path, a, b, cuts = sys.argv[1], sys.argv[2], sys.argv[3], len(sys.argv) > 4
    def clip(name, url, start, duration, effect):
        made = otio.schema.Clip(name=name, media_reference=otio.schema.ExternalReference(target_url=url),
                                source_range=TR(RT(start, 24), RT(duration, 24)))
        made.effects.append(effect)
        return made
    track = otio.schema.Track(kind="Video")
    track.append(clip("fast", a, 2, 12, otio.schema.LinearTimeWarp(time_scalar=2.0)))
    if not cuts:
        track.append(otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(2, 24), out_offset=RT(2, 24)))
    track.append(clip("slow", b, 5, 10, otio.schema.LinearTimeWarp(time_scalar=0.5)))
    track.append(clip("held", a, 7, 6, otio.schema.FreezeFrame()))
    track.append(clip("brisk", b, 0, 8, otio.schema.LinearTimeWarp(time_scalar=1.5)))
    timeline = otio.schema.Timeline(name="speeds")
    timeline.tracks.append(track)
    otio.adapters.write_to_file(timeline, path)
    """

    /// The frames the speed timeline shows, by the formula.
    func speedTimelineFrames(cuts: Bool = false) -> [Shown] {
        let fast = (0..<14).map { Shown.frame(clip: 1, frame: 2 + 2 * $0) }
        // The dissolve's 2 frames before the cut take one frame of handle at 0.5x.
        let slow = (0..<12).map { Shown.frame(clip: 2, frame: 4 + $0 / 2) }
        let brisk = (0..<8).map { Shown.frame(clip: 2, frame: Int((Double($0) * 1.5).rounded(.down))) }
        let joined = cuts ? Array(fast[0..<12]) + slow[2...]
            : Array(fast[0..<10]) + dissolveFrames(Array(fast[10...]), Array(slow[0..<4])) + slow[4...]
        return joined + Array(repeating: .frame(clip: 1, frame: 7), count: 6) + brisk
    }

    /// The strongest frequency within 4 % of `tone` in `samples`, as a fraction of it (1 is the tone itself).
    func pitch(_ samples: ArraySlice<Float>, near tone: Double, sampleRate: Int) -> Double {
        let steps = stride(from: 0.96, through: 1.04, by: 0.001)
        return steps.max { Tone.power(samples, frequency: tone * $0, sampleRate: sampleRate)
            < Tone.power(samples, frequency: tone * $1, sampleRate: sampleRate) } ?? 0
    }

    func testAnOTIOTimelinesSpeedChangesShowFloorOfKTimesTheSpeedAndKeepThePitch() throws {
        let (a, b) = try wholeFilmMedia()
        let folder = try folder("tl-speed")
        _ = try python(Self.makeSpeedOTIO, [folder + "/speeds.otio", a, b])
        let (path, warnings) = try stitch([folder + "/speeds.otio"])
        let output = try DecodedOutput(path: path)
        assertFrames(output, speedTimelineFrames())
        XCTAssertEqual(warnings, [], "every speed here keeps its sound")
        // Sound: the length exact, each sped clip's tone at its pitch, the freeze silent.
        let rate = 24.0
        XCTAssertEqual(Double(output.audio.count), 36 / rate * Double(output.sampleRate), accuracy: 1024)
        func chunk(_ frames: Range<Int>) -> ArraySlice<Float> {
            let perFrame = Double(output.sampleRate) / rate
            return output.audio[Int(Double(frames.lowerBound) * perFrame)..<Int(Double(frames.upperBound) * perFrame)]
        }
        for (name, frames, clip) in [("2x", 1..<9, 1), ("0.5x", 15..<21, 2), ("1.5x", 29..<35, 2)] {
            let samples = chunk(frames)
            XCTAssertEqual(Tone.dominantClip(samples, sampleRate: output.sampleRate), clip, name)
            XCTAssertEqual(pitch(samples, near: Marker.tones[clip % Marker.tones.count], sampleRate: output.sampleRate), 1, accuracy: 0.01, name)
        }
        XCTAssertLessThan(Tone.rms(chunk(23..<27)), 0.001, "a freeze frame is silent")
    }

    func testAnEDLWrittenByTheCMX3600AdapterPlaysItsM2AndFreezeAsTheOTIODoes() throws {
        let (a, b) = try wholeFilmMedia()
        let folder = try folder("tl-speed-edl")
        // Cuts only: the adapter writes a dissolve into a speed change with the wrong source and media.
        _ = try python(Self.makeSpeedOTIO, [folder + "/speeds.otio", a, b, "cuts"])
        _ = try python("""
            import sys, opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            otio.adapters.write_to_file(timeline, sys.argv[2], adapter_name="cmx_3600", rate=24)
            """, [folder + "/speeds.otio", folder + "/speeds.edl"])
        let edl = try String(contentsOfFile: folder + "/speeds.edl", encoding: .utf8)
        XCTAssertTrue(edl.contains("M2") && edl.contains("FREEZE FRAME"), edl)
        // The adapter reads its own EDL back with the same speeds.
        let theirs = try python("""
            import sys, opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1], rate=24)
            print(" ".join("%g" % ([e.time_scalar for e in c.effects] or [1])[0] for c in timeline.video_tracks()[0].find_clips()))
            """, [folder + "/speeds.edl"])
        let parsed = try EditTimeline.parseCMX3600(edl, rate: Rational(24, 1))
        let mine = parsed.items.compactMap { item -> String? in
            guard case .clip(let clip) = item else { return nil }
            return clip.speed.map { String(format: "%g", $0.rate.value) } ?? "1"
        }
        XCTAssertEqual(mine.joined(separator: " "), theirs.trimmingCharacters(in: .whitespacesAndNewlines))
        let (path, _) = try stitch([folder + "/speeds.edl"]) { $0.mediaRoots = [(a as NSString).deletingLastPathComponent] }
        assertFrames(try DecodedOutput(path: path), speedTimelineFrames(cuts: true))
    }

    func testAPremiereTimeRemapPlaysAtItsSpeedAndReverseIsRefusedNamingTheClip() throws {
        let (a, _) = try wholeFilmMedia()
        let folder = try folder("tl-speed-xml")
        func sequence(speed: String, reverse: String, end: Int = 10) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xmeml>
            <xmeml version="4"><sequence id="sequence-1"><name>remap</name><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate>
            <media><video><track>
            <clipitem id="clipitem-1"><name>A fast</name><enabled>TRUE</enabled><duration>48</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>0</start><end>\(end)</end><in>3</in><out>33</out>
            <file id="file-a"><name>\((a as NSString).lastPathComponent)</name><pathurl>file://localhost\(a)</pathurl>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><duration>48</duration></file>
            <filter><effect><name>Time Remap</name><effectid>timeremap</effectid><effectcategory>motion</effectcategory>
            <effecttype>motion</effecttype><mediatype>video</mediatype>
            <parameter authoringApp="PremierePro"><parameterid>variablespeed</parameterid><name>variablespeed</name><valuemin>0</valuemin><valuemax>1</valuemax><value>0</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>speed</parameterid><name>speed</name><valuemin>-100000</valuemin><valuemax>100000</valuemax><value>\(speed)</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>reverse</parameterid><name>reverse</name><value>\(reverse)</value></parameter>
            <parameter authoringApp="PremierePro"><parameterid>frameblending</parameterid><name>frameblending</name><value>FALSE</value></parameter>
            </effect></filter></clipitem>
            <enabled>TRUE</enabled></track></video></media></sequence></xmeml>
            """
        }
        try sequence(speed: "300", reverse: "FALSE").write(toFile: folder + "/remap.xml", atomically: true, encoding: .utf8)
        let (path, warnings) = try stitch([folder + "/remap.xml"])
        assertFrames(try DecodedOutput(path: path), (0..<10).map { .frame(clip: 1, frame: 3 + 3 * $0) })
        XCTAssertEqual(warnings, [], "3x keeps its sound")
        // 8x is beyond what sounds right: silent, and said.
        try sequence(speed: "800", reverse: "FALSE", end: 5).write(toFile: folder + "/eight.xml", atomically: true, encoding: .utf8)
        let (eight, said) = try stitch([folder + "/eight.xml"])
        let eighth = try DecodedOutput(path: eight)
        assertFrames(eighth, (0..<5).map { .frame(clip: 1, frame: 3 + 8 * $0) })
        XCTAssertLessThan(Tone.rms(eighth.audio[...]), 0.001)
        XCTAssertEqual(said.count, 1, "\(said)")
        XCTAssertTrue(said.first?.contains("clip 'A fast': played at 8x, silent") == true, "\(said)")
        try sequence(speed: "300", reverse: "TRUE").write(toFile: folder + "/reverse.xml", atomically: true, encoding: .utf8)
        let output = store.outputPath()
        let refused = try Tools.segue(["stitch", folder + "/reverse.xml", "-o", output, "--quiet"])
        XCTAssertEqual(refused.status, 2, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("reverse.xml") && refused.standardError.contains("'A fast': reverse speed"),
                      refused.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testSpeedChangesRenderTheSameThroughSegmentsJobsAndSmartAndExportAsOTIOReadsThem() throws {
        let (a, b) = try wholeFilmMedia()
        let folder = try folder("tl-speed-modes")
        _ = try python(Self.makeSpeedOTIO, [folder + "/speeds.otio", a, b])
        let expected = speedTimelineFrames()
        let plain = store.outputPath(), jobs = store.outputPath(), smart = store.outputPath()
        let common = ["--preset", "ultrafast", "--crf", "12", "--quiet"]
        let exported = folder + "/rendered.otio"
        for (output, flags) in [(plain, ["--export-otio", exported]), (jobs, ["--jobs", "2", "--segment-duration", "0.5"]), (smart, ["--smart"])] {
            let result = try Tools.segue(["stitch", folder + "/speeds.otio", "-o", output] + common + flags)
            XCTAssertEqual(result.status, 0, result.standardError)
            assertFrames(try DecodedOutput(path: output), expected)
        }
        let plainSound = try DecodedOutput(path: plain).audio, jobsSound = try DecodedOutput(path: jobs).audio
        XCTAssertEqual(plainSound.count, jobsSound.count, accuracy: 2048)
        // The export carries each speed as OTIO writes it, and renders the same frames.
        let speeds = try python("""
            import sys, opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            print(" ".join(type(e).__name__ + ":%g" % e.time_scalar for c in timeline.video_tracks()[0].find_clips() for e in c.effects))
            """, [exported])
        XCTAssertEqual(speeds.trimmingCharacters(in: .whitespacesAndNewlines),
                       "LinearTimeWarp:2 LinearTimeWarp:0.5 FreezeFrame:0 LinearTimeWarp:1.5")
        let (again, _) = try stitch([exported])
        assertFrames(try DecodedOutput(path: again), expected)
    }
}
