import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia
@testable import SegueBitstream

/// An HLS ladder rendered in segments (issue 47): each `segue render` writes
/// its own CMAF segments on the output's grid, and the join only names them in
/// playlists. Judged against the one-process ladder (the oracle) by players:
/// the same segments' lengths in every rendition, marker frames exact in every
/// rung through the ffmpeg CLI's HLS demuxer, the same sound, decode times that
/// run on without a gap from segment to segment, GStreamer playing it to the end.
final class HLSSegmentTests: XCTestCase {
    let store = FixtureStore.shared

    /// Two marker clips, 45 and 36 frames at 30 fps, faded: 71 frames in 3 HLS segments of 1 s.
    func arguments(_ master: String) throws -> [String] {
        try stitch(master) + ["--hls-time", "1", "--ladder", "180,90"]
    }

    func stitch(_ output: String) throws -> [String] {
        [try store.path("hls-a.mp4", MarkerClip(clip: 1, frames: 45)), try store.path("hls-b.mp4", MarkerClip(clip: 2, frames: 36)),
         "-o", output, "--transition", "fade", "--transition-duration", "0.334", "--preset", "ultrafast", "--crf", "16", "--chapters",
         "--quiet"]
    }

    func folder(_ name: String) throws -> String {
        let folder = store.folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Each media playlist's segments: their seconds and files.
    func segments(_ playlist: String) throws -> [(seconds: Double, uri: String)] {
        HLSPlaylists.segments(of: try String(contentsOfFile: playlist, encoding: .utf8))
    }

    func testSegmentsRenderedApartJoinIntoTheOneProcessLadderByNamingThem() throws {
        let folder = try folder("hls-segments")
        let oracle = folder + "/one/master.m3u8", master = folder + "/split/master.m3u8", work = folder + "/work"
        XCTAssertEqual(try Tools.segue(["stitch"] + (try arguments(oracle))).status, 0)
        // 0.5 s segments round up to whole HLS segments: 30 frames each, so 3 of them.
        let planned = try Tools.segue(["plan"] + (try arguments(master)) + ["--work", work, "--segment-duration", "0.5"])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        XCTAssertEqual(planned.standardOutput.split(separator: "\n").last, "segments: 3")
        _ = try Tools.renderInAnyOrderAndJoin(work, segments: 3)

        // Every rendition lists what the one-process ladder lists, its segments decoding on from the one before.
        for playlist in ["video_180p.m3u8", "video_90p.m3u8", "audio.m3u8"] {
            let split = try segments(folder + "/split/" + playlist), one = try segments(folder + "/one/" + playlist)
            XCTAssertEqual(split.map(\.seconds), one.map(\.seconds), playlist)
            XCTAssertEqual(split.count, 3, playlist)
            let initBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/split/" + (playlist == "audio.m3u8" ? "audio" : playlist.replacingOccurrences(of: ".m3u8", with: "")) + "_init.mp4")))
            let timescale = Double(try XCTUnwrap(FragmentBoxes.timescale(ofInit: initBytes)))
            var expected = 0.0
            for (index, segment) in split.enumerated() {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/split/" + segment.uri)))
                XCTAssertEqual(Double(try XCTUnwrap(FragmentBoxes.baseDecodeTime(of: bytes))), expected * timescale, accuracy: 0.5,
                               "\(segment.uri) decodes from where the one before ends")
                expected += segment.seconds
                // The join wrote no media: the segment is the render's own file.
                let links = try FileManager.default.attributesOfItem(atPath: folder + "/split/" + segment.uri)[.referenceCount] as? Int
                XCTAssertEqual(links, 2, "\(segment.uri) is the rendered file itself (index \(index))")
            }
        }
        // Marker frames exact in each rung, as the ffmpeg CLI's HLS demuxer plays them through the master.
        let expected: [(Int, Int)?] = (0..<35).map { (1, $0) } + Array(repeating: nil, count: 10) + (10..<36).map { (2, $0) }
        for rung in 0..<2 {
            let split = try HLSRead.rendition(master, video: rung, store: store)
            let one = try HLSRead.rendition(oracle, video: rung, store: store)
            XCTAssertEqual(split.pictures.count, 71, "rung \(rung)")
            for (frame, picture) in split.pictures.enumerated() where frame < expected.count {
                guard let (clip, number) = expected[frame] else { continue }
                let read = Marker.read(picture)
                XCTAssertTrue(read?.clip == clip && read?.frame == number, "rung \(rung) frame \(frame): read \(String(describing: read))")
            }
            // The sound: seamless at the segments' boundaries, the same clip heard in every frame.
            Seam.check(one, split, boundaries: [30, 60])
        }
        let played = try HLSRead.gstreamer(master)
        XCTAssertEqual(played.status, 0, played.standardError + played.standardOutput)
        // Chromium's Media Source Extensions take each rung's init segment and the joined segments, to the end.
        let browsed = try Tool.run(SegueTool.repository.appendingPathComponent("Scripts/browser-play").path, ["--timeout", "120", "--ladder", master])
        XCTAssertEqual(browsed.status, 0, browsed.standardError + browsed.standardOutput)
        let rungs = (try JSONSerialization.jsonObject(with: Data(browsed.standardOutput.utf8)) as? [String: Any])?["results"] as? [[String: Any]]
        XCTAssertEqual(rungs?.count, 2)
        for rung in rungs ?? [] {
            XCTAssertEqual(rung["ended"] as? Bool, true, "\(rung)")
            XCTAssertEqual(rung["totalVideoFrames"] as? Int, 71, "\(rung)")
            XCTAssertGreaterThan(rung["audioDecodedBytes"] as? Int ?? 0, 0, "\(rung)")
        }
        // The master says of each rung what the one-process master says (but the bit rates, measured).
        func variants(_ master: String) throws -> [[String?]] {
            try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.map { line in
                ["CODECS", "RESOLUTION", "FRAME-RATE", "VIDEO-RANGE", "AUDIO"].map { HLSRead.attribute($0, of: line) }
            }
        }
        XCTAssertEqual(try variants(master), try variants(oracle))
        XCTAssertEqual(try variants(master).count, 2)
        // The chapters, in Apple's JSON chapter format the master names: where an MP4's chapters are.
        let sessionData = "#EXT-X-SESSION-DATA:DATA-ID=\"com.apple.hls.chapters\",URI=\"chapters.json\""
        XCTAssertTrue(try String(contentsOfFile: master, encoding: .utf8).contains(sessionData))
        let chapters = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/split/chapters.json"))) as? [[String: Any]]
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/split/chapters.json")),
                       try Data(contentsOf: URL(fileURLWithPath: folder + "/one/chapters.json")))
        let mp4 = folder + "/reel.mp4"
        XCTAssertEqual(try Tools.segue(["stitch"] + (try stitch(mp4))).status, 0)
        let probed = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "chapter=start_time,end_time:chapter_tags=title", "-of", "csv=p=0", mp4])
        let rows = probed.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        XCTAssertEqual(chapters?.count, 2)
        XCTAssertEqual(chapters?.count, rows.count)
        for (entry, row) in zip(chapters ?? [], rows) where row.count == 3 {
            XCTAssertEqual(entry["start-time"] as? Double ?? -1, Double(row[0]) ?? 0, accuracy: 0.001, "\(entry)")
            XCTAssertEqual((entry["start-time"] as? Double ?? 0) + (entry["duration"] as? Double ?? 0), Double(row[1]) ?? 0, accuracy: 0.001)
            XCTAssertEqual((entry["titles"] as? [[String: String]])?.first?["title"], row[2])
        }
    }

    func testAJoinOfMissingOrDamagedSegmentsWritesNothingAndARenderIsDoneOnce() throws {
        let folder = try folder("hls-segment-rules")
        let master = folder + "/out/master.m3u8", work = folder + "/work"
        XCTAssertEqual(try Tools.segue(["plan"] + (try arguments(master)) + ["--work", work, "--segment-duration", "1"]).status, 0)
        for segment in [0, 2] { XCTAssertEqual(try Tools.segue(["render", work, "--segment", String(segment), "--quiet"]).status, 0) }
        let missing = try Tools.segue(["join", work])
        XCTAssertEqual(missing.status, 1, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("segment 1: not rendered"), missing.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out"), "nothing written")

        let rendered = try Tools.segue(["render", work, "--segment", "1"])
        XCTAssertTrue(rendered.standardError.contains("segment 1: 30 frames rendered"), rendered.standardError)
        let again = try Tools.segue(["render", work, "--segment", "1"])
        XCTAssertTrue(again.standardError.contains("segment 1: already rendered"), again.standardError)
        // A media segment damaged after its render: the join names it and writes nothing.
        let receipt = try XCTUnwrap(SegmentFiles.manifest(work: work, segment: 2)?.renditions?.first?.segments.first)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: work + "/" + receipt.name))
        try handle.seek(toOffset: UInt64(receipt.bytes - 4))
        handle.write(Data([0xDE, 0xAD, 0xBE, 0xEF]))
        try handle.close()
        let damaged = try Tools.segue(["join", work])
        XCTAssertEqual(damaged.status, 1, damaged.standardError)
        XCTAssertTrue(damaged.standardError.contains("is damaged"), damaged.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out"), "nothing written")
        // Rendered again, it joins; a second join needs -y in the plan.
        try FileManager.default.removeItem(atPath: SegmentFiles.manifestPath(work: work, segment: 2))
        XCTAssertEqual(try Tools.segue(["render", work, "--segment", "2", "--quiet"]).status, 0)
        let joined = try Tools.segue(["join", work, "--report", folder + "/join.json"])
        XCTAssertEqual(joined.status, 0, joined.standardError)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/join.json"))) as? [String: Any]
        let renditions = report?["renditions"] as? [[String: Any]] ?? []
        let codecs = try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n").compactMap { HLSRead.attribute("CODECS", of: $0) }
        XCTAssertEqual(renditions.map { $0["codecs"] as? String }, codecs.map { $0.components(separatedBy: ",").first } + ["mp4a.40.2"])
        XCTAssertTrue(codecs.allSatisfy { $0.hasPrefix("avc1.42") && $0.hasSuffix(",mp4a.40.2") }, "ultrafast's baseline H.264: \(codecs)")
        XCTAssertTrue(renditions.allSatisfy { ($0["segments"] as? Int) == 3 && ($0["averageBitRate"] as? Int ?? 0) > 0 }, "\(renditions)")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        XCTAssertEqual(report?["files"] as? [String], before.map { (master as NSString).deletingLastPathComponent + "/" + $0 }, "every file joined")
        let twice = try Tools.segue(["join", work])
        XCTAssertEqual(twice.status, 2, twice.standardError)
        XCTAssertTrue(twice.standardError.contains("master.m3u8"), twice.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted(), before, "nothing replaced")
    }
}

