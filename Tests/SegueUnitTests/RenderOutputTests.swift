import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore
import SegueRuntime

/// What a stitch writes: the target its output's name makes, the output made
/// for a render of the whole or of a segment, and the MP4 or WebM the encoding
/// sink writes from pictures and sound made here.
final class RenderOutputTests: XCTestCase {
    var folder: TestFolder!

    override func setUpWithError() throws { folder = try TestFolder() }
    override func tearDown() { folder = nil }

    let canvas = Canvas(width: 160, height: 90, frameRate: Rational(24, 1), sampleRate: 48_000)

    func contents(audio: Bool = true) -> SinkContents {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.includeAudio = audio
        return SinkContents(canvas: canvas, settings: settings)
    }

    // MARK: The target

    func testAnMP4OrWebMNameIsOneFileInThatContainer() throws {
        XCTAssertEqual(try RenderTarget(path: "/o/reel.mp4", canvas: canvas, settings: StitchSettings()), .file(path: "/o/reel.mp4", container: .mp4))
        XCTAssertEqual(try RenderTarget(path: "/o/reel.webm", canvas: canvas, settings: StitchSettings()), .file(path: "/o/reel.webm", container: .webm))
    }

    func testAPlaylistNameIsAnHLSLadderForTheCanvas() throws {
        let target = try RenderTarget(path: "/o/master.m3u8", canvas: canvas, settings: StitchSettings())
        XCTAssertEqual(target.path, "/o/master.m3u8")
        XCTAssertEqual(target.container, .hls)
        XCTAssertEqual(target.ladder?.rungs.first?.height, 90, "its sharpest rung is the canvas")
    }

    func testANameSegueDoesNotWriteIsAUsageError() {
        assertSegueError(.usage, try RenderTarget(path: "/o/reel.gif", canvas: canvas, settings: StitchSettings()))
    }

    func testALadderSharperThanTheCanvasIsAUsageError() {
        var settings = StitchSettings()
        settings.ladder = [720]
        assertSegueError(.usage, try RenderTarget(path: "/o/master.m3u8", canvas: canvas, settings: settings))
    }

    func testAimingAPlanNamesItsTarget() throws {
        let plan = try Plan(clips: [plannedInfo(seconds: 1)], settings: StitchSettings())
        XCTAssertNil(plan.target)
        XCTAssertEqual(try plan.aimed(at: "/o/a.webm", settings: StitchSettings()).target, .file(path: "/o/a.webm", container: .webm))
    }

    // MARK: The output for a render

    func testTheWholeFileIsWrittenBesideTheTargetUnderAHiddenName() throws {
        let path = folder.file("out.webm")
        let output = try XCTUnwrap(RenderTarget.file(path: path, container: .webm).output(for: .whole, at: path, contents: contents()) as? FileOutput)
        XCTAssertEqual(output.writtenAt, folder.file(".out.webm.partial"))
        XCTAssertEqual(output.writtenAt, OutputFile.temporaryPath(for: path))
        XCTAssertEqual(output.container, .webm)
    }

    func testASegmentsVideoIsAnMP4WrittenWhereItsRenderSays() throws {
        let target = RenderTarget.file(path: folder.file("out.webm"), container: .webm)
        let output = try XCTUnwrap(target.output(for: .segment(frames: 24..<48, audio: 47_104..<95_232, soundPath: nil), at: folder.file("seg1.mp4"),
                                                 contents: contents()) as? FileOutput)
        XCTAssertEqual(output.writtenAt, folder.file("seg1.mp4"))
        XCTAssertEqual(output.path, folder.file("seg1.mp4"))
        XCTAssertEqual(output.container, .mp4, "a segment's video is MP4 whatever the whole is")
    }

    func testALadderOutputIsTheWholeOrASegmentsFolder() throws {
        let target = try RenderTarget(path: folder.file("hls/master.m3u8"), canvas: canvas, settings: StitchSettings())
        let whole = try XCTUnwrap(target.output(for: .whole, at: target.path, contents: contents()) as? LadderOutput)
        XCTAssertTrue(whole.isWhole)
        XCTAssertEqual(whole.files.master, folder.file("hls/master.m3u8"))
        let part = try XCTUnwrap(target.output(for: .segment(frames: 24..<48, audio: 47_104..<Int.max, soundPath: nil), at: folder.file("seg1"),
                                               contents: contents()) as? LadderOutput)
        XCTAssertFalse(part.isWhole)
        XCTAssertEqual(part.files.master, folder.file("seg1/master.m3u8"))
    }

    func testAnExistingTargetIsRefusedWithoutOverwrite() throws {
        let path = folder.file("out.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let output = RenderTarget.file(path: path, container: .mp4).output(for: .whole, at: path, contents: contents())
        assertSegueError(.outputExists, try output.prepare(overwrite: false))
        XCTAssertNoThrow(try output.prepare(overwrite: true))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old", "checked, not touched")
    }

    func testPreparingTheWholeFileClearsALeftoverPartial() throws {
        let path = folder.file("out.mp4")
        try Data("killed run".utf8).write(to: URL(fileURLWithPath: OutputFile.temporaryPath(for: path)))
        try RenderTarget.file(path: path, container: .mp4).output(for: .whole, at: path, contents: contents()).prepare(overwrite: false)
        XCTAssertEqual(folder.names, [])
    }

    func testASegmentsFileIsNotCheckedAgainstWhatIsThere() throws {
        let path = folder.file("seg1.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let output = RenderTarget.file(path: folder.file("out.mp4"), container: .mp4)
            .output(for: .segment(frames: 24..<48, audio: 47_104..<95_232, soundPath: nil), at: path, contents: contents())
        XCTAssertNoThrow(try output.prepare(overwrite: false))
    }

    /// Writes two seconds of flat pictures and a tone through `output`'s sink.
    func write(through output: any RenderOutput) throws {
        let sink = try output.openSink()
        for index in 0..<48 { try sink.encode(picture: try Made.picture(luma: 120, width: 160, height: 90, pts: Int64(index)), crf: nil) }
        try sink.finish()
    }

    func testACompletedWholeFileIsMovedOntoTheTarget() throws {
        let path = folder.file("out.mp4")
        let output = RenderTarget.file(path: path, container: .mp4).output(for: .whole, at: path, contents: contents(audio: false))
        try output.prepare(overwrite: false)
        try write(through: output)
        XCTAssertEqual(folder.names, [".out.mp4.partial"], "nothing at the target until it is complete")
        var report = StitchReport.empty
        try output.complete(&report)
        XCTAssertEqual(folder.names, ["out.mp4"])
        XCTAssertEqual(try ReadBack(path).lumas.count, 48)
    }

    func testAnAbandonedWholeFileLeavesNothing() throws {
        let path = folder.file("out.mp4")
        let output = RenderTarget.file(path: path, container: .mp4).output(for: .whole, at: path, contents: contents(audio: false))
        try output.prepare(overwrite: false)
        try write(through: output)
        output.abandon()
        XCTAssertEqual(folder.names, [])
    }

    func testASegmentsFileStaysWhereItWasWritten() throws {
        let path = folder.file("seg1.mp4")
        let output = RenderTarget.file(path: folder.file("out.mp4"), container: .mp4)
            .output(for: .segment(frames: 24..<48, audio: 47_104..<95_232, soundPath: nil), at: path, contents: contents(audio: false))
        try output.prepare(overwrite: false)
        try write(through: output)
        var report = StitchReport.empty
        try output.complete(&report)
        XCTAssertEqual(folder.names, ["seg1.mp4"])
    }
}
