import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Clips as phones, cameras, browsers, DVDs and broadcast write them, made at
/// test time with the ffmpeg CLI: true durations, a still held under sound with
/// flat memory, colour converted and tagged, HDR tone-mapped, interlaced
/// footage deinterlaced, standard frame rates.
final class RealClipTests: XCTestCase {
    let store = FixtureStore.shared

    // MARK: Durations

    func testWebMWrittenToAPipeProbesItsTrueDurationAndStitches() throws {
        // Written to a pipe, Matroska can't go back to store its duration.
        let clip = try FFmpeg.make("pipe.webm", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                                                 "-f", "lavfi", "-i", "sine=f=440:d=2",
                                                 "-c:v", "libvpx", "-b:v", "300k", "-c:a", "libopus", "-f", "webm"], toPipe: true)
        let info = try Prober.probe(clip).get()
        XCTAssertEqual(info.use.duration, 2.0, accuracy: 0.05)
        let output = store.outputPath("pipe-webm")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let video = try XCTUnwrap(try FFprobe.streams(output).first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["nb_read_frames"] as? String, "60")
    }

    func testAnAVIWhoseBPicturesHaveNoPresentationTimesKeepsEveryPictureInOrder() throws {
        // DivX/XviD in AVI: a chunk holds a decoding time only, and reordered
        // pictures come out of the decoder stamped a frame late (the last one
        // unstamped). Counting presentation times alone lost pictures.
        let markers = try store.path("avi-bframes-source.mp4", MarkerClip(clip: 1, frames: 30))
        let clip = try FFmpeg.make("bframes.avi", ["-i", markers, "-c:v", "mpeg4", "-bf", "2", "-g", "12", "-q:v", "2",
                                                   "-vtag", "XVID", "-c:a", "pcm_s16le"])
        let packets = try FFprobe.run(["-select_streams", "v:0", "-show_entries", "packet=pts", clip])["packets"] as? [[String: Any]] ?? []
        XCTAssertEqual(packets.count, 30)
        XCTAssertGreaterThan(packets.filter { $0["pts"] == nil }.count, 5, "the trap: chunks without a presentation time")
        let info = try Prober.probe(clip).get()
        XCTAssertEqual(info.use.duration, 1.0, accuracy: 0.001)
        let output = store.outputPath("avi-bframes")
        let result = try SegueTool.run(["stitch", clip, clip, "-o", output, "--preset", "ultrafast", "--crf", "12"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 60)
        for (index, picture) in decoded.pictures.enumerated() {
            let marker = Marker.read(picture)
            XCTAssertTrue(marker.map { $0 == (1, index % 30) } ?? false, "output frame \(index) shows \(String(describing: marker))")
        }
    }

    func testAPackedBitstreamAVILastsAsLongAsThePicturesTheFFmpegCLIDecodes() throws {
        // FFmpeg's FATE sample: one chunk packs a P and a B picture, a 7-byte
        // chunk keeps the B picture's place. Kept in the real-world corpus.
        let corpus = ProcessInfo.processInfo.environment["SEGUE_REALWORLD"] ?? "../shared/realworld"
        let clip = URL(fileURLWithPath: corpus).appendingPathComponent("divx_mpeg4_asp_packed_bframes_544x352.avi").path
        guard FileManager.default.fileExists(atPath: clip) else { throw unavailable("no real-world corpus at \(corpus)") }
        let decodedByCLI = try XCTUnwrap(Int(FFprobe.streams(clip).first?["nb_read_frames"] as? String ?? ""))
        XCTAssertEqual(decodedByCLI, 15)
        let output = store.outputPath("packed-bframes")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--crf", "0"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try FFprobe.streams(output).first?["nb_read_frames"] as? String, "\(decodedByCLI)")
        // Each output picture is the source's picture of the same number: the source is a slow fade,
        // so a picture one place off differs more than the colour conversion does.
        let size = 544 * 352
        func lumaPlanes(_ path: String, _ filter: String) throws -> [ArraySlice<UInt8>] {
            let raw = [UInt8](try FFmpeg.run(["-v", "error", "-i", path, "-vf", filter + "format=gray", "-f", "rawvideo", "-"]).output)
            return stride(from: 0, to: raw.count, by: size).map { raw[$0..<$0 + size] }
        }
        let source = try lumaPlanes(clip, "scale=in_color_matrix=bt601:out_color_matrix=bt709,")
        let stitched = try lumaPlanes(output, "")
        XCTAssertEqual(source.count, stitched.count)
        for index in stitched.indices {
            let distances = source.map { zip($0, stitched[index]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } }
            XCTAssertEqual(distances.firstIndex(of: distances.min()!), index, "output picture \(index): \(distances)")
        }
    }

    func testASubtitleRunningPastThePictureAddsNoFrozenOrSilentTail() throws {
        let subtitles = store.folder.appendingPathComponent("late.srt").path
        try "1\n00:00:00,500 --> 00:00:03,100\nStill talking\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
        let clip = try FFmpeg.make("late-subtitle.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                                                         "-f", "lavfi", "-i", "sine=f=440:d=2", "-i", subtitles,
                                                         "-map", "0", "-map", "1", "-map", "2",
                                                         "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "srt"])
        let info = try Prober.probe(clip).get()
        XCTAssertEqual(info.use.duration, 2.0, accuracy: 0.05, "the subtitle's 3.1 s must not lengthen the clip")
        let output = store.outputPath("late-subtitle")
        let result = try SegueTool.run(["stitch", clip, clip, "-o", output, "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("warning"), result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 120)
        // Sound right up to the join and after it: no padded silence.
        for frame in [55, 58, 61, 64, 118] {
            XCTAssertGreaterThan(Tone.rms(decoded.audioChunk(frame: frame, frameRate: 30)), 0.05, "frame \(frame)")
        }
    }

    func testAStillUnderLongSoundIsHeldForTheSoundWithFlatMemory() throws {
        // One picture and 30 s of sound, a cover image under a song, on a 1080p
        // canvas. Scaled, each held copy would be a new 3 MB picture: before,
        // the fps filter released all 300 at once at the end of the file.
        let clip = try FFmpeg.make("still-under-sound.mp4", ["-f", "lavfi", "-i", "color=c=0xC02020:s=1280x720:r=10:d=0.1",
                                                             "-f", "lavfi", "-i", "sine=f=440:d=30",
                                                             "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"])
        let info = try Prober.probe(clip).get()
        XCTAssertEqual(info.use.duration, 30, accuracy: 0.1)
        XCTAssertEqual(info.facts.timing.pictureDuration, 0.1, accuracy: 0.01)
        let output = store.outputPath("still-under-sound")
        let report = store.folder.appendingPathComponent("still-report.json").path
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--size", "1920x1080",
                                        "--report", report])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("warning"), "holding under sound is the plan: \(result.standardError)")
        let streams = try FFprobe.streams(output)
        let video = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        let audio = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "audio" })
        XCTAssertEqual(video["nb_read_frames"] as? String, "300")
        XCTAssertEqual(Double(audio["duration"] as? String ?? "") ?? 0, 30, accuracy: 0.05)
        // The sound plays to the end under the held picture.
        let tail = try FFmpeg.samples(output, from: 29, seconds: 0.9)
        XCTAssertGreaterThan(Tone.rms(tail[...]), 0.05, "ffmpeg's sine has amplitude 1/8: rms 0.088")
        let last = try FFmpeg.rgb(output, seek: 29.8, width: 16, height: 9)
        XCTAssertGreaterThan(last.mean(channel: 0), 150, "the red picture is still there")
        XCTAssertLessThan(last.mean(channel: 1), 80)
        let peak = try peakMemory(fromReport: report)
        XCTAssertLessThan(peak, 250_000_000, "peak memory \(peak / 1_000_000) MB")
    }

    func testAScreenRecordingThatPausesKeepsItsRateAndFlatMemory() throws {
        // 30 fps, then nothing for 15 s, then 30 fps again: variable rate.
        let clip = try FFmpeg.make("vfr-pause.mp4", ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=17",
                                                     "-f", "lavfi", "-i", "sine=f=440:d=17",
                                                     "-vf", "select='lt(t\\,1)+gt(t\\,16)'", "-fps_mode", "vfr",
                                                     "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"])
        let info = try Prober.probe(clip).get()
        XCTAssertTrue(info.facts.variableFrameRate)
        XCTAssertEqual(info.facts.frameRate, Rational(30, 1), "the recording's rate, not its average")
        XCTAssertEqual(info.use.duration, 17, accuracy: 0.1)
        let output = store.outputPath("vfr-pause")
        let report = store.folder.appendingPathComponent("vfr-report.json").path
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--size", "1280x720",
                                        "--report", report])
        XCTAssertEqual(result.status, 0, result.standardError)
        let video = try XCTUnwrap(try FFprobe.streams(output).first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["nb_read_frames"] as? String, "510")
        // Before, the 450 pictures of the pause came out of the fps filter at once, each scaled: 1.4 MB apiece.
        let peak = try peakMemory(fromReport: report)
        XCTAssertLessThan(peak, 250_000_000, "peak memory \(peak / 1_000_000) MB")
    }

    func testAnInPointInsideAHeldPictureStillShowsIt() throws {
        let clip = try FFmpeg.make("small-still.mp4", ["-f", "lavfi", "-i", "color=c=white:s=320x180:r=10:d=0.1",
                                                       "-f", "lavfi", "-i", "sine=f=440:d=5",
                                                       "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"])
        let list = store.folder.appendingPathComponent("held-trim.ffconcat").path
        try "ffconcat version 1.0\nfile '\(clip)'\ninpoint 2\noutpoint 3\n".write(toFile: list, atomically: true, encoding: .utf8)
        let output = store.outputPath("held-trim")
        let result = try SegueTool.run(["stitch", list, "-o", output, "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 10)
        XCTAssertGreaterThan(decoded.pictures.last.map(Marker.grey) ?? 0, 200, "the white picture, held")
        XCTAssertGreaterThan(Tone.rms(decoded.audioChunk(frame: 5, frameRate: 10)), 0.05)
    }

    // MARK: Colour

    func testTheOutputIsTaggedSDRBT709LimitedRangeInTheStreamAndTheColrBox() throws {
        let output = store.outputPath("tags")
        let marker = try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
        let result = try SegueTool.run(["stitch", marker, "-o", output, "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let tags = try FFmpeg.probeColour(output)
        XCTAssertEqual(tags["color_space"], "bt709")
        XCTAssertEqual(tags["color_transfer"], "bt709")
        XCTAssertEqual(tags["color_primaries"], "bt709")
        XCTAssertEqual(tags["color_range"], "tv")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        let colr = try XCTUnwrap(bytes.range(of: Data("colrnclx".utf8)), "no colr box")
        // nclx: primaries 1, transfer 1, matrix 1 (BT.709), then the full-range flag clear.
        XCTAssertEqual([UInt8](bytes[colr.upperBound..<(colr.upperBound + 7)]), [0, 1, 0, 1, 0, 1, 0])
    }

    func testABT601SDClipKeepsItsColoursOnAnHDCanvas() throws {
        // Untagged SD: BT.601 by the size rule, as every player assumes.
        let clip = try FFmpeg.make("sd-601.mp4", ["-f", "lavfi", "-i", "pal75bars=s=640x480:r=25:d=1",
                                                  "-vf", "scale=out_color_matrix=bt601:out_range=tv,format=yuv420p",
                                                  "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12"])
        XCTAssertEqual(try Prober.probe(clip).get().facts.colourMatrix, .bt601)
        let output = store.outputPath("sd-601")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--crf", "12", "--size", "1280x720"])
        XCTAssertEqual(result.status, 0, result.standardError)
        // The 4:3 picture sits pillarboxed in the middle of the canvas, 960x720.
        let source = try FFmpeg.rgb(clip, matrix: "bt601", range: "tv", width: 320, height: 240)
        let shown = try FFmpeg.rgb(output, matrix: "bt709", range: "tv", crop: "960:720:160:0", width: 320, height: 240)
        let error = source.meanError(shown)
        XCTAssertLessThan(error, 3, "mean RGB error \(error)")
        let unconverted = try FFmpeg.rgb(output, matrix: "bt601", range: "tv", crop: "960:720:160:0", width: 320, height: 240)
        XCTAssertGreaterThan(source.meanError(unconverted), 5, "a 709 picture read as 601 must look wrong, or this test proves nothing")
    }

    func testUntaggedSDMarkerClipsReadAsBT601StayExact() throws {
        // Marker clips with their colour tags removed: SD, so BT.601 by the size
        // rule. Their flat greys and black/white blocks have neutral chroma, the
        // same in every matrix, so every marker must still read back exactly.
        let tagged = try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
        let untagged = try FFmpeg.make("marker-untagged.mp4", [
            "-i", tagged, "-c", "copy",
            "-bsf:v", "h264_metadata=colour_primaries=2:transfer_characteristics=2:matrix_coefficients=2",
        ])
        let info = try Prober.probe(untagged).get()
        XCTAssertNil(info.facts.colour.matrix)
        XCTAssertEqual(info.facts.colourMatrix, .bt601)
        let output = store.outputPath("untagged-markers")
        let result = try SegueTool.run(["stitch", untagged, try store.path("marker-1-30.mp4", MarkerClip(clip: 1, frames: 30)),
                                        "-o", output, "--preset", "ultrafast", "--crf", "12"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 60)
        for (index, picture) in decoded.pictures.enumerated() {
            let marker = Marker.read(picture)
            XCTAssertTrue(marker.map { $0 == (index / 30, index % 30) } ?? false, "frame \(index): \(String(describing: marker))")
        }
        XCTAssertEqual(Marker.grey(decoded.pictures[10]), Double(Marker.greys[0]), accuracy: 1)
    }

    func testAFullRange10BitClipKeepsItsColours() throws {
        // 10 bits, full range: no yuvj pixel format says so, only the stream's tag.
        let clip = try FFmpeg.make("full-range.mp4", ["-f", "lavfi", "-i", "pal75bars=s=640x360:r=25:d=1",
                                                      "-vf", "scale=out_color_matrix=bt709:out_range=pc,format=yuv420p10le",
                                                      "-color_range", "pc", "-colorspace", "bt709",
                                                      "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12"])
        let info = try Prober.probe(clip).get()
        XCTAssertTrue(info.facts.fullRange)
        XCTAssertEqual(info.facts.colour.bitDepth, 10)
        let output = store.outputPath("full-range")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--crf", "12"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let source = try FFmpeg.rgb(clip, matrix: "bt709", range: "pc", width: 320, height: 180)
        let shown = try FFmpeg.rgb(output, matrix: "bt709", range: "tv", width: 320, height: 180)
        XCTAssertLessThan(source.meanError(shown), 3, "mean RGB error \(source.meanError(shown))")
    }

    func testPQAndHLGClipsAreToneMappedWithReferenceWhiteBelowPeakAndTheirColoursKept() throws {
        let sdr = try FFmpeg.make("hdr-source.mp4", ["-f", "lavfi", "-i", "pal75bars=s=320x180:r=25:d=0.4",
                                                     "-vf", "format=yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709",
                                                     "-color_trc", "bt709", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10"])
        let reference = try FFmpeg.rgb(sdr, matrix: "bt709", range: "tv", width: 320, height: 180)
        // One bar of the eight (white, then 75 % yellow, cyan, green, magenta, red, blue, black), as an average colour.
        func bar(_ path: String, _ index: Int, matrix: String) throws -> [Double] {
            let picture = try FFmpeg.rgb(path, matrix: matrix, range: "tv", crop: "20:160:\(40 * index + 10):10", width: 1, height: 1)
            return picture.bytes.map(Double.init)
        }
        for transfer in ["smpte2084", "arib-std-b67"] {
            // The SDR picture as an HDR camera would store it: BT.2020, 10 bits, SDR white at 203 cd/m² (BT.2408).
            let hdr = try FFmpeg.make("hdr-\(transfer).mp4", [
                "-i", sdr, "-vf", "zscale=tin=709:min=709:pin=709:rin=tv:t=linear:npl=203,format=gbrpf32le,zscale=p=2020,"
                    + "zscale=t=\(transfer):m=2020_ncl:r=tv:npl=203,format=yuv420p10le",
                "-c:v", "libx265", "-x265-params", "log-level=error:crf=10", "-preset", "ultrafast",
                "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", transfer,
            ])
            let info = try Prober.probe(hdr).get()
            XCTAssertEqual(info.facts.dynamicRange, transfer == "smpte2084" ? .pq : .hlg)
            XCTAssertEqual(info.facts.colourMatrix, .bt2020)
            let output = store.outputPath("tone-mapped-\(transfer)")
            let result = try SegueTool.run(["stitch", hdr, "-o", output, "--preset", "ultrafast", "--crf", "10"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertEqual(try FFmpeg.probeColour(output)["color_transfer"], "bt709")
            // Reference white sits below SDR peak (BT.2446, HLG's backward-compatible picture), leaving room for highlights.
            let white = try bar(output, 0, matrix: "bt709")
            XCTAssertTrue(white.allSatisfy { (165...220).contains($0) }, "\(transfer): reference white shown at \(white)")
            // Each colour keeps its hue (its strongest channel is the source's) and its saturation (at least
            // most of the HLG backward-compatible picture's, HDR samples shown as SDR through the BT.2020 matrix).
            for index in 1...6 {
                let source = try bar(sdr, index, matrix: "bt709"), shown = try bar(output, index, matrix: "bt709")
                let naive = try bar(hdr, index, matrix: "bt2020")
                func order(_ rgb: [Double]) -> [Int] { rgb.indices.sorted { rgb[$0] > rgb[$1] } }
                func spread(_ rgb: [Double]) -> Double { rgb.max()! - rgb.min()! }
                XCTAssertEqual(order(shown).first, order(source).first, "\(transfer) bar \(index): \(shown) against \(source)")
                XCTAssertGreaterThan(spread(shown), 0.75 * spread(naive), "\(transfer) bar \(index): \(shown), naive \(naive)")
            }
            let untoneMapped = try FFmpeg.rgb(hdr, matrix: "bt2020", range: "tv", width: 320, height: 180)
            let shown = try FFmpeg.rgb(output, matrix: "bt709", range: "tv", width: 320, height: 180)
            XCTAssertLessThan(reference.meanError(shown), reference.meanError(untoneMapped),
                              "\(transfer): closer to the source than the HDR samples shown as SDR")
        }
    }

    // MARK: Interlacing and frame rates

    func testAnInterlacedClipIsDeinterlacedAndAProgressiveOneUntouched() throws {
        // 1080i25 from a moving 50p source, two moments per frame, coded as fields.
        let clip = try FFmpeg.make("interlaced-1080i.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=50:d=1.2", "-vf", "tinterlace=mode=interleave_top,setfield=tff",
            "-flags", "+ildct+ilme", "-top", "1", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "16",
        ])
        let info = try Prober.probe(clip).get()
        XCTAssertTrue(info.facts.interlaced, "field order \(info.facts.fieldOrder)")
        XCTAssertEqual(try FFmpeg.interlacedFrames(clip), 30, "the fixture itself must be combed")
        let output = store.outputPath("deinterlaced")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast", "--crf", "16"])
        XCTAssertEqual(result.status, 0, result.standardError)
        // idet's multi-frame verdict flags a few frames of testsrc2's razor-sharp edges even after a clean deinterlace.
        XCTAssertLessThanOrEqual(try FFmpeg.interlacedFrames(output), 5, "combing left in the output")
        XCTAssertFalse(try Prober.probe(try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))).get().facts.interlaced)
    }

    func testA2997ClipGetsTheNTSCRate() throws {
        let clip = try FFmpeg.make("ntsc-2997.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30000/1001:d=1",
                                                     "-r", "29.97", "-c:v", "libx264", "-preset", "ultrafast"])
        XCTAssertEqual(try Prober.probe(clip).get().facts.frameRate, Rational(30000, 1001))
        let output = store.outputPath("ntsc")
        let result = try SegueTool.run(["stitch", clip, "-o", output, "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let video = try XCTUnwrap(try FFprobe.streams(output).first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["avg_frame_rate"] as? String, "30000/1001")
    }

    func testProbeShowsDynamicRangeMatrixRangeAndScan() throws {
        let clip = try FFmpeg.make("probe-full.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=0.2",
                                                      "-vf", "format=yuvj420p", "-color_range", "pc",
                                                      "-c:v", "libx264", "-preset", "ultrafast"])
        let table = try SegueTool.run(["probe", clip])
        XCTAssertEqual(table.status, 0, table.standardError)
        XCTAssertTrue(table.standardOutput.contains("DR   MATRIX  RANGE  SCAN         SUBTITLES  VERDICT"), table.standardOutput)
        XCTAssertTrue(table.standardOutput.contains("SDR  bt601   full   progressive  none       usable"), table.standardOutput)
        let json = try SegueTool.run(["probe", clip, "--json"])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["dynamicRange"] as? String, "SDR")
        XCTAssertEqual(rows.first?["colourMatrix"] as? String, "bt601")
        XCTAssertEqual(rows.first?["colourRange"] as? String, "full")
        XCTAssertEqual(rows.first?["interlaced"] as? Bool, false)
    }
}

/// RGB pictures read back with the ffmpeg CLI, with the matrix and range
/// named explicitly so no default can hide a mistake.
struct RGBPicture {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    func mean(channel: Int) -> Double {
        stride(from: channel, to: bytes.count, by: 3).reduce(0.0) { $0 + Double(bytes[$1]) } / Double(width * height)
    }

    func meanError(_ other: RGBPicture) -> Double {
        zip(bytes, other.bytes).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(bytes.count, 1))
    }
}

enum FFmpeg {
    /// Makes a fixture once per test run; `toPipe` writes it through stdout, as a live recorder does.
    static func make(_ name: String, _ arguments: [String], toPipe: Bool = false) throws -> String {
        let path = FixtureStore.shared.folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".partial"
        FileManager.default.createFile(atPath: partial, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-y"] + arguments + [toPipe ? "pipe:1" : partial]
        if toPipe { process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: partial)) }
        let muxers = ["mkv": "matroska", "avi": "avi"]
        if !toPipe { process.arguments!.insert(contentsOf: ["-f", muxers[(name as NSString).pathExtension] ?? "mp4"],
                                               at: process.arguments!.count - 1) }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError.ffmpegFailed(name) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    enum FixtureError: Error { case ffmpegFailed(String) }

    /// Runs ffmpeg and returns what it writes to stdout (and stderr, for filters that report there).
    static func run(_ arguments: [String]) throws -> (output: Data, log: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-hide_banner"] + arguments
        let output = Pipe(), log = Pipe()
        process.standardOutput = output
        process.standardError = log
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (data, text)
    }

    /// The first picture (or the one at `seek`) as RGB, read with the given matrix and range.
    static func rgb(_ path: String, seek: Double? = nil, matrix: String = "bt709", range: String = "tv", crop: String? = nil,
                    width: Int, height: Int) throws -> RGBPicture {
        var filters = crop.map { ["crop=\($0)"] } ?? []
        filters.append("scale=\(width):\(height):flags=area:in_color_matrix=\(matrix):in_range=\(range):out_range=pc,format=rgb24")
        let position = seek.map { ["-ss", String($0)] } ?? []
        let (data, log) = try run(["-v", "error"] + position + ["-i", path, "-frames:v", "1", "-vf", filters.joined(separator: ","),
                                                              "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        guard data.count == width * height * 3 else { throw FixtureError.ffmpegFailed("rgb \(path): \(log)") }
        return RGBPicture(width: width, height: height, bytes: [UInt8](data))
    }

    /// Mono float samples from `from` seconds on.
    static func samples(_ path: String, from: Double, seconds: Double) throws -> [Float] {
        let (data, _) = try run(["-v", "error", "-ss", String(from), "-t", String(seconds), "-i", path, "-vn", "-ac", "1",
                                 "-f", "f32le", "pipe:1"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Frames ffmpeg's idet filter calls interlaced (top or bottom field first), multi-frame detection.
    static func interlacedFrames(_ path: String) throws -> Int {
        let (_, log) = try run(["-v", "info", "-i", path, "-vf", "idet", "-an", "-f", "null", "-"])
        guard let line = log.split(separator: "\n").last(where: { $0.contains("Multi frame detection") }) else {
            throw FixtureError.ffmpegFailed("idet \(path): \(log)")
        }
        func count(_ key: String) -> Int {
            guard let range = line.range(of: key + ":") else { return 0 }
            return Int(line[range.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) ?? 0
        }
        return count("TFF") + count("BFF")
    }

    /// The video stream's colour tags as ffprobe reads them.
    static func probeColour(_ path: String) throws -> [String: String] {
        let streams = try FFprobe.streams(path, entries: "stream=codec_type,color_space,color_transfer,color_primaries,color_range")
        let video = streams.first { $0["codec_type"] as? String == "video" } ?? [:]
        return video.compactMapValues { $0 as? String }
    }
}

/// A stitch's peak memory in bytes, as its `--report` states it.
func peakMemory(fromReport report: String) throws -> Int {
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    return try XCTUnwrap(json["peakMemoryBytes"] as? Int)
}
