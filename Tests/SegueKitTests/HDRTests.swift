import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// HDR output: `--hdr off|hlg|pq|auto`, `--codec h264|hevc|av1`,
/// HDR10 metadata in the bitstream, the warnings, SDR layers at reference
/// white, and every way of stitching giving the same HDR pictures.
///
/// Fixtures are made once per run with the ffmpeg CLI (an independent
/// encoder): 320x180, 30 fps, 1 s of picture with 1.3 s of sound.
final class HDRTests: XCTestCase {
    let store = FixtureStore.shared

    // MARK: Fixtures

    /// The mastering display and light levels every x265 fixture states.
    static let x265Metadata = "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50):max-cll=1000,400"
    static let testPicture = "testsrc2=s=320x180:r=30:d=1"
    static let noise = "anoisesrc=d=1.3:c=pink:a=0.2:seed=4"
    /// A voice-like buzz: a low tone broken into syllables.
    static let speech = "sine=f=180:d=1.3,tremolo=f=4:d=0.9"

    func ffmpeg(_ arguments: [String]) throws {
        try Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    }

    /// An HEVC (Main 10 unless told) clip of `transfer` made by x265, tagged in the VUI and the container.
    func hevc(_ name: String, transfer: String, picture: String = testPicture, primaries: String = "bt2020",
              pixelFormat: String = "yuv420p10le", metadata: String? = x265Metadata) throws -> String {
        try store.path("hdr-\(name).mp4") { path in
            var params = ["log-level=error", "colorprim=\(primaries)", "transfer=\(transfer)", "colormatrix=bt2020nc"]
            if let metadata { params += ["hdr10=1", "repeat-headers=1", metadata] }
            try ffmpeg(["-f", "lavfi", "-i", picture, "-f", "lavfi", "-i", Self.noise,
                        "-pix_fmt", pixelFormat, "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", params.joined(separator: ":"),
                        "-color_primaries", primaries, "-color_trc", transfer, "-colorspace", "bt2020nc", "-tag:v", "hvc1",
                        "-c:a", "aac", path])
        }
    }

    func hlg() throws -> String { try hevc("hlg", transfer: "arib-std-b67") }
    func pq() throws -> String { try hevc("pq", transfer: "smpte2084") }
    /// A dark flat HLG picture stating no HDR10 metadata.
    func hlgDark() throws -> String {
        try hevc("hlg-dark", transfer: "arib-std-b67", picture: "color=c=0x202020:s=320x180:r=30:d=1", metadata: nil)
    }
    func hlg422() throws -> String { try hevc("hlg-422", transfer: "arib-std-b67", pixelFormat: "yuv422p10le") }
    /// PQ whose primaries say BT.709: a contradiction.
    func pqOn709() throws -> String { try hevc("pq-709", transfer: "smpte2084", primaries: "bt709", metadata: nil) }
    /// PQ stating a 20,000 cd/m² mastering display: no display has one.
    func pqImplausible() throws -> String {
        try hevc("pq-implausible", transfer: "smpte2084",
                 metadata: Self.x265Metadata.replacingOccurrences(of: "L(10000000,50)", with: "L(200000000,50)"))
    }
    /// PQ whose mastering display peaks at 0.1 cd/m² (1000 in x265's 1/10000 units): a writer's unit slip.
    func pqDim() throws -> String {
        try hevc("pq-dim", transfer: "smpte2084", metadata: Self.dimMetadata)
    }
    /// HLG with the same slip.
    func hlgDim() throws -> String {
        try hevc("hlg-dim", transfer: "arib-std-b67", metadata: Self.dimMetadata)
    }
    static let dimMetadata = x265Metadata.replacingOccurrences(of: "L(10000000,50)", with: "L(1000,1)")
    /// PQ whose primaries are written into the wrong slots (x265 lists G, B, R):
    /// red's in green's, green's in blue's, blue's in red's, so a reader finds
    /// them listed blue, red, green.
    func pqMisordered() throws -> String {
        try hevc("pq-misordered", transfer: "smpte2084",
                 metadata: "master-display=G(34000,16000)B(13250,34500)R(7500,3000)WP(15635,16450)L(10000000,50):max-cll=1000,400")
    }

