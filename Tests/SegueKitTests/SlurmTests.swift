import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The real thing: a one-node Slurm cluster on this machine (Scripts/slurm-local:
/// munged, slurmctld, slurmd on localhost, as root) renders a plan as an array
/// job and joins it in a dependent job (Scripts/slurm-stitch). Skipped, saying
/// why, where Slurm can't start (not root, not installed).
final class SlurmTests: XCTestCase {
    let store = FixtureStore.shared
    let clusterFolder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-slurm-test-\(getpid())").path

    func script(_ name: String) -> String { SegueTool.repository.appendingPathComponent("Scripts/\(name)").path }

    func testAPlanRenderedAsASlurmArrayJobAndJoinedAfterItIsThePlainStitch() throws {
        guard getuid() == 0 else { throw unavailable("Slurm test skipped: slurmd must run as root, and this is uid \(getuid())") }
        let started = try runScript(script("slurm-local"), ["start", clusterFolder])
        guard started.status == 0 else {
            throw unavailable("Slurm test skipped: Slurm could not start here: \(started.standardError)")
        }
        defer { _ = try? runScript(script("slurm-local"), ["stop", clusterFolder]) }
        let conf = clusterFolder + "/slurm.conf"

        let inputs = [try store.path("marker-0-60.mp4", MarkerClip(clip: 0, frames: 60)),
                      try store.path("marker-1-60.mp4", MarkerClip(clip: 1, frames: 60)),
                      try store.path("marker-2-60.mp4", MarkerClip(clip: 2, frames: 60))]
        let flags = ["--transition", "fade", "--transition-duration", "0.5", "--crf", "0", "--preset", "ultrafast", "-y"]
        let work = store.folder.appendingPathComponent("slurm-work-\(UUID().uuidString.prefix(6))").path
        let output = store.outputPath()
        let submitted = try runScript(script("slurm-stitch"),
                                      ["--work", work, "--wait", "--segue", SegueTool.executable.path, "--time=10:00", "--"]
                                          + inputs + ["-o", output, "--segment-duration", "1.3"] + flags,
                                      environment: ["SLURM_CONF": conf])
        XCTAssertEqual(submitted.status, 0, submitted.standardError + submitted.standardOutput)
        XCTAssertTrue(submitted.standardOutput.contains("render job"), submitted.standardOutput)

        let plainPath = store.outputPath()
        XCTAssertEqual(try Tools.segue(["stitch"] + inputs + ["-o", plainPath] + flags).status, 0)
        let plain = try DecodedOutput(path: plainPath), split = try DecodedOutput(path: output)
        XCTAssertEqual(split.pictures.count, 150)
        XCTAssertTrue(plain.pictures == split.pictures, "the Slurm-rendered output's pictures differ from the plain stitch's")
        Seam.check(plain, split, boundaries: [39, 78, 117])
        // Every segment was rendered by a Slurm task (its log is there).
        let logs = try FileManager.default.contentsOfDirectory(atPath: work + "/logs").filter { $0.hasPrefix("render-") }
        XCTAssertEqual(logs.count, 4)

        // An HLS ladder the same way: each Slurm task writes its CMAF segments, the join names them.
        let ladderWork = work + "-hls", master = store.folder.appendingPathComponent("slurm-hls-\(UUID().uuidString.prefix(6))/master.m3u8").path
        let ladder = try runScript(script("slurm-stitch"),
                                   ["--work", ladderWork, "--wait", "--segue", SegueTool.executable.path, "--time=10:00", "--"]
                                       + inputs + ["-o", master, "--segment-duration", "1", "--hls-time", "1", "--ladder", "180,90"] + flags,
                                   environment: ["SLURM_CONF": conf])
        XCTAssertEqual(ladder.status, 0, ladder.standardError + ladder.standardOutput)
        let top = try HLSRead.rendition(master, video: 0, store: store)
        XCTAssertEqual(top.pictures.count, 150)
        for (frame, picture) in top.pictures.enumerated() where frame < 45 || (60..<90).contains(frame) {
            XCTAssertEqual(Marker.read(picture).map { [$0.clip, $0.frame] }, frame < 45 ? [0, frame] : [1, frame - 45], "frame \(frame)")
        }
        let ladderLogs = try FileManager.default.contentsOfDirectory(atPath: ladderWork + "/logs").filter { $0.hasPrefix("render-") }
        XCTAssertEqual(ladderLogs.count, 5, "one Slurm task for each second")
    }

    /// Runs a script under `timeout`, so a cluster that never schedules the
    /// job fails the test in minutes instead of hanging the suite.
    func runScript(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> SegueTool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=10", "300", path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        return try SegueTool.capture(process)
    }
}
