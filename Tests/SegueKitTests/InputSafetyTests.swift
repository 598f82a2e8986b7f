import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
import SegueMedia
import SegueCore

/// Hostile inputs, as an attacker would upload them, each built here and each
/// paired with the same flags on a legitimate input that must work (so a
/// refusal can't come from a flag the tool doesn't know).
final class InputSafetyTests: XCTestCase {
    let store = FixtureStore.shared

    /// A folder of uploads beside a folder of secrets, fresh per test.
    struct Sandbox {
        let uploads: String
        let secrets: String
        let secretClip: String

        init(_ name: String) throws {
            let base = FixtureStore.shared.folder.appendingPathComponent("safety-\(name)-\(UUID().uuidString.prefix(8))").path
            uploads = base + "/uploads"
            secrets = base + "/secrets"
            for folder in [uploads, secrets] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            secretClip = secrets + "/private.ts"
            try FileManager.default.copyItem(atPath: try Sandbox.clip(), toPath: secretClip)
        }

        /// A small legitimate clip.
        static func clip() throws -> String {
            try FixtureStore.shared.path("safety-clip.mp4", MarkerClip(clip: 0, frames: 15))
        }

        func upload(_ name: String, _ text: String) throws -> String {
            let path = uploads + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// A copy of the legitimate clip among the uploads.
        func legitimate(_ name: String = "good.mp4") throws -> String {
            let path = uploads + "/" + name
            if !FileManager.default.fileExists(atPath: path) { try FileManager.default.copyItem(atPath: try Sandbox.clip(), toPath: path) }
            return path
        }
    }

    /// Stitches `inputs` with `flags` into a fresh output; the result and whether the output exists.
    func stitch(_ inputs: [String], _ flags: [String] = []) throws -> (result: SegueTool.Result, wrote: Bool) {
        let output = store.outputPath()
        let result = try SegueTool.run(["stitch"] + inputs + ["-o", output, "--preset", "ultrafast", "--quiet"] + flags)
        return (result, FileManager.default.fileExists(atPath: output))
    }

    /// Asserts a refusal: exit 2, nothing written, and a message naming `name` and saying `why`.
    func assertRefused(_ inputs: [String], _ flags: [String] = [], naming name: String, saying why: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let (result, wrote) = try stitch(inputs, flags)
        XCTAssertEqual(result.status, 2, result.standardError, file: file, line: line)
        XCTAssertFalse(wrote, "output written for \(inputs)", file: file, line: line)
        XCTAssertTrue(result.standardError.contains(name), "message doesn't name \(name): \(result.standardError)", file: file, line: line)
        XCTAssertTrue(result.standardError.contains(why), "message doesn't say '\(why)': \(result.standardError)", file: file, line: line)
    }

    func assertStitches(_ inputs: [String], _ flags: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let (result, wrote) = try stitch(inputs, flags)
        XCTAssertEqual(result.status, 0, result.standardError, file: file, line: line)
        XCTAssertTrue(wrote, file: file, line: line)
    }

    // MARK: Only media opens

