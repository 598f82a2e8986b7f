import Foundation
import XCTest

/// Photos in their own colours: a photo's ICC profile (here Display P3, as
/// every iPhone photo carries) is applied as it becomes a still, into sRGB
/// for an SDR canvas and into BT.2020 for an HDR one, judged against
/// LittleCMS run independently (Pillow's ImageCms) and against the values
/// the photo would show if its profile were ignored. The fixtures and the
/// judge are Tests/scripts/photo_colour.py (Debian's python3, python3-pil,
/// python3-numpy); the HEIC is coded from the PNG by heif-enc.
final class PhotoColourTests: XCTestCase {
    let store = FixtureStore.shared
    static let script = SegueTool.repository.appendingPathComponent("Tests/scripts/photo_colour.py").path
    /// Debian's own python3: Pillow and numpy come from its packages.
    static let python = "/usr/bin/python3"
    /// Patches whose colour lies well outside what the same values mean in sRGB
    /// (P3's own red and green too, but an SDR canvas clips them to sRGB's).
    static let saturated = ["red", "green", "yellow", "cyan"]

    /// The folder of photos photo_colour.py makes (display-p3.icc, p3.png, p3.jpg, plain.png, srgb.png, garbage.png).
    func photos() throws -> String {
        try store.path("photo-colour") { folder in
            let result = try Tool.run(PhotoColourTests.python, [PhotoColourTests.script, "make", folder])
            XCTAssertEqual(result.status, 0, "photo_colour.py make (Scripts/setup installs python3-pil): \(result.standardError)")
            guard result.status == 0 else { throw HEIFFixture.FixtureError.tool("photo_colour.py") }
        }
    }

    /// One patch as the judge saw it.
    struct Patch: Decodable {
        var name: String
        var measured: [Double]
        var expected: [Double]
        var ignored: [Double]
        var error: Double
        var fromIgnored: Double
        var xy: [Double]?
    }

    struct Judgement: Decodable {
        var patches: [Patch]
        var meanError: Double
        var maxError: Double

        func patch(_ name: String) throws -> Patch { try XCTUnwrap(patches.first { $0.name == name }, name) }
    }

    /// The canvas the photos fill exactly.
    static let canvas = ["--size", "320x180", "--fps", "30"]

