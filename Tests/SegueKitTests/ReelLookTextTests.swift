import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The reel look's text: a clip's caption, text cards and `--font`.
/// Latin text is read back from the output by OCR (tesseract); other scripts
/// are found by their pixels, against the same stitch without the text.
final class ReelLookTextTests: XCTestCase {
    let store = FixtureStore.shared

    func marker(_ clip: Int, _ frames: Int) throws -> String {
        try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
    }

    func manifest(_ name: String, clips: [Any], output: [String: Any] = [:]) throws -> String {
        try store.manifest(name, clips: clips, output: output)
    }

    func stitch(_ arguments: [String], name: String) throws -> String {
        let output = store.outputPath(name)
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--preset", "ultrafast", "--crf", "16", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return output
    }

    func ocr(_ path: String, frame: Int, crop: String) throws -> String {
        try store.ocr(path, frame: frame, crop: crop)
    }

    /// Where two same-sized luma planes differ by more than `threshold`: the
    /// bounding box (x0, y0, x1, y1) and how many pixels, or nil when nowhere.
    static func difference(_ a: PlaneImage, _ b: PlaneImage, threshold: Int = 24) -> (box: (Int, Int, Int, Int), count: Int)? {
        precondition(a.width == b.width && a.height == b.height, "planes of different sizes")
        var box = (Int.max, Int.max, -1, -1), count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where abs(Int(a[x, y]) - Int(b[x, y])) > threshold {
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
                count += 1
            }
        }
        return count == 0 ? nil : (box, count)
    }

    // MARK: Captions

    func testACaptionReadsBackAtTheBottomCentreForItsClipsWholeTimeAndFadesWithIt() throws {
        let clips: [Any] = [["path": try marker(0, 45), "caption": "Hello from Segue"], ["path": try marker(1, 45)]]
        let list = try manifest("caption-hello.json", clips: clips)
        let plainList = try manifest("caption-hello-plain.json", clips: [["path": try marker(0, 45)], ["path": try marker(1, 45)]])
        let common = ["--size", "1280x720", "--transition", "fade", "--transition-duration", "0.5"]
        let path = try stitch([list] + common, name: "caption-hello")
        let plain = try stitch([plainList] + common, name: "caption-hello-plain")
        for frame in [0, 29] {
            let text = try ocr(path, frame: frame, crop: "1280:144:0:576")
            XCTAssertTrue(text.contains("Hello from Segue"), "frame \(frame) reads '\(text)'")
        }
        let output = try DecodedOutput(path: path), without = try DecodedOutput(path: plain)
        XCTAssertEqual(output.pictures.count, 75, "45 + 45 - 15")
        var strengths: [Int] = []
        for frame in 0..<75 {
            let difference = Self.difference(output.pictures[frame], without.pictures[frame])
            strengths.append(difference?.count ?? 0)
            guard frame < 30 else { continue }
            let (box, _) = try XCTUnwrap(difference, "frame \(frame): the caption is drawn")
            // Bottom centre, about 5 % of 720 high: one line of ~36 px above a 36 px margin.
            XCTAssertGreaterThan(box.1, 600, "frame \(frame): in the bottom part")
            XCTAssertLessThan(box.3, 720 - 25, "frame \(frame): above the bottom margin")
            XCTAssertEqual(Double(box.0 + box.2) / 2, 640, accuracy: 12, "frame \(frame): centred")
            XCTAssertEqual(Double(box.3 - box.1), 40, accuracy: 14, "frame \(frame): one line of about 5 % of the height")
        }
        // In the fade the caption fades with its clip; after it, clip 1 has none.
        let fading = Array(strengths[30..<45])
        XCTAssertEqual(fading, fading.sorted(by: >), "fading out: \(fading)")
        XCTAssertLessThan(strengths[44], strengths[30])
        XCTAssertTrue(strengths[45...].allSatisfy { $0 == 0 }, "no caption on clip 1: \(strengths[45...])")
    }

    func testHostileCaptionTextIsDrawnLiterallyOnOneLine() throws {
        let hostile = #"{\b1}bold{\b0} \N 100% %{pts} C:\path 'q' [x]"#
        let list = try manifest("caption-hostile.json", clips: [["path": try marker(0, 15), "caption": hostile]])
        let plainList = try manifest("caption-hostile-plain.json", clips: [["path": try marker(0, 15)]])
        let path = try stitch([list, "--size", "1280x720"], name: "caption-hostile")
        let plain = try stitch([plainList, "--size", "1280x720"], name: "caption-hostile-plain")
        let text = try ocr(path, frame: 5, crop: "1280:144:0:576")
        // The words, the percent signs and the braces' contents stand as written.
        for word in ["bold", "100%", "pts", "path", "b1", "b0"] {
            XCTAssertTrue(text.contains(word), "'\(word)' in '\(text)'")
        }
        XCTAssertTrue(text.contains("{") || text.contains("\\"), "a brace or backslash is drawn: '\(text)'")
        XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count, 1,
                       "\\N is no line break: '\(text)'")
        let (box, _) = try XCTUnwrap(Self.difference(try DecodedOutput(path: path).pictures[5], try DecodedOutput(path: plain).pictures[5]))
        XCTAssertLessThan(box.3 - box.1, 60, "one line high")
    }

    /// A caption is drawn once onto a see-through picture and laid over each
    /// picture; that must look as libass drawing it on the picture itself does
    /// (its shadow half see-through, its edges blended), and cover only the text.
    func testACaptionDrawnOnceAndLaidOverIsTheCaptionDrawnOnThePicture() throws {
        let font = try FontFile.open(nil, access: InputAccess())
        let canvas = Canvas(width: 320, height: 180, frameRate: Rational(30, 1), sampleRate: 48000)
        let caption = "Harbour, day one: gulls"
        func script(_ seeThrough: Bool) -> String {
            TextLayer.script(caption: caption, card: nil, family: font.family, width: 320, height: 180, seeThrough: seeThrough)
        }
        let laidOver = try TextLayer(still: script(true), timed: [], font: font, canvas: canvas)
        let drawnOn = try TextLayer(still: nil, timed: [script(false)], font: font, canvas: canvas)
        // A picture with light, dark and mid-grey areas under the text.
        func picture() throws -> Frame {
            let frame = try Frame.video(width: 320, height: 180)
            var luma = PlaneImage(width: 320, height: 180, filledWith: 0)
            for y in 0..<180 { for x in 0..<320 { luma[x, y] = UInt8(16 + (x * 7 + y * 3) % 220) } }
            frame.setPlane(0, to: luma)
            for plane in 1...2 { frame.setPlane(plane, to: PlaneImage(width: 160, height: 90, filledWith: plane == 1 ? 100 : 150)) }
            frame.pts = 0
            return frame
        }
        func drawn(_ layer: TextLayer) throws -> [PlaneImage] {
            let graph = try TextLayer.graph(with: layer, videoLike: try picture(), timeBase: Rational(1, 30),
                                            description: layer.drawn(over: "null"))
            try graph.push(try picture())
            try graph.close(atPTS: 1)
            let out = Frame()
            XCTAssertEqual(try graph.pull(into: out), .ready)
            return (0..<3).map { out.plane($0) }
        }
        let (once, each, plain) = (try drawn(laidOver), try drawn(drawnOn), (0..<3).map { try! picture().plane($0) })
        for plane in 0..<3 {
            let differences = zip(once[plane].bytes, each[plane].bytes).map { abs(Int($0) - Int($1)) }
            XCTAssertLessThanOrEqual(differences.max() ?? 0, 12, "plane \(plane): no pixel far from libass's own drawing")
            XCTAssertLessThan(Double(differences.reduce(0, +)) / Double(differences.count), 0.1, "plane \(plane)")
        }
        // The text is there: at the bottom centre, a good part of the picture changed.
        let text = try XCTUnwrap(Self.difference(plain[0], once[0]))
        XCTAssertGreaterThan(text.count, 300)
        XCTAssertGreaterThan(text.box.1, 120, "the caption sits low")
    }

    func testAZoomingPhotosCaptionStaysPut() throws {
        let photo = store.folder.appendingPathComponent("caption-photo.png").path
        if !FileManager.default.fileExists(atPath: photo) {
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x808080:s=320x180", "-frames:v", "1", photo])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
        let list = try manifest("caption-zoom.json", clips: [["path": photo, "caption": "Steady caption", "duration": 1]])
        let plainList = try manifest("caption-zoom-plain.json", clips: [["path": photo, "duration": 1]])
        let common = ["--size", "640x360", "--still-motion", "zoom"]
        let output = try DecodedOutput(path: try stitch([list] + common, name: "caption-zoom"))
        let without = try DecodedOutput(path: try stitch([plainList] + common, name: "caption-zoom-plain"))
        let first = try XCTUnwrap(Self.difference(output.pictures[0], without.pictures[0])).box
        let last = try XCTUnwrap(Self.difference(output.pictures[29], without.pictures[29])).box
        for (a, b) in zip([first.0, first.1, first.2, first.3], [last.0, last.1, last.2, last.3]) {
            XCTAssertEqual(a, b, accuracy: 2, "the photo zooms, its caption doesn't: \(first) then \(last)")
        }
    }

    func testOtherScriptsAreDrawnAndAMissingGlyphIsNoCrash() throws {
        // CJK has no glyph in DejaVu Sans: libass draws the font's fallback (or a system font's glyph).
        let captions = ["日本語のキャプション", "مرحبا بالعالم", "שלום עולם", "😀 🎉 ✓", "Ünïcödé àçcéñts"]
        let clips = try captions.enumerated().map { ["path": try marker($0.offset % 4, 10), "caption": $0.element] }
        let plainClips = try captions.indices.map { ["path": try marker($0 % 4, 10)] }
        let path = try stitch([try manifest("caption-scripts.json", clips: clips), "--size", "640x360"], name: "caption-scripts")
        let plain = try stitch([try manifest("caption-scripts-plain.json", clips: plainClips), "--size", "640x360"], name: "scripts-plain")
        let output = try DecodedOutput(path: path), without = try DecodedOutput(path: plain)
        XCTAssertEqual(output.pictures.count, 50)
        for (index, caption) in captions.enumerated() {
            let (box, count) = try XCTUnwrap(Self.difference(output.pictures[index * 10 + 5], without.pictures[index * 10 + 5]),
                                             "'\(caption)' is drawn")
            XCTAssertGreaterThan(count, 150, "'\(caption)': enough ink")
            XCTAssertGreaterThan(box.1, 290, "'\(caption)': at the bottom")
        }
    }

    func testALongCaptionWrapsAndStaysInsideTheCanvas() throws {
        let long = "A long caption that wraps over several lines because it is far wider than the canvas, "
            + "with an unbreakable Pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoconiosis word "
            + String(repeating: "長い文字列", count: 12)
        let list = try manifest("caption-long.json", clips: [["path": try marker(0, 10), "caption": long]])
        let plainList = try manifest("caption-long-plain.json", clips: [["path": try marker(0, 10)]])
        let path = try stitch([list, "--size", "640x360"], name: "caption-long")
        let plain = try stitch([plainList, "--size", "640x360"], name: "caption-long-plain")
        let (box, _) = try XCTUnwrap(Self.difference(try DecodedOutput(path: path).pictures[5], try DecodedOutput(path: plain).pictures[5]))
        XCTAssertGreaterThanOrEqual(box.0, 32, "no ink in the left 5 %: \(box)")
        XCTAssertLessThanOrEqual(box.2, 640 - 32, "no ink in the right 5 %: \(box)")
        XCTAssertLessThanOrEqual(box.3, 360 - 18, "no ink in the bottom 5 %: \(box)")
        XCTAssertGreaterThanOrEqual(box.1, 18, "no ink in the top 5 %: \(box)")
        XCTAssertGreaterThan(box.3 - box.1, 3 * 18, "it wraps onto several lines: \(box)")
    }

    // MARK: Text cards

    func testACardBetweenClipsLastsItsDurationAndJoinsWithExactFrames() throws {
        // 60 + a 2.5 s card (75) + 60 frames, two 0.5 s fades (15 each): 165 frames.
        let clips: [Any] = [["path": try marker(0, 60)], ["text": "Day one", "duration": 2.5, "background": "#202020"],
                            ["path": try marker(1, 60)]]
        let path = try stitch([try manifest("card-between.json", clips: clips), "--transition", "fade",
                               "--transition-duration", "0.5", "--report", store.folder.appendingPathComponent("card.json").path],
                              name: "card-between")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 165)
        for index in 0..<45 { XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (0, index) } ?? false, "frame \(index)") }
        for index in 120..<165 {
            XCTAssertTrue(Marker.read(output.pictures[index]).map { $0 == (1, index - 105) } ?? false, "frame \(index)")
        }
        // #202020 in BT.709 limited range: Y = 16 + 219 × 32 / 255 ≈ 43.5, in the corners of the card alone.
        for index in 60..<105 {
            XCTAssertEqual(output.pictures[index].mean(x: 0, y: 0, width: 60, height: 40), 43.5, accuracy: 2, "frame \(index)")
            let picture = output.pictures[index]
            var ink = 0
            for y in 75..<105 { for x in 110..<210 where picture[x, y] > 150 { ink += 1 } }
            XCTAssertGreaterThan(ink, 40, "frame \(index): the text in the middle")
        }
        // The joins blend: neither the marker nor the card alone.
        for index in [51, 53, 111, 113] { XCTAssertNil(Marker.read(output.pictures[index]), "frame \(index) is blended") }
        XCTAssertEqual(Double(output.audio.count), 5.5 * 48_000, accuracy: 1024)
        for index in 62..<103 {
            XCTAssertLessThan(Tone.rms(output.audioChunk(frame: index, frameRate: 30)), 1e-3, "frame \(index): silence under the card")
        }
        let streams = try FFprobe.streams(path, entries: "stream=codec_type,width,height,avg_frame_rate,pix_fmt,color_space,color_range,color_primaries,color_transfer")
        let video = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["width"] as? Int, 320)
        XCTAssertEqual(video["avg_frame_rate"] as? String, "30/1")
        XCTAssertEqual(video["pix_fmt"] as? String, "yuv420p")
        for key in ["color_space", "color_primaries", "color_transfer"] { XCTAssertEqual(video[key] as? String, "bt709", key) }
        XCTAssertEqual(video["color_range"] as? String, "tv")
    }

    func testACardReadsBackCentredAndCarriesItsCaptionAndChapterTitle() throws {
        let clips: [Any] = [["text": "Day one", "duration": 1, "caption": "Lisbon harbour"],
                            ["text": "Second card", "duration": 1, "background": "#F0F0F0", "title": "Two"]]
        let path = try stitch([try manifest("card-ocr.json", clips: clips), "--chapters"], name: "card-ocr")
        // Only cards: a 1920x1080 canvas at 30 fps, as for photos.
        let output = try DecodedOutput(path: path)
        XCTAssertEqual([output.width, output.height, output.pictures.count], [1920, 1080, 60])
        XCTAssertTrue(try ocr(path, frame: 10, crop: "1920:240:0:420").contains("Day one"))
        XCTAssertTrue(try ocr(path, frame: 10, crop: "1920:216:0:864").contains("Lisbon harbour"))
        XCTAssertTrue(try ocr(path, frame: 45, crop: "1920:240:0:420").contains("Second card"), "dark text on a light card")
        XCTAssertEqual(output.pictures[45].mean(x: 0, y: 0, width: 100, height: 100), 16 + 219 * 240 / 255, accuracy: 2)
        let chapters = try FFprobe.run(["-show_chapters", path])["chapters"] as? [[String: Any]] ?? []
        XCTAssertEqual(chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String }, ["Day one", "Two"])
    }

    // MARK: Segments

    func testSegmentsDrawCaptionsAndCardsAsOneProcessDoes() throws {
        // Segment boundaries every 0.7 s fall inside the captioned clip and the card.
        let clips: [Any] = [["path": try marker(0, 45), "caption": "Segment caption"],
                            ["text": "Card in segments", "duration": 1.5, "caption": "Under the card"], ["path": try marker(1, 30)]]
        let list = try manifest("caption-segments.json", clips: clips)
        let flags = ["--transition", "fade", "--transition-duration", "0.3", "--preset", "ultrafast", "--crf", "16"]
        let whole = store.outputPath("caption-segments-whole")
        let stitched = try SegueTool.run(["stitch", list, "-o", whole, "--quiet"] + flags)
        XCTAssertEqual(stitched.status, 0, stitched.standardError)
        let work = store.folder.appendingPathComponent("caption-segments-work").path
        try? FileManager.default.removeItem(atPath: work)
        let output = store.outputPath("caption-segments")
        let planned = try Tools.segue(["plan", list, "-o", output, "--work", work, "--segment-duration", "0.7"] + flags)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let segments = try XCTUnwrap(Int(planned.standardOutput.split(separator: "\n").last?.split(separator: " ").last ?? ""))
        XCTAssertGreaterThan(segments, 3)
        try Tools.renderInAnyOrderAndJoin(work, segments: segments)
        let one = try DecodedOutput(path: whole), joined = try DecodedOutput(path: output)
        XCTAssertEqual(joined.pictures.count, 45 + 45 + 30 - 18)
        XCTAssertEqual(joined.pictures.count, one.pictures.count)
        for (index, (a, b)) in zip(one.pictures, joined.pictures).enumerated() {
            XCTAssertGreaterThan(SmartTestCase.psnr(a, b), 38, "frame \(index): the same picture, text included")
        }
    }

    // MARK: Bad input

    func testABadFontOrCardExitsTwoNamingItBeforeEncoding() throws {
        let clip = try marker(0, 10)
        func run(_ arguments: [String]) throws -> SegueTool.Result {
            let output = store.outputPath("bad-text-\(UUID().uuidString)")
            let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--quiet"])
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "nothing written")
            return result
        }
        let captioned = try manifest("bad-font.json", clips: [["path": clip, "caption": "hi"]])
        let missing = try run([captioned, "--font", "/nonexistent/Font.ttf"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("/nonexistent/Font.ttf") && missing.standardError.contains("font"), missing.standardError)
        let notAFont = try run([captioned, "--font", clip])
        XCTAssertEqual(notAFont.status, 2)
        XCTAssertTrue(notAFont.standardError.contains("not a TrueType or OpenType font"), notAFont.standardError)
        // Confined by --input-root like every local input (the font lies outside the clip's folder).
        let confined = try run([captioned, "--input-root", store.folder.path, "--font", FontFile.defaultPath])
        XCTAssertEqual(confined.status, 2)
        XCTAssertTrue(confined.standardError.contains("--input-root"), confined.standardError)
        // The default font is the system's: the input roots don't apply to it.
        let output = store.outputPath("default-font-confined")
        let defaultFont = try SegueTool.run(["stitch", captioned, "--input-root", store.folder.path, "-o", output, "--preset", "ultrafast",
                                             "--quiet"])
        XCTAssertEqual(defaultFont.status, 0, defaultFont.standardError)
        for (card, key) in [(["text": ""], "clips[1].text"), (["text": "x", "duration": 0], "clips[1].duration"),
                            (["text": "x", "background": "red"], "clips[1].background")] as [([String: Any], String)] {
            let result = try run([try manifest("bad-card.json", clips: [["path": clip], card])])
            XCTAssertEqual(result.status, 2, key)
            XCTAssertTrue(result.standardError.contains(key), "\(key): \(result.standardError)")
        }
    }

    func testFontDrawsInThatFaceFromAPathThatWouldBreakAFilterGraph() throws {
        let folder = "/usr/share/fonts/truetype/dejavu"
        guard FileManager.default.fileExists(atPath: "\(folder)/DejaVuSerif-Bold.ttf") else { throw unavailable("fonts-dejavu-core is not installed") }
        // A font under a name with the filter graph's special characters.
        let hostile = store.folder.appendingPathComponent("font a:b,'c'[d];e.ttf").path
        try? FileManager.default.removeItem(atPath: hostile)
        try FileManager.default.copyItem(atPath: "\(folder)/DejaVuSerif-Bold.ttf", toPath: hostile)
        let list = try manifest("caption-font.json", clips: [["path": try marker(0, 10), "caption": "Typeface test"]])
        let faces = try [nil, hostile, "\(folder)/DejaVuSans-Bold.ttf"].map { font -> PlaneImage in
            let path = try stitch([list, "--size", "640x360"] + (font.map { ["--font", $0] } ?? []), name: "font-\(font == nil ? "default" : UUID().uuidString)")
            return try DecodedOutput(path: path).pictures[5]
        }
        let regular = faces[0], serifBold = faces[1], sansBold = faces[2]
        func ink(_ picture: PlaneImage) -> Int {
            var count = 0
            for y in 300..<360 { for x in 0..<640 where picture[x, y] > 200 { count += 1 } }
            return count
        }
        XCTAssertNotNil(Self.difference(regular, serifBold), "serif differs from sans")
        XCTAssertNotNil(Self.difference(serifBold, sansBold), "serif bold differs from sans bold")
        XCTAssertGreaterThan(Double(ink(sansBold)), 1.2 * Double(ink(regular)), "the bold face is drawn, not the family's regular")
    }

    // MARK: --smart

    func testSmartReencodesOnlyTheCaptionedClipAndSaysWhy() throws {
        // Marker clips encoded as a phone would (tagged BT.709, GOPs of 30): copyable.
        let paths = try (0..<3).map { clip -> String in
            let source = try marker(clip, 60)
            return try store.path("text-phone-\(clip)-60.mp4") { path in
                let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264", "-profile:v", "high",
                                                     "-preset", "fast", "-crf", "18", "-x264-params",
                                                     "keyint=30:min-keyint=30:bframes=3:scenecut=0", "-pix_fmt", "yuv420p",
                                                     "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                                                     "-c:a", "copy", "-f", "mp4", path])
                XCTAssertEqual(result.status, 0, result.standardError)
            }
        }
        var entries = paths.map { ClipEntry(path: $0) }
        entries[1].caption = "Only this one"
        entries.append(ClipEntry(path: ""))
        entries[3].card = TextCard(text: "The end")
        entries[3].duration = 1
        var settings = StitchSettings()
        settings.smart = true
        settings.preset = "ultrafast"
        let (_, report, path) = try store.stitch(entries, settings: settings)
        let smart = try XCTUnwrap(report.smart)
        XCTAssertEqual(smart.map(\.framesCopied), [60, 0, 60, 0])
        XCTAssertEqual(smart.map(\.framesReencoded), [0, 60, 0, 30])
        XCTAssertEqual(smart[1].notCopied, [.caption])
        XCTAssertEqual(smart[3].notCopied, [.textCard])
        XCTAssertEqual(smart[3].reason, "it is a text card: its pictures are made, not read from a file")
        let output = try DecodedOutput(path: path)
        XCTAssertEqual(output.pictures.count, 210)
        XCTAssertTrue(Marker.read(output.pictures[75]).map { $0 == (1, 15) } ?? false, "the captioned clip keeps its frames")
    }
}
