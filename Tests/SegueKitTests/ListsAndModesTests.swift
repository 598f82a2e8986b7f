import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Clip lists with trims, JSON manifests, freeze mode, HEVC and the report, run through the real CLI.
final class ListsAndModesTests: XCTestCase {
    let store = FixtureStore.shared

    func marker(_ clip: Int, _ frames: Int) throws -> String {
        try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = store.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func stitch(_ arguments: [String], output: String) throws -> DecodedOutput {
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "-y", "--preset", "ultrafast", "--crf", "12", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return try DecodedOutput(path: output)
    }

    func testFfconcatTrimsGiveTheExpectedFirstAndLastFramesAndDuration() throws {
        // Relative, quoted paths as ffmpeg users write them; the list lives beside the clips.
        let list = try write("trims.ffconcat", """
            ffconcat version 1.0
            # first clip: 0.5 s to 1.2 s
            file 'marker-0-45.mp4'
            inpoint 0.5
            outpoint 00:00:01.200
            file marker-1-45.mp4
            duration 0.4
            """)
        _ = try marker(0, 45)
        _ = try marker(1, 45)
        let output = try stitch([list], output: store.outputPath("ffconcat"))
        XCTAssertEqual(output.pictures.count, 21 + 12)
        let markers = output.pictures.map(Marker.read)
        XCTAssertTrue(markers[0]! == (0, 15), "first frame is clip 0's frame 15 (0.5 s): \(String(describing: markers[0]))")
        XCTAssertTrue(markers[20]! == (0, 35), "last of clip 0 is frame 35: \(String(describing: markers[20]))")
        XCTAssertTrue(markers[21]! == (1, 0))
        XCTAssertTrue(markers[32]! == (1, 11))
        for (index, marker) in markers.enumerated() {
            let expected = index < 21 ? (0, 15 + index) : (1, index - 21)
            XCTAssertTrue(marker.map { $0 == expected } ?? false, "frame \(index): \(String(describing: marker))")
        }
        // The trimmed audio stays with its pictures.
        XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: 10, frameRate: 30), sampleRate: 48_000), 0)
        XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: 25, frameRate: 30), sampleRate: 48_000), 1)
        XCTAssertLessThanOrEqual(abs(output.audio.count - 33 * 1600), 1024)
    }

    /// Trim points that leave under a frame are a bad input saying so, with what is left.
    func testTrimPointsLeavingLessThanAFrameAreABadInputSayingWhatIsLeft() throws {
        _ = try marker(0, 45)
        let list = try write("sliver.ffconcat", "ffconcat version 1.0\nfile marker-0-45.mp4\ninpoint 0.5\noutpoint 0.51\n")
        let result = try SegueTool.run(["stitch", list, "-o", store.outputPath("sliver")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("marker-0-45.mp4: its in and out points leave 0.010 s, less than one frame"),
                      result.standardError)
    }

    func testATxtListStartingWithTheFfconcatHeaderIsReadAsFfconcat() throws {
        _ = try marker(0, 45)
        let list = try write("concat-named.txt", "ffconcat version 1.0\nfile marker-0-45.mp4\ninpoint 1.0\n")
        let output = try stitch([list], output: store.outputPath("concat-txt"))
        XCTAssertEqual(output.pictures.count, 15)
        XCTAssertTrue(Marker.read(output.pictures[0])! == (0, 30))
    }

    func testJSONManifestPerJoinTransitionsGiveTheExpectedFrameCount() throws {
        for clip in 0..<3 { _ = try marker(clip, 45) }
        let manifest = try write("reel.json", """
            {
              "clips": [
                {"path": "marker-0-45.mp4", "in": 0.5, "join": {"transition": "fade", "duration": 0.4}},
                {"path": "marker-1-45.mp4", "join": {"transition": "slide-up"}},
                "marker-2-45.mp4"
              ],
              "output": {"fps": 30, "preset": "ultrafast"}
            }
            """)
        let output = try stitch([manifest], output: store.outputPath("manifest"))
        // 30 + 45 + 45 frames, less a 12-frame fade and a 9-frame slide (0.3 s default).
        XCTAssertEqual(output.pictures.count, 120 - 12 - 9)
        XCTAssertTrue(Marker.read(output.pictures[0])! == (0, 15))
        XCTAssertTrue(Marker.read(output.pictures.last!)! == (2, 44))
    }

    func testManifestErrorsNameTheKeyPathAndExit2() throws {
        _ = try marker(0, 45)
        let cases = [
            ("unknown-key.json", #"{"clips": [{"path": "marker-0-45.mp4", "inn": 1}]}"#, "clips[0].inn"),
            ("wrong-type.json", #"{"clips": [{"path": "marker-0-45.mp4", "in": "soon"}]}"#, "clips[0].in"),
            ("bad-join.json", #"{"clips": [{"path": "marker-0-45.mp4", "join": {"transition": "wipe"}}, "marker-0-45.mp4"]}"#, "clips[0].join.transition"),
            ("bad-output.json", #"{"clips": ["marker-0-45.mp4"], "output": {"crf": true}}"#, "output.crf"),
            ("top-level.json", #"{"clips": ["marker-0-45.mp4"], "extra": 1}"#, "extra"),
        ]
        for (name, text, keyPath) in cases {
            let path = try write(name, text)
            let output = store.outputPath(name)
            let result = try SegueTool.run(["stitch", path, "-o", output])
            XCTAssertEqual(result.status, 2, "\(name): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(path) && result.standardError.contains(keyPath + ":"),
                          "\(name): expected \(keyPath) in \(result.standardError)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        }
    }

    func testFreezeModeInsertsHeldFramesAndKeepsEveryClipFrame() throws {
        let output = try stitch([try marker(0, 30), try marker(1, 30), "--transition", "fade", "--transition-duration", "0.5",
                                 "--mode", "freeze"], output: store.outputPath("freeze"))
        XCTAssertEqual(output.pictures.count, 30 + 15 + 30, "the sum of the clips plus one transition")
        for index in 0..<30 { XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (0, index) } ?? false, "frame \(index)") }
        for index in 0..<30 { XCTAssertTrue(Marker.read(output.pictures[45 + index]).map { $0 == (1, index) } ?? false, "frame \(45 + index)") }
        // The held frames blend clip 0's last frame into clip 1's first: the greys move between them.
        let greys = (30..<45).map { Marker.grey(output.pictures[$0]) }
        XCTAssertTrue(zip(greys, greys.dropFirst()).allSatisfy { $0 < $1 }, "\(greys)")
        XCTAssertTrue(greys.allSatisfy { $0 > Double(Marker.greys[0]) && $0 < Double(Marker.greys[1]) }, "\(greys)")
        // The first held frame is mostly clip 0's frame 29 and the last mostly clip 1's frame 0: read through the blend.
        XCTAssertTrue(Marker.readDominant(output.pictures[30]) == (0, 29))
        XCTAssertTrue(Marker.readDominant(output.pictures[44]) == (1, 0))
        // Audio: each clip's tone, silence over the inserted time, no gap in the clips' own sound.
        for frame in 2..<28 { XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000), 0) }
        for frame in 32..<43 { XCTAssertLessThan(Tone.rms(output.audioChunk(frame: frame, frameRate: 30)), 0.01, "frame \(frame) should be silent") }
        for frame in 47..<73 { XCTAssertEqual(Tone.dominantClip(output.audioChunk(frame: frame, frameRate: 30), sampleRate: 48_000), 1) }
        XCTAssertLessThanOrEqual(abs(output.audio.count - 75 * 1600), 1024)
    }

    func testHEVCOutputIsTaggedHvc1() throws {
        let output = store.outputPath("hevc")
        let result = try SegueTool.run(["stitch", try marker(0, 30), "-o", output, "--codec", "hevc", "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let video = try XCTUnwrap(try FFprobe.streams(output).first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["codec_name"] as? String, "hevc")
        XCTAssertEqual(video["codec_tag_string"] as? String, "hvc1")
        XCTAssertEqual(video["nb_read_frames"] as? String, "30")
    }

    func testReportNumbersMatchTheOutput() throws {
        let output = store.outputPath("reported")
        let reportPath = store.folder.appendingPathComponent("report.json").path
        let result = try SegueTool.run(["stitch", try marker(0, 45), try marker(1, 45), "-o", output, "--transition", "fade",
                                        "--transition-duration", "0.5", "--preset", "ultrafast", "--report", reportPath, "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any])
        let out = try XCTUnwrap(report["output"] as? [String: Any])
        let streams = try FFprobe.streams(output)
        let video = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(out["frames"] as? Int, Int(video["nb_read_frames"] as? String ?? ""))
        XCTAssertEqual(out["frames"] as? Int, 75)
        XCTAssertEqual(out["duration"] as? Double ?? 0, Double(video["duration"] as? String ?? "") ?? -1, accuracy: 0.001)
        XCTAssertEqual(out["plannedDuration"] as? Double ?? 0, 2.5, accuracy: 0.001)
        XCTAssertEqual(out["width"] as? Int, 320)
        let joins = try XCTUnwrap(report["joins"] as? [[String: Any]])
        XCTAssertEqual(joins.count, 1)
        XCTAssertEqual(joins[0]["transition"] as? String, "fade")
        XCTAssertEqual(joins[0]["frames"] as? Int, 15)
        XCTAssertNotNil(joins[0]["stallSeconds"] as? Double)
        XCTAssertEqual((report["inputs"] as? [[String: Any]])?.count, 2)
        XCTAssertGreaterThan(report["peakMemoryBytes"] as? Int ?? 0, 1_000_000)
        XCTAssertGreaterThan(report["wallSeconds"] as? Double ?? 0, 0)
    }
}
