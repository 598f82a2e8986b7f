import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The output colour's choice end to end: `--smart` into AV1 through the
/// built `segue` (the choice itself: SegueUnitTests' OutputColourTests).
final class OutputColourStitchTests: XCTestCase {
    func testSmartNeverCopiesIntoAV1OutputAndSaysWhy() throws {
        let clip = try FFmpeg.make("hd-bt709-h264.mp4", ["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=1", "-pix_fmt", "yuv420p",
                                                          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                          "-c:v", "libx264", "-preset", "ultrafast"])
        let store = FixtureStore.shared
        let output = store.outputPath("smart-av1"), report = store.outputPath("smart-av1-report")
        let result = try SegueTool.run(["stitch", clip, clip, "-o", output, "--codec", "av1", "--smart", "--preset", "ultrafast",
                                        "--report", report])
        XCTAssertEqual(result.status, 0, result.standardError)
        let video = try FFprobe.streams(output, entries: "stream=codec_type,codec_name").first { $0["codec_type"] as? String == "video" }
        XCTAssertEqual(video?["codec_name"] as? String, "av1")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as! [String: Any]
        let smart = json["smart"] as! [String: Any]
        XCTAssertEqual(smart["framesCopied"] as? Int, 0)
        let reasons = (smart["clips"] as! [[String: Any]]).compactMap { $0["reason"] as? String }
        XCTAssertEqual(reasons.count, 2)
        XCTAssertTrue(reasons.allSatisfy { $0.contains("av1 output is encoded whole") }, "\(reasons)")
    }
}
