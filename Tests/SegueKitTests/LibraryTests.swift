import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// SegueKit used as a library: one entry point, typed errors, background work
/// that is cancelled and joined.
final class LibraryTests: XCTestCase {
    let store = FixtureStore.shared

    func clip(_ number: Int, frames: Int = 30) throws -> String {
        try store.path("marker-\(number)-\(frames).mp4", MarkerClip(clip: number, frames: frames))
    }

    func testStitchJobDoesWhatTheCommandDoesAndReturnsTheReport() throws {
        var request = StitchRequest(inputs: [try clip(0), try clip(1)], output: store.outputPath("library"))
        request.options.transition = .fade
        request.options.transitionDuration = 0.5
        request.options.preset = "ultrafast"
        var warnings: [String] = []
        let report = try StitchJob(request).run { if case .warning(let text) = $0 { warnings.append(text) } }
        XCTAssertEqual(report.frames, 60 - 15)
        XCTAssertEqual(try DecodedOutput(path: request.output).pictures.count, 45)
        XCTAssertEqual(warnings, [])
    }

    func testErrorsCarryTheirReason() throws {
        let missing = store.folder.appendingPathComponent("no-such-clip.mp4").path
        XCTAssertThrowsError(try StitchJob(StitchRequest(inputs: [missing], output: store.outputPath())).run()) { error in
            guard case .badInputs(let bad)? = (error as? SegueError)?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(bad.map(\.path), [missing])
        }
        let existing = store.outputPath("exists")
        XCTAssertTrue(FileManager.default.createFile(atPath: existing, contents: Data("keep".utf8)))
        XCTAssertThrowsError(try StitchJob(StitchRequest(inputs: [try clip(0)], output: existing)).run()) { error in
            XCTAssertEqual((error as? SegueError)?.reason, .outputExists)
        }
        XCTAssertThrowsError(try StitchJob(StitchRequest(inputs: [try clip(0)], output: "/no/such/folder/out.mp4")).run()) { error in
            XCTAssertEqual((error as? SegueError)?.reason, .outputFolder)
        }
    }

    func testALostConnectionIsItsOwnReasonNotDamage() throws {
        let local = try clip(0, frames: 45)
        let server = try TestServer(root: store.folder.path)
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as! Int
        var request = StitchRequest(inputs: ["\(server.base)/cutat/\(size / 2)/marker-0-45.mp4"], output: store.outputPath())
        request.network.retries = 1
        XCTAssertThrowsError(try StitchJob(request).run()) { error in
            let error = error as? SegueError
            XCTAssertEqual(error?.reason, .connectionLost)
            XCTAssertEqual((error?.underlying as? ConnectionLost)?.tries, 2)
        }
    }

    // MARK: Background work

    func testShuttingDownDuringAPreloadLeavesNoThreadBehind() throws {
        _ = try clip(0, frames: 45)
        let server = try TestServer(root: store.folder.path)
        // The server never answers: the preload sits inside avformat_open_input.
        var info = try Prober.probe(try clip(0, frames: 45)).get()
        info.readPath = "\(server.base)/stall/marker-0-45.mp4"
        let canvas = Canvas(width: 320, height: 180, frameRate: Rational(30, 1), sampleRate: 48_000)
        let clips = (0..<2).map { PlannedClip(index: $0, info: info, frameCount: 45, startFrame: 45 * $0,
                                              placement: Placement(scaledWidth: 320, scaledHeight: 180, x: 0, y: 0)) }
        let lookahead = Lookahead(clips: clips, canvas: canvas, settings: StitchSettings(),
                                  access: InputAccess(network: NetworkSettings(timeout: 60)))
        lookahead.prepare(0)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(threads(named: "segue-preload"), 1, "the preload is under way")
        let started = Date()
        lookahead.shutDown()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "cancelled, not waited out (timeout 60 s)")
        XCTAssertEqual(threads(named: "segue-preload"), 0, "joined: no preload thread left")
    }

    func testAnInterruptWhileTheNextClipIsStillOpeningStopsAtOnce() throws {
        let local = try clip(0, frames: 45)
        let server = try TestServer(root: store.folder.path)
        // Probing is served; the stitch's own open of the clip then never gets an answer.
        let url = "\(server.base)/stallafter/1/\((local as NSString).lastPathComponent)"
        let output = store.outputPath("stalled-open")
        var signalled = Date()
        let result = try SegueTool.run(["stitch", url, "-o", output, "--timeout", "60"]) { process in
            Thread.sleep(forTimeInterval: 2)
            signalled = Date()
            kill(process.processIdentifier, SIGINT)
        }
        XCTAssertEqual(result.status, 130, result.standardError)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 3, "stopped at once, not after the 60 s timeout")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    /// Threads of this process with `name`, from /proc.
    func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    /// docs/architecture.md's "Use from Swift" example, kept here so that it keeps compiling (not run).
    func readmeExample() {
        var request = StitchRequest(inputs: ["intro.mp4", "clips.txt"], output: "reel.mp4")
        request.options.transition = .fade            // nil options fall back to a manifest's, then the defaults
        request.options.transitionDuration = 0.5
        request.network.retries = 2

        let stop = StopRequest()                      // raise from any thread: stop.stop(signal: SIGINT)
        do {
            let report = try StitchJob(request).run(stop: stop) { event in
                switch event {
                case .warning(let text): print("warning:", text)
                case .progress(let progress): print(Int(progress.fraction * 100), "%")
                }
            }
            print(report.summary)
        } catch let error as SegueError {
            switch error.reason {
            case .badInputs(let inputs): inputs.forEach { print($0.path, $0.reason) }
            case .connectionLost: print("network:", error)  // e.g. "connection lost after 25000 bytes; gave up after 4 tries"
            default: print(error)
            }
        } catch {
            print(error)
        }

        for result in ProbeJob.run(["clips.txt"]) {
            if case .success(let clip) = result { print(clip.path, clip.use.duration, clip.facts.frameRate) }
        }
    }
}
