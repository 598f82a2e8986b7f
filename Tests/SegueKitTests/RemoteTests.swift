import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// A real HTTP server on 127.0.0.1 (Tests/Support/http_server.py: Range
/// requests, ETag, added latency, stalls, 503s) serving marker clips.
final class TestServer {
    let process = Process()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    init(root: String, latencyMilliseconds: Int = 0, flakyCount: Int = 2) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/http_server.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--root", root, "--latency-ms", String(latencyMilliseconds),
                             "--lifetime", "300", "--flaky-count", String(flakyCount)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The server prints "PORT n" once it listens.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self).replacingOccurrences(of: "PORT ", with: "")) else {
            process.terminate()
            throw unavailable("test HTTP server did not start")
        }
        self.port = port
    }

    func stats() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(string: "\(base)/__stats")!)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

final class RemoteTests: XCTestCase {
    let store = FixtureStore.shared

    func markers(_ path: String) throws -> [String] {
        try DecodedOutput(path: path).pictures.map { Marker.read($0).map { "\($0.clip):\($0.frame)" } ?? "?" }
    }

    func clips() throws -> [String] {
        try [(0, 45), (1, 30), (2, 45)].map { try store.path("marker-\($0.0)-\($0.1).mp4", MarkerClip(clip: $0.0, frames: $0.1)) }
    }

