import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueRuntime
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// SegueKit used as a library, where no clip is needed: settings resolved in
/// order, libav's errors caught by case, background values taken safely.
final class LibraryTests: XCTestCase {
    func testFlagsWinOverTheManifestWhichWinsOverTheDefaults() throws {
        var manifest = OutputOptions()
        manifest.crf = 30
        manifest.preset = "fast"
        var request = StitchRequest(inputs: [], output: "unused.mp4")
        request.options.crf = 18
        let settings = try StitchJob(request).resolvedSettings(manifest: manifest).0
        XCTAssertEqual(settings.crf, 18, "the request's choice")
        XCTAssertEqual(settings.preset, "fast", "the manifest's, where the request makes none")
        XCTAssertEqual(settings.fit, StitchSettings().fit, "the default, where neither does")
    }

    func testFFmpegErrorsAreCaughtByCase() {
        func fail() throws { throw FFmpegError(code: FFmpegError.invalidData.code, call: "avcodec_send_packet") }
        do {
            try fail()
            XCTFail("no error")
        } catch FFmpegError.invalidData {
            // matched by its code, whatever call failed
        } catch {
            XCTFail("not matched: \(error)")
        }
        XCTAssertTrue(FFmpegError.posix(ECONNRESET).isTransport)
        XCTAssertFalse(FFmpegError.invalidData.isTransport)
    }

    func testTakingABackgroundValueTwiceIsSafe() throws {
        final class Box {}
        let task = BackgroundTask(name: "segue-test") { _ in Box() }
        let first = try task.value(), second = try task.value()
        XCTAssertTrue(first === second)
        struct Failure: Error {}
        let failing = BackgroundTask<Int>(name: "segue-test") { _ in throw Failure() }
        XCTAssertThrowsError(try failing.value())
        XCTAssertThrowsError(try failing.value())
    }
}