    /// SVT-AV1 PQ with its own mastering display (1000 / 0.0001 cd/m²) and light levels (1100, 180).
    func av1PQ() throws -> String {
        try store.path("hdr-av1-pq.mp4") { path in
            try ffmpeg(["-f", "lavfi", "-i", Self.testPicture, "-f", "lavfi", "-i", Self.noise,
                        "-pix_fmt", "yuv420p10le", "-c:v", "libsvtav1", "-preset", "12", "-svtav1-params",
                        "enable-hdr=1:mastering-display=G(0.265,0.69)B(0.15,0.06)R(0.68,0.32)WP(0.3127,0.329)L(1000,0.0001):content-light=1100,180",
                        "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-c:a", "aac", path])
        }
    }

    /// SDR H.264 BT.709, 8-bit; `white` makes every picture 100 % white (luma 235).
    func sdr(white: Bool = false) throws -> String {
        try store.path(white ? "hdr-sdr-white.mp4" : "hdr-sdr.mp4") { path in
            try ffmpeg(["-f", "lavfi", "-i", white ? "color=c=white:s=320x180:r=30:d=1" : Self.testPicture, "-f", "lavfi", "-i", Self.speech,
                        "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
                        "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-c:a", "aac", path])
        }
    }

    // MARK: Running segue

    static let quick = ["--preset", "ultrafast", "--crf", "20", "--quiet", "-y"]

    struct StitchError: Error, CustomStringConvertible {
        var description: String
    }

    /// Stitches into a fresh output; throws when segue fails.
    func stitch(_ arguments: [String]) throws -> String {
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch"] + arguments + ["-o", output] + Self.quick)
        guard result.status == 0 else { throw StitchError(description: "segue exited \(result.status): \(result.standardError)") }
        return output
    }

    /// A stitch made once per run and shared by the tests that read it, with its report beside it.
    func shared(_ name: String, _ arguments: [String]) throws -> (path: String, report: [String: Any]) {
        let path = try store.path("hdr-out-\(name).mp4") { path in
            let result = try SegueTool.run(["stitch"] + arguments + ["-o", path, "--report", path + ".json"] + Self.quick)
            guard result.status == 0 else { throw StitchError(description: "segue exited \(result.status): \(result.standardError)") }
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path + ".json"))
        return (path, try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
    }

    // MARK: Reading outputs

    /// The first video stream's codec, tag, profile, pixel format and colour tags, and its decoded frame count.
    func video(_ path: String) throws -> [String: Any] {
        let entries = "stream=codec_type,codec_name,codec_tag_string,profile,pix_fmt,color_range,color_space,color_transfer,color_primaries,nb_read_frames"
        let streams = try FFprobe.run(["-count_frames", "-show_entries", entries, path])["streams"] as? [[String: Any]] ?? []
        return try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" }, "no video stream in \(path)")
    }

    func assertHDR(_ path: String, transfer: String, codec: String = "hevc", file: StaticString = #filePath, line: UInt = #line) throws {
        let stream = try video(path)
        XCTAssertEqual(stream["codec_name"] as? String, codec, file: file, line: line)
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p10le", file: file, line: line)
        XCTAssertEqual(stream["color_transfer"] as? String, transfer, file: file, line: line)
        XCTAssertEqual(stream["color_primaries"] as? String, "bt2020", file: file, line: line)
        XCTAssertEqual(stream["color_space"] as? String, "bt2020nc", file: file, line: line)
        XCTAssertEqual(stream["color_range"] as? String, "tv", file: file, line: line)
        if codec == "hevc" {
            XCTAssertEqual(stream["codec_tag_string"] as? String, "hvc1", file: file, line: line)
            XCTAssertEqual(stream["profile"] as? String, "Main 10", file: file, line: line)
        }
    }

    func assertSDR(_ path: String, pixelFormat: String = "yuv420p", file: StaticString = #filePath, line: UInt = #line) throws {
        let stream = try video(path)
        XCTAssertEqual(stream["pix_fmt"] as? String, pixelFormat, file: file, line: line)
        XCTAssertEqual(stream["color_transfer"] as? String, "bt709", file: file, line: line)
        XCTAssertEqual(stream["color_primaries"] as? String, "bt709", file: file, line: line)
        XCTAssertEqual(stream["color_space"] as? String, "bt709", file: file, line: line)
        XCTAssertEqual(stream["color_range"] as? String, "tv", file: file, line: line)
    }