    func testHLSPlaylistNamedMP4IsRefusedAndFetchesNothing() throws {
        let box = try Sandbox("hls")
        let server = try TestServer(root: box.secrets)
        let local = try box.upload("clip.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.0,\nfile://\(box.secretClip)\n#EXT-X-ENDLIST\n")
        let remote = try box.upload("remote.mp4", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.0,\n\(server.base)/private.ts\n#EXT-X-ENDLIST\n")
        try assertRefused([local], naming: "clip.mp4", saying: "is an HLS playlist")
        try assertRefused([remote], naming: "remote.mp4", saying: "playlists are not opened")
        XCTAssertEqual(try server.stats()["requests"] as? Int, 0, "the playlist's URL was fetched")
        // The same file served as a clip is fine.
        try assertStitches([try box.legitimate(), "\(server.base)/private.ts"])
    }

    func testTextUnderTeletypeNamesIsRefused() throws {
        let box = try Sandbox("tty")
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        for name in ["passwd.nfo", "notes.asc", "art.ans"] {
            try assertRefused([try box.upload(name, passwd)], naming: name, saying: "is text")
        }
        let probe = try SegueTool.run(["probe", try box.upload("readme.nfo", passwd)])
        XCTAssertEqual(probe.status, 2)
        XCTAssertTrue(probe.standardOutput.contains("unusable: is text"), probe.standardOutput)
        try assertStitches([try box.legitimate()])
    }

    func testConcatScriptNamedMP4IsRefusedButWorksAsAList() throws {
        let box = try Sandbox("concat")
        let good = try box.legitimate()
        let script = "ffconcat version 1.0\nfile \(good)\n"
        try assertRefused([try box.upload("clip.mp4", script)], naming: "clip.mp4", saying: "is an ffconcat script")
        try assertStitches([try box.upload("clips.ffconcat", script)])
    }

    func testPercentAndColonInNamesAreJustCharacters() throws {
        let box = try Sandbox("names")
        // Numbered pictures a %d pattern would expand to, and a picture truly named with it.
        for (name, colour) in [("img1.png", "blue"), ("img2.png", "blue"), ("img%d.png", "red")] {
            // Written under a plain name and renamed: ffmpeg's own image muxer would expand the %d.
            _ = try FFmpeg.run(["-f", "lavfi", "-i", "color=\(colour):size=64x64", "-frames:v", "1", "-y", box.uploads + "/making.png"])
            try FileManager.default.moveItem(atPath: box.uploads + "/making.png", toPath: box.uploads + "/" + name)
        }
        let probe = try SegueTool.run(["probe", "--json", box.uploads + "/img%d.png"])
        XCTAssertEqual(probe.status, 0, probe.standardOutput + probe.standardError)
        XCTAssertTrue(probe.standardOutput.contains("\"displayWidth\" : 64"), probe.standardOutput)
        // Stitched, it is the red picture of that name, not the blue sequence.
        let output = store.outputPath()
        let stitched = try SegueTool.run(["stitch", box.uploads + "/img%d.png", "-o", output, "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(stitched.status, 0, stitched.standardError)
        let rgb = [UInt8](try FFmpeg.run(["-i", output, "-frames:v", "1", "-s", "8x8", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]).output)
        XCTAssertEqual(rgb.count, 8 * 8 * 3)
        let (red, blue) = (rgb[(8 * 4 + 4) * 3], rgb[(8 * 4 + 4) * 3 + 2])
        XCTAssertTrue(red > 180 && blue < 80, "centre is rgb(\(red), _, \(blue)), not red")
        // A pattern with no file of that name is no such file, not a sequence.
        try assertRefused([box.uploads + "/img%03d.png"], naming: "img%03d.png", saying: "no such file")
        // A file whose name starts like a protocol opens as itself.
        let colon = box.uploads + "/concat:clip.mp4"
        try FileManager.default.copyItem(atPath: try box.legitimate(), toPath: colon)
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(box.uploads)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        try assertStitches(["concat:clip.mp4"])
    }

    func testEveryOtherProtocolIsRefusedWherever() throws {
        let box = try Sandbox("protocols")
        let secret = box.secretClip
        let inputs = ["concat:\(secret)", "concat:file://\(secret)", "async:file://\(secret)", "cache:file://\(secret)",
                      "subfile,,start,0,end,4000,,:\(secret)", "crypto:\(secret)", "data:video/mp4;base64,AAAA", "pipe:0",
                      "tcp://127.0.0.1:9", "rtmp://127.0.0.1/live", "ftp://127.0.0.1/a.mp4"]
        for input in inputs {
            let scheme = String(input.prefix { $0.isLetter })
            try assertRefused([input], naming: input, saying: "'\(scheme):' protocol")
        }
        // In a list, and as the music bed, too.
        let list = try box.upload("list.txt", "\(try box.legitimate())\nasync:file://\(secret)\n")
        try assertRefused([list], naming: "async:file://", saying: "'async:' protocol")
        try assertRefused([try box.legitimate()], ["--music", "cache:file://\(secret)"], naming: "cache:file://", saying: "'cache:' protocol")
        // file:// URLs are files.
        try assertStitches(["file://\(try box.legitimate())"])
    }

    // MARK: Pictures bounded before decoding

    func testPictureBombsAreRefusedQuicklyInLittleMemory() throws {
        let box = try Sandbox("bombs")
        let png = box.uploads + "/bomb.png", jpeg = box.uploads + "/bomb.jpg", large = box.uploads + "/large.png"
        try Bombs.png(width: 65535, height: 65535).write(to: URL(fileURLWithPath: png))
        try Bombs.png(width: 12000, height: 9000).write(to: URL(fileURLWithPath: large)) // 108 MP: just over
        try Bombs.jpeg(width: 65500, height: 65500).write(to: URL(fileURLWithPath: jpeg))
        for (path, size) in [(png, "65535x65535"), (jpeg, "65500x65500"), (large, "12000x9000")] {
            let started = Date()
            let (result, peak) = try Bombs.runMeasured(["stitch", path, "-o", store.outputPath(), "--quiet"])
            XCTAssertEqual(result, 2)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10)
            XCTAssertLessThan(peak, 200_000_000, "peak memory \(peak / 1_000_000) MB for \(path)")
            let message = try stitch([path]).result.standardError
            XCTAssertTrue(message.contains("picture is \(size)") && message.contains("100-megapixel limit"), message)
        }
        // A photo of ordinary size is a still clip.
        let photo = box.uploads + "/photo.png"
        _ = try FFmpeg.run(["-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", "-y", photo])
        try assertStitches([photo, try box.legitimate()])
        // One at the limit (100 MP) too, decoded once into bounded memory.
        let limit = box.uploads + "/limit.jpg"
        _ = try FFmpeg.run(["-f", "lavfi", "-i", "color=teal:size=10000x10000", "-frames:v", "1", "-q:v", "8", "-y", limit])
        let (status, peak) = try Bombs.runMeasured(["stitch", limit, try box.legitimate(), "-o", store.outputPath(),
                                                    "--size", "320x180", "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(status, 0)
        XCTAssertLessThan(peak, 450_000_000, "peak memory \(peak / 1_000_000) MB for a 100-megapixel photo")
    }

    /// Found by the stitch fuzzer: one flipped bit in a 33-bit PTS made a
    /// 26 KB transport stream a 3.3-hour clip, an hour of work from a few bytes.
    func testAPresentationTimeFarFromItsDecodingTimeDoesNotStretchAClip() throws {
        let box = try Sandbox("flip")
        for container in ["ts", "mp4", "mkv"] {
            let path = box.uploads + "/flip.\(container)"
            _ = try FFmpeg.run(["-f", "lavfi", "-i", "testsrc2=s=64x36:r=25:d=1", "-c:v", container == "ts" ? "mpeg2video" : "libx264",
                                "-bf", "2", "-bsf:v", "setts=pts=if(eq(N\\,5)\\,PTS+1073741824\\,PTS)", "-y", path])
            let probe = try SegueTool.run(["probe", "--json", path])
            XCTAssertEqual(probe.status, 0, probe.standardError)
            let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8)) as? [[String: Any]])?.first)
            XCTAssertEqual(row["duration"] as? Double ?? 0, 1.0, accuracy: 0.05, "\(container)")
            let started = Date()
            try assertStitches([path])
            XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        }
    }

