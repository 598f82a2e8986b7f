import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The reel look's fill and overlay: `--fit blur` fills the canvas
/// with a blurred, darkened copy of the clip; `--overlay` draws a picture over
/// the whole output. Every check decodes the output the command line wrote.
final class ReelLookFillTests: XCTestCase {
    let store = FixtureStore.shared

    // MARK: Fixtures

    /// A 1 s portrait clip, red-ish with a sharp white grid (so its own picture has edges the fill must not).
    func portraitRed() throws -> String {
        try FFmpeg.make("look-portrait-red.mp4", ["-f", "lavfi", "-i", "color=c=0xC03020:size=180x320:rate=30:duration=1,"
                                                  + "drawgrid=w=16:h=16:t=2:c=white", "-pix_fmt", "yuv420p",
                                                  "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10"])
    }

    /// A 1 s flat clip of one colour at 320x180, 30 fps, no sound.
    func flat(_ colour: String) throws -> String {
        try FFmpeg.make("look-flat-\(colour).mp4", ["-f", "lavfi", "-i", "color=c=\(colour):size=320x180:rate=30:duration=1",
                                                    "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "0"])
    }

    /// A 100x50 blue logo, its left half opaque, its right half half transparent.
    func logo() throws -> String {
        try store.path("look-logo.png") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:size=100x50,format=rgba,"
                                     + "geq=r=0:g=0:b=255:a='if(lt(X\\,50)\\,255\\,128)'", "-frames:v", "1", path])
        }
    }

    func marker(_ clip: Int, _ frames: Int) throws -> String {
        try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
    }

    func stitch(_ arguments: [String], name: String) throws -> String {
        let output = store.outputPath(name)
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output, "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return output
    }

    /// Every picture of `path` as RGB (BT.709 limited range read as such).
    func rgbPictures(_ path: String, width: Int, height: Int) throws -> [RGBPicture] {
        let (data, log) = try FFmpeg.run(["-v", "error", "-i", path, "-vf",
                                          "scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24",
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        let size = width * height * 3
        XCTAssertEqual(data.count % size, 0, log)
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map {
            RGBPicture(width: width, height: height, bytes: Array(bytes[$0..<$0 + size]))
        }
    }

    // MARK: Blur fill

    func testAPortraitClipOnALandscapeCanvasHasSmoothDarkenedSidesInItsOwnColours() throws {
        let output = try stitch([try portraitRed(), "--size", "320x180", "--fit", "blur", "--crf", "10"], name: "blur-portrait")
        let pictures = try rgbPictures(output, width: 320, height: 180)
        XCTAssertEqual(pictures.count, 30)
        let luma = try DecodedOutput(path: output)
        // Contained: 180x320 in 320x180 is about 102x180 at x = 110; the sides are the fill.
        for index in [0, 15, 29] {
            let picture = pictures[index]
            for side in [(x: 4, width: 96), (x: 220, width: 96)] {
                let (r, g, b) = picture.mean(x: side.x, y: 10, width: side.width, height: 160)
                XCTAssertGreaterThan(r, 40, "frame \(index): the side at \(side.x) is not black")
                XCTAssertGreaterThan(r, 1.8 * g, "frame \(index): red-ish like the clip (\(r), \(g), \(b))")
                XCTAssertGreaterThan(r, 1.8 * b, "frame \(index): red-ish like the clip (\(r), \(g), \(b))")
                // The clip's own red is 192: the fill is darker.
                XCTAssertLessThan(r, 185, "frame \(index): darkened")
            }
            // The grid's edges are gone from the fill, and still in the picture itself.
            let fill = luma.pictures[index].roughness(x: 8, y: 8, width: 90, height: 164)
            let own = luma.pictures[index].roughness(x: 120, y: 8, width: 80, height: 164)
            // What is left in the fill is the encoder's own noise (about 1).
            XCTAssertLessThan(fill, 2, "frame \(index): the fill is smooth")
            XCTAssertGreaterThan(own, 10 * fill, "frame \(index): the picture keeps its edges (\(own) against \(fill))")
        }
    }

    func testAClipThatFillsTheCanvasIsTheSameWithBlurAsWithContain() throws {
        let clip = try marker(0, 30)
        let blur = try DecodedOutput(path: try stitch([clip, "--fit", "blur", "--crf", "0"], name: "blur-filling"))
        let contain = try DecodedOutput(path: try stitch([clip, "--fit", "contain", "--crf", "0"], name: "contain-filling"))
        XCTAssertEqual(blur.pictures.count, 30)
        XCTAssertEqual(blur.pictures, contain.pictures)
    }

    func testACaptionIsDrawnOverTheBlurredFillAsOverBars() throws {
        // A portrait clip on a landscape canvas: with blur the picture is filled, and the caption must still be drawn.
        let manifest = store.folder.appendingPathComponent("blur-caption.json").path
        let clip = try portraitRed()
        try JSONSerialization.data(withJSONObject: ["clips": [["path": clip, "caption": "Over the fill"]]])
            .write(to: URL(fileURLWithPath: manifest))
        for fit in ["blur", "contain"] {
            let captioned = try DecodedOutput(path: try stitch([manifest, "--fit", fit, "--size", "640x360", "--crf", "0"],
                                                               name: "caption-\(fit)"))
            let plain = try DecodedOutput(path: try stitch([clip, "--fit", fit, "--size", "640x360", "--crf", "0"], name: "plain-\(fit)"))
            XCTAssertEqual(captioned.pictures.count, 30)
            let difference = try XCTUnwrap(ReelLookTextTests.difference(captioned.pictures[15], plain.pictures[15]),
                                           "--fit \(fit): no caption drawn")
            XCTAssertGreaterThan(difference.box.1, 360 / 2, "--fit \(fit): the caption sits in the lower half")
            XCTAssertGreaterThan(difference.count, 300, "--fit \(fit)")
        }
    }

    func testBlurKeepsFrameCountsAndColourTags() throws {
        let output = try stitch([try marker(0, 30), try portraitRed(), try marker(1, 30), "--fit", "blur", "--transition", "fade",
                                 "--transition-duration", "0.2"], name: "blur-timeline")
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 90 - 12)
        XCTAssertEqual(Marker.read(decoded.pictures[10])?.frame, 10)
        // Clip 2 (marker 1) starts at 30 + 30 - 2 × 6 = 48.
        XCTAssertEqual(Marker.read(decoded.pictures[70]).map { [$0.clip, $0.frame] }, [1, 22])
        let video = try XCTUnwrap(try FFprobe.streams(output, entries: "stream=codec_type,color_space,color_primaries,color_transfer,color_range")
            .first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["color_space"] as? String, "bt709")
        XCTAssertEqual(video["color_primaries"] as? String, "bt709")
        XCTAssertEqual(video["color_transfer"] as? String, "bt709")
        XCTAssertEqual(video["color_range"] as? String, "tv")
    }

    func testAManifestSetsBlurPerClipAndTheOverlayRelativeToItsFolder() throws {
        let folder = store.folder.appendingPathComponent("look-manifest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let logo = folder.appendingPathComponent("logo.png").path
        if !FileManager.default.fileExists(atPath: logo) { try FileManager.default.copyItem(atPath: try self.logo(), toPath: logo) }
        let manifest = folder.appendingPathComponent("reel.json").path
        try """
            {"clips": [{"path": "\(try portraitRed())", "fit": "blur"}, "\(try portraitRed())"],
             "output": {"size": "320x180", "overlay": "logo.png", "overlayPosition": "top-left", "overlayWidth": 0.25}}
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let pictures = try rgbPictures(try stitch([manifest, "--crf", "10"], name: "look-manifest"), width: 320, height: 180)
        XCTAssertEqual(pictures.count, 60)
        let filled = pictures[15].mean(x: 220, y: 10, width: 96, height: 160), barred = pictures[45].mean(x: 220, y: 10, width: 96, height: 160)
        XCTAssertGreaterThan(filled.r, 40, "the first clip's own fit is blur: \(filled)")
        XCTAssertLessThan(barred.r, 24, "the second clip keeps the output's contain: \(barred)")
        for picture in [pictures[15], pictures[45]] {
            XCTAssertGreaterThan(picture.mean(x: 11, y: 11, width: 28, height: 28).b, 230, "the manifest's overlay, top left")
        }
    }

    // MARK: Overlay

    func testTheOverlaySitsAtEachPositionAlphaBlended() throws {
        let grey = try flat("0x808080")
        let expected: [OverlayPosition: (x: Int, y: Int)] = [
            .topLeft: (5, 5), .topRight: (235, 5), .bottomLeft: (5, 135), .bottomRight: (235, 135), .center: (120, 70),
        ]
        for position in OverlayPosition.allCases {
            let output = try stitch([grey, "--overlay", try logo(), "--overlay-position", position.rawValue, "--overlay-width", "0.25",
                                     "--crf", "0"], name: "overlay-\(position.rawValue)")
            let pictures = try rgbPictures(output, width: 320, height: 180)
            XCTAssertEqual(pictures.count, 30, position.rawValue)
            let (x, y) = try XCTUnwrap(expected[position])
            let box = PictureOverlay.box(pictureWidth: 100, pictureHeight: 50, canvas: Canvas(width: 320, height: 180,
                                         frameRate: Rational(30, 1), sampleRate: 48_000), position: position, widthFraction: 0.25)
            XCTAssertEqual(box, PictureOverlay.Box(x: x, y: y, width: 80, height: 40), position.rawValue)
            for picture in [pictures[0], pictures[29]] {
                // The opaque half: blue.
                let opaque = picture.mean(x: x + 6, y: y + 6, width: 28, height: 28)
                XCTAssertLessThan(opaque.r, 20, "\(position): opaque half \(opaque)")
                XCTAssertGreaterThan(opaque.b, 230, "\(position): opaque half \(opaque)")
                // The half-transparent half: half blue, half grey (128): about (64, 64, 191).
                let half = picture.mean(x: x + 46, y: y + 6, width: 28, height: 28)
                XCTAssertEqual(half.r, 64, accuracy: 12, "\(position): half-transparent half \(half)")
                XCTAssertEqual(half.b, 191, accuracy: 12, "\(position): half-transparent half \(half)")
                // Around the box: the clip's grey, untouched.
                for (ax, ay) in [(x - 4, y + 10), (x + 84, y + 10), (x + 10, y - 4), (x + 10, y + 44)] where ax >= 0 && ay >= 0 && ax + 3 <= 320 && ay + 3 <= 180 {
                    let around = picture.mean(x: ax, y: ay, width: 3, height: 3)
                    XCTAssertEqual(around.r, 128, accuracy: 4, "\(position): grey at (\(ax), \(ay)) \(around)")
                    XCTAssertEqual(around.b, 128, accuracy: 4, "\(position): grey at (\(ax), \(ay)) \(around)")
                }
            }
        }
    }

    func testAJPEGOverlayStandsAsItsEXIFOrientationSays() throws {
        // Stored 100x50, blue on the left and red on the right; orientation 6 (turn 90° clockwise): 50x100, blue on top.
        let jpeg = try store.path("look-logo-exif6.jpg") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:size=50x50[a];color=c=red:size=50x50[b];"
                                     + "[a][b]hstack", "-frames:v", "1", "-q:v", "2", path])
            try EXIF.setOrientation(6, ofJPEG: path)
        }
        let output = try stitch([try flat("0x808080"), "--overlay", jpeg, "--overlay-position", "top-left", "--overlay-width", "0.25",
                                 "--crf", "0"], name: "overlay-exif6")
        let picture = try XCTUnwrap(try rgbPictures(output, width: 320, height: 180).first)
        // 80 wide (a quarter of 320), so 160 high: from (5, 5) to (85, 165).
        let top = picture.mean(x: 20, y: 20, width: 40, height: 40), bottom = picture.mean(x: 20, y: 110, width: 40, height: 40)
        XCTAssertGreaterThan(top.b, 200, "the top is the stored left half, blue: \(top)")
        XCTAssertGreaterThan(bottom.r, 200, "the bottom is the stored right half, red: \(bottom)")
        let below = picture.mean(x: 20, y: 170, width: 40, height: 5), right = picture.mean(x: 90, y: 20, width: 20, height: 40)
        XCTAssertEqual(below.g, 128, accuracy: 6, "nothing drawn below the upright logo: \(below)")
        XCTAssertEqual(right.g, 128, accuracy: 6, "nothing drawn right of it: \(right)")
    }

    func testOpacityHalfHalvesTheOverlay() throws {
        let output = try stitch([try flat("0x808080"), "--overlay", try logo(), "--overlay-width", "0.25", "--overlay-opacity", "0.5",
                                 "--crf", "0"], name: "overlay-half")
        let picture = try XCTUnwrap(try rgbPictures(output, width: 320, height: 180).first)
        let opaque = picture.mean(x: 241, y: 141, width: 28, height: 28)
        XCTAssertEqual(opaque.r, 64, accuracy: 12, "the opaque half at half opacity: \(opaque)")
        XCTAssertEqual(opaque.b, 191, accuracy: 12, "the opaque half at half opacity: \(opaque)")
        let quarter = picture.mean(x: 281, y: 141, width: 28, height: 28)
        XCTAssertEqual(quarter.r, 96, accuracy: 12, "the half-transparent half at half opacity: \(quarter)")
        XCTAssertEqual(quarter.b, 160, accuracy: 12, "the half-transparent half at half opacity: \(quarter)")
    }

    func testASlideDoesNotMoveTheOverlay() throws {
        let output = try stitch([try flat("0x808080"), try flat("0x303030"), "--overlay", try logo(), "--overlay-width", "0.25",
                                 "--overlay-position", "top-right", "--transition", "slide", "--transition-duration", "0.5",
                                 "--crf", "0"], name: "overlay-slide")
        let pictures = try rgbPictures(output, width: 320, height: 180)
        XCTAssertEqual(pictures.count, 60 - 15)
        for (index, picture) in pictures.enumerated() {
            let opaque = picture.mean(x: 241, y: 11, width: 28, height: 28)
            XCTAssertGreaterThan(opaque.b, 230, "frame \(index): the logo is in place \(opaque)")
            XCTAssertLessThan(opaque.r, 20, "frame \(index): the logo is in place \(opaque)")
            let beside = picture.mean(x: 226, y: 11, width: 4, height: 28)
            XCTAssertLessThan(beside.b - beside.r, 8, "frame \(index): no logo left of its place \(beside)")
        }
    }

    func testMarkersTimingAndEverythingOutsideTheOverlayAreThePlainStitchs() throws {
        let clips = [try marker(0, 30), try marker(1, 30), try marker(2, 30)]
        let flags = ["--transition", "fade", "--transition-duration", "0.2", "--crf", "0"]
        let plainPath = try stitch(clips + flags, name: "overlay-oracle-plain")
        let overlaidPath = try stitch(clips + flags + ["--overlay", try logo()], name: "overlay-oracle")
        let plain = try DecodedOutput(path: plainPath), overlaid = try DecodedOutput(path: overlaidPath)
        XCTAssertEqual(overlaid.pictures.count, 90 - 12)
        XCTAssertEqual(overlaid.pictures.count, plain.pictures.count)
        XCTAssertEqual(overlaid.audio.count, plain.audio.count)
        // The logo: 15 % of 320 = 48 wide, 24 high, 5 from the bottom-right corner.
        let box = PictureOverlay.Box(x: 267, y: 151, width: 48, height: 24)
        for (index, (mine, theirs)) in zip(overlaid.pictures, plain.pictures).enumerated() {
            XCTAssertTrue(Marker.read(mine).map { [$0.clip, $0.frame] } == Marker.read(theirs).map { [$0.clip, $0.frame] },
                          "frame \(index): marker")
            var differsOutside = false
            for y in 0..<180 where !differsOutside {
                for x in 0..<320 where !(box.x - 2..<box.x + box.width + 2).contains(x) || !(box.y - 2..<box.y + box.height + 2).contains(y) {
                    if mine[x, y] != theirs[x, y] { differsOutside = true; break }
                }
            }
            XCTAssertFalse(differsOutside, "frame \(index): a pixel outside the logo changed")
            XCTAssertLessThan(mine.mean(x: box.x + 4, y: box.y + 4, width: 16, height: 16), 60, "frame \(index): the blue logo is there")
        }
        for index in [0, 29, 40, 77] { XCTAssertNotNil(Marker.read(overlaid.pictures[index]), "frame \(index) reads") }
        let durations = try FFprobe.streams(overlaidPath, entries: "stream=codec_type,duration,nb_frames")
        let plainDurations = try FFprobe.streams(plainPath, entries: "stream=codec_type,duration,nb_frames")
        XCTAssertEqual(durations.map { $0["duration"] as? String }, plainDurations.map { $0["duration"] as? String })
    }

    // MARK: Bad overlays

    func testAMissingOverlayExits2NamingIt() throws {
        let missing = store.folder.appendingPathComponent("no-such-logo.png").path
        try assertOverlayRefused(missing, saying: "overlay: no such file")
    }

    func testAnUndecodableOverlayExits2NamingIt() throws {
        let bogus = store.folder.appendingPathComponent("bogus-logo.png").path
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: bogus))
        try assertOverlayRefused(bogus, saying: "overlay: ")
    }

    /// A stitch with `overlay` exits 2, naming the file and saying `reason`, and writes nothing.
    func assertOverlayRefused(_ overlay: String, saying reason: String, line: UInt = #line) throws {
        let output = store.outputPath("overlay-refused")
        let result = try SegueTool.run(["stitch", try marker(0, 30), "--overlay", overlay, "-o", output, "--quiet"])
        XCTAssertEqual(result.status, 2, result.standardError, line: line)
        XCTAssertTrue(result.standardError.contains(overlay), result.standardError, line: line)
        XCTAssertTrue(result.standardError.contains(reason), result.standardError, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), line: line)
    }

    func testAnOverlayOutsideTheInputRootsIsRefused() throws {
        let uploads = store.folder.appendingPathComponent("look-uploads").path
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let clip = uploads + "/clip.mp4"
        if !FileManager.default.fileExists(atPath: clip) { try FileManager.default.copyItem(atPath: try marker(0, 30), toPath: clip) }
        let output = store.outputPath("overlay-outside")
        let result = try SegueTool.run(["stitch", clip, "--overlay", try logo(), "--input-root", uploads, "-o", output, "--quiet"])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("overlay: is outside the allowed folders"), result.standardError)
        // The same picture inside the root is fine.
        let inside = uploads + "/logo.png"
        if !FileManager.default.fileExists(atPath: inside) { try FileManager.default.copyItem(atPath: try logo(), toPath: inside) }
        let allowed = try SegueTool.run(["stitch", clip, "--overlay", inside, "--input-root", uploads, "-o", output, "--quiet",
                                         "--preset", "ultrafast"])
        XCTAssertEqual(allowed.status, 0, allowed.standardError)
    }

    // MARK: Smart and segments

    func testSmartCopiesNothingUnderAnOverlayAndSaysWhy() throws {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.smart = true
        settings.overlay = try logo()
        let (_, report, _) = try store.stitch([ClipEntry(path: try marker(0, 60)), ClipEntry(path: try marker(1, 60))], settings: settings)
        XCTAssertEqual(report.framesCopied, 0)
        let clips = try XCTUnwrap(report.smart)
        XCTAssertEqual(clips.map(\.notCopied), [[.overlay], [.overlay]])
        XCTAssertTrue(clips.allSatisfy { $0.reason?.contains("overlay") ?? false }, "\(clips.map(\.reason))")
    }

    func testSmartStillCopiesAClipThatFillsTheCanvasUnderBlur() throws {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.smart = true
        settings.fit = .blur
        let (_, report, _) = try store.stitch([ClipEntry(path: try marker(0, 60)), ClipEntry(path: try marker(1, 60))], settings: settings)
        XCTAssertGreaterThan(report.framesCopied, 0)
    }

    func testSegmentsWithBlurAndAnOverlayJoinToThePlainStitch() throws {
        let inputs = [try marker(0, 30), try portraitRed(), try marker(1, 30)]
        let flags = ["--fit", "blur", "--overlay", try logo(), "--overlay-position", "center", "--transition", "fade",
                     "--transition-duration", "0.2", "--crf", "0", "--preset", "ultrafast", "-y"]
        let plain = store.outputPath("look-segments-plain")
        let stitched = try Tools.segue(["stitch"] + inputs + ["-o", plain, "--quiet"] + flags)
        XCTAssertEqual(stitched.status, 0, stitched.standardError)
        let work = store.folder.appendingPathComponent("work-look-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath("look-segments")
        let planned = try Tools.segue(["plan"] + inputs + ["-o", output, "--work", work, "--segment-duration", "0.7"] + flags)
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let count = Int(planned.standardOutput.split(separator: "\n").last?.dropFirst("segments: ".count) ?? "") ?? 0
        XCTAssertGreaterThan(count, 2)
        try Tools.renderInAnyOrderAndJoin(work, segments: count)
        let whole = try DecodedOutput(path: plain), joined = try DecodedOutput(path: output)
        XCTAssertEqual(joined.pictures.count, 90 - 12)
        XCTAssertEqual(joined.pictures.count, whole.pictures.count)
        for index in 0..<min(joined.pictures.count, whole.pictures.count) where joined.pictures[index] != whole.pictures[index] {
            XCTFail("frame \(index) differs from the plain stitch's")
            break
        }
    }
}

extension RGBPicture {
    /// Mean red, green and blue of a rectangle.
    func mean(x: Int, y: Int, width w: Int, height h: Int) -> (r: Double, g: Double, b: Double) {
        precondition(x >= 0 && y >= 0 && x + w <= width && y + h <= height, "the rectangle lies in the picture")
        var sums = [0.0, 0.0, 0.0]
        for row in y..<y + h {
            for column in x..<x + w {
                for channel in 0..<3 { sums[channel] += Double(bytes[(row * width + column) * 3 + channel]) }
            }
        }
        let count = Double(w * h)
        return (sums[0] / count, sums[1] / count, sums[2] / count)
    }
}

extension PlaneImage {
    /// High-frequency energy of a rectangle: the mean absolute Laplacian (4 neighbours).
    func roughness(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        precondition(x >= 1 && y >= 1 && x + w < width && y + h < height, "the rectangle and its border lie in the picture")
        var sum = 0.0
        for row in y..<y + h {
            for column in x..<x + w {
                let centre = 4 * Int(self[column, row])
                let around = Int(self[column - 1, row]) + Int(self[column + 1, row]) + Int(self[column, row - 1]) + Int(self[column, row + 1])
                sum += Double(abs(centre - around))
            }
        }
        return sum / Double(w * h)
    }
}