    /// The mastering display and content light level ffprobe finds on picture `frame`, as numbers
    /// (chromaticities 0-1, luminance in cd/m²): keys red_x … white_point_y, min_luminance,
    /// max_luminance, max_content, max_average; empty when the picture carries none.
    func sideData(_ path: String, frame: Int = 0) throws -> [String: Double] {
        let json = try FFprobe.run(["-select_streams", "v", "-read_intervals", "%+#\(frame + 1)", "-show_frames",
                                    "-show_entries", "frame=side_data_list", path])
        let frames = json["frames"] as? [[String: Any]] ?? []
        guard frame < frames.count else { return [:] }
        var values: [String: Double] = [:]
        for entry in frames[frame]["side_data_list"] as? [[String: Any]] ?? [] {
            let type = entry["side_data_type"] as? String ?? ""
            guard type == "Mastering display metadata" || type == "Content light level metadata" else { continue }
            for (key, value) in entry where key != "side_data_type" {
                if let number = value as? NSNumber { values[key] = number.doubleValue; continue }
                let parts = "\(value)".split(separator: "/").compactMap { Double($0) }
                if parts.count == 2, parts[1] != 0 { values[key] = parts[0] / parts[1] } else if parts.count == 1 { values[key] = parts[0] }
            }
        }
        return values
    }

    static let masteringKeys = ["red_x", "red_y", "green_x", "green_y", "blue_x", "blue_y", "white_point_x", "white_point_y",
                                "min_luminance", "max_luminance"]

    func assertSideData(_ actual: [String: Double], equals expected: [String: Double], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(actual.isEmpty, "no mastering display or content light level on the picture", file: file, line: line)
        for key in Self.masteringKeys + ["max_content", "max_average"] {
            guard let want = expected[key] else { XCTFail("expected side data lacks \(key)", file: file, line: line); continue }
            guard let got = actual[key] else { XCTFail("\(key) missing", file: file, line: line); continue }
            // Chromaticities round to 1/50000 (HEVC) or 1/65536 (AV1); luminance to 1/10000 or 1/16384 cd/m².
            let tolerance = key.hasSuffix("luminance") ? max(1e-4, want * 1e-4) : key.hasPrefix("max_") ? 0.5 : 1e-3
            XCTAssertEqual(got, want, accuracy: tolerance, key, file: file, line: line)
        }
    }

    /// The BT.2408 defaults: BT.2020 primaries, D65, 1000 / 0.0001 cd/m², MaxCLL 1000, MaxFALL 400.
    static let defaultPQMetadata: [String: Double] = [
        "red_x": 0.708, "red_y": 0.292, "green_x": 0.170, "green_y": 0.797, "blue_x": 0.131, "blue_y": 0.046,
        "white_point_x": 0.3127, "white_point_y": 0.3290, "min_luminance": 0.0001, "max_luminance": 1000,
        "max_content": 1000, "max_average": 400,
    ]

    /// Luma of picture `frame` as 10-bit limited-range codes, read with the ffmpeg CLI.
    func luma10(_ path: String, frame: Int) throws -> (width: Int, height: Int, samples: [UInt16]) {
        let stream = try FFprobe.streams(path, entries: "stream=width,height").first ?? [:]
        let width = stream["width"] as? Int ?? 0, height = stream["height"] as? Int ?? 0
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-i", path, "-map", "0:v", "-vf", "select=eq(n\\,\(frame))", "-vsync", "0",
                             "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let count = width * height
        XCTAssertGreaterThanOrEqual(data.count, count * 2, "picture \(frame) of \(path) not read")
        let samples = data.prefix(count * 2).withUnsafeBytes { raw in
            (0..<min(count, raw.count / 2)).map { UInt16(raw[2 * $0]) | UInt16(raw[2 * $0 + 1]) << 8 }
        }
        return (width, height, samples)
    }

    /// Mean of a rectangle of a luma plane.
    func mean(_ plane: (width: Int, height: Int, samples: [UInt16]), x: Int, y: Int, width: Int, height: Int) -> Double {
        var sum = 0.0
        for row in y..<(y + height) { for column in x..<(x + width) { sum += Double(plane.samples[row * plane.width + column]) } }
        return sum / Double(width * height)
    }

    /// The level the brightest `fraction` of a rectangle's samples reach (ink, not ringing or a stray sample).
    func brightest(_ plane: (width: Int, height: Int, samples: [UInt16]), x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
                   fraction: Double = 0.002) -> Int {
        let w = width ?? plane.width, h = height ?? plane.height
        var values: [UInt16] = []
        for row in y..<(y + h) { for column in x..<(x + w) { values.append(plane.samples[row * plane.width + column]) } }
        values.sort(by: >)
        return Int(values[min(values.count - 1, Int(Double(values.count) * fraction))])
    }