    /// Also found by the fuzzer: in containers whose packets carry their own
    /// times, one sound packet stamped days ahead held the picture for days.
    func testATimestampJumpInAnyContainerDoesNotStretchAClip() throws {
        let box = try Sandbox("jump")
        for (container, videoCodec, audioCodec) in [("flv", "flv1", "libmp3lame"), ("mkv", "libx264", "aac"), ("avi", "mpeg4", "libmp3lame")] {
            let path = box.uploads + "/jump.\(container)"
            _ = try FFmpeg.run(["-f", "lavfi", "-i", "testsrc2=s=64x36:r=25:d=1", "-f", "lavfi", "-i", "sine=d=1",
                                "-c:v", videoCodec, "-c:a", audioCodec, "-ar", "44100",
                                "-bsf:a", "setts=ts=if(eq(N\\,5)\\,TS+1000000000\\,TS)", "-y", path])
            let probe = try SegueTool.run(["probe", "--json", path])
            XCTAssertEqual(probe.status, 0, probe.standardError)
            let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8)) as? [[String: Any]])?.first)
            XCTAssertEqual(row["duration"] as? Double ?? 0, 1.0, accuracy: 0.1, "\(container)")
        }
    }

    // MARK: Lists can't loop

    func testSelfIncludingListsAreRefusedNestedListsWork() throws {
        let box = try Sandbox("lists")
        let good = try box.legitimate()
        let selfList = try box.upload("self.txt", "\(good)\nself.txt\n")
        try assertRefused([selfList], naming: "self.txt", saying: "includes itself")
        _ = try box.upload("b.txt", "a.txt\n")
        let a = try box.upload("a.txt", "\(good)\nb.txt\n")
        try assertRefused([a], naming: "a.txt", saying: "a.txt → b.txt → a.txt")
        let manifest = try box.upload("reel.json", #"{"clips": ["good.mp4", "reel.json"]}"#)
        try assertRefused([manifest], naming: "reel.json", saying: "includes itself")
        // A list may name another list (no loop): its clips play in place.
        _ = try box.upload("inner.txt", "good.mp4\ngood.mp4\n")
        let outer = try box.upload("outer.txt", "good.mp4\ninner.txt\n")
        let probe = try SegueTool.run(["probe", outer])
        XCTAssertEqual(probe.status, 0, probe.standardOutput + probe.standardError)
        XCTAssertEqual(probe.standardOutput.components(separatedBy: "good.mp4").count - 1, 3)
        try assertStitches([outer])
    }

    // MARK: --input-root

    func testATimelinesSoundMediumOutsideTheRootsIsRefusedSayingWhy() throws {
        // Not "can't be opened as media": the refusal itself.
        let box = try Sandbox("sound-root")
        let access = InputAccess(policy: try InputPolicy.confined(to: [box.uploads], allowRemote: false))
        XCTAssertThrowsError(try SoundMedium.probe(box.secretClip, access: access, recordRate: Rational(25, 1))) { error in
            XCTAssertTrue(SoundMedium.describe(error, path: box.secretClip).contains("outside the allowed folders"), "\(error)")
        }
        XCTAssertNoThrow(try SoundMedium.probe(try box.legitimate(), access: access, recordRate: Rational(25, 1)))
    }

    func testInputRootConfinesEveryLocalPath() throws {
        let box = try Sandbox("root")
        let good = try box.legitimate()
        let root = ["--input-root", box.uploads]
        try assertStitches([good], root)
        try assertRefused([box.uploads + "/../secrets/private.ts"], root, naming: "private.ts", saying: "outside the allowed folders")
        try assertRefused([box.secretClip], root, naming: box.secretClip, saying: "outside the allowed folders")
        let link = box.uploads + "/innocent.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: box.secretClip)
        try assertRefused([link], root, naming: "innocent.mp4", saying: "outside the allowed folders")
        // Through a list, a manifest and --music.
        let list = try box.upload("list.txt", "good.mp4\n../secrets/private.ts\n")
        try assertRefused([list], root, naming: "private.ts", saying: "outside the allowed folders")
        let manifest = try box.upload("reel.json", #"{"clips": ["good.mp4", "\#(box.secretClip)"]}"#)
        try assertRefused([manifest], root, naming: "private.ts", saying: "outside the allowed folders")
        try assertRefused([good], root + ["--music", box.secretClip], naming: "private.ts", saying: "outside the allowed folders")
        // A list outside the roots isn't read either; probe takes the flag too.
        let outsideList = box.secrets + "/list.txt"
        try "\(good)\n".write(toFile: outsideList, atomically: true, encoding: .utf8)
        try assertRefused([outsideList], root, naming: "list.txt", saying: "outside the allowed folders")
        let probe = try SegueTool.run(["probe", good, link] + root)
        XCTAssertEqual(probe.status, 2)
        XCTAssertTrue(probe.standardOutput.contains("innocent.mp4") && probe.standardOutput.contains("outside the allowed folders"))
        // A root that doesn't exist is bad usage.
        let missing = try stitch([good], ["--input-root", box.uploads + "/nowhere"])
        XCTAssertEqual(missing.result.status, 2)
        XCTAssertTrue(missing.result.standardError.contains("no such folder"), missing.result.standardError)
    }

    /// The check is made on the opened file: a symlink swapped in after the probe leads nowhere.
    func testInputRootIsCheckedWhereTheFileIsOpened() throws {
        let box = try Sandbox("swap")
        let link = box.uploads + "/clip.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try box.legitimate("real.mp4"))
        var access = InputAccess()
        try access.policy.confine(to: [box.uploads])
        XCTAssertNoThrow(try access.openDemuxer(link))
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: box.secretClip)
        XCTAssertThrowsError(try access.openFile(link)) { XCTAssertEqual($0 as? BadInputReason, .outsideInputRoots) }
        XCTAssertThrowsError(try access.openDemuxer(link)) { XCTAssertEqual($0 as? BadInputReason, .outsideInputRoots) }
    }

    /// A plan carries the policy: each render checks again where it opens, on its own machine.
    func testRendersOfAPlanApplyItsInputRoots() throws {
        let box = try Sandbox("segments")
        let link = box.uploads + "/clip.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try box.legitimate("real.mp4"))
        let work = box.uploads + "/../work", output = store.outputPath()
        let plan = try SegueTool.run(["plan", link, "-o", output, "--work", work, "--input-root", box.uploads,
                                      "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(plan.status, 0, plan.standardError)
        // Swapped after planning: the render refuses it, naming the clip.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: box.secretClip)
        let render = try SegueTool.run(["render", work, "--segment", "0", "--quiet"])
        XCTAssertNotEqual(render.status, 0)
        XCTAssertTrue(render.standardError.contains("clip.mp4") && render.standardError.contains("outside the allowed folders"),
                      render.standardError)
        // Swapped back, it renders and joins.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: box.uploads + "/real.mp4")
        XCTAssertEqual(try SegueTool.run(["render", work, "--segment", "0", "--quiet"]).status, 0)
        XCTAssertEqual(try SegueTool.run(["join", work, "--quiet"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    // MARK: --no-remote

    func testNoRemoteRefusesURLsWithoutARequest() throws {
        let box = try Sandbox("remote")
        let good = try box.legitimate()
        let server = try TestServer(root: box.uploads)
        let url = "\(server.base)/good.mp4"
        try assertRefused([url], ["--no-remote"], naming: url, saying: "remote inputs are off")
        let list = try box.upload("list.txt", "good.mp4\n\(url)\n")
        try assertRefused([list], ["--no-remote"], naming: url, saying: "remote inputs are off")
        try assertRefused([good], ["--no-remote", "--music", url], naming: url, saying: "remote inputs are off")
        let probe = try SegueTool.run(["probe", url, "--no-remote"])
        XCTAssertEqual(probe.status, 2)
        XCTAssertEqual(try server.stats()["requests"] as? Int, 0, "a request was made under --no-remote")
        // Without the flag the same URL works; --no-remote leaves files alone.
        try assertStitches([url])
        try assertStitches([good], ["--no-remote"])
    }

    // MARK: Not a regular file

    func testDevicesAndFIFOsAreRefused() throws {
        let box = try Sandbox("devices")
        let fifo = box.uploads + "/clip.mp4"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let started = Date()
        try assertRefused([fifo], naming: "clip.mp4", saying: "not a regular file")
        try assertRefused(["/dev/zero"], naming: "/dev/zero", saying: "not a regular file")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "a FIFO or a device blocked the probe")
        // A symlink to a clip is that clip.
        let link = box.uploads + "/link.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try box.legitimate())
        try assertStitches([link])
    }
}

/// Picture "bombs": a few bytes that declare an enormous picture.
enum Bombs {
    static func png(width: Int, height: Int) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(body.count) + typed + bigEndian(Int(crc32(typed)))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        // One stored (uncompressed) deflate block of a few zero rows' worth: the decoder would want far more.
        let raw = [UInt8](repeating: 0, count: 1024)
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xFF), UInt8(raw.count >> 8),
                             UInt8(~raw.count & 0xFF), UInt8((~raw.count >> 8) & 0xFF)] + raw + [0, 0, 0, 1]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    static func jpeg(width: Int, height: Int) -> Data {
        let app0: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let sof: [UInt8] = [0xFF, 0xC0, 0, 17, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                            3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return Data([0xFF, 0xD8] + app0 + sof + [0xFF, 0xD9])
    }

    static func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Runs segue with `arguments` in a fresh Python parent, whose children's
    /// rusage is segue's alone: its exit status and peak resident memory in bytes.
    static func runMeasured(_ arguments: [String]) throws -> (status: Int32, peakBytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
            """, SegueTool.executable.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { throw FFmpeg.FixtureError.ffmpegFailed("measuring \(arguments)") }
        return (Int32(fields[0]), fields[1])
    }
}
