import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The option table through the built `segue`: help, the parser's dump and
/// completions, attached values, a plan's version (the table in-process:
/// SegueUnitTests' OptionTableTests).
final class OptionTableCommandLineTests: XCTestCase {
    let store = FixtureStore.shared

    func testEveryOptionIsAFlagInHelpAndAManifestKey() throws {
        let help = try SegueTool.run(["stitch", "--help"])
        XCTAssertEqual(help.status, 0)
        for option in OutputOption.all {
            XCTAssertTrue(help.standardOutput.contains(option.flag), "\(option.flag) is not in stitch --help")
            XCTAssertTrue(help.standardOutput.contains("[\(option.key)]"), "\(option.key) is not in stitch --help")
            XCTAssertTrue(Manifest.outputKeys.contains(option.key))
        }
        XCTAssertEqual(Set(OutputOption.all.map(\.key)).count, OutputOption.all.count, "a key defined twice")
        XCTAssertEqual(Set(OutputOption.all.map(\.flag)).count, OutputOption.all.count, "a flag defined twice")
    }

    /// The argument parser itself knows every option (so its completions and
    /// dump have them), as an option with a value or a flag, on stitch and plan.
    func testTheArgumentParsersDumpHasEveryOptionOfTheTable() throws {
        let dump = try SegueTool.run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.standardError)
        let tree = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        let commands = try XCTUnwrap((tree["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        for name in ["stitch", "plan"] {
            let command = try XCTUnwrap(commands.first { $0["commandName"] as? String == name })
            var kinds: [String: String] = [:]
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for flag in argument["names"] as? [[String: Any]] ?? [] {
                    kinds["--" + (flag["name"] as? String ?? "")] = argument["kind"] as? String
                }
            }
            for option in OutputOption.all {
                XCTAssertEqual(kinds[option.flag], option.valueName == nil ? "flag" : "option", "\(name) \(option.flag)")
            }
        }
        let completion = try SegueTool.run(["--generate-completion-script", "bash"])
        XCTAssertTrue(completion.standardOutput.contains("--transition-duration"), "bash completion lacks the output options")
    }

    func testTheCommandLineTakesAttachedValuesAndRefusesBadOnesWithExit2() throws {
        let clip = try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
        let output = store.outputPath("option-table")
        let result = try SegueTool.run(["stitch", clip, clip, "-o", output, "--transition=fade", "--transition-duration=0.5",
                                        "--preset", "ultrafast", "--loudness", "-16", "-y"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try DecodedOutput(path: output).pictures.count, 60 - 15, "a 0.5 s fade at 30 fps overlaps 15 frames")
        for (arguments, says) in [(["--crf=52"], "--crf must be a whole number from 0 to 51"),
                                  (["--mode", "sideways"], "--mode: 'sideways' is not one of overlap, freeze"),
                                  (["--chapters=yes"], "'--chapters' does not take any value"),
                                  (["--duck"], "Missing value for '--duck <DB>'")] {
            let refused = try SegueTool.run(["stitch", clip, "-o", store.outputPath("option-refused")] + arguments)
            XCTAssertEqual(refused.status, 2, "\(arguments): \(refused.standardError)")
            XCTAssertTrue(refused.standardError.contains(says), "\(arguments): \(refused.standardError)")
        }
    }

    // MARK: plan.json

    func testAPlanOfAnotherVersionIsRefusedByVersion() throws {
        let clip = try store.path("marker-0-30.mp4", MarkerClip(clip: 0, frames: 30))
        let work = store.outputPath("option-table-plan")
        let planned = try SegueTool.run(["plan", clip, "-o", store.outputPath("option-table-planned"), "--work", work])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        let path = SegmentPlan.path(work: work)
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertEqual(root["version"] as? Int, SegmentPlan.currentVersion)
        root["version"] = SegmentPlan.currentVersion - 1
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
        let render = try SegueTool.run(["render", work, "--segment", "0"])
        XCTAssertEqual(render.status, 2)
        XCTAssertTrue(render.standardError.contains("plan version \(SegmentPlan.currentVersion - 1), this segue reads \(SegmentPlan.currentVersion)"),
                      render.standardError)
    }
}
