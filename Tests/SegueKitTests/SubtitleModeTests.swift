import Foundation
import XCTest

/// Subtitles, continued: `--subtitles none` and `burn`, the
/// output's length, inputs Segue can't or won't carry, `segue probe`, and
/// the other ways of rendering (`--smart`, segments, many joins) giving the
/// same track.
extension SubtitleTests {
    /// The folder of real-world clips beside the repository, or a skip when it isn't there.
    func realWorld(_ name: String) throws -> String {
        let path = SegueTool.repository.deletingLastPathComponent().appendingPathComponent("shared/realworld/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else { throw unavailable("\(path) is not there") }
        return path
    }

    func formatDuration(_ path: String) throws -> Double? {
        ((try FFprobe.run(["-show_entries", "format=duration", path])["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init)
    }

    // MARK: none and burn

    func testSubtitlesNoneWritesNoSubtitleStream() throws {
        let path = try stitch(try threeClips().paths + ["--subtitles", "none"])
        XCTAssertEqual(try SubtitleTrack.streams(path).count, 0)
    }

    func testTheTrackNeverLengthensTheOutputAndIsCutAtItsEnd() throws {
        // The Matroska clip's last cue runs a second past its picture.
        let clip = try SubtitleFixture.matroska(store)
        let path = try stitch([clip]), none = try stitch([clip, "--subtitles", "none"])
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.alpha)], join: .cut))
        let video = try XCTUnwrap(SubtitleTrack.video(path, "duration"))
        XCTAssertEqual(video, try XCTUnwrap(SubtitleTrack.video(none, "duration")), "the video lasts as long as without subtitles")
        XCTAssertEqual(try XCTUnwrap(formatDuration(path)), try XCTUnwrap(formatDuration(none)), "the file lasts as long as without subtitles")
        let track = try XCTUnwrap(SubtitleTrack.streams(path).first?["duration"] as? String).flatMap(Double.init)
        XCTAssertLessThanOrEqual(try XCTUnwrap(track), video + 0.0005, "the track ends with the picture")
    }

    func testBurnDrawsTheCueInThePictureWhileItIsOnScreenAndWritesNoTrack() throws {
        let clip = try SubtitleFixture.withSidecar(store, "side-burn.mp4", clip: 0, sidecar: "side-burn.srt",
                                                   Data(SubtitleText.srt([SourceCue(500, 1000, "SEGUE SUBTITLE")]).utf8))
        let path = try stitch([clip, "--subtitles", "burn", "--size", "1280x720"])
        XCTAssertEqual(try SubtitleTrack.streams(path).count, 0, "burnt in, no track")
        // The cue covers frames 15 to 29 (0.5 s to 1.0 s at 30 fps), at the bottom of the picture.
        for frame in [15, 22, 29] {
            let text = try store.ocr(path, frame: frame, crop: "1280:200:0:520")
            XCTAssertTrue(text.contains("SEGUE SUBTITLE"), "frame \(frame) reads '\(text)'")
        }
        for frame in [5, 14, 30, 40] {
            let text = try store.ocr(path, frame: frame, crop: "1280:200:0:520")
            XCTAssertFalse(text.contains("SEGUE") || text.contains("SUBTITLE"), "frame \(frame), no cue on screen, reads '\(text)'")
        }
        XCTAssertFalse(try store.ocr(path, frame: 22, crop: "1280:360:0:0").contains("SEGUE"), "not in the top half")
    }

    /// A photo is made once, but its subtitles change while it shows: each is burned in at its own time.
    func testBurnOnAPhotoDrawsEachCueAtItsTime() throws {
        let photo = try store.path("burn-photo.jpg") { path in
            try SubtitleFixture.ffmpeg(["-f", "lavfi", "-i", "color=c=0x406080:s=640x360", "-frames:v", "1", path])
            try Data(SubtitleText.srt([SourceCue(200, 900, "SEGUE FIRST"), SourceCue(1200, 1900, "SEGUE LATER")]).utf8)
                .write(to: store.folder.appendingPathComponent("burn-photo.srt"))
        }
        let path = try stitch([photo, "--subtitles", "burn", "--still-duration", "2", "--size", "1280x720"])
        let expected = [(15, "SEGUE FIRST"), (33, nil), (45, "SEGUE LATER"), (58, nil)]
        for (frame, cue) in expected {
            let text = try store.ocr(path, frame: frame, crop: "1280:200:0:520")
            if let cue {
                XCTAssertTrue(text.contains(cue), "frame \(frame) reads '\(text)'")
            } else {
                XCTAssertFalse(text.contains("SEGUE"), "frame \(frame), no cue on screen, reads '\(text)'")
            }
        }
    }

