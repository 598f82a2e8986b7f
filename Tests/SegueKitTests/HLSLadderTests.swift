import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia

/// An HLS ladder (issue 47), judged by players and the specification, not by
/// Segue: every rendition played through the master playlist by the ffmpeg
/// CLI's HLS demuxer (marker frames exact in each rung) and by GStreamer's
/// hlsdemux, and each H.264 rung's CMAF segments fed to chromium's Media
/// Source Extensions; keyframes at the same times in every rung; segments
/// within the target duration; CODECS and RESOLUTION as ffprobe reads the segments.
final class HLSLadderTests: XCTestCase {
    let store = FixtureStore.shared

    /// Two marker clips, 45 and 36 frames at 30 fps, cut together: 81 frames.
    func clips() throws -> [String] {
        [try store.path("hls-a.mp4", MarkerClip(clip: 1, frames: 45)), try store.path("hls-b.mp4", MarkerClip(clip: 2, frames: 36))]
    }

    func folder(_ name: String) throws -> String {
        let folder = store.folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func ladder(_ master: String, _ extra: [String] = []) throws -> SegueTool.Result {
        try Tools.segue(["stitch"] + (try clips()) + ["-o", master, "--hls-time", "1", "--ladder", "180,120,90", "--preset", "ultrafast",
                                                       "--crf", "16", "--quiet"] + extra)
    }

    func testEveryRungPlaysFrameExactInFFmpegGStreamerAndChromiumsMediaSource() throws {
        let folder = try folder("hls-play")
        let master = folder + "/out/master.m3u8"
        let made = try ladder(master, ["--report", folder + "/report.json"])
        XCTAssertEqual(made.status, 0, made.standardError)
        // The report names every file the ladder wrote, the media segments too (3 rungs and the sound: 4 x 5, the master).
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any]
        let listed = (written?["output"] as? [String: Any])?["files"] as? [String] ?? []
        let present = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted().map { folder + "/out/" + $0 }
        XCTAssertEqual(listed, present)
        XCTAssertEqual(listed.count, 21, "\(listed)")
        let expected = (0..<45).map { (1, $0) } + (0..<36).map { (2, $0) }
        for index in 0..<3 {
            let output = try HLSRead.rendition(master, video: index, store: store)
            XCTAssertEqual(output.pictures.count, expected.count, "rung \(index)")
            for (frame, picture) in output.pictures.enumerated() where frame < expected.count {
                let read = Marker.read(picture)
                XCTAssertTrue(read?.clip == expected[frame].0 && read?.frame == expected[frame].1,
                              "rung \(index) frame \(frame): read \(String(describing: read)), expected \(expected[frame])")
            }
            XCTAssertEqual(Double(output.audio.count) / Double(output.sampleRate), 81 / 30, accuracy: 0.05, "rung \(index): sound")
        }
        // GStreamer's playbin (hlsdemux, qtdemux, avdec_h264) plays it to its end with no error.
        let played = try HLSRead.gstreamer(master)
        XCTAssertEqual(played.status, 0, played.standardError + played.standardOutput)
        XCTAssertFalse((played.standardError + played.standardOutput).contains("ERROR"), played.standardError)
        // A real browser: chromium feeds each H.264 rung's CMAF segments and the sound's to Media Source Extensions, to the end.
        let script = SegueTool.repository.appendingPathComponent("Scripts/browser-play").path
        let browsed = try Tool.run(script, ["--timeout", "120", "--ladder", master])
        XCTAssertEqual(browsed.status, 0, browsed.standardError + browsed.standardOutput)
        let answer = try JSONSerialization.jsonObject(with: Data(browsed.standardOutput.utf8)) as? [String: Any]
        let rungs = answer?["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(rungs.map { $0["file"] as? String }, ["video_180p.m3u8", "video_120p.m3u8", "video_90p.m3u8"])
        for rung in rungs {
            XCTAssertEqual(rung["ended"] as? Bool, true, "\(rung)")
            XCTAssertEqual(rung["totalVideoFrames"] as? Int, expected.count, "\(rung)")
            XCTAssertGreaterThan(rung["audioDecodedBytes"] as? Int ?? 0, 0, "sound decoded: \(rung)")
        }
        // The report names every file written with its codecs, size and rates.
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any]
        let renditions = report?["renditions"] as? [[String: Any]] ?? []
        XCTAssertEqual(renditions.map { $0["height"] as? Int }, [180, 120, 90, 0])
        XCTAssertTrue(renditions.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 && ($0["peakBitRate"] as? Int ?? 0) > 0 }, "\(renditions)")
    }

    func testRungsShareKeyframesAndTheMasterSaysWhatTheSegmentsHold() throws {
        let master = try folder("hls-spec") + "/master.m3u8"
        let made = try ladder(master)
        XCTAssertEqual(made.status, 0, made.standardError)
        let folder = (master as NSString).deletingLastPathComponent
        let text = try String(contentsOfFile: master, encoding: .utf8)
        XCTAssertTrue(text.contains("#EXT-X-INDEPENDENT-SEGMENTS"), text)
        let lines = text.split(separator: "\n")
        var keyframes: [[String]] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") {
            let playlist = folder + "/" + lines[index + 1]
            for name in ["BANDWIDTH", "AVERAGE-BANDWIDTH", "FRAME-RATE"] { XCTAssertNotNil(HLSRead.attribute(name, of: line), "\(name) in \(line)") }
            XCTAssertEqual(HLSRead.attribute("VIDEO-RANGE", of: line), "SDR")
            XCTAssertEqual(HLSRead.attribute("FRAME-RATE", of: line), "30.000")
            XCTAssertGreaterThanOrEqual(Int(HLSRead.attribute("BANDWIDTH", of: line) ?? "") ?? 0, Int(HLSRead.attribute("AVERAGE-BANDWIDTH", of: line) ?? "") ?? .max)
            // What ffprobe reads from the rendition's segments.
            let media = try String(contentsOfFile: playlist, encoding: .utf8)
            XCTAssertTrue(media.contains("#EXT-X-PLAYLIST-TYPE:VOD") && media.contains("#EXT-X-ENDLIST"), media)
            let target = Double(media.split(separator: "\n").first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }?.dropFirst(22) ?? "") ?? 0
            let durations = media.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).prefix { $0 != "," }) }
            XCTAssertEqual(durations.count, 3, media)
            XCTAssertTrue(durations.allSatisfy { $0.rounded() <= target }, "segments \(durations) within \(target) s")
            let probe = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height,profile,level",
                                                  "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", playlist])
            XCTAssertEqual(probe.status, 0, probe.standardError)
            let rows = probe.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            keyframes.append(rows.filter { $0.count == 2 && $0[1].hasPrefix("K") }.map { $0[0] })
            guard let stream = rows.first(where: { $0.count == 4 }) else { return XCTFail(probe.standardOutput) }
            // ffprobe's order: profile, width, height, level.
            XCTAssertEqual(HLSRead.attribute("RESOLUTION", of: line), "\(stream[1])x\(stream[2])")
            let profiles = ["High": "64", "Main": "4d", "Constrained Baseline": "42"]
            let codecs = HLSRead.attribute("CODECS", of: line) ?? ""
            XCTAssertTrue(codecs.hasPrefix("avc1." + (profiles[stream[0]] ?? "?")), "\(codecs) for \(stream)")
            XCTAssertEqual(codecs.dropFirst(9).prefix(2).lowercased(), String(format: "%02x", Int(stream[3]) ?? 0), "level in \(codecs)")
            XCTAssertTrue(codecs.hasSuffix(",mp4a.40.2"), codecs)
        }
        // Sound and pictures start together as the HLS demuxer reads them (no edit list needed to say so).
        let starts = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time", "-of", "csv=p=0", master])
        let times = Set(starts.standardOutput.split(separator: "\n").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } })
        XCTAssertEqual(times, [0], starts.standardOutput)
        XCTAssertEqual(keyframes.count, 3)
        XCTAssertEqual(keyframes.first, ["0.000000", "1.000000", "2.000000"].map { $0 }, "a keyframe at each second, nowhere else")
        XCTAssertTrue(keyframes.allSatisfy { $0 == keyframes[0] }, "\(keyframes)")
    }

    func testNothingIsReplacedWithoutYesAndAStoppedRenderLeavesNoFiles() throws {
        let folder = try folder("hls-rules")
        let master = folder + "/master.m3u8"
        XCTAssertEqual(try ladder(master).status, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let again = try ladder(master)
        XCTAssertEqual(again.status, 2, again.standardError)
        XCTAssertTrue(again.standardError.contains("master.m3u8"), again.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), before)
        // Stopped once the master is out (the player could start), nothing stays behind.
        let stopped = folder + "/stopped"
        let long = try store.path("hls-long.mp4", MarkerClip(clip: 3, frames: 900))
        let process = Process()
        process.executableURL = SegueTool.executable
        process.arguments = ["stitch", long, long, "-o", stopped + "/master.m3u8", "--hls-time", "1", "--ladder", "180,90", "--quiet"]
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: stopped + "/master.m3u8"), process.isRunning, Date() < deadline { usleep(20_000) }
        let event = try String(contentsOfFile: stopped + "/video_180p.m3u8", encoding: .utf8)
        XCTAssertTrue(event.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !event.contains("ENDLIST"), event)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stopped), "the folder made for it is gone with its files")
    }

    /// Cue times (milliseconds) of WebVTT or SRT text, as the format writes them: `00:00:01.500 --> 00:00:02.000`.
    func cueTimes(_ text: String) -> Set<[Int]> {
        func milliseconds(_ stamp: Substring) -> Int {
            let parts = stamp.replacingOccurrences(of: ",", with: ".").split(separator: ":").map { Double($0) ?? 0 }
            return Int((parts.reduce(0) { $0 * 60 + $1 } * 1000).rounded())
        }
        return Set(text.components(separatedBy: "\n").filter { $0.contains(" --> ") }.map { line in
            line.components(separatedBy: " --> ").prefix(2).map { milliseconds($0.split(separator: " ").first ?? "") }
        })
    }

    func testTheSubtitleTrackIsASegmentedWebVTTRenditionPlayersFetch() throws {
        let folder = try folder("hls-subs")
        let clip = try store.path("hls-subs-a.mp4", MarkerClip(clip: 1, frames: 90))
        try "1\n00:00:00,500 --> 00:00:01,500\nHello & you\n\n2\n00:00:01,800 --> 00:00:02,400\nAcross a segment\n"
            .write(toFile: (clip as NSString).deletingPathExtension + ".srt", atomically: true, encoding: .utf8)
        let master = folder + "/hls/master.m3u8", mp4 = folder + "/same.mp4"
        XCTAssertEqual(try Tools.segue(["stitch", clip, "-o", master, "--hls-time", "1", "--ladder", "180", "--quiet"]).status, 0)
        XCTAssertEqual(try Tools.segue(["stitch", clip, "-o", mp4, "--quiet"]).status, 0)
        let text = try String(contentsOfFile: master, encoding: .utf8)
        XCTAssertTrue(text.contains("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\"") && text.contains("SUBTITLES=\"subs\""), text)
        // Each segment is WebVTT mapped to the media's time 0; together they hold the MP4's own cues.
        let playlist = try String(contentsOfFile: folder + "/hls/subtitles.m3u8", encoding: .utf8)
        let segments = playlist.split(separator: "\n").filter { $0.hasSuffix(".vtt") }
        XCTAssertEqual(segments.count, 3, playlist)
        var cues = Set<[Int]>()
        for segment in segments {
            let vtt = try String(contentsOfFile: folder + "/hls/" + segment, encoding: .utf8)
            XCTAssertTrue(vtt.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n"), vtt)
            cues.formUnion(cueTimes(vtt))
        }
        let srt = folder + "/same.srt"
        XCTAssertEqual(try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", mp4, "-map", "0:s:0", srt]).status, 0)
        XCTAssertEqual(cues, cueTimes(try String(contentsOfFile: srt, encoding: .utf8)))
        XCTAssertEqual(cues, [[500, 1500], [1800, 2400]])
        // GStreamer's hlsdemux2 (playbin3, over HTTP as it needs) reads the subtitle rendition: every segment fetched, no error.
        // (Its playbin3 may not reach the end of a sparse text stream by itself: a timeout is no failure here.)
        let port = Int.random(in: 20_000..<60_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", folder + "/hls"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        // Ready once it serves the master playlist: a fixed wait lost the race on a loaded machine.
        let served = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/master.m3u8"))
        var waits = 0
        while (try? Data(contentsOf: served)) == nil, waits < 100 { usleep(100_000); waits += 1 }
        let played = try Tool.run("env", ["GST_DEBUG=hlsdemux2:5", "timeout", "5", "gst-launch-1.0", "playbin3",
                                          "uri=http://127.0.0.1:\(port)/master.m3u8", "video-sink=fakesink sync=false",
                                          "audio-sink=fakesink sync=false", "text-sink=fakesink sync=false"])
        XCTAssertTrue([0, 124].contains(played.status), String(played.standardOutput.suffix(2000)))
        XCTAssertFalse(played.standardOutput.contains("ERROR"), String(played.standardOutput.suffix(2000)))
        for segment in segments {
            XCTAssertTrue(played.standardError.contains("Stream URI now http://127.0.0.1:\(port)/\(segment)"), "\(segment) fetched")
        }
    }

    func testAnHDRCanvasGivesHLGRungsInHEVCAndAnSDRLadderBesideThem() throws {
        let hlg = try store.path("hls-hlg.mp4") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-f", "lavfi",
                                               "-i", "sine=d=2", "-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-x265-params", "log-level=error",
                                               "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
                                               "-tag:v", "hvc1", "-c:a", "aac", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
        let folder = try folder("hls-hdr")
        let master = folder + "/master.m3u8"
        let made = try Tools.segue(["stitch", hlg, "-o", master, "--codec", "hevc", "--ladder", "180,90", "--hls-time", "1", "--quiet",
                                    "--cover", folder + "/cover.mp4", "--poster", folder + "/poster.jpg", "--report", folder + "/report.json"])
        XCTAssertEqual(made.status, 0, made.standardError)
        let lines = try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n")
        let variants = lines.enumerated().filter { $0.element.hasPrefix("#EXT-X-STREAM-INF:") }.map { ($0.element, lines[$0.offset + 1]) }
        XCTAssertEqual(variants.map { HLSRead.attribute("VIDEO-RANGE", of: $0.0) }, ["HLG", "HLG", "SDR", "SDR"])
        for (line, playlist) in variants {
            let probe = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                  "stream=codec_name,profile,pix_fmt,color_transfer", "-of", "csv=p=0", folder + "/" + playlist])
            let stream = probe.standardOutput.split(separator: "\n").first.map { $0.split(separator: ",").map(String.init) } ?? []
            let codecs = HLSRead.attribute("CODECS", of: line) ?? ""
            if HLSRead.attribute("VIDEO-RANGE", of: line) == "HLG" {
                XCTAssertEqual(stream, ["hevc", "Main 10", "yuv420p10le", "arib-std-b67"], "\(playlist)")
                XCTAssertTrue(codecs.hasPrefix("hvc1.2.4.L"), codecs)
            } else {
                XCTAssertEqual(stream, ["h264", "High", "yuv420p", "bt709"], "\(playlist)")
                XCTAssertTrue(codecs.hasPrefix("avc1.64"), codecs)
            }
        }
        // The SDR rungs are tone-mapped as an SDR stitch of the same clip is.
        let sdr = folder + "/sdr.mp4"
        XCTAssertEqual(try Tools.segue(["stitch", hlg, "-o", sdr, "--quiet"]).status, 0)
        let rung = try HLSRead.rendition(master, video: 2, store: store), plain = try DecodedOutput(path: sdr)
        XCTAssertEqual(rung.pictures.count, plain.pictures.count)
        let difference = PhotoFormatTests.meanDifference(rung.pictures[30].bytes, plain.pictures[30].bytes)
        XCTAssertLessThan(difference, 3, "the SDR rung's picture is the SDR stitch's")
        // The cover and poster are SDR too, tone-mapped alike: the poster is the SDR stitch's frame the report names.
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any]
        let first = try XCTUnwrap((report?["cover"] as? [String: Any])?["firstFrame"] as? Int)
        let cover = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=codec_name,pix_fmt",
                                             "-of", "csv=p=0", folder + "/cover.mp4"])
        XCTAssertEqual(cover.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "h264,yuv420p")
        // (The JPEG's luma is full range: put back into the video's limited range to compare.)
        let poster = try XCTUnwrap(DecodedOutput(path: folder + "/poster.jpg").pictures.first).bytes.map { UInt8(16 + (Int($0) * 219 + 127) / 255) }
        XCTAssertLessThan(PhotoFormatTests.meanDifference(poster, plain.pictures[first].bytes), 3, "the poster is the SDR picture")
        XCTAssertGreaterThan(PhotoFormatTests.meanDifference(poster, plain.pictures[first + 15].bytes), 3, "(and not another)")
        let played = try HLSRead.gstreamer(master)
        XCTAssertEqual(played.status, 0, played.standardError + played.standardOutput)
    }

    func testWhatALadderCantBeIsRefusedBeforeAnyWork() throws {
        let folder = try folder("hls-refused")
        for (flags, said) in [(["--smart"], "--smart"), (["--ladder", "360"], "sharper than the canvas"),
                              (["--codec", "hevc"], "SDR renditions are H.264")] {
            let result = try Tools.segue(["stitch"] + (try clips()) + ["-o", folder + "/master.m3u8"] + flags)
            XCTAssertEqual(result.status, 2, "\(flags): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(said), "\(flags): \(result.standardError)")
        }
        let mp4 = try Tools.segue(["stitch"] + (try clips()) + ["-o", folder + "/reel.mp4", "--ladder", "180"])
        XCTAssertEqual(mp4.status, 2, mp4.standardError)
        // A manifest's output.hls asks for a ladder as -o DIR/master.m3u8 does: an MP4 -o beside it is exit 2.
        let manifest = store.folder.appendingPathComponent("hls-manifest-\(UUID().uuidString.prefix(6)).json").path
        let clipList = try clips().map { "\"\($0)\"" }.joined(separator: ", ")
        try Data(#"{"clips": [\#(clipList)], "output": {"hls": {"ladder": [120, 90], "time": 2}}}"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let asked = try Tools.segue(["stitch", manifest, "-o", folder + "/reel.mp4"])
        XCTAssertEqual(asked.status, 2, asked.standardError)
        XCTAssertTrue(asked.standardError.contains("output.hls asks for an HLS ladder"), asked.standardError)
        let ladder = store.folder.appendingPathComponent("hls-manifest-\(UUID().uuidString.prefix(6))").path + "/master.m3u8"
        XCTAssertEqual(try Tools.segue(["stitch", manifest, "-o", ladder, "--quiet"]).status, 0)
        let rungs = try String(contentsOfFile: ladder, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        XCTAssertEqual(rungs.compactMap { HLSRead.attribute("RESOLUTION", of: $0) }, ["214x120", "160x90"])
        let media = try String(contentsOfFile: (ladder as NSString).deletingLastPathComponent + "/video_120p.m3u8", encoding: .utf8)
        XCTAssertTrue(media.contains("#EXT-X-TARGETDURATION:2"), media)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing written")
    }
}