/// Reading an HLS output back through the ffmpeg CLI's HLS demuxer.
enum HLSRead {
    /// What the demuxer reads of variant `index` through the master (with the sound), scaled back to 320x180.
    static func rendition(_ master: String, video index: Int, store: FixtureStore) throws -> DecodedOutput {
        let path = store.outputPath()
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", master, "-map", "0:v:\(index)", "-map", "0:a:0",
                                           "-vf", "scale=320:180:flags=bicubic", "-c:v", "libx264", "-crf", "0", "-preset", "ultrafast",
                                           "-c:a", "aac", path])
        XCTAssertEqual(made.status, 0, made.standardError)
        return try DecodedOutput(path: path)
    }

    /// GStreamer's playbin (hlsdemux2, qtdemux, avdec_h264) playing `master` to its end. Its connection
    /// speed is fixed (above the sharpest rung's): left to switch rungs on its own measurements,
    /// GStreamer 1.22's adaptive demuxer stalls at the end of a stream seconds long in about one run
    /// in fifteen, on ladders of earlier versions of Segue as on these, and on one-rung ladders never.
    static func gstreamer(_ master: String) throws -> SegueTool.Result {
        try Tool.run("timeout", ["60", "gst-launch-1.0", "-q", "playbin", "uri=file://" + master, "connection-speed=1000000",
                                 "video-sink=fakesink sync=false", "audio-sink=fakesink sync=false"])
    }

    /// Attribute `name` of a playlist line (`NAME=value` or `NAME="value"`).
    static func attribute(_ name: String, of line: Substring) -> String? {
        guard let range = line.range(of: name + "=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" { return String(rest.dropFirst().prefix { $0 != "\"" }) }
        return String(rest.prefix { $0 != "," })
    }
}