    /// Stitches `inputs` (nearly lossless, 1 s stills), returns the output's path and segue's stderr.
    func stitch(_ inputs: [String], extra: [String] = canvas, quiet: Bool = true) throws -> (path: String, standardError: String) {
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch"] + inputs + ["-o", output, "--still-duration", "1", "--crf", "1", "--preset", "ultrafast"]
                                       + (quiet ? ["--quiet"] : []) + extra)
        XCTAssertEqual(result.status, 0, result.standardError)
        return (output, result.standardError)
    }

    /// The judge's reading of `output`'s picture at `seconds`.
    func judge(_ output: String, at seconds: Double, hdr: Bool = false) throws -> Judgement {
        let result = try Tool.run(PhotoColourTests.python, [PhotoColourTests.script, "judge", try photos(), output, "--at", String(seconds)]
                                  + (hdr ? ["--hdr"] : []))
        XCTAssertEqual(result.status, 0, result.standardError)
        return try JSONDecoder().decode(Judgement.self, from: Data(result.standardOutput.utf8))
    }

    /// The output's picture is LittleCMS's sRGB of the photo (within 3 steps at
    /// each patch's centre, 1 on average), and far from the values as stored.
    func assertConvertedIntoSRGB(_ judgement: Judgement, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertLessThanOrEqual(judgement.maxError, 3, "\(label): largest error from LittleCMS, in 8-bit steps", file: file, line: line)
        XCTAssertLessThanOrEqual(judgement.meanError, 1, "\(label): mean error from LittleCMS", file: file, line: line)
        for name in PhotoColourTests.saturated {
            XCTAssertGreaterThan(try judgement.patch(name).fromIgnored, 20, "\(label): \(name) as if the profile were ignored",
                                 file: file, line: line)
        }
        XCTAssertGreaterThan(try judgement.patch("skin").fromIgnored, 5, "\(label): skin as if the profile were ignored", file: file, line: line)
        XCTAssertLessThanOrEqual(try judgement.patch("grey").error, 1, "\(label): grey stays grey", file: file, line: line)
        print("\(label): error from LittleCMS mean \(judgement.meanError), max \(judgement.maxError); from the values as stored: "
              + judgement.patches.map { "\($0.name) \($0.fromIgnored)" }.joined(separator: ", "))
    }

    /// MD5 of every decoded picture of `output`.
    func pictures(_ output: String) throws -> String {
        try Tool.run("ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "md5", "-"]).standardOutput
    }

    func testDisplayP3PNGIsConvertedIntoSRGB() throws {
        let output = try stitch([try photos() + "/p3.png"])
        try assertConvertedIntoSRGB(try judge(output.path, at: 0.5), "PNG")
    }

    func testDisplayP3JPEGIsConvertedIntoSRGB() throws {
        let output = try stitch([try photos() + "/p3.jpg"])
        try assertConvertedIntoSRGB(try judge(output.path, at: 0.5), "JPEG")
    }

    func testDisplayP3HEICAfterAVideoClipIsConvertedIntoSRGB() throws {
        let folder = try photos()
        let heic = try store.path("photo-colour-p3.heic") { try HEIFFixture.encode(folder + "/p3.png", to: $0) }
        let info = try Tool.run("heif-info", [heic]).standardOutput
        XCTAssertTrue(info.contains("color profile: prof"), "heif-enc kept the PNG's ICC profile: \(info)")
        // The clip sets the canvas (320x180 at 30 fps); the photo follows it.
        let clip = try FFmpeg.make("photo-colour-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1",
                                                             "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let output = try stitch([clip, heic], extra: [])
        try assertConvertedIntoSRGB(try judge(output.path, at: 1.5), "HEIC")
    }

    func testAPhotoWithoutAProfileOrWithSRGBsIsLeftAsItIs() throws {
        let folder = try photos()
        let plain = try stitch([folder + "/plain.png"])
        let judged = try judge(plain.path, at: 0.5)
        XCTAssertLessThanOrEqual(judged.patches.map(\.fromIgnored).max() ?? 99, 3, "the values as stored")
        let sRGB = try stitch([folder + "/srgb.png"])
        XCTAssertEqual(try pictures(sRGB.path), try pictures(plain.path), "an sRGB profile changes nothing")
        XCTAssertEqual(sRGB.standardError, "")
    }

    func testAnUnreadableProfileIsIgnoredWithAWarningNamingThePhoto() throws {
        let folder = try photos()
        let report = store.folder.appendingPathComponent("photo-colour-garbage.json").path
        let garbage = try stitch([folder + "/garbage.png"], extra: PhotoColourTests.canvas + ["--report", report, "-y"], quiet: false)
        XCTAssertTrue(garbage.standardError.contains("garbage.png: its ICC profile (600 bytes) can't be read; ignored"),
                      garbage.standardError)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let warnings = try XCTUnwrap(json?["warnings"] as? [String])
        XCTAssertTrue(warnings.contains { $0.contains("garbage.png") && $0.contains("ICC profile") }, "\(warnings)")
        let plain = try stitch([folder + "/plain.png"])
        XCTAssertEqual(try pictures(garbage.path), try pictures(plain.path), "taken as a photo without a profile")
    }

    /// On an HLG canvas the photo goes into BT.2020: Display P3's red keeps
    /// its full colour (x 0.68 and beyond), where sRGB's red (x 0.64) is all
    /// an SDR canvas can hold.
    func testDisplayP3RedIsNotClippedOnAnHDRCanvas() throws {
        let output = try stitch([try photos() + "/p3.png"], extra: PhotoColourTests.canvas + ["--codec", "hevc", "--hdr", "hlg"])
        let judged = try judge(output.path, at: 0.5, hdr: true)
        XCTAssertLessThanOrEqual(judged.maxError, 3, "largest error from BT.2020 at reference white, in 8-bit steps of HLG")
        XCTAssertLessThanOrEqual(judged.meanError, 1)
        let red = try judged.patch("p3 red")
        let xy = try XCTUnwrap(red.xy)
        XCTAssertGreaterThan(xy[0], 0.675, "P3 red is redder than sRGB's red (x 0.640): not clipped")
        XCTAssertLessThan(xy[0], 0.70)
        XCTAssertGreaterThan(red.fromIgnored, 20, "P3 red as if the profile were ignored (sRGB's red)")
        for name in PhotoColourTests.saturated + ["p3 green"] {
            XCTAssertGreaterThan(try judged.patch(name).fromIgnored, 10, "\(name) as if the profile were ignored")
        }
        print("HDR: error mean \(judged.meanError), max \(judged.maxError); P3 red at xy \(xy); from the values as stored: "
              + judged.patches.map { "\($0.name) \($0.fromIgnored)" }.joined(separator: ", "))
    }
}
