import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The command line as scripts see it: exit codes, messages, and files left alone.
final class CommandLineTests: XCTestCase {
    let store = FixtureStore.shared

    func goodClip() throws -> String {
        try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
    }

    func file(_ name: String, contents: Data) throws -> String {
        let path = store.folder.appendingPathComponent(name).path
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    func audioOnlyFile() throws -> String {
        let path = store.folder.appendingPathComponent("audio-only.m4a").path
        if !FileManager.default.fileExists(atPath: path) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", path]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        return path
    }

    func testBadInputsAreAllNamedAtOnceWithExit2AndNothingWritten() throws {
        let missing = store.folder.appendingPathComponent("missing.mp4").path
        let empty = try file("empty.mp4", contents: Data())
        let text = try file("not-media.mp4", contents: Data(String(repeating: "this is not a video\n", count: 50).utf8))
        let audioOnly = try audioOnlyFile()
        let output = store.outputPath("bad-inputs")
        let result = try SegueTool.run(["stitch", try goodClip(), missing, empty, text, audioOnly, "-o", output])

        XCTAssertEqual(result.status, 2)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.contains(missing) && $0.contains("no such file") }, result.standardError)
        XCTAssertTrue(lines.contains { $0.contains(empty) && $0.contains("empty") }, result.standardError)
        XCTAssertTrue(lines.contains { $0.contains(text) && $0.contains("not a media file") }, result.standardError)
        XCTAssertTrue(lines.contains { $0.contains(audioOnly) && $0.contains("no video stream") }, result.standardError)
        XCTAssertFalse(lines.contains { $0.contains("marker-0-30.mp4") }, "the good clip is not blamed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testClipListWithABadEntryNamesTheEntry() throws {
        let list = try file("with-missing.txt", contents: Data("# a list\n\(try goodClip())\nnowhere.mp4\n".utf8))
        let output = store.outputPath("bad-list")
        let result = try SegueTool.run(["stitch", list, "-o", output])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains(store.folder.appendingPathComponent("nowhere.mp4").path), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testExistingOutputIsRefusedWithoutYAndKeptIntact() throws {
        let output = store.outputPath("existing")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try SegueTool.run(["stitch", try goodClip(), "-o", output])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.standardError.contains("already exists"), refused.standardError)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "precious")

        let replaced = try SegueTool.run(["stitch", try goodClip(), "-o", output, "-y", "--preset", "ultrafast"])
        XCTAssertEqual(replaced.status, 0, replaced.standardError)
        XCTAssertEqual(try DecodedOutput(path: output).pictures.count, 30)
    }

    func testMissingOutputFolderIsExit2NamingTheFolder() throws {
        let folder = store.folder.appendingPathComponent("no-such-folder").path
        let result = try SegueTool.run(["stitch", try goodClip(), "-o", folder + "/out.mp4"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains(folder), result.standardError)
    }

    func testBadUsageIsExit2() throws {
        for arguments in [["stitch", "a.mp4", "-o", "x.mp4", "--transition", "wipe"],
                          ["stitch", "a.mp4", "-o", "x.mp4", "--size", "641x360"],
                          ["stitch", "a.mp4", "-o", "x.mp4", "--crf", "99"],
                          ["stitch", "a.mp4"]] {
            let result = try SegueTool.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.standardError)")
            XCTAssertFalse(result.standardError.isEmpty)
        }
    }

    func testSummaryLineReportsFramesAndJoinStalls() throws {
        let second = try store.path("marker-1-30.mp4", MarkerClip(clip: 1, frames: 30))
        let output = store.outputPath("summary")
        let result = try SegueTool.run(["stitch", try goodClip(), second, "-o", output, "--transition", "fade",
                                        "--transition-duration", "0.5", "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("45 frames"), result.standardError)
        XCTAssertTrue(result.standardError.contains("join stall total"), result.standardError)
    }

    func testProbeReportsARotatedClipsDisplaySize() throws {
        var portrait = MarkerClip(clip: 1, frames: 24, width: 180, height: 320, frameRate: Rational(24, 1))
        portrait.rotation = 90
        portrait.sampleRate = 44_100
        portrait.channels = 1
        let path = try store.path("portrait-24fps-mono44k.mp4", portrait)
        let result = try SegueTool.run(["probe", path, "--json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["displayWidth"] as? Int, 180)
        XCTAssertEqual(rows.first?["displayHeight"] as? Int, 320)
        XCTAssertEqual(rows.first?["rotation"] as? Int, 90)
    }

    func testInterruptStopsQuicklyLeavesNothingAndExits130() throws {
        // A job long enough to interrupt: the clip forty times, at a slow preset.
        let list = try file("long.txt", contents: Data(String(repeating: try goodClip() + "\n", count: 40).utf8))
        let output = store.outputPath("interrupted")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let partial = OutputFile.temporaryPath(for: output)
        var stoppedAfter = 0.0
        let result = try SegueTool.run(["stitch", list, "-o", output, "-y", "--preset", "veryslow", "--size", "640x360"]) { process in
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: partial) && Date() < deadline { usleep(10_000) }
            usleep(200_000)
            let start = Date()
            process.interrupt()
            process.waitUntilExit()
            stoppedAfter = Date().timeIntervalSince(start)
        }
        XCTAssertEqual(result.status, 130, result.standardError)
        XCTAssertLessThan(stoppedAfter, 1.0, "stops within a second")
        XCTAssertTrue(result.standardError.contains("SIGINT"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial), "temporary file removed")
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "precious", "existing output untouched")
    }

    func testHelpShowsExamples() throws {
        let result = try SegueTool.run(["stitch", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.standardOutput.contains("segue stitch clips.txt -o reel.mp4 --transition fade"))
    }
}
