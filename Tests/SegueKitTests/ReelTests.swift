import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Reels: photos as clips, even loudness, a music bed that ducks, chapters.
/// Every check decodes the output the command line wrote.
final class ReelTests: XCTestCase {
    let store = FixtureStore.shared

    func marker(_ clip: Int, _ frames: Int, amplitude: Double = 0.5) throws -> String {
        let name = amplitude == 0.5 ? "marker-\(clip)-\(frames).mp4" : "marker-\(clip)-\(frames)-a\(amplitude).mp4"
        return try store.path(name, MarkerClip(clip: clip, frames: frames, toneAmplitude: amplitude))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = store.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs the ffmpeg tool (fixtures and independent measurements); its stderr.
    @discardableResult
    func ffmpeg(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-y"] + arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ffmpeg \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }

    /// A JPEG drawn by ffmpeg's `lavfi` sources, with an EXIF orientation written into it.
    func photo(_ name: String, size: String, draw: String, orientation: Int? = nil) throws -> String {
        let path = store.folder.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: path) {
            try ffmpeg(["-v", "error", "-f", "lavfi", "-i", "color=c=0x808080:s=\(size),\(draw)", "-frames:v", "1", "-q:v", "2", path])
            if let orientation { try EXIF.setOrientation(orientation, ofJPEG: path) }
        }
        return path
    }

    func stitch(_ arguments: [String], name: String) throws -> (path: String, result: SegueTool.Result) {
        let output = store.outputPath(name)
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return (output, result)
    }

    // MARK: Photos

    func testAPortraitPhotoWithEXIFOrientation6StandsUprightForExactlyItsDurationOnTheFirstVideosCanvas() throws {
        // Stored landscape 240x180 with the photo's top along its left edge; EXIF 6 says "turn it clockwise".
        let photo = try photo("portrait-exif6.jpg", size: "240x180", draw: "drawbox=x=0:y=0:w=30:h=180:color=white:t=fill",
                              orientation: 6)
        let list = try write("photo-between.ffconcat", """
            ffconcat version 1.0
            file \(try marker(0, 30))
            file \(photo)
            duration 1.0
            file \(try marker(1, 30))
            """)
        let (path, _) = try stitch([list, "--crf", "12"], name: "photo-upright")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.width, 320, "the canvas is the first video's")
        XCTAssertEqual(output.height, 180)
        XCTAssertEqual(output.pictures.count, 90, "30 + a 1 s photo at 30 fps + 30")
        for index in 0..<30 { XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (0, index) } ?? false, "frame \(index)") }
        for index in 60..<90 { XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (1, index - 60) } ?? false, "frame \(index)") }
        for index in 30..<60 {
            let picture = output.pictures[index]
            // Upright 180x240 contained in 320x180: 136x180 in the middle, its top eighth white.
            XCTAssertGreaterThan(picture.mean(x: 100, y: 2, width: 120, height: 16), 200, "frame \(index): the photo's top is up")
            XCTAssertEqual(picture.mean(x: 100, y: 40, width: 120, height: 130), 126, accuracy: 8, "frame \(index): grey below it")
            XCTAssertLessThan(picture.mean(x: 0, y: 0, width: 80, height: 180), 24, "frame \(index): black bars beside it")
            XCTAssertLessThan(picture.mean(x: 240, y: 0, width: 80, height: 180), 24)
        }
    }

    func testEveryEXIFOrientationStandsUpright() throws {
        // Upright: 240x180 grey with a white box in its top-left corner. Each file stores it as
        // EXIF orientation N says a camera would (the inverse of the turn or flip N asks for).
        let stored = [1: "null", 2: "hflip", 3: "hflip,vflip", 4: "vflip", 5: "transpose=cclock_flip",
                      6: "transpose=cclock", 7: "transpose=clock_flip", 8: "transpose=clock"]
        var list = "ffconcat version 1.0\n"
        for orientation in 1...8 {
            let size = orientation >= 5 ? "180x240" : "240x180"
            let path = try photo("orientation-\(orientation).jpg", size: "240x180",
                                 draw: "drawbox=x=0:y=0:w=60:h=45:color=white:t=fill,\(stored[orientation]!)", orientation: orientation)
            XCTAssertEqual(try FFprobe.streams(path).first?["width"] as? Int, Int(size.prefix(3)), "stored \(size)")
            list += "file \(path)\nduration 0.1\n"
        }
        let (path, _) = try stitch([try write("orientations.ffconcat", list), "--size", "320x180", "--fps", "30"], name: "orientations")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 24)
        for orientation in 1...8 {
            // Contained in 320x180: 240x180 at x = 40.
            let picture = output.pictures[(orientation - 1) * 3 + 1]
            XCTAssertGreaterThan(picture.mean(x: 45, y: 5, width: 50, height: 35), 200, "orientation \(orientation): box top left")
            for (x, y) in [(225, 5), (45, 140), (225, 140)] {
                XCTAssertLessThan(picture.mean(x: x, y: y, width: 50, height: 35), 160, "orientation \(orientation): (\(x), \(y)) grey")
            }
        }
    }

    func testAOneFrameVideoIsAStillOfTheStillDuration() throws {
        let single = try store.path("marker-2-1.mp4", MarkerClip(clip: 2, frames: 1))
        let probe = try SegueTool.run(["probe", single, "--json"])
        XCTAssertTrue(probe.standardOutput.contains("\"still\" : true"), probe.standardOutput)
        let (path, _) = try stitch([try marker(0, 30), single, "--still-duration", "0.5"], name: "one-frame")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 45)
        for index in 30..<45 { XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (2, 0) } ?? false, "frame \(index)") }
        XCTAssertEqual(Double(output.audio.count), 1.5 * 48_000, accuracy: 1024, "silence under the still")
    }

    func testStillsZoomSmoothlyAndMonotonically() throws {
        // A 100x60 white rectangle in the middle: its width, read with sub-pixel accuracy, is the zoom.
        let photo = try photo("rectangle.jpg", size: "320x180", draw: "drawbox=x=110:y=60:w=100:h=60:color=white:t=fill")
        let (path, _) = try stitch([photo, "--still-duration", "2", "--still-motion", "zoom", "--size", "320x180", "--crf", "0"],
                                   name: "zoom")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 60)
        let grey = output.pictures[0].mean(x: 0, y: 0, width: 40, height: 40)
        let white = output.pictures[0].mean(x: 140, y: 80, width: 40, height: 20)
        // Width from the area above grey along the middle rows, so a fraction of a pixel shows.
        let widths = output.pictures.map { picture -> Double in
            var sum = 0.0
            for y in 80..<100 { for x in 0..<320 { sum += Double(picture[x, y]) - grey } }
            return sum / (white - grey) / 20
        }
        XCTAssertEqual(widths[0], 100, accuracy: 0.5, "starts at 100 %")
        XCTAssertEqual(widths[59], 110, accuracy: 0.7, "ends at 110 %")
        var worstWobble = 0.0
        for index in 1..<widths.count {
            XCTAssertGreaterThan(widths[index], widths[index - 1] - 0.02, "frame \(index): the zoom never shrinks")
            if index + 1 < widths.count {
                worstWobble = max(worstWobble, abs(widths[index + 1] - 2 * widths[index] + widths[index - 1]))
            }
            let ideal = 100 * StillPicture.zoomScale(frame: index, of: 60)
            XCTAssertEqual(widths[index], ideal, accuracy: 0.3, "frame \(index): on the eased curve")
        }
        // Whole-pixel positions (zoompan) step 0, 1 or 2 pixels a frame: second differences of a pixel.
        XCTAssertLessThan(worstWobble, 0.15, "no jitter: \(widths)")
    }

    func testOnlyPhotosGiveAFullHDCanvasShapedLikeTheFirstPhotoAt30fps() throws {
        func still(_ width: Int, _ height: Int) -> ClipInfo {
            var info = ClipInfo(path: "p.jpg", container: "jpeg_pipe", videoCodec: "mjpeg", codedWidth: width, codedHeight: height,
                                sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuvj420p",
                                duration: 3, audio: nil)
            info.facts.isStill = true
            return info
        }
        let portrait = try Plan(clips: [still(1200, 1600), still(1600, 1200)], settings: StitchSettings())
        XCTAssertEqual([portrait.canvas.width, portrait.canvas.height], [1080, 1920])
        XCTAssertEqual(portrait.canvas.frameRate, Rational(30, 1))
        XCTAssertEqual(portrait.clips.map(\.frameCount), [90, 90])
        let landscape = try Plan(clips: [still(1600, 1200)], settings: StitchSettings())
        XCTAssertEqual([landscape.canvas.width, landscape.canvas.height], [1920, 1080])
        let video = ClipInfo(path: "v.mp4", container: "mp4", videoCodec: "h264", codedWidth: 640, codedHeight: 360,
                             sampleAspectRatio: Rational(1, 1), frameRate: Rational(25, 1), pixelFormat: "yuv420p", duration: 2, audio: nil)
        let mixed = try Plan(clips: [still(1200, 1600), video], settings: StitchSettings())
        XCTAssertEqual([mixed.canvas.width, mixed.canvas.height], [640, 360], "a still never sets the canvas")
        XCTAssertEqual(mixed.canvas.frameRate, Rational(25, 1))
        XCTAssertEqual(mixed.clips.map(\.frameCount), [75, 50])
    }

    func testFadesWorkIntoAndOutOfAPhoto() throws {
        let photo = try photo("flat.png", size: "320x180", draw: "drawbox=x=0:y=0:w=320:h=180:color=white:t=fill")
        let (path, _) = try stitch([try marker(0, 30), photo, try marker(1, 30), "--still-duration", "1", "--transition", "fade",
                                    "--transition-duration", "0.2"], name: "photo-fades")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 90 - 12)
        // Into the photo: grey 60 brightening to white; out of it: white darkening towards clip 1's grey 160.
        let into = (24..<30).map { Marker.grey(output.pictures[$0]) }
        XCTAssertEqual(into, into.sorted(), "\(into)")
        XCTAssertGreaterThan(Marker.grey(output.pictures[40]), 225)
        let out = (48..<54).map { Marker.grey(output.pictures[$0]) }
        XCTAssertEqual(out, out.sorted(by: >), "\(out)")
        XCTAssertTrue(Marker.read(output.pictures[54]).map { $0 == (1, 6) } ?? false)
    }

    // MARK: Loudness

    /// Integrated loudness and true peak of `seconds` of `path` from `start`, by ffmpeg's ebur128.
    func measure(_ path: String, from start: Double, seconds: Double) throws -> (loudness: Double, peak: Double) {
        let log = try ffmpeg(["-ss", "\(start)", "-t", "\(seconds)", "-i", path, "-vn", "-af", "ebur128=peak=true", "-f", "null", "-"])
        func value(after label: String) -> Double {
            let line = log.split(separator: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        }
        return (value(after: "I:"), value(after: "Peak:"))
    }

    func testTwoClipsRecorded20LUApartComeOutWithin1LUOfTheTarget() throws {
        let loud = try marker(0, 60, amplitude: 0.5), quiet = try marker(1, 60, amplitude: 0.05)
        let before = (try measure(loud, from: 0, seconds: 2).loudness, try measure(quiet, from: 0, seconds: 2).loudness)
        XCTAssertEqual(before.0 - before.1, 20, accuracy: 0.5, "the fixtures are 20 LU apart")
        let (path, _) = try stitch([loud, quiet, "--loudness", "-20", "--report", store.folder.appendingPathComponent("loud.json").path],
                                   name: "loudness")
        for (clip, start) in [(0, 0.1), (1, 2.1)] {
            let (loudness, peak) = try measure(path, from: start, seconds: 1.8)
            XCTAssertEqual(loudness, -20, accuracy: 1, "clip \(clip)")
            XCTAssertLessThanOrEqual(peak, -1, "clip \(clip)")
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: store.folder.appendingPathComponent("loud.json"))) as! [String: Any]
        let inputs = report["inputs"] as! [[String: Any]]
        let measured = inputs.map { $0["loudness"] as! [String: Any] }
        XCTAssertEqual(measured[0]["integrated"] as! Double, before.0, accuracy: 0.5)
        XCTAssertEqual(measured[1]["gain"] as! Double, -20 - before.1, accuracy: 0.5)
    }

    func testAGainThatWouldPushPeaksPastMinus1dBTPIsLimitedThere() throws {
        // A tone with short loud clicks (about -1 dBTP): bringing it up to -10 LUFS would push them past 0 dBTP.
        let path = store.folder.appendingPathComponent("bursts.mp4").path
        try ffmpeg(["-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=30:d=2", "-f", "lavfi", "-i",
                    "aevalsrc=0.2*sin(2*PI*440*t)+0.7*sin(2*PI*3000*t)*lt(mod(t\\,0.5)\\,0.003):s=48000:d=2",
                    "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-b:a", "192k", "-shortest", path])
        XCTAssertGreaterThan(try measure(path, from: 0, seconds: 2).peak, -3)
        let (output, _) = try stitch([path, "--loudness", "-10"], name: "limited")
        let (loudness, peak) = try measure(output, from: 0, seconds: 2)
        XCTAssertLessThanOrEqual(peak, -1, "true peak held at -1 dBTP")
        XCTAssertEqual(loudness, -10, accuracy: 1)
    }

    func testNearSilentClipsAreLeftAlone() {
        XCTAssertNil(LoudnessMeter.adjustment(for: .init(integrated: -55, truePeak: -40), target: -16))
        XCTAssertEqual(LoudnessMeter.adjustment(for: .init(integrated: -30, truePeak: -20), target: -16)?.gain, 14)
        XCTAssertEqual(LoudnessMeter.adjustment(for: .init(integrated: -30, truePeak: -10), target: -16)?.limited, true)
        XCTAssertEqual(LoudnessMeter.adjustment(for: .init(integrated: -30, truePeak: -20), target: -16)?.limited, false)
    }

    func testALoudnessThatCantBeMeasuredIsAWarningNamingTheClip() throws {
        let path = try store.path("marker-1-30.mp4", MarkerClip(clip: 1, frames: 30))
        guard case .success(var gone) = Prober.probe(path) else { return XCTFail("the fixture probes") }
        let measured = LoudnessMeter.measureAll([gone])
        XCTAssertNotNil(measured.clips[0].loudness)
        XCTAssertEqual(measured.failures, [])
        gone.readPath = store.folder.appendingPathComponent("moved-away.mp4").path
        let failed = LoudnessMeter.measureAll([gone])
        XCTAssertNil(failed.clips[0].loudness)
        XCTAssertEqual(failed.failures.count, 1)
        XCTAssertTrue(failed.failures.first?.description.hasPrefix(path + ": its sound's loudness can't be measured (") == true,
                      failed.failures.first?.description ?? "")
    }

    // MARK: Music

    func testMusicIsDuckedUnderSoundFullUnderAPhotoAndFadesAtTheEnd() throws {
        // PCM, so the file ends exactly where its tone stops (AAC would add a decoder tail).
        let music = store.folder.appendingPathComponent("bed-220.wav").path
        try ffmpeg(["-v", "error", "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=3.31", "-ac", "2", music])
        let photo = try photo("flat-grey.png", size: "320x180", draw: "null")
        // 2 s of clip 0's 400 Hz tone, then a 4 s silent photo; the music (220 Hz, 3.3 s) loops under
        // both, its second pass (starting out of phase) crossfaded in at about 3.26 s.
        let (path, _) = try stitch([try marker(0, 60), photo, "--still-duration", "4", "--music", music], name: "music")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 180)
        func level(_ frequency: Double, from start: Double, to end: Double) -> Double {
            let slice = output.audio[Int(start * 48_000)..<Int(end * 48_000)]
            return 10 * log10(Tone.power(slice, frequency: frequency, sampleRate: output.sampleRate))
        }
        let ducked = level(220, from: 1.0, to: 1.9), full = level(220, from: 3.35, to: 3.95)
        let clip = level(400, from: 1.0, to: 1.9)
        XCTAssertGreaterThan(full - ducked, 6, "ducked while the clip sounds (\(ducked) vs \(full) dB)")
        XCTAssertEqual(full - ducked, 12, accuracy: 1.5, "by --duck's 12 dB")
        XCTAssertEqual(full - clip, -12, accuracy: 2, "--music-volume's -12 dB under the clip's sound")
        XCTAssertEqual(level(220, from: 4.7, to: 4.9), full + 20 * log10(0.6), accuracy: 1.5, "0.6 of the way up the 2 s fade out")
        XCTAssertLessThan(level(220, from: 5.8, to: 5.98), full - 15, "faded out at the end")
        XCTAssertLessThan(level(220, from: 0, to: 0.2), full - 6, "faded in at the start")
        // No click where the music loops: no step between samples bigger than the tone's own steepest.
        let amplitude = 2 * pow(10, full / 20)
        let steepest = 2 * Double.pi * 220 / 48_000 * amplitude
        let seam = output.audio[Int(3.0 * 48_000)..<Int(3.5 * 48_000)]
        let worstStep = zip(seam, seam.dropFirst()).map { abs(Double($1 - $0)) }.max() ?? 0
        XCTAssertLessThan(worstStep, 1.3 * steepest, "loop seam: worst step \(worstStep), the tone's own \(steepest)")
    }

    func testMusicWithNoAudioGivesNoAudioAndUnderSilentClipsAMusicOnlyTrack() throws {
        let music = store.folder.appendingPathComponent("bed-330.m4a").path
        try ffmpeg(["-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=1", "-c:a", "aac", music])
        let photo = try photo("flat-grey.png", size: "320x180", draw: "null")
        let (silent, _) = try stitch([photo, "--still-duration", "4", "--size", "320x180", "--music", music], name: "music-only")
        let output = try DecodedOutput(path: silent)
        XCTAssertEqual(output.audio.count, 192_000, accuracy: 1024)
        XCTAssertGreaterThan(Tone.power(output.audio[72_000..<96_000], frequency: 330, sampleRate: 48_000), 1e-5, "the music plays")
        // No clip has sound: the music sits --music-volume under -16 LUFS.
        XCTAssertEqual(try measure(silent, from: 1.2, seconds: 0.8).loudness, -28, accuracy: 1.5)
        let (none, _) = try stitch([photo, "--still-duration", "1", "--size", "320x180", "--music", music, "--no-audio"], name: "music-none")
        XCTAssertFalse(try FFprobe.streams(none).contains { $0["codec_type"] as? String == "audio" })
    }

    // MARK: Chapters

    func testChaptersHaveOneTitleAndStartPerClipAtTheTransitionIntoIt() throws {
        _ = try photo("flat-white.png", size: "320x180", draw: "drawbox=x=0:y=0:w=320:h=180:color=white:t=fill")
        _ = try marker(0, 30)
        _ = try marker(1, 30)
        let manifest = try write("chapters.json", """
            {"clips": ["marker-0-30.mp4", {"path": "flat-white.png", "duration": 1, "title": "Beach at dawn"}, "marker-1-30.mp4"],
             "output": {"transition": "fade", "transitionDuration": 0.5, "chapters": true}}
            """)
        let (path, _) = try stitch([manifest], name: "chapters")
        let chapters = try FFprobe.chapters(path)
        XCTAssertEqual(chapters.map(\.title), ["marker-0-30", "Beach at dawn", "marker-1-30"])
        for (chapter, expected) in zip(chapters, [0.0, 0.5, 1.0]) {
            XCTAssertEqual(chapter.start, expected, accuracy: 1.0 / 30, chapter.title)
        }
        XCTAssertEqual(chapters.last?.end ?? 0, 2.0, accuracy: 1.0 / 30, "the last chapter ends with the output")
    }

    func testFreezeChaptersStartAtTheHeldFrames() throws {
        func video(_ name: String) -> ClipInfo {
            ClipInfo(path: "/x/\(name).mp4", container: "mp4", videoCodec: "h264", codedWidth: 320, codedHeight: 180,
                     sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p", duration: 1, audio: nil)
        }
        var settings = StitchSettings()
        settings.transition = .fade
        settings.mode = .freeze
        let plan = try Plan(clips: [video("a"), video("b")], settings: settings)
        XCTAssertEqual(plan.chapters, [Chapter(title: "a", startFrame: 0, endFrame: 30), Chapter(title: "b", startFrame: 30, endFrame: 90)])
    }

    // MARK: Bad inputs and values

    func testBadPhotosMusicAndReelValuesExit2NamingThem() throws {
        let heic = store.folder.appendingPathComponent("IMG_0001.HEIC").path
        var bytes = Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0]) + Data("mif1heic".utf8)
        bytes += Data(repeating: 7, count: 200)
        try bytes.write(to: URL(fileURLWithPath: heic))
        let clip = try marker(0, 30)
        let notMusic = try write("not-music.mp3", String(repeating: "no sound here\n", count: 40))
        let cases: [([String], [String])] = [
            ([clip, heic], [heic, "HEIC/HEIF photo can't be read"]),
            ([clip, "--music", notMusic], [notMusic, "music"]),
            ([clip, "--music", try marker(1, 30) + ".missing"], ["music: no such file"]),
            ([clip, "--still-duration", "0"], ["--still-duration"]),
            ([clip, "--still-duration", "3601"], ["--still-duration"]),
            ([clip, "--still-motion", "spin"], ["--still-motion", "spin"]),
            ([clip, "--loudness", "-3"], ["--loudness"]),
            ([clip, "--loudness", "-41"], ["--loudness"]),
            ([clip, "--music-volume", "20"], ["--music-volume"]),
            ([clip, "--duck", "-1"], ["--duck"]),
        ]
        for (arguments, expected) in cases {
            let output = store.outputPath("bad-reel")
            let result = try SegueTool.run(["stitch"] + arguments + ["-o", output])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.standardError)")
            for text in expected { XCTAssertTrue(result.standardError.contains(text), "\(arguments): expected \(text) in \(result.standardError)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        }
    }

    func testManifestReelKeysWithWrongValuesNameTheKeyPath() throws {
        _ = try marker(0, 30)
        let cases = [
            (#"{"clips": [{"path": "marker-0-30.mp4", "duration": "long"}]}"#, "clips[0].duration"),
            (#"{"clips": [{"path": "marker-0-30.mp4", "title": 5}]}"#, "clips[0].title"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"stillDuration": 0}}"#, "output.stillDuration"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"stillMotion": "spin"}}"#, "output.stillMotion"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"loudness": -2}}"#, "output.loudness"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"music": 3}}"#, "output.music"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"musicVolume": "loud"}}"#, "output.musicVolume"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"duck": true}}"#, "output.duck"),
            (#"{"clips": ["marker-0-30.mp4"], "output": {"chapters": "yes"}}"#, "output.chapters"),
        ]
        for (index, (text, keyPath)) in cases.enumerated() {
            let path = try write("reel-bad-\(index).json", text)
            let result = try SegueTool.run(["stitch", path, "-o", store.outputPath("reel-bad")])
            XCTAssertEqual(result.status, 2, "\(keyPath): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(keyPath + ":"), "expected \(keyPath) in \(result.standardError)")
        }
    }

    func testManifestReelSettingsApplyAndFlagsWinOverThem() throws {
        let list = ClipList.expand([try write("reel-settings.json", """
            {"clips": [{"path": "a.jpg", "duration": 2.5, "title": "A"}],
             "output": {"stillDuration": 4, "stillMotion": "zoom", "loudness": -16, "music": "bed.m4a", "musicVolume": -18,
                        "duck": 6, "chapters": true}}
            """)])
        XCTAssertEqual(list.bad, [])
        XCTAssertEqual(list.entries.first?.duration, 2.5)
        XCTAssertEqual(list.entries.first?.title, "A")
        let output = try XCTUnwrap(list.output)
        XCTAssertEqual(output.stillDuration, 4)
        XCTAssertEqual(output.stillMotion, .zoom)
        XCTAssertEqual(output.loudness, -16)
        XCTAssertEqual(output.music, store.folder.appendingPathComponent("bed.m4a").path)
        XCTAssertEqual(output.musicVolume, -18)
        XCTAssertEqual(output.duck, 6)
        XCTAssertEqual(output.chapters, true)
    }
}

/// Writes an EXIF orientation into a JPEG: an APP1 segment right after SOI
/// holding one big-endian IFD entry (0x0112, SHORT).
enum EXIF {
    static func setOrientation(_ orientation: Int, ofJPEG path: String) throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: path))
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
        var tiff = Data("MM".utf8) + Data([0x00, 0x2A, 0, 0, 0, 8])
        tiff += Data([0, 1]) // one entry
        tiff += Data([0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0])
        tiff += Data([0, 0, 0, 0]) // no next IFD
        let payload = Data("Exif".utf8) + Data([0, 0]) + tiff
        let length = payload.count + 2
        let segment = Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + payload
        try (jpeg.prefix(2) + segment + jpeg.dropFirst(2)).write(to: URL(fileURLWithPath: path))
    }
}

extension FFprobe {
    struct ChapterFacts {
        var title: String
        var start: Double
        var end: Double
    }

    static func chapters(_ path: String) throws -> [ChapterFacts] {
        let json = try run(["-show_chapters", path])
        return (json["chapters"] as? [[String: Any]] ?? []).map { chapter in
            ChapterFacts(title: (chapter["tags"] as? [String: Any])?["title"] as? String ?? "",
                         start: Double(chapter["start_time"] as? String ?? "") ?? .nan,
                         end: Double(chapter["end_time"] as? String ?? "") ?? .nan)
        }
    }
}
