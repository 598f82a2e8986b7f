import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// MPEG transport and program streams as cameras, broadcast and DVDs write
/// them, made at test time with the ffmpeg CLI: cut mid-stream with open-GOP
/// B-pictures before the first keyframe, a clock starting late, M2TS packets,
/// a 33-bit wrap, a clock that jumps. Each stitches to its true length, fast.
final class TransportStreamTests: XCTestCase {
    let store = FixtureStore.shared
    /// Output frames at the canvas rate the stitches use.
    let frame = 1.0 / 30

    // MARK: Fixtures

    /// Runs the ffmpeg CLI; fails the test on an error.
    func ffmpeg(_ arguments: [String]) throws {
        let (_, log) = try FFmpeg.run(["-v", "error", "-y"] + arguments)
        XCTAssertFalse(log.contains("Error"), log)
    }

    /// The video packets' (pts seconds, duration seconds, keyframe, byte position), in file order.
    func videoPackets(_ path: String) throws -> [(pts: Double, duration: Double, key: Bool, position: Int)] {
        let json = try FFprobe.run(["-select_streams", "v:0", "-show_entries", "packet=pts_time,duration_time,flags,pos",
                                    "-show_entries", "stream=start_time", "-show_packets", path])
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.compactMap { packet in
            guard let pts = (packet["pts_time"] as? String).flatMap(Double.init) else { return nil }
            return (pts, (packet["duration_time"] as? String).flatMap(Double.init) ?? 0,
                    (packet["flags"] as? String)?.hasPrefix("K") == true, (packet["pos"] as? String).flatMap(Int.init) ?? 0)
        }
    }

    /// What the packets show: the last picture's end minus the earliest picture's start.
    func trueLength(_ path: String) throws -> Double {
        let packets = try videoPackets(path)
        return packets.map { $0.pts + $0.duration }.max()! - packets.map(\.pts).min()!
    }

    /// The video stream's start time as ffprobe reads it.
    func startTime(_ path: String, stream: String = "v:0") throws -> Double {
        let json = try FFprobe.run(["-select_streams", stream, "-show_entries", "stream=start_time", path])
        return try XCTUnwrap(((json["streams"] as? [[String: Any]])?.first?["start_time"] as? String).flatMap(Double.init))
    }

    /// `source` cut, as a recorder cut mid-stream leaves it, at the byte where
    /// a picture starts that B-pictures showing before it follow in decode
    /// order: a keyframe's, where one has them (an open GOP's I-picture).
    func cutBeforeLeadingBPictures(_ source: String, into path: String) throws {
        let packets = try videoPackets(source)
        let candidates = packets.indices.dropFirst(5).dropLast().filter { packets[$0 + 1].pts < packets[$0].pts }
        let cut = try XCTUnwrap(candidates.first { packets[$0].key } ?? candidates.first, "no picture with leading B-pictures")
        let position = packets[cut].position
        XCTAssertEqual(position % 188, 0, "a TS packet boundary")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        try data.subdata(in: position..<data.count).write(to: URL(fileURLWithPath: path))
    }