    // MARK: What can't or won't be carried

    func testBitmapSubtitlesAreLeftOutWithAWarningNamingTheClip() throws {
        let vob = try realWorld("dvd_pal_1frame_anamorphic_2dvdsub.vob")
        let (result, path) = try run([try SubtitleFixture.movText(store), vob])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains(vob) && result.standardError.contains("bitmap"), result.standardError)
        // Only the first clip's cues: nothing from the DVD's two bitmap streams.
        try assertTrack(path, PlacedClip.sequence([(45, SubtitleFixture.bravo)], join: .cut))
        try SubtitleTrack.assertOneMovText(path, language: "fra")
    }

    func testARealMatroskaSRTTrackKeepsEveryCueInEachCopy() throws {
        let real = try realWorld("h264_ac3_srt_subs.mkv")
        let start = try XCTUnwrap(SubtitleTrack.video(real, "start_time"))
        let source = try SubtitleTrack.cues(real).map { $0.earlier(by: start) }.map { SourceCue($0.start, $0.end, $0.text) }
        XCTAssertFalse(source.isEmpty)
        let path = try stitch([real, real, "--size", "540x360"])
        let video = try XCTUnwrap(FFprobe.streams(path).first { $0["codec_type"] as? String == "video" })
        let total = try XCTUnwrap((video["nb_read_frames"] as? String).flatMap(Int.init))
        let rate = try XCTUnwrap(video["avg_frame_rate"] as? String).split(separator: "/").compactMap { Double($0) }
        XCTAssertEqual(total % 2, 0, "two copies of one clip")
        let cues = try SubtitleTrack.cues(path)
        XCTAssertEqual(cues.count, 2 * source.count, "each copy carries the source's cues: \(cues)")
        let placed = PlacedClip.sequence([(total / 2, source), (total / 2, source)], join: .cut)
        SubtitleTrack.assertCues(cues, PlacedClip.expectedTrack(placed, fps: rate[0] / rate[1]))
        try SubtitleTrack.assertOneMovText(path, language: "eng")
    }

    func testAMissingManifestSubtitlesFileExitsTwoNamingIt() throws {
        let list = try store.manifest("subtitles-missing.json", clips: [["path": try SubtitleFixture.marker(store, 0), "subtitles": "missing.srt"]])
        let (result, path) = try run([list])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("missing.srt"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing written")
    }

    func testADamagedSidecarIsLeftOutWithAWarningOrRefusedWithStrict() throws {
        // An MP4's first bytes under a subtitle file's name.
        let marker = try Data(contentsOf: URL(fileURLWithPath: try SubtitleFixture.marker(store, 0)))
        let clip = try SubtitleFixture.withSidecar(store, "side-bad.mp4", clip: 0, sidecar: "side-bad.srt", marker.prefix(2048))
        let (lenient, path) = try run([clip])
        XCTAssertEqual(lenient.status, 0, lenient.standardError)
        XCTAssertTrue(lenient.standardError.contains("side-bad.srt"), "a warning names the file: \(lenient.standardError)")
        XCTAssertEqual(try SubtitleTrack.streams(path).count, 0, "no track from it")
        let (strict, strictPath) = try run([clip, "--strict"])
        XCTAssertEqual(strict.status, 2, strict.standardError)
        XCTAssertTrue(strict.standardError.contains("side-bad.srt"), strict.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: strictPath), "nothing written")
    }

    // MARK: probe

    func testProbeListsSubtitleStreamsWithTheirLanguagesAndSidecarsByName() throws {
        let codecs = ["subrip", "mov_text", "webvtt"]
        // Streams: their codec and language, and no other codec. Sidecars: their file's name (a codec may stand beside it).
        let streams: [(String, [String])] = [
            (try SubtitleFixture.matroska(store), ["subrip", "eng"]),
            (try SubtitleFixture.movText(store), ["mov_text", "fra"]),
            (try SubtitleFixture.webM(store), ["webvtt", "ita"]),
            (try SubtitleFixture.twoLanguages(store, defaultSpanish: true), ["subrip", "eng", "spa"]),
            (try SubtitleFixture.marker(store, 3), [])]
        let sidecars: [(String, [String])] = [(try SubtitleFixture.windows1252Sidecar(store), ["side-cp1252.srt"]),
                                              (try SubtitleFixture.assSidecar(store), ["side-ass.en.ass"])]
        for (clip, expected) in streams + sidecars {
            let probe = try SegueTool.run(["probe", clip])
            XCTAssertEqual(probe.status, 0, probe.standardError)
            for word in expected { XCTAssertTrue(probe.standardOutput.contains(word), "'\(word)' for \(clip):\n\(probe.standardOutput)") }
            guard streams.contains(where: { $0.0 == clip }) else { continue }
            for codec in codecs where !expected.contains(codec) {
                XCTAssertFalse(probe.standardOutput.contains(codec), "no \(codec) in \(clip):\n\(probe.standardOutput)")
            }
        }
        XCTAssertFalse(try SegueTool.run(["probe", try SubtitleFixture.marker(store, 3)]).standardOutput.contains(".srt"), "no sidecar")
    }

    // MARK: Other renderings give the same track

    func testSmartGivesThePlainStitchsTrack() throws {
        let paths = [try SubtitleFixture.movText(store), try SubtitleFixture.marker(store, 0), try SubtitleFixture.matroska(store)]
        let plain = try stitch(paths + fade), smart = try stitch(paths + fade + ["--smart"])
        let placed = PlacedClip.sequence([(45, SubtitleFixture.bravo), (45, []), (45, SubtitleFixture.alpha)], join: .overlap(frames: 15))
        try assertTrack(plain, placed)
        XCTAssertEqual(try SubtitleTrack.cues(smart), try SubtitleTrack.cues(plain))
        try SubtitleTrack.assertOneMovText(smart, language: "fra")
    }

    func testSegmentsRenderedApartAndJoinedGiveThePlainStitchsTrack() throws {
        let (paths, cues) = try threeClips()
        let work = store.folder.appendingPathComponent("subtitles-segments-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath("subtitles-segments")
        // Boundaries every 0.7 s: inside clips, inside joins, inside cues.
        let planned = try Tools.segue(["plan"] + paths + ["-o", output, "--work", work, "--segment-duration", "0.7", "--preset", "ultrafast",
                                                          "--crf", "30"] + fade)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let segments = try XCTUnwrap(Int(planned.standardOutput.split(separator: "\n").last?.split(separator: " ").last ?? ""))
        XCTAssertGreaterThan(segments, 3, "3.5 s in 0.7 s segments")
        try Tools.renderInAnyOrderAndJoin(work, segments: segments)
        let plain = try stitch(paths + fade)
        try assertTrack(output, PlacedClip.sequence(cues, join: .overlap(frames: 15)))
        XCTAssertEqual(try SubtitleTrack.cues(output), try SubtitleTrack.cues(plain))
        try SubtitleTrack.assertOneMovText(output, language: "eng")
    }

    func testHundredsOfJoinsKeepEveryCueOnItsMillisecond() throws {
        // 120 copies of a 10-frame clip: clips start on thirds of a second, so any
        // time summed from rounded durations would drift by the end (40 s).
        let tick = [SourceCue(100, 200, "Tick")]
        let clip = try SubtitleFixture.withSidecar(store, "drift-tick.mp4", clip: 2, frames: 10, sidecar: "drift-tick.srt",
                                                   Data(SubtitleText.srt(tick).utf8))
        let list = store.folder.appendingPathComponent("subtitles-drift.txt")
        try Array(repeating: clip, count: 120).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let started = Date()
        let path = try stitch([list.path])
        let seconds = Date().timeIntervalSince(started)
        let cues = try SubtitleTrack.cues(path)
        SubtitleTrack.assertCues(cues, PlacedClip.expectedTrack(PlacedClip.sequence(Array(repeating: (10, tick), count: 120), join: .cut), fps: fps))
        XCTAssertEqual(cues.last, Cue(start: 39_767, end: 39_867, text: "Tick"), "clip 119 starts at 1190/30 s = 39.6667 s")
        XCTAssertLessThan(seconds, 60, "a stitch of 120 short clips took \(seconds) s")
    }
}
