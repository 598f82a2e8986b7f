import Foundation
import XCTest
@testable import SegueInput
@testable import SegueMedia
@testable import SegueModel

/// Phone photos as phones write them: HEIC/HEIF (through libheif) and
/// multi-picture JPEGs (Ultra HDR, MPF), each a still of its primary picture,
/// judged against libheif's own decoder (`heif-convert`) or the first
/// picture's colour; hostile ones refused quickly, naming the file.
final class PhotoFormatTests: XCTestCase {
    let store = FixtureStore.shared

    /// Quadrants red, green / blue, yellow (top left, top right / bottom left,
    /// bottom right): any turn or mirror moves a colour.
    func quadrants(_ name: String, width: Int, height: Int) throws -> String {
        try store.path(name) { path in
            let (w, h) = (width / 2, height / 2)
            let red = "if(lt(X,\(w)),if(lt(Y,\(h)),230,20),if(lt(Y,\(h)),20,230))"
            let green = "if(lt(X,\(w)),if(lt(Y,\(h)),20,20),if(lt(Y,\(h)),220,220))"
            let blue = "if(lt(X,\(w)),if(lt(Y,\(h)),20,230),20)"
            _ = try FFmpeg.run(["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=\(width)x\(height),geq=r='\(red)':g='\(green)':b='\(blue)',format=rgb24",
                                "-frames:v", "1", "-f", "image2", path])
        }
    }

    /// A HEIC file of the quadrants, coded by heif-enc.
    func heic(_ name: String, width: Int = 320, height: Int = 240, options: [String] = []) throws -> String {
        let png = try quadrants("\(name).png", width: width, height: height)
        return try store.path("\(name).heic") { try HEIFFixture.encode(png, to: $0, options: options) }
    }

    /// Packed RGB of a picture file (or a video's first frame), decoded by ffmpeg; optionally scaled.
    func rgb(_ path: String, size: String? = nil) throws -> [UInt8] {
        [UInt8](try FFmpeg.run(["-v", "error", "-i", path, "-frames:v", "1"] + (size.map { ["-s", $0] } ?? [])
                               + ["-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]).output)
    }

    /// heif-convert's decoding of `heic` (a PNG).
    func reference(_ heic: String) throws -> String {
        let png = heic + ".reference.png"
        try? FileManager.default.removeItem(atPath: png)
        let result = try Tool.run("heif-convert", [heic, png])
        XCTAssertEqual(result.status, 0, "heif-convert (Scripts/setup installs libheif-examples): \(result.standardError)")
        return png
    }

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty, "pictures of one size")
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// Stitches `inputs` on a canvas of `size` (nearly lossless), returns the output's path.
    func stitch(_ inputs: [String], size: String, extra: [String] = []) throws -> String {
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch"] + inputs + ["-o", output, "--size", size, "--crf", "1", "--preset", "ultrafast", "--quiet"] + extra)
        XCTAssertEqual(result.status, 0, result.standardError)
        return output
    }

    func duration(_ path: String) throws -> Double {
        let result = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Stitches `heic` alone on a canvas of its displayed size and measures its
    /// first frame against heif-convert's decoding; returns the mean difference.
    func differenceFromHeifConvert(_ heic: String, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let probed = try Prober.probe(heic).get()
        XCTAssertTrue(probed.facts.isStill, file: file, line: line)
        XCTAssertEqual([probed.facts.displayWidth, probed.facts.displayHeight], [width, height], "displayed size", file: file, line: line)
        let output = try stitch([heic], size: "\(width)x\(height)")
        XCTAssertEqual(try duration(output), 3.0, accuracy: 0.02, "a still of --still-duration's default", file: file, line: line)
        let reference = try rgb(try reference(heic))
        XCTAssertEqual(reference.count, width * height * 3, "heif-convert's picture is \(width)x\(height)", file: file, line: line)
        return PhotoFormatTests.meanDifference(try rgb(output), reference)
    }

    // MARK: HEIC

    func testHEICPhotoIsAStillOfItsPictureAsHeifConvertDecodesIt() throws {
        let heic = try heic("plain")
        let difference = try differenceFromHeifConvert(heic, width: 320, height: 240)
        XCTAssertLessThan(difference, 3, "mean difference from heif-convert, per 8-bit sample")
        print("HEIC plain: mean difference from heif-convert \(difference)")
    }

    func testHEICGridTilesAreAssembledInPlace() throws {
        // heif-enc 1.15 writes no grids: four tiles coded by heif-enc, assembled here into a 2x2 grid.
        let whole = try quadrants("grid-whole.png", width: 512, height: 512)
        var tiles: [HEIFFixture.Item] = []
        for (index, (x, y)) in [(0, 0), (256, 0), (0, 256), (256, 256)].enumerated() {
            let tilePNG = store.folder.appendingPathComponent("grid-tile-\(index).png").path
            // Each tile gets a dark square in its own corner, so a tile out of place shows.
            _ = try FFmpeg.run(["-v", "error", "-y", "-i", whole, "-vf", "crop=256:256:\(x):\(y),drawbox=x=\(x == 0 ? 8 : 200):y=\(y == 0 ? 8 : 200):w=48:h=48:color=black:t=fill",
                                "-f", "image2", tilePNG])
            let tileHEIC = tilePNG + ".heic"
            try HEIFFixture.encode(tilePNG, to: tileHEIC)
            let coded = try HEIFFixture.coded(tileHEIC)
            tiles.append(HEIFFixture.Item(id: index + 2, type: "hvc1", data: coded.data, properties: HEIFFixture.properties(coded),
                                          hidden: true))
        }
        let grid = HEIFFixture.Item(id: 1, type: "grid", data: HEIFFixture.grid(rows: 2, columns: 2, width: 512, height: 512),
                                    properties: [HEIFFixture.ispe(512, 512)])
        let path = store.folder.appendingPathComponent("grid.heic").path
        try Data(HEIFFixture.file(primary: 1, items: [grid] + tiles, references: [("dimg", 1, [2, 3, 4, 5])]))
            .write(to: URL(fileURLWithPath: path))
        // libheif's own tool sees a grid of four tiles, and so does Segue's layout reader.
        let dump = try Tool.run("heif-info", ["-d", path]).standardOutput
        XCTAssertTrue(dump.contains("item_type: grid"), dump)
        XCTAssertEqual(HEIFLayout.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))),
                       HEIFLayout(primaryType: "grid", tileCount: 4))
        let difference = try differenceFromHeifConvert(path, width: 512, height: 512)
        XCTAssertLessThan(difference, 3)
        // The bottom-right tile's square is where it belongs (dark), the top-left's too.
        let frame = try rgb(try stitch([path], size: "512x512"))
        for (x, y) in [(32, 32), (480, 480)] {
            let at = (y * 512 + x) * 3
            XCTAssertLessThan(Int(frame[at]) + Int(frame[at + 1]) + Int(frame[at + 2]), 60, "tile square at \(x),\(y)")
        }
        print("HEIC grid 2x2: mean difference from heif-convert \(difference)")
    }