    func openGOPH264() throws -> String {
        try store.path("open-gop-h264-cut.ts") { path in
            let full = path + ".full.ts"
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3", "-f", "lavfi", "-i", "sine=f=500:d=3",
                        "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "open-gop=1:keyint=25:min-keyint=25:bframes=2:b-adapt=0:scenecut=0",
                        "-c:a", "mp2", "-f", "mpegts", full])
            try cutBeforeLeadingBPictures(full, into: path)
        }
    }

    func openGOPMPEG2() throws -> String {
        try store.path("open-gop-mpeg2-cut.ts") { path in
            let full = path + ".full.ts"
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3", "-f", "lavfi", "-i", "sine=f=500:d=3",
                        "-c:v", "mpeg2video", "-g", "12", "-bf", "2", "-q:v", "4", "-c:a", "mp2", "-f", "mpegts", full])
            try cutBeforeLeadingBPictures(full, into: path)
        }
    }

    func lateStartAudioFirst() throws -> String {
        try store.path("late-start-audio-first.ts") { path in
            try ffmpeg(["-itsoffset", "0.04", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2", "-f", "lavfi", "-i", "sine=f=500:d=2.04",
                        "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "mp2", "-muxdelay", "0", "-muxpreload", "0",
                        "-output_ts_offset", "1.0", "-f", "mpegts", path])
        }
    }

    func vobAt138() throws -> String {
        try store.path("dvd-at-138s.vob") { path in
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=352x288:r=25:d=2", "-f", "lavfi", "-i", "sine=f=500:d=2:sample_rate=48000",
                        "-c:v", "mpeg2video", "-g", "12", "-bf", "2", "-c:a", "mp2", "-output_ts_offset", "138", "-f", "vob", path])
        }
    }

    func m2ts() throws -> String {
        try store.path("camera.m2ts") { path in
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2", "-f", "lavfi", "-i", "sine=f=500:d=2",
                        "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-c:a", "ac3", "-mpegts_m2ts_mode", "1",
                        "-f", "mpegts", path])
        }
    }

    func wrapping() throws -> String {
        try store.path("wraps-2to33.ts") { path in
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3", "-f", "lavfi", "-i", "sine=f=500:d=3",
                        "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "mp2", "-output_ts_offset", "95442", "-f", "mpegts", path])
        }
    }

    /// 2 s of pictures and 0.2 s more whose clock is 26 hours on: the header says 26 hours.
    func jumping() throws -> String {
        try store.path("jumps-26h.ts") { path in
            let first = path + ".a.ts", second = path + ".b.ts"
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2", "-f", "lavfi", "-i", "sine=f=500:d=2",
                        "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "mp2", "-f", "mpegts", first])
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=0.2", "-f", "lavfi", "-i", "sine=f=500:d=0.2",
                        "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "mp2", "-output_ts_offset", "93600", "-f", "mpegts", second])
            var joined = try Data(contentsOf: URL(fileURLWithPath: first))
            joined.append(try Data(contentsOf: URL(fileURLWithPath: second)))
            try joined.write(to: URL(fileURLWithPath: path))
        }
    }

    // MARK: Running

    /// Stitches `inputs` with a deadline: a stitch that runs away fails the test instead of hanging it.
    func stitch(_ inputs: [String], _ name: String, seconds: Double = 60) throws -> (status: Int32, stderr: String, output: String) {
        let output = store.outputPath(name)
        let process = Process()
        process.executableURL = SegueTool.executable
        process.arguments = ["stitch"] + inputs + ["-o", output, "--size", "320x180", "--fps", "30", "--preset", "ultrafast", "-y"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("\(name): still stitching after \(seconds) s")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text, output)
    }

    /// The output's video and audio durations.
    func durations(_ path: String) throws -> (video: Double, audio: Double?) {
        let streams = try FFprobe.streams(path, entries: "stream=codec_type,duration")
        func duration(_ kind: String) -> Double? {
            (streams.first { $0["codec_type"] as? String == kind }?["duration"] as? String).flatMap(Double.init)
        }
        return (try XCTUnwrap(duration("video")), duration("audio"))
    }

    func assertStitchesToItsTrueLength(_ clip: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try trueLength(clip)
        let probed = try Prober.probe(clip).get()
        XCTAssertEqual(probed.use.duration, expected, accuracy: 0.001, "probe of \(name)", file: file, line: line)
        let result = try stitch([clip], name)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let (video, audio) = try durations(result.output)
        XCTAssertEqual(video, expected, accuracy: frame + 0.001, "\(name): video", file: file, line: line)
        if let audio { XCTAssertEqual(audio, video, accuracy: 0.03, "\(name): audio against video", file: file, line: line) }
    }

    // MARK: Traps

    func testAnOpenGOPH264TransportStreamCutMidStreamStitchesToItsTrueLength() throws {
        let clip = try openGOPH264()
        let packets = try videoPackets(clip)
        XCTAssertTrue(packets.prefix(4).contains { $0.pts < packets[0].pts }, "B-pictures show before the first keyframe")
        try assertStitchesToItsTrueLength(clip, "open-gop-h264")
    }

    func testAnOpenGOPMPEG2TransportStreamCutMidStreamStitchesToItsTrueLength() throws {
        let clip = try openGOPMPEG2()
        let packets = try videoPackets(clip)
        XCTAssertTrue(packets.prefix(4).contains { $0.pts < packets[0].pts }, "B-pictures show before the first keyframe")
        try assertStitchesToItsTrueLength(clip, "open-gop-mpeg2")
    }

    func testATransportStreamStartingLateWithSoundFirstStitchesToItsTrueLength() throws {
        let clip = try lateStartAudioFirst()
        XCTAssertEqual(try startTime(clip), 1.04, accuracy: 0.005)
        XCTAssertLessThan(try startTime(clip, stream: "a:0"), try startTime(clip))
        try assertStitchesToItsTrueLength(clip, "late-start")
    }

    func testAVOBWhoseClockStartsAt138SecondsStitchesToItsTrueLength() throws {
        let clip = try vobAt138()
        XCTAssertGreaterThanOrEqual(try startTime(clip), 138)
        try assertStitchesToItsTrueLength(clip, "vob-138")
    }

    func testAnM2TSStitchesToItsTrueLength() throws {
        let clip = try m2ts()
        // 192-byte packets: a 4-byte timecode before each 0x47 sync byte.
        let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)).prefix(400))
        XCTAssertEqual([head[4], head[196]], [0x47, 0x47])
        try assertStitchesToItsTrueLength(clip, "m2ts")
    }

    func testAClockCrossing2To33MidClipStitchesToItsTrueLength() throws {
        let clip = try wrapping()
        try assertStitchesToItsTrueLength(clip, "wrap")
        XCTAssertEqual(try Prober.probe(clip).get().use.duration, 3, accuracy: 0.05)
    }

    func testATransportStreamSaying26HoursButHolding2SecondsStitchesInSecondsWithAWarning() throws {
        let clip = try jumping()
        let header = try FFprobe.run(["-show_entries", "format=duration", clip])
        let stated = try XCTUnwrap(((header["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init))
        XCTAssertGreaterThan(stated, 90_000, "the header says about 26 hours")
        let started = Date()
        let result = try stitch([clip], "jump", seconds: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(try durations(result.output).video, 2.2, accuracy: frame + 0.001, "both pieces, the jump closed up")
        XCTAssertTrue(result.stderr.contains("warning") && result.stderr.contains("jumps-26h.ts"), result.stderr)
    }

    func testAListMixingEveryTrapWithAPhoneClipStitchesToTheSumOfTheirLengths() throws {
        let phone = try store.path("marker-0-45.mp4", MarkerClip(clip: 0, frames: 45))
        let measured = [try openGOPH264(), try openGOPMPEG2(), try lateStartAudioFirst(), try vobAt138(), try m2ts(), try wrapping()]
        // The jumping clip holds 2.2 s, whatever its header says.
        let expected = 1.5 + (try measured.map(trueLength).reduce(0, +)) + 2.2 + 1.5
        let result = try stitch([phone] + measured + [try jumping(), phone], "all-traps", seconds: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        let (video, audio) = try durations(result.output)
        // Each clip rounds to whole output frames: half a frame each at most.
        XCTAssertEqual(video, expected, accuracy: Double(measured.count + 3) * frame / 2 + 0.001)
        XCTAssertEqual(try XCTUnwrap(audio), video, accuracy: 0.03)
    }
}
