import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel

/// A timeline's sound at another speed and routed by channel, judged from
/// the output (Tests/Support/sound_speed_judge.py): at 2x and 0.5x every
/// 10 ms window plays the source time the timeline names, at its pitch (a
/// rising chirp's pitch names its source time, so resampling instead of
/// time-stretching fails); a freeze frame is silent; a stereo clip laid out
/// as dual mono on two tracks, as Premiere writes it, plays once at its
/// level, each channel on its side.
extension TimelineSoundRenderTests {
    /// A sine rising 500 Hz a second from 500 Hz, 4 s.
    func chirp() throws -> String {
        try store.path("snd-chirp.wav") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                               "aevalsrc=0.5*sin(2*PI*(500*t+250*t*t)):s=48000:d=4", "-ac", "2", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
    }

    func judgeSpeed(_ output: String, pieces: [[String: Any]]) throws -> [String: Any] {
        let spec = store.folder.appendingPathComponent("speed-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: ["until": 1.95, "pieces": pieces]).write(to: URL(fileURLWithPath: spec))
        let run = try Tool.run("python3", [Self.support.appendingPathComponent("sound_speed_judge.py").path, "chirp", output, spec])
        XCTAssertEqual(run.status, 0, run.standardError)
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] ?? [:]
    }

    /// The "speed" timeline's sound: C at 2x from 1 s, at 0.5x from 2.5 s, frozen (silent), then a gap.
    static var speedPieces: [[String: Any]] { [
        ["start": 0.0, "end": 1.0, "source": 1.0, "speed": 2.0],
        ["start": 1.0, "end": 1.5, "source": 2.5, "speed": 0.5],
        ["start": 1.5, "end": 1.75, "source": 3.5, "speed": 0.0],
    ] }

    func assertPlayedAtSpeed(_ verdict: [String: Any], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(verdict["failures"] as? [String], [], what, file: file, line: line)
        XCTAssertGreaterThan(verdict["judged"] as? Int ?? 0, 120, "\(what): the 2x and 0.5x stretches are judged", file: file, line: line)
        XCTAssertLessThan(verdict["worst_ms"] as? Double ?? 99, 25, what, file: file, line: line)
        XCTAssertLessThan(verdict["loudest_silence_dbfs"] as? Double ?? 0, -60, "\(what): the freeze frame and gap are silent",
                          file: file, line: line)
    }

