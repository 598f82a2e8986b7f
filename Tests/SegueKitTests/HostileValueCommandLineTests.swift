import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Values a stranger's request or file may carry: each is refused with exit 2
/// and words that name the option or key and what is allowed, or read as
/// damage; none may trap. Here through the built `segue` (times, damage and
/// bitstream records in-process: SegueUnitTests and SegueBitstreamTests).
final class HostileValueCommandLineTests: XCTestCase {
    let store = FixtureStore.shared

    func clip() throws -> String {
        try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
    }

    /// Option, value, and a phrase the refusal must contain.
    static let hostileOptions: [(option: String, value: String, says: String)] = [
        ("--fps", "1/3000000000", "from 0.001 to 240"),
        ("--fps", "99999999999999999999", "from 0.001 to 240"),
        ("--fps", "1e308", "from 0.001 to 240"),
        ("--fps", "2147483648/2147483647", "terms up to 2147483647"),
        ("--fps", "nan", "--fps"),
        ("--fps", "1/0", "--fps"),
        ("--audio-bitrate", "99999999999999999k", "8k to 512k"),
        ("--audio-bitrate", "9223372036854775807", "8k to 512k"),
        ("--cache-max", "infk", "4 EiB"),
        ("--cache-max", "1e30k", "4 EiB"),
        ("--cache-max", "99999999999G", "4 EiB"),
        ("--cache-max", "1e300M", "4 EiB"),
        ("--cache-max", "99999999999999999k", "4 EiB"),
        ("--cache-max", "nank", "4 EiB"),
        ("--size", "99999999999999999999x2", "--size"),
        ("--transition-duration", "nan", "--transition-duration"),
        ("--transition-duration", "1e308", "--transition-duration"),
        ("--still-duration", "inf", "--still-duration"),
        ("--timeout", "nan", "--timeout"),
        ("--retries", "99999999999999999999", "--retries"),
        ("--segment-duration", "1e308", "--segment-duration"),
    ]

    func testHostileOptionValuesExit2NamingTheOptionAndItsRange() throws {
        let clip = try clip()
        let cache = store.folder.appendingPathComponent("hostile-cache").path
        for (option, value, says) in Self.hostileOptions {
            let output = store.outputPath("hostile-option")
            var arguments = ["stitch", clip, "-o", output, option, value]
            if option == "--cache-max" { arguments += ["--cache", cache] }
            if option == "--segment-duration" { arguments += ["--jobs", "1"] }
            let result = try SegueTool.run(arguments)
            XCTAssertEqual(result.status, 2, "\(option) \(value): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(says), "\(option) \(value): \(result.standardError)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(option) \(value) wrote a file")
        }
        // plan reads the same flags through the same table.
        let plan = try SegueTool.run(["plan", clip, "-o", store.outputPath(), "--work", store.outputPath("w"), "--fps", "1/3000000000"])
        XCTAssertEqual(plan.status, 2, plan.standardError)
    }

    /// Output key, JSON value, and a phrase the refusal must contain.
    static let hostileManifestValues: [(key: String, json: String, says: String)] = [
        ("fps", "1e308", "output.fps"),
        ("fps", "9223372036854775808", "output.fps"),
        ("fps", "\"1/3000000000\"", "from 0.001 to 240"),
        ("fps", "-30", "output.fps"),
        ("audioBitrate", "\"99999999999999999k\"", "output.audioBitrate"),
        ("audioBitrate", "1e300", "output.audioBitrate"),
        ("crf", "9223372036854775808", "output.crf"),
        ("transitionDuration", "1e308", "output.transitionDuration"),
        ("stillDuration", "-1e308", "output.stillDuration"),
        ("size", "\"99999999999999999999x99999999999999999999\"", "output.size"),
        ("musicVolume", "\"loud\"", "output.musicVolume"),
    ]

    func testHostileManifestValuesExit2NamingTheKey() throws {
        let clip = try clip()
        for (key, json, says) in Self.hostileManifestValues {
            let manifest = store.folder.appendingPathComponent("hostile-\(UUID().uuidString.prefix(6)).json").path
            try "{\"clips\": [\(String(reflecting: clip))], \"output\": {\"\(key)\": \(json)}}"
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let output = store.outputPath("hostile-manifest")
            let result = try SegueTool.run(["stitch", manifest, "-o", output])
            XCTAssertEqual(result.status, 2, "\(key): \(json): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(says), "\(key): \(json): \(result.standardError)")
        }
        // Trim points far past any clip's end are refused as such, not trapped on.
        for (key, json) in [("in", "1e308"), ("out", "1e308"), ("duration", "1e308")] {
            let manifest = store.folder.appendingPathComponent("hostile-clip-\(key).json").path
            try "{\"clips\": [{\"path\": \(String(reflecting: clip)), \"\(key)\": \(json)}]}"
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let result = try SegueTool.run(["stitch", manifest, "-o", store.outputPath("hostile-clip")])
            XCTAssertTrue([0, 2].contains(result.status), "\(key): \(json): \(result.status) \(result.standardError)")
        }
    }

    // MARK: plan.json

    func testAPlanWithFieldsOutOfRangeIsRefusedByRenderAndJoin() throws {
        let clip = try clip()
        let work = store.outputPath("hostile-plan-work")
        let planned = try SegueTool.run(["plan", clip, clip, "-o", store.outputPath("hostile-plan"), "--work", work,
                                         "--segment-duration", "0.5", "--transition", "fade", "--transition-duration", "0.3"])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let planPath = SegmentPlan.path(work: work)
        let original = try Data(contentsOf: URL(fileURLWithPath: planPath))
        let fields: [(path: [Any], value: Any)] = [
            (["settings", "frameRate"], ["numerator": 1, "denominator": 3_000_000_000]),
            (["settings", "crf"], 9_223_372_036_854_775_807),
            (["settings", "fit"], "sideways"),
            (["settings", "audioBitRate"], -1),
            (["canvas", "frameRate", "denominator"], 0),
            (["canvas", "width"], 1_000_000),
            (["clips", 0, "use", "duration"], 1e308),
            (["clips", 0, "facts", "frameRate", "numerator"], Int64.max),
            (["clips", 1, "use", "inPoint"], -5),
            (["network", "timeout"], 0),
            (["totalFrames"], Int64.max),
            (["segments", 0, "endFrame"], -3),
            (["segments", 1, "startFrame"], 1_000_000),
            (["output"], store.folder.appendingPathComponent("hostile-plan.webm").path),   // a join writes MP4 only
            (["container"], "webm"),
        ]
        for (path, value) in fields {
            var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            root = Self.replacing(root, at: path[...], with: value) as! [String: Any]
            try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: planPath))
            for command in [["render", work, "--segment", "0"], ["join", work]] {
                let result = try SegueTool.run(command)
                XCTAssertEqual(result.status, 2, "\(path) = \(value), \(command[0]): \(result.standardError)")
                XCTAssertTrue(result.standardError.contains("not a plan segue can read"), "\(path): \(result.standardError)")
            }
        }
    }

    /// `object` with the value at `path` (keys and indices) replaced.
    static func replacing(_ object: Any, at path: ArraySlice<Any>, with value: Any) -> Any {
        guard let step = path.first else { return value }
        if let key = step as? String, var dictionary = object as? [String: Any] {
            dictionary[key] = replacing(dictionary[key] as Any, at: path.dropFirst(), with: value)
            return dictionary
        }
        if let index = step as? Int, var array = object as? [Any] {
            array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            return array
        }
        return object
    }
}
