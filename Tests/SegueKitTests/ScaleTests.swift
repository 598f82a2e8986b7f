import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Memory and file descriptors stay flat in the number of clips.
final class ScaleTests: XCTestCase {
    let store = FixtureStore.shared

    /// Stitches `count` short clips, returning the report's peak memory and the
    /// open file descriptors seen while it ran.
    func stitchMany(_ count: Int) throws -> (peak: Int, descriptors: [Int]) {
        let clip = try store.path("short-6.mp4", MarkerClip(clip: 3, frames: 6))
        let list = store.folder.appendingPathComponent("many-\(count).txt").path
        try String(repeating: clip + "\n", count: count).write(toFile: list, atomically: true, encoding: .utf8)
        let report = store.folder.appendingPathComponent("many-\(count).json").path
        var descriptors: [Int] = []
        let result = try SegueTool.run(["stitch", list, "-o", store.outputPath("many-\(count)"), "--preset", "ultrafast",
                                        "--report", report, "--quiet"]) { process in
            let folder = "/proc/\(process.processIdentifier)/fd"
            while process.isRunning {
                // An empty listing means the process was already gone.
                if let open = try? FileManager.default.contentsOfDirectory(atPath: folder), !open.isEmpty {
                    descriptors.append(open.count)
                }
                usleep(20_000)
            }
        }
        XCTAssertEqual(result.status, 0, result.standardError)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        XCTAssertEqual((json?["output"] as? [String: Any])?["frames"] as? Int, 6 * count)
        return (json?["peakMemoryBytes"] as? Int ?? 0, descriptors)
    }

    func test500ClipsUseTheMemoryAndDescriptorsOf50() throws {
        let fifty = try stitchMany(50)
        let fiveHundred = try stitchMany(500)
        XCTAssertLessThanOrEqual(Double(fiveHundred.peak), Double(fifty.peak) * 1.10,
                                 "peak memory: 50 clips \(fifty.peak / 1_000_000) MB, 500 clips \(fiveHundred.peak / 1_000_000) MB")
        // After start-up (probing opens several clips at once), the count must not grow.
        let steady = fiveHundred.descriptors.dropFirst(fiveHundred.descriptors.count / 4)
        XCTAssertGreaterThan(steady.count, 5, "sampled while running")
        XCTAssertLessThanOrEqual((steady.max() ?? 0) - (steady.min() ?? 0), 6, "descriptors over the run: \(Array(steady))")
        print("scale: 50 clips peak \(fifty.peak / 1_000_000) MB, 500 clips peak \(fiveHundred.peak / 1_000_000) MB; descriptors \(steady.min() ?? 0)...\(steady.max() ?? 0)")
    }
}