    /// A heif-enc picture re-assembled with `transforms` (irot, imir) on its primary.
    func transformed(_ name: String, _ transforms: [[UInt8]], thumbnail: Bool = false) throws -> String {
        let coded = try HEIFFixture.coded(try heic("transform-source"))
        let path = store.folder.appendingPathComponent("\(name).heic").path
        let item = HEIFFixture.Item(id: 1, type: "hvc1", data: coded.data, properties: HEIFFixture.properties(coded) + transforms)
        try Data(HEIFFixture.file(primary: 1, items: [item], references: [])).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testHEICRotationIsAppliedOnce() throws {
        // irot 1: 90° counter-clockwise, so the stored 320x240 is shown 240x320 with red bottom left.
        let path = try transformed("rotated", [HEIFFixture.irot(1)])
        let difference = try differenceFromHeifConvert(path, width: 240, height: 320)
        XCTAssertLessThan(difference, 3)
        let frame = try rgb(try stitch([path], size: "240x320"))
        let bottomLeft = (260 * 240 + 60) * 3, topLeft = (60 * 240 + 60) * 3
        XCTAssertGreaterThan(frame[bottomLeft], 180, "red is bottom left after a 90° counter-clockwise turn")
        XCTAssertLessThan(frame[topLeft], 80, "top left is green, not red")
        print("HEIC irot 90: mean difference from heif-convert \(difference)")
    }

    func testHEICMirrorAndRotationAreAppliedOnce() throws {
        let path = try transformed("mirrored", [HEIFFixture.irot(2), HEIFFixture.imir(0)])
        let difference = try differenceFromHeifConvert(path, width: 320, height: 240)
        XCTAssertLessThan(difference, 3)
        print("HEIC irot 180 + imir: mean difference from heif-convert \(difference)")
    }

    func testHEICThumbnailIsNotShown() throws {
        let path = try heic("with-thumbnail", options: ["-t", "64"])
        let info = try Tool.run("heif-info", [path]).standardOutput
        XCTAssertTrue(info.contains("thumbnail: 64x48"), info)
        let difference = try differenceFromHeifConvert(path, width: 320, height: 240)
        XCTAssertLessThan(difference, 3)
    }

    func testHEICAmongVideoIsHeldForStillDurationAndLeavesTheCanvas() throws {
        let clip = try store.path("photo-partner.mp4", MarkerClip(clip: 0, frames: 30))
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch", clip, try heic("plain"), "-o", output, "--still-duration", "2", "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let stream = try XCTUnwrap(FFprobe.streams(output, entries: "stream=width,height").first)
        XCTAssertEqual([stream["width"] as? Int, stream["height"] as? Int], [320, 180], "the video clip sets the canvas")
        XCTAssertEqual(try duration(output), 3.0, accuracy: 0.05, "1 s of video and 2 s of photo")
    }

    func testTenBitHEICIsShownAsHeifConvertDecodesIt() throws {
        let png16 = store.folder.appendingPathComponent("ten-bit.png").path
        _ = try FFmpeg.run(["-v", "error", "-y", "-i", try quadrants("ten-bit-source.png", width: 320, height: 240),
                            "-pix_fmt", "rgb48be", "-f", "image2", png16])
        let path = try store.path("ten-bit.heic") { try HEIFFixture.encode(png16, to: $0, options: ["-b", "10"]) }
        XCTAssertTrue(try Tool.run("heif-info", ["-d", path]).standardOutput.contains("bit_depth_luma: 10"))
        let difference = try differenceFromHeifConvert(path, width: 320, height: 240)
        XCTAssertLessThan(difference, 3)
        print("HEIC 10-bit: mean difference from heif-convert \(difference)")
    }

    func testPQHEICIsShownAsSDR() throws {
        // A grey at PQ 58 % (full-range code 148: 203 cd/m², BT.2408's reference white), tagged PQ and BT.2020
        // by an nclx colr box (heif-enc 1.15 writes none). Shown as SDR by Segue's tone map (docs/hdr.md), HDR
        // reference white lands at SDR 75 % (191 of 255), not at the grey (148) its codes are read as without it.
        let png = try store.path("pq-grey.png") { path in
            _ = try FFmpeg.run(["-v", "error", "-y", "-f", "lavfi", "-i", "color=0x949494:s=320x240,format=rgb24", "-frames:v", "1", "-f", "image2", path])
        }
        let coded = try HEIFFixture.coded(try store.path("pq-grey-coded.heic") { try HEIFFixture.encode(png, to: $0) })
        let colr = HEIFFixture.box("colr", Array("nclx".utf8) + HEIFFixture.be(9, 2) + HEIFFixture.be(16, 2) + HEIFFixture.be(9, 2) + [0x80])
        let item = HEIFFixture.Item(id: 1, type: "hvc1", data: coded.data, properties: HEIFFixture.properties(coded) + [colr])
        let path = try write("pq-grey.heic", HEIFFixture.file(primary: 1, items: [item], references: []))
        let frame = try rgb(try stitch([path], size: "320x240"), size: "8x8")
        let mean = frame.reduce(0) { $0 + Int($1) } / frame.count
        print("PQ HEIC grey 148 shown as \(mean)")
        XCTAssertEqual(Double(mean), 0.75 * 255, accuracy: 8, "PQ reference white shown at SDR 75 %")
    }

    // MARK: Multi-picture JPEG

    func jpeg(_ name: String, colour: String, size: String) throws -> [UInt8] {
        let path = try store.path(name) { path in
            _ = try FFmpeg.run(["-v", "error", "-y", "-f", "lavfi", "-i", "color=\(colour):s=\(size)", "-frames:v", "1", "-q:v", "2", "-f", "image2", path])
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testUltraHDRJPEGIsAStillOfItsFirstPictureOnly() throws {
        let primary = try jpeg("uhdr-primary.jpg", colour: "red", size: "320x240")
        let gainMap = try jpeg("uhdr-gainmap.jpg", colour: "0x00C0FF", size: "160x120")
        let path = store.folder.appendingPathComponent("ultra-hdr.jpg").path
        try Data(MultiPictureFixture.ultraHDR(primary: primary, appended: gainMap)).write(to: URL(fileURLWithPath: path))
        let probed = try Prober.probe(path).get()
        XCTAssertTrue(probed.facts.isStill, "\(probed.facts.container): a photo, not a \(probed.use.duration) s video")
        XCTAssertEqual([probed.facts.displayWidth, probed.facts.displayHeight], [320, 240])
        let output = try stitch([path], size: "320x240", extra: ["--still-duration", "2.5"])
        XCTAssertEqual(try duration(output), 2.5, accuracy: 0.02)
        let frames = try FFprobe.streams(output).first?["nb_read_frames"] as? String
        XCTAssertEqual(frames, "75", "2.5 s at 30 fps")
        // Every frame red, none the gain map's blue: the first, middle and last.
        for time in ["0", "1.2", "2.45"] {
            let picture = [UInt8](try FFmpeg.run(["-v", "error", "-ss", time, "-i", output, "-frames:v", "1", "-s", "8x8",
                                                  "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]).output)
            XCTAssertEqual(picture.count, 8 * 8 * 3)
            let mean = (0..<3).map { channel in stride(from: channel, to: picture.count, by: 3).map { Int(picture[$0]) }.reduce(0, +) / 64 }
            XCTAssertTrue(mean[0] > 200 && mean[1] < 50 && mean[2] < 50, "frame at \(time) s is rgb\(mean), not the red primary")
        }
    }

    // MARK: Hostile photos

    /// Refused at probe by the command line with exit 2, naming the file and saying `why`, within `seconds`.
    func assertRefused(_ path: String, saying why: String, within seconds: Double = 10, line: UInt = #line) throws {
        let started = Date()
        let result = try SegueTool.run(["stitch", path, "-o", store.outputPath(), "--quiet"])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 2, result.standardError, line: line)
        XCTAssertTrue(result.standardError.contains((path as NSString).lastPathComponent), result.standardError, line: line)
        XCTAssertTrue(result.standardError.contains(why), "expected '\(why)' in: \(result.standardError)", line: line)
        XCTAssertLessThan(elapsed, seconds, "refused in bounded time", line: line)
        print("refused \((path as NSString).lastPathComponent) in \(String(format: "%.2f", elapsed)) s: \(result.standardError.split(separator: "\n").first ?? "")")
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = store.folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A HEIC whose primary picture is a grid of `side` x `side` references to one 64x64 tile.
    func tiledHEIC(side: Int) throws -> String {
        let coded = try HEIFFixture.coded(try heic("tiny-tile", width: 64, height: 64))
        let tile = HEIFFixture.Item(id: 2, type: "hvc1", data: coded.data, properties: HEIFFixture.properties(coded), hidden: true)
        let grid = HEIFFixture.Item(id: 1, type: "grid", data: HEIFFixture.grid(rows: side, columns: side, width: 64 * side, height: 64 * side),
                                    properties: [HEIFFixture.ispe(64 * side, 64 * side)])
        return try write("tiles-\(side * side).heic", HEIFFixture.file(primary: 1, items: [grid, tile],
                                                                      references: [("dimg", 1, Array(repeating: 2, count: side * side))]))
    }

    func testHEICGridOfTensOfThousandsOfTilesIsRefusedBeforeDecoding() throws {
        // 40,000 references to one tiny tile: a 200x200 grid of a 64x64 picture.
        try assertRefused(try tiledHEIC(side: 200), saying: "built from 40000 tiles, over the 2048")
    }

    func testHEICGridJustUnderTheTileLimitDecodesInBoundedTime() throws {
        // 45x45 = 2,025 references to one 64x64 tile (the limit is 2,048): the most decoding work a file may ask for.
        let path = try tiledHEIC(side: 45)
        let started = Date()
        let probed = try Prober.probe(path).get()
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual([probed.facts.displayWidth, probed.facts.displayHeight], [2_880, 2_880])
        XCTAssertLessThan(elapsed, 20, "2,025 tiles decoded in bounded time")
        print("HEIC grid of 2025 tiles probed (decoded) in \(String(format: "%.2f", elapsed)) s")
    }

    func testHEICPastThePictureBoundIsRefusedBeforeDecoding() throws {
        let coded = try HEIFFixture.coded(try heic("plain"))
        for (name, width, height, why) in [("huge-area.heic", 20_000, 20_000, "over the 100-megapixel limit"),
                                           ("huge-side.heic", 60_000, 60_000, "HEIC/HEIF photo can't be read")] {
            let item = HEIFFixture.Item(id: 1, type: "hvc1", data: coded.data, properties: [coded.hvcC, HEIFFixture.ispe(width, height)])
            try assertRefused(try write(name, HEIFFixture.file(primary: 1, items: [item], references: [])), saying: why)
        }
    }

    func testTruncatedHEICIsRefused() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try heic("plain"))))
        // Cut inside the meta box, and inside the picture's data.
        try assertRefused(try write("cut-meta.heic", Array(bytes.prefix(120))), saying: "HEIC/HEIF photo can't be read")
        try assertRefused(try write("cut-data.heic", Array(bytes.prefix(bytes.count - 400))), saying: "HEIC/HEIF photo can't be read")
    }

    func testMultiPictureJPEGWhoseAppendedPictureOutgrowsTheFileIsRefused() throws {
        let primary = try jpeg("uhdr-primary.jpg", colour: "red", size: "320x240")
        let gainMap = try jpeg("uhdr-gainmap.jpg", colour: "0x00C0FF", size: "160x120")
        let path = try write("mpf-past-end.jpg", MultiPictureFixture.ultraHDR(primary: primary, appended: gainMap, claimedSize: 2_000_000_000))
        try assertRefused(path, saying: "past the file's end")
    }
}