    func testSoundAtAnotherSpeedPlaysItsSourceTimeAtItsPitchAndAFreezeIsSilent() throws {
        let media = try media(), chirp = try chirp()
        let otio = try store.path("snd-speed.otio") { path in
            try otioPython([Self.support.appendingPathComponent("sound_timelines.py").path, "speed", path, media.a, chirp])
        }
        let run = try SegueTool.run(["stitch", otio, "-o", store.outputPath(), "-y", "--preset", "ultrafast"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertFalse(run.standardError.contains("speed change"), "nothing refused or said of the speeds: \(run.standardError)")
        assertPlayedAtSpeed(try judgeSpeed(try stitch([otio]), pieces: Self.speedPieces), "OTIO")
        assertPlayedAtSpeed(try judgeSpeed(try stitch([otio, "--jobs", "2", "--segment-duration", "0.5"]), pieces: Self.speedPieces),
                            "--jobs 2 in segments")
    }

    func testAnEDLsM2OnASoundEventPlaysTimeStretched() throws {
        let media = try media(), chirp = try chirp()
        let folder = store.folder.appendingPathComponent("snd-edl-speed").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // At 24 fps: the picture A for 24 frames; on A1, C from 1 s at 48 fps over the same 24 frames (2x).
        let edl = """
        TITLE: SPEED
        FCM: NON-DROP FRAME

        001  AX       V     C        00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00
        * FROM CLIP NAME: A
        * SOURCE FILE: \(media.a)
        002  AX       A     C        00:00:01:00 00:00:03:00 00:00:00:00 00:00:01:00
        M2   AX       048.0                00:00:01:00
        * FROM CLIP NAME: C
        * SOURCE FILE: \(chirp)

        """
        try edl.write(toFile: folder + "/speed.edl", atomically: true, encoding: .utf8)
        let verdict = try judgeSpeed(try stitch([folder + "/speed.edl", "--fps", "24"]), pieces: [Self.speedPieces[0]])
        XCTAssertEqual(verdict["failures"] as? [String], [], "EDL M2")
        XCTAssertGreaterThan(verdict["judged"] as? Int ?? 0, 80)
    }

    /// A stereo medium whose sides differ: a 440 Hz tone and pink noise on the left, 660 Hz and other noise on the right.
    func stereoPair() throws -> String {
        let sides = try store.path("snd-sides.wav") { path in
            let graph = "sine=f=440:r=48000:d=2,volume=0.4[l0];anoisesrc=a=0.2:c=pink:seed=5:r=48000:d=2,lowpass=f=5000[l1];[l0][l1]amix=inputs=2:normalize=0,aformat=channel_layouts=mono[l];"
                + "sine=f=660:r=48000:d=2,volume=0.4[r0];anoisesrc=a=0.2:c=pink:seed=6:r=48000:d=2,lowpass=f=5000[r1];[r0][r1]amix=inputs=2:normalize=0,aformat=channel_layouts=mono[r];"
                + "[l][r]amerge=inputs=2"
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-filter_complex", graph, "-ar", "48000", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
        return try picture("sides", clip: 3, sound: sides)
    }

    /// Premiere's xmeml for a stereo clip on an exploded stereo track pair: V1, and A1 and A2 each one channel.
    func dualMonoSequence(_ media: String, channels: [Int]) -> String {
        let file = """
            <file id="file-1"><name>\((media as NSString).lastPathComponent)</name><pathurl>file://localhost\(media)</pathurl>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><duration>48</duration>
            <media><video/><audio><channelcount>2</channelcount></audio></media></file>
            """
        func item(_ id: Int, channel: Int?) -> String {
            """
            <clipitem id="clipitem-\(id)"><name>S</name><enabled>TRUE</enabled><duration>48</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>0</start><end>48</end><in>0</in><out>48</out>
            \(id == 1 ? file : "<file id=\"file-1\"/>")
            \(channel.map { "<sourcetrack><mediatype>audio</mediatype><trackindex>\($0)</trackindex></sourcetrack>" } ?? "")
            </clipitem>
            """
        }
        let audio = channels.enumerated().map { index, channel in
            """
            <track premiereTrackType="Stereo" currentExplodedTrackIndex="\(index)" totalExplodedTrackCount="2">
            \(item(index + 2, channel: channel))<enabled>TRUE</enabled><outputchannelindex>\(index + 1)</outputchannelindex></track>
            """
        }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xmeml>
            <xmeml version="4"><sequence id="sequence-1"><name>dual mono</name><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate>
            <media><video><track>\(item(1, channel: nil))<enabled>TRUE</enabled></track></video>
            <audio>\(audio)</audio></media></sequence></xmeml>
            """
    }

    func sides(_ output: String, _ reference: String) throws -> [String: [String: Double]] {
        let run = try Tool.run("python3", [Self.support.appendingPathComponent("sound_speed_judge.py").path, "sides", output, reference])
        XCTAssertEqual(run.status, 0, run.standardError)
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [String: Double]] ?? [:]
    }

    func testADualMonoPairOnA1AndA2PlaysOnceAtItsLevelEachChannelOnItsSide() throws {
        let media = try stereoPair()
        let alone = try stitch([media])
        let folder = store.folder.appendingPathComponent("snd-dual-mono").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try dualMonoSequence(media, channels: [1, 2]).write(toFile: folder + "/pair.xml", atomically: true, encoding: .utf8)
        let heard = try sides(try stitch([folder + "/pair.xml"]), alone)
        for side in ["left", "right"] {
            XCTAssertLessThan(abs(heard[side]?["level_db"] ?? 99), 0.5, "\(side): at the clip's own level, not 6 dB loud: \(heard)")
            XCTAssertGreaterThan(heard[side]?["correlation"] ?? 0, 0.95, "\(side): its own channel: \(heard)")
        }
        // Both tracks naming channel 1: the left channel on the left, and again on the right.
        try dualMonoSequence(media, channels: [1, 1]).write(toFile: folder + "/left.xml", atomically: true, encoding: .utf8)
        let left = try sides(try stitch([folder + "/left.xml"]), alone)
        XCTAssertGreaterThan(left["left"]?["correlation"] ?? 0, 0.95, "\(left)")
        XCTAssertLessThan(left["right"]?["correlation"] ?? 1, 0.5, "the right side plays the left channel: \(left)")
    }
}