    /// MD5 of every decoded picture, in order (ffmpeg's framemd5, at the stream's own 10 bits).
    func frameHashes(_ path: String) throws -> [String] {
        let result = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces) }
    }

    func warnings(_ report: [String: Any]) -> [String] {
        (report["warnings"] as? [Any] ?? []).map { "\($0)" }
    }

    /// HLG 75 % in 10-bit limited range: 64 + 0.75 × 876 = 721 (BT.2408's 203 cd/m²).
    static let hlgReferenceWhite = 721.0
    /// PQ of 203 cd/m² is 58.1 %: 64 + 0.5807 × 876 ≈ 573.
    static let pqReferenceWhite = 573.0
    /// 10-bit limited-range peak white.
    static let peakWhite = 940.0

    // MARK: The auto rule

    func testAutoWithHEVCMakesHLGOutputFromAnHLGClip() throws {
        try assertHDR(try stitch([try sdr(), try hlg(), "--codec", "hevc"]), transfer: "arib-std-b67")
    }

    func testAutoTakesTheFirstHDRClipsTransfer() throws {
        try assertHDR(try stitch([try sdr(), try pq(), try hlg(), "--codec", "hevc"]), transfer: "smpte2084")
    }

    func testAutoWithH264KeepsTheSDRDefaultFromAnHLGClip() throws {
        let path = try stitch([try hlg()])
        try assertSDR(path)
        XCTAssertEqual(try video(path)["codec_name"] as? String, "h264")
    }

    func testAutoWithOnlySDRClipsAndHEVCIsSDR8Bit() throws {
        try assertSDR(try stitch([try sdr(), "--codec", "hevc"]))
    }

    func testHDROffToneMapsHLGIntoSDRHEVC() throws {
        try assertSDR(try stitch([try hlg(), "--codec", "hevc", "--hdr", "off"]))
    }

    // MARK: Forcing

    func testHDRPQForcesPQFromSDRClips() throws {
        try assertHDR(try stitch([try sdr(), "--codec", "hevc", "--hdr", "pq"]), transfer: "smpte2084")
    }

    func testHDRHLGForcesHLGFromAPQClip() throws {
        try assertHDR(try stitch([try pq(), "--codec", "hevc", "--hdr", "hlg"]), transfer: "arib-std-b67")
    }

    func testManifestHDRKeyForcesPQ() throws {
        let manifest = try store.manifest("hdr-manifest-pq.json", clips: [["path": try sdr()]], output: ["hdr": "pq", "codec": "hevc"])
        try assertHDR(try stitch([manifest]), transfer: "smpte2084")
    }

    func testHDRWithH264ExitsTwoNamingTheConflictAndWritesNothing() throws {
        for mode in ["hlg", "pq"] {
            let output = store.outputPath()
            let result = try SegueTool.run(["stitch", try hlg(), "-o", output, "--hdr", mode, "--codec", "h264", "--quiet"])
            XCTAssertEqual(result.status, 2, "--hdr \(mode) --codec h264: \(result.standardError)")
            XCTAssertTrue(result.standardError.contains("--hdr \(mode)"), result.standardError)
            XCTAssertTrue(result.standardError.contains("h264"), result.standardError)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "output written")
            XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)), "temporary file left")
        }
    }

    // MARK: AV1

    func testAV1OutputFromAPQClipIsTenBitPQ() throws {
        try assertHDR(try stitch([try av1PQ(), "--codec", "av1"]), transfer: "smpte2084", codec: "av1")
    }

    func testSDRAV1OutputIsTenBitBT709() throws {
        let path = try stitch([try sdr(), "--codec", "av1"])
        XCTAssertEqual(try video(path)["codec_name"] as? String, "av1")
        try assertSDR(path, pixelFormat: "yuv420p10le")
    }

    // MARK: HDR10 metadata

    func testHLGOutputCarriesTheClipsMasteringDisplayAndLightLevelsOnItsPictures() throws {
        let clip = try sideData(try hlg())
        let path = try stitch([try hlg(), "--codec", "hevc"])
        assertSideData(try sideData(path), equals: clip)
        // Every picture, not only the first.
        assertSideData(try sideData(path, frame: 29), equals: clip)
    }

    func testPQOutputTakesAnAV1ClipsMetadata() throws {
        let clip = try sideData(try av1PQ())
        XCTAssertEqual(clip["max_content"], 1100)
        assertSideData(try sideData(try stitch([try sdr(), try av1PQ(), "--codec", "hevc"])), equals: clip)
    }

    func testAV1PQOutputCarriesTheClipsMetadata() throws {
        let clip = try sideData(try pq())
        assertSideData(try sideData(try stitch([try pq(), "--codec", "av1"])), equals: clip)
    }

    func testPQForcedFromAnHLGOnlyInputGetsTheDefaultMetadata() throws {
        assertSideData(try sideData(try stitch([try hlg(), "--codec", "hevc", "--hdr", "pq"])), equals: Self.defaultPQMetadata)
    }

    func testHLGOutputFromClipsStatingNoneCarriesNone() throws {
        let path = try stitch([try hlgDark(), "--codec", "hevc"])
        try assertHDR(path, transfer: "arib-std-b67")
        XCTAssertEqual(try sideData(path), [:])
    }

    // MARK: Warnings

    /// One run with every troubled clip, forced to PQ.
    func troubled() throws -> (path: String, report: [String: Any]) {
        try shared("troubled", [try pqOn709(), try hlg422(), try pqImplausible(), "--codec", "hevc", "--hdr", "pq"])
    }

    func testAPQClipWithBT709PrimariesIsReadAsPQWithAWarning() throws {
        let (path, report) = try troubled()
        let pqOn709 = try pqOn709()
        XCTAssertTrue(warnings(report).contains { $0.contains(pqOn709) && $0.contains("contradicts") && $0.contains("bt709") },
                      "\(warnings(report))")
        try assertHDR(path, transfer: "smpte2084")
    }

    func testA422HDRClipIsBroughtToTenBit420WithANote() throws {
        let (path, report) = try troubled()
        let clip = try hlg422()
        XCTAssertTrue(warnings(report).contains { $0.contains(clip) && $0.contains("yuv422p10le") && $0.contains("4:2:0") },
                      "\(warnings(report))")
        XCTAssertEqual(try video(path)["nb_read_frames"] as? String, "90")
    }

    func testImplausibleMetadataIsIgnoredWithAWarningAndDefaultsWritten() throws {
        let (path, report) = try troubled()
        let clip = try pqImplausible()
        XCTAssertTrue(warnings(report).contains { $0.contains(clip) && $0.contains("ignored") }, "\(warnings(report))")
        assertSideData(try sideData(path), equals: Self.defaultPQMetadata)
    }

    func testAMasteringPeakUnderAnyDisplaysIsIgnoredWithAWarningAndDefaultsWritten() throws {
        let clip = try pqDim()
        XCTAssertEqual(try sideData(clip)["max_luminance"] ?? 0, 0.1, accuracy: 1e-4, "the fixture states a 0.1 cd/m² peak")
        let (path, report) = try shared("pq-dim", [clip, "--codec", "hevc"])
        XCTAssertTrue(warnings(report).contains { $0.contains(clip) && $0.contains("0.1 cd/m²") && $0.contains("ignored") },
                      "\(warnings(report))")
        assertSideData(try sideData(path), equals: Self.defaultPQMetadata)
        let output = report["output"] as? [String: Any] ?? [:]
        XCTAssertTrue("\(output)".contains("BT.2408 defaults"), "the report names the defaults: \(output)")
    }

    func testPrimariesListedInTheWrongOrderAreIgnoredWithAWarningAndDefaultsWritten() throws {
        let clip = try pqMisordered()
        // FFmpeg reads primaries in R, G, B order (it reorders the SEI's G, B, R): red here is blue's.
        XCTAssertEqual(try sideData(clip)["red_x"] ?? 0, 0.15, accuracy: 1e-3)
        let (path, report) = try shared("pq-misordered", [clip, "--codec", "hevc"])
        XCTAssertTrue(warnings(report).contains { $0.contains(clip) && $0.contains("primaries") && $0.contains("ignored") },
                      "\(warnings(report))")
        assertSideData(try sideData(path), equals: Self.defaultPQMetadata)
    }

    func testHLGOutputOfAClipWithImplausibleMetadataCarriesNoneOfIt() throws {
        let clip = try hlgDim()
        let (path, report) = try shared("hlg-dim", [clip, "--codec", "hevc"])
        try assertHDR(path, transfer: "arib-std-b67")
        XCTAssertTrue(warnings(report).contains { $0.contains(clip) && $0.contains("ignored") }, "\(warnings(report))")
        XCTAssertEqual(try sideData(path), [:], "HLG passes on only metadata a display can trust")
    }

    func testCleanHDRClipsGiveNoWarnings() throws {
        let (_, report) = try shared("clean", [try hlg(), try hlg(), "--codec", "hevc"])
        XCTAssertEqual(warnings(report), [])
    }

    // MARK: Reference white

    func testSDRWhiteInHLGOutputLandsAtReferenceWhite() throws {
        let path = try stitch([try hlg(), try sdr(white: true), "--codec", "hevc"])
        try assertHDR(path, transfer: "arib-std-b67")
        let plane = try luma10(path, frame: 45)
        let white = mean(plane, x: 40, y: 20, width: 240, height: 140)
        XCTAssertEqual(white, Self.hlgReferenceWhite, accuracy: 8, "SDR white in HLG: code \(white), BT.2408 says 721")
    }

    func testSDRWhiteInPQOutputLandsAtReferenceWhite() throws {
        let path = try stitch([try sdr(white: true), "--codec", "hevc", "--hdr", "pq"])
        let plane = try luma10(path, frame: 15)
        let white = mean(plane, x: 40, y: 20, width: 240, height: 140)
        XCTAssertEqual(white, Self.pqReferenceWhite, accuracy: 8, "SDR white in PQ: code \(white), BT.2408 says 573")
    }

    // MARK: Transitions in HDR

    /// An HLG and a PQ clip (30 frames each) into HLG with `flags`: the frame count and 10-bit pictures.
    func assertTransition(_ flags: [String], frames: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try stitch([try hlg(), try pq(), "--codec", "hevc"] + flags)
        try assertHDR(path, transfer: "arib-std-b67", file: file, line: line)
        XCTAssertEqual(try video(path)["nb_read_frames"] as? String, String(frames), file: file, line: line)
        // Mid-transition (or, frozen, just before it) the picture decodes at 10 bits: not only 8-bit steps.
        let plane = try luma10(path, frame: 22)
        XCTAssertTrue(plane.samples.contains { $0 % 4 != 0 }, "picture 22 has only 8-bit steps", file: file, line: line)
    }

    func testFadeInHDRDecodesAsTenBitWithTheOverlapsFrameCount() throws {
        try assertTransition(["--transition", "fade", "--transition-duration", "0.5"], frames: 45)
    }

    func testSlideInHDRDecodesAsTenBitWithTheOverlapsFrameCount() throws {
        try assertTransition(["--transition", "slide-left", "--transition-duration", "0.5"], frames: 45)
    }

    func testFreezeFadeInHDRDecodesAsTenBitWithTheHeldFrames() throws {
        try assertTransition(["--transition", "fade", "--transition-duration", "0.5", "--mode", "freeze"], frames: 75)
    }

    func testXfadeCircleopenInHDRDecodesAsTenBitWithTheOverlapsFrameCount() throws {
        try assertTransition(["--transition", "circleopen", "--transition-duration", "0.5"], frames: 45)
    }

    // MARK: Segments and jobs

    /// Lossless (--crf 0) so the same pictures decode to the same bytes, as the segment tests do for H.264.
    func segmentFlags() throws -> [String] {
        [try hlg(), try pq(), try sdr(), "--codec", "hevc", "--transition", "fade", "--transition-duration", "0.5",
         "--crf", "0", "--preset", "ultrafast", "-y", "--quiet"]
    }

    func oneProcess() throws -> String {
        let flags = try segmentFlags()   // before taking the store's lock, which is not reentrant
        return try store.path("hdr-out-one-process.mp4") { path in
            let result = try SegueTool.run(["stitch"] + flags + ["-o", path])
            guard result.status == 0 else { throw StitchError(description: result.standardError) }
        }
    }

    func testHDRSegmentsJoinToTheOneProcessOutputFrameForFrame() throws {
        let work = store.folder.appendingPathComponent("hdr-work-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath()
        let planned = try SegueTool.run(["plan"] + (try segmentFlags()) + ["-o", output, "--work", work, "--segment-duration", "0.5"])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let count = Int(planned.standardOutput.split(separator: "\n").last?.dropFirst("segments: ".count) ?? "") ?? 0
        XCTAssertGreaterThan(count, 2)
        try Tools.renderInAnyOrderAndJoin(work, segments: count)
        try assertHDR(output, transfer: "arib-std-b67")
        let plain = try frameHashes(try oneProcess()), joined = try frameHashes(output)
        XCTAssertEqual(joined.count, 60)
        let differing = zip(plain, joined).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        XCTAssertEqual(plain.count, joined.count)
        XCTAssertEqual(differing, [], "\(differing.count) of \(plain.count) pictures differ from the one-process stitch")
    }

    func testHDRJobsTwoEqualsTheOneProcessOutputFrameForFrame() throws {
        let work = store.folder.appendingPathComponent("hdr-jobs-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch"] + (try segmentFlags()) + ["-o", output, "--jobs", "2", "--work", work,
                                                                           "--segment-duration", "0.5"])
        XCTAssertEqual(result.status, 0, result.standardError)
        try assertHDR(output, transfer: "arib-std-b67")
        let plain = try frameHashes(try oneProcess()), jobs = try frameHashes(output)
        XCTAssertEqual(plain.count, jobs.count)
        let differing = zip(plain, jobs).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        XCTAssertEqual(differing, [], "\(differing.count) of \(plain.count) pictures differ from the one-process stitch")
    }

    // MARK: Layers in HDR

    /// A captioned dark HLG clip with burnt subtitles, a white-on-black card, an
    /// HLG clip and music, out in HLG: 30 + 30 + 30 frames.
    func layered() throws -> (path: String, report: [String: Any]) {
        let music = try store.path("hdr-music.m4a") { path in
            try ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=4", "-c:a", "aac", path])
        }
        let srt = store.folder.appendingPathComponent("hdr-dark.srt").path
        try Data("1\n00:00:00,000 --> 00:00:01,000\nSUBTITLE\n\n".utf8).write(to: URL(fileURLWithPath: srt))
        let clips: [Any] = [["path": try hlgDark(), "caption": "CAPTION", "subtitles": srt],
                            ["text": "CARD", "duration": 1.0, "background": "#000000"],
                            ["path": try hlg()]]
        let manifest = try store.manifest("hdr-layered.json", clips: clips)
        return try shared("layered", [manifest, "--codec", "hevc", "--subtitles", "burn", "--music", music])
    }

    /// A white logo (64 px: a fifth of the canvas) top-left over the dark HLG clip, out in HLG.
    func overlaid() throws -> String {
        let logo = try store.path("hdr-logo.png") { path in
            try ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=64x64", "-frames:v", "1", path])
        }
        return try shared("overlaid", [try hlgDark(), "--codec", "hevc", "--overlay", logo, "--overlay-position", "top-left",
                                       "--overlay-width", "0.2"]).path
    }

    func testCaptionsCardsBurntSubtitlesAndMusicStitchIntoHLG() throws {
        let (path, report) = try layered()
        try assertHDR(path, transfer: "arib-std-b67")
        XCTAssertEqual(try video(path)["nb_read_frames"] as? String, "90")
        XCTAssertNotNil(report["music"] as? [String: Any], "no music in the report")
    }

    func testCardTextInHLGSitsNearReferenceWhiteNotPeak() throws {
        // Below the logo: the card's black and its white text.
        try assertTextAtReferenceWhite(frame: 45, what: "card text")
    }

    func testOverlayStitchesIntoHLG() throws {
        let path = try overlaid()
        try assertHDR(path, transfer: "arib-std-b67")
        XCTAssertEqual(try video(path)["nb_read_frames"] as? String, "30")
    }

    func testOverlayInHLGSitsNearReferenceWhiteNotPeak() throws {
        let plane = try luma10(try overlaid(), frame: 15)
        // The logo: 64 px wide, 3 % of 180 (5 px) from the top-left corner.
        let logo = mean(plane, x: 12, y: 12, width: 40, height: 40)
        XCTAssertEqual(logo, Self.hlgReferenceWhite, accuracy: 20, "white logo at code \(logo)")
    }

    func testCaptionAndBurntSubtitlesInHLGSitNearReferenceWhiteNotPeak() throws {
        // Over the dark clip: the caption's and the subtitle's text.
        try assertTextAtReferenceWhite(frame: 15, what: "caption text")
    }

    /// Small antialiased text seldom reaches its full level, so the text of `layered()`'s frame `frame`
    /// is judged against the same text in SDR, each as a share of its own white (HLG reference white;
    /// SDR 100 %, read at 10 bits); and it must stay well below peak white.
    func assertTextAtReferenceWhite(frame: Int, what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let hdr = brightest(try luma10(try layered().path, frame: frame), x: 0, y: 60, width: 320, height: 120)
        let sdr = brightest(try luma10(try layeredInSDR(), frame: frame), x: 0, y: 60, width: 320, height: 120)
        let hdrShare = (Double(hdr) - 64) / (Self.hlgReferenceWhite - 64), sdrShare = (Double(sdr) - 64) / (Self.peakWhite - 64)
        XCTAssertGreaterThan(sdrShare, 0.3, "the SDR \(what) is drawn (\(sdr))", file: file, line: line)
        XCTAssertEqual(hdrShare, sdrShare, accuracy: 0.12, "\(what) at code \(hdr) in HLG, \(sdr) in SDR", file: file, line: line)
        XCTAssertLessThan(Double(hdr), Self.peakWhite - 100, "\(what) near peak white", file: file, line: line)
    }

    /// `layered()`'s manifest stitched to SDR (H.264).
    func layeredInSDR() throws -> String {
        _ = try layered()
        let manifest = store.folder.appendingPathComponent("hdr-layered.json").path
        return try shared("layered-sdr", [manifest, "--subtitles", "burn"]).path
    }

    // MARK: JSON

    static let metadataKeys: Set<String> = ["red", "green", "blue", "whitePoint", "minLuminance", "maxLuminance", "maxCLL", "maxFALL"]

    func testProbeJSONShowsDynamicRangeAndHDRMetadata() throws {
        let result = try SegueTool.run(["probe", try hlg(), "--json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        let clips = (json as? [[String: Any]]) ?? ((json as? [String: Any])?["inputs"] as? [[String: Any]]) ?? []
        let clip = try XCTUnwrap(clips.first, result.standardOutput)
        XCTAssertEqual(clip["dynamicRange"] as? String, "HLG")
        let metadata = try XCTUnwrap(clip["hdrMetadata"] as? [String: Any], "no hdrMetadata object: \(clip.keys.sorted())")
        XCTAssertEqual(Set(metadata.keys), Self.metadataKeys)
        XCTAssertEqual(metadata["maxLuminance"] as? Double ?? 0, 1000, accuracy: 0.01)
        XCTAssertEqual(metadata["minLuminance"] as? Double ?? 0, 0.005, accuracy: 1e-5)
        XCTAssertEqual(metadata["maxCLL"] as? Int, 1000)
        XCTAssertEqual(metadata["maxFALL"] as? Int, 400)
        let red = metadata["red"] as? [Double] ?? []
        XCTAssertEqual(red.count, 2)
        XCTAssertEqual(red.first ?? 0, 0.68, accuracy: 1e-4)
    }

    func testReportOutputStatesDynamicRangeBitDepthReasonAndMetadata() throws {
        let (_, report) = try shared("report-pq", [try sdr(), try pq(), "--codec", "hevc"])
        let output = try XCTUnwrap(report["output"] as? [String: Any])
        XCTAssertEqual(output["dynamicRange"] as? String, "PQ", "\(output.keys.sorted())")
        XCTAssertEqual(output["bitDepth"] as? Int, 10)
        XCTAssertFalse((output["dynamicRangeReason"] as? String ?? "").isEmpty, "no dynamicRangeReason")
        let metadata = try XCTUnwrap(output["hdrMetadata"] as? [String: Any], "no hdrMetadata object")
        XCTAssertEqual(Set(metadata.keys), Self.metadataKeys)
        XCTAssertEqual(metadata["maxCLL"] as? Int, 1000)
    }

    func testReportOutputOfHLGStatingNoneHasNullMetadataAndSDRIsEightBit() throws {
        let (_, hlg) = try shared("report-hlg-none", [try hlgDark(), "--codec", "hevc"])
        let output = try XCTUnwrap(hlg["output"] as? [String: Any])
        XCTAssertEqual(output["dynamicRange"] as? String, "HLG")
        XCTAssertTrue(output.keys.contains("hdrMetadata") && output["hdrMetadata"] is NSNull, "hdrMetadata: \(String(describing: output["hdrMetadata"]))")
        let (_, sdr) = try shared("report-sdr", [try hlgDark()])
        let sdrOutput = try XCTUnwrap(sdr["output"] as? [String: Any])
        XCTAssertEqual(sdrOutput["dynamicRange"] as? String, "SDR")
        XCTAssertEqual(sdrOutput["bitDepth"] as? Int, 8)
        XCTAssertFalse((sdrOutput["dynamicRangeReason"] as? String ?? "").isEmpty, "no dynamicRangeReason")
    }
}