    func testURLListStitchesToTheSameFramesAsTheLocalFiles() throws {
        let local = try clips()
        let server = try TestServer(root: store.folder.path, latencyMilliseconds: 30)
        let list = store.folder.appendingPathComponent("remote.txt").path
        try local.map { "\(server.base)/\(($0 as NSString).lastPathComponent)" }.joined(separator: "\n")
            .write(toFile: list, atomically: true, encoding: .utf8)
        let common = ["--transition", "fade", "--transition-duration", "0.5", "--preset", "ultrafast", "--crf", "12", "--quiet", "-y"]
        let localOutput = store.outputPath("local-reference"), remoteOutput = store.outputPath("remote")
        XCTAssertEqual(try SegueTool.run(["stitch"] + local + ["-o", localOutput] + common).status, 0)
        let remote = try SegueTool.run(["stitch", list, "-o", remoteOutput] + common)
        XCTAssertEqual(remote.status, 0, remote.standardError)
        let staging = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("segue-stage-") }
        XCTAssertEqual(staging, [], "prefetched clips are removed")
        let expected = try markers(localOutput)
        XCTAssertEqual(expected.count, 120 - 30)
        XCTAssertEqual(try markers(remoteOutput), expected)
    }

    func testNotFoundAndRefusedAreExit2NamingTheURL() throws {
        let server = try TestServer(root: store.folder.path)
        let missing = "\(server.base)/no-such-clip.mp4", refused = "http://127.0.0.1:1/clip.mp4"
        let output = store.outputPath("remote-bad")
        let result = try SegueTool.run(["stitch", try clips()[0], missing, refused, "-o", output, "--retries", "1"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("\(missing): not found (HTTP 404)"), result.standardError)
        XCTAssertTrue(result.standardError.contains("\(refused): connection refused; gave up after 2 tries"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// A redirect is followed only to another http(s) URL: a server can't point
    /// the cache's download (or libavformat's reads) at a local file or another protocol.
    func testRedirectsAreFollowedOnlyToHTTP() throws {
        let server = try TestServer(root: store.folder.path)
        let clip = try clips()[1]
        let cache = store.folder.appendingPathComponent("redirect-cache-\(UUID().uuidString.prefix(6))").path
        let followed = "\(server.base)/redirect/\(server.base)/\((clip as NSString).lastPathComponent)"
        let good = try SegueTool.run(["stitch", followed, "-o", store.outputPath("redirected"), "--cache", cache, "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(good.status, 0, good.standardError)
        for target in ["file://\(clip)", "ftp://127.0.0.1/clip.mp4"] {
            let url = "\(server.base)/redirect/\(target)", output = store.outputPath("redirect-refused")
            let cached = try SegueTool.run(["stitch", url, "-o", output, "--cache", cache, "--retries", "0"])
            XCTAssertEqual(cached.status, 2)
            XCTAssertTrue(cached.standardError.contains("\(url): redirected to \(target), which is not an http or https URL"), cached.standardError)
            let streamed = try SegueTool.run(["stitch", url, "-o", output, "--retries", "0"])
            XCTAssertEqual(streamed.status, 2, "libavformat followed \(target)")
            XCTAssertTrue(streamed.standardError.contains("\(url): redirected to \(target), which is not an http or https URL"),
                          streamed.standardError)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        }
    }

    func testAStallingServerTripsTheTimeout() throws {
        let server = try TestServer(root: store.folder.path)
        let stalled = "\(server.base)/stall/marker-0-45.mp4"
        let started = Date()
        let result = try SegueTool.run(["stitch", stalled, "-o", store.outputPath("stalled"), "--timeout", "1", "--retries", "0"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("\(stalled): timed out after 1.00 s"), result.standardError)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    /// Runs `arguments`, sends SIGINT once `ready` says so, and returns the
    /// result and the seconds from the signal to the exit.
    func interrupted(_ arguments: [String], when ready: @escaping () throws -> Bool) throws -> (SegueTool.Result, Double) {
        var stopSeconds = Double.infinity
        let result = try SegueTool.run(arguments) { process in
            let deadline = Date().addingTimeInterval(60)
            while (try? ready()) != true && Date() < deadline { usleep(50_000) }
            usleep(300_000)
            kill(process.processIdentifier, SIGINT)
            let sent = Date()
            process.waitUntilExit()
            stopSeconds = Date().timeIntervalSince(sent)
        }
        return (result, stopSeconds)
    }

    func testSIGINTWhileTheSecondRemoteClipIsStagedStopsWithinTwoSeconds() throws {
        let server = try TestServer(root: store.folder.path)
        let clips = try clips(), names = clips.map { ($0 as NSString).lastPathComponent }
        // The third clip's probe (its first request) is served; its staging download, the second, stalls.
        let stalling = "/stallafter/1/\(names[2])"
        let output = store.outputPath("stop-while-staging")
        let (result, seconds) = try interrupted(["stitch", clips[0], "\(server.base)/\(names[1])", server.base + stalling,
                                                 "-o", output, "--timeout", "60", "--preset", "ultrafast"]) {
            ((try server.stats()["paths"] as? [String: Int])?[stalling] ?? 0) >= 2
        }
        XCTAssertEqual(result.status, 130, result.standardError)
        XCTAssertLessThan(seconds, 2, "waited for the stalled download (\(seconds) s)")
        XCTAssertTrue(result.standardError.contains("stopped by SIGINT"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testSIGINTWhileProbingStalledRemoteClipsStopsWithinTwoSeconds() throws {
        let server = try TestServer(root: store.folder.path)
        let name = (try clips()[0] as NSString).lastPathComponent
        let urls = (0..<12).map { "\(server.base)/stall/\($0)/\(name)" }
        let output = store.outputPath("stop-while-probing")
        let (result, seconds) = try interrupted(["stitch"] + urls + ["-o", output, "--timeout", "60"]) {
            (try server.stats()["requests"] as? Int ?? 0) >= 8
        }
        XCTAssertEqual(result.status, 130, result.standardError)
        XCTAssertLessThan(seconds, 2, "waited for the stalled probes (\(seconds) s)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testAConnectionLostWhileMeasuringAClipIsAnErrorNotAShortClip() throws {
        // Written to a pipe, a WebM says nothing of its length: probing reads its packets to the end.
        let clip = try FFmpeg.make("remote-pipe.webm", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3",
                                                        "-c:v", "libvpx", "-b:v", "600k", "-f", "webm"], toPipe: true)
        let name = (clip as NSString).lastPathComponent
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let server = try TestServer(root: store.folder.path)
        for (url, says) in [("\(server.base)/cutat/\(size * 2 / 3)/\(name)", "connection lost after \(size * 2 / 3) bytes"),
                            ("\(server.base)/stallafter/1/\(name)", "timed out")] {
            let output = store.outputPath("lost-while-measuring")
            let result = try SegueTool.run(["stitch", url, "-o", output, "--timeout", "2", "--retries", "1"])
            XCTAssertEqual(result.status, 2, result.standardError)
            XCTAssertTrue(result.standardError.contains("\(url): \(says)"), result.standardError)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no clip measured short")
        }
    }

    func testServerErrorsAreRetried() throws {
        let server = try TestServer(root: store.folder.path, flakyCount: 2)
        _ = try clips()
        let flaky = "\(server.base)/flaky/marker-1-30.mp4"
        let output = store.outputPath("flaky")
        let result = try SegueTool.run(["stitch", flaky, "-o", output, "--preset", "ultrafast", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try markers(output).count, 30)
        XCTAssertEqual(try server.stats()["errors"] as? Int, 2, "two 503s, then served")
    }

    func testSecondRunWithCacheFetchesNothingForUnchangedClips() throws {
        let local = try clips()
        let server = try TestServer(root: store.folder.path)
        let cache = store.folder.appendingPathComponent("cache-\(UUID().uuidString)").path
        // The first clip twice: a clip used twice is fetched once.
        let urls = [local[0], local[1], local[0]].map { "\(server.base)/\(($0 as NSString).lastPathComponent)" }
        let arguments = ["stitch"] + urls + ["--cache", cache, "--preset", "ultrafast", "--quiet", "-y"]
        let first = try SegueTool.run(arguments + ["-o", store.outputPath("cached-1")])
        XCTAssertEqual(first.status, 0, first.standardError)
        let afterFirst = try server.stats()
        XCTAssertEqual(afterFirst["full"] as? Int, 2, "each distinct clip fetched once: \(afterFirst)")
        XCTAssertEqual(afterFirst["partial"] as? Int, 0, "nothing read over the network but the cache's fetches")

        let secondOutput = store.outputPath("cached-2")
        let second = try SegueTool.run(arguments + ["-o", secondOutput])
        XCTAssertEqual(second.status, 0, second.standardError)
        let afterSecond = try server.stats()
        XCTAssertEqual(afterSecond["full"] as? Int, 2, "no clip fetched again: \(afterSecond)")
        XCTAssertEqual(afterSecond["partial"] as? Int, 0)
        XCTAssertEqual(afterSecond["not_modified"] as? Int, 2, "each clip checked once with a conditional GET")
        XCTAssertEqual(try markers(secondOutput).count, 45 + 30 + 45)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        XCTAssertFalse(names.contains { $0.contains("partial") }, "never a partial file: \(names)")
    }

    func testCacheSizeLimitEvictsTheLeastRecentlyUsed() throws {
        let local = try clips()
        let server = try TestServer(root: store.folder.path)
        let cache = store.folder.appendingPathComponent("cache-small-\(UUID().uuidString)").path
        let sizes = try local.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        for clip in local {
            let url = "\(server.base)/\((clip as NSString).lastPathComponent)"
            let result = try SegueTool.run(["stitch", url, "-o", store.outputPath(), "--cache", cache,
                                            "--cache-max", String(sizes.max()! + 10), "--preset", "ultrafast", "--quiet"])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".media") }
        XCTAssertEqual(kept.count, 1, "only the most recent clip fits: \(kept)")
        XCTAssertTrue(kept[0].hasSuffix("marker-2-45.mp4.media"), "\(kept)")
    }

    // MARK: Connection faults: a lost connection is never a damaged file

    func testABodyCutOnceMidwayIsResumedAndTheOutputIsExact() throws {
        let local = try clips()
        let server = try TestServer(root: store.folder.path)
        let name = (local[0] as NSString).lastPathComponent
        let common = ["--preset", "ultrafast", "--crf", "12", "--quiet", "-y", "--no-preload"]
        let reference = store.outputPath("cut-once-reference"), output = store.outputPath("cut-once")
        XCTAssertEqual(try SegueTool.run(["stitch", local[0], "-o", reference] + common).status, 0)
        let result = try SegueTool.run(["stitch", "\(server.base)/cutonce/\(name)", "-o", output] + common)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try server.stats()["cut"] as? Int, 1, "the server did cut the body once")
        XCTAssertEqual(try markers(output), try markers(reference))
        XCTAssertFalse(result.standardError.contains("damaged"), result.standardError)
    }

    func testAServerThatNeverSendsTheRestFailsWithExit1NamingTheURL() throws {
        let local = try clips()
        let server = try TestServer(root: store.folder.path)
        let size = try FileManager.default.attributesOfItem(atPath: local[0])[.size] as! Int
        let url = "\(server.base)/cutat/\(size * 6 / 10)/\((local[0] as NSString).lastPathComponent)"
        let output = store.outputPath("cut-at")
        let result = try SegueTool.run(["stitch", url, local[1], "-o", output, "--retries", "2", "--preset", "ultrafast"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(url): connection lost after"), result.standardError)
        XCTAssertTrue(result.standardError.contains("gave up after 3 tries"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testATruncatedRemoteIndexIsReportedAsAConnectionFailure() throws {
        let local = try clips()
        // The index (moov) at the end, as cameras write it, and the server dies before it.
        let indexLast = store.folder.appendingPathComponent("index-last.mp4").path
        try? FileManager.default.removeItem(atPath: indexLast)
        let remux = Process()
        remux.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        remux.arguments = ["ffmpeg", "-v", "error", "-i", local[0], "-c", "copy", indexLast]
        try remux.run()
        remux.waitUntilExit()
        let size = try FileManager.default.attributesOfItem(atPath: indexLast)[.size] as! Int
        let server = try TestServer(root: store.folder.path)
        let url = "\(server.base)/cutat/\(size - 400)/index-last.mp4"
        let result = try SegueTool.run(["probe", url])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardOutput.contains("connection lost after"), result.standardOutput)
        XCTAssertFalse(result.standardOutput.contains("not a media file"), result.standardOutput)
    }
}
