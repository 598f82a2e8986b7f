import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore
import SegueRuntime

/// The stitcher end to end in process: three small clips written here (each
/// a flat luma and a tone of its own), probed, planned and rendered, the
/// output read back frame by frame.
final class StitcherRenderTests: XCTestCase {
    static let lumas: [UInt8] = [40, 120, 200]
    static let tones: [Double] = [440, 880, 1320]
    /// The clips, written once for the class: 12 frames each, 160x90 at 24 fps.
    nonisolated(unsafe) static var clips: [String] = []
    nonisolated(unsafe) static var clipFolder: TestFolder?

    override class func setUp() {
        super.setUp()
        do {
            let folder = try TestFolder()
            clips = try (0..<3).map { index in
                let path = folder.file("clip\(index).mp4")
                try TestClip(luma: lumas[index], toneHz: tones[index]).write(to: path)
                return path
            }
            clipFolder = folder
        } catch {
            XCTFail("can't write the clips: \(error)")
        }
    }

    override class func tearDown() {
        clipFolder = nil
        super.tearDown()
    }

    var folder: TestFolder!

    override func setUpWithError() throws { folder = try TestFolder() }
    override func tearDown() { folder = nil }

    func settings(_ configure: (inout StitchSettings) -> Void = { _ in }) -> StitchSettings {
        var settings = StitchSettings()
        settings.preset = "ultrafast"
        settings.crf = 10
        configure(&settings)
        return settings
    }

    /// A stitcher of the three clips into `name` in the test's folder.
    func stitcher(_ name: String = "out.mp4", settings: StitchSettings? = nil, overwrite: Bool = false) throws -> Stitcher {
        let settings = settings ?? self.settings()
        let infos = try Self.clips.map { try Prober.probe($0).get() }
        let plan = try Plan(clips: infos, settings: settings).aimed(at: folder.file(name), settings: settings)
        return Stitcher(planned: try PlannedStitch(plan: plan, settings: settings), options: RunOptions(overwrite: overwrite))
    }

    /// Whether each read luma is within 3 of the expected one.
    func assertLumas(_ read: [Double], _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(read.count, expected.count, file: file, line: line)
        for (index, (luma, wanted)) in zip(read, expected).enumerated() where abs(luma - Double(wanted)) > 3 {
            XCTFail("frame \(index): luma \(luma), expected \(wanted)", file: file, line: line)
        }
    }

    static let cutLumas = lumas.flatMap { Array(repeating: $0, count: 12) }

    func testACutKeepsEveryFrameOfEveryClip() throws {
        let report = try stitcher().run()
        XCTAssertEqual(report.frames, 36)
        XCTAssertEqual(try ReadBack(folder.file("out.mp4")).lumas.count, 36)
    }

    func testEachFrameShowsItsClipInOrder() throws {
        _ = try stitcher().run()
        assertLumas(try ReadBack(folder.file("out.mp4")).lumas, Self.cutLumas)
    }

    func testTheSoundLastsAsLongAsThePictures() throws {
        let stitcher = try stitcher()
        let report = try stitcher.run()
        XCTAssertEqual(report.audioSamples, stitcher.plan.sampleIndex(atFrame: 36))
        XCTAssertEqual(Double(try ReadBack(folder.file("out.mp4")).audio.count), 72_000, accuracy: 1024)
    }

    func testEachClipIsHeardUnderItsOwnFrames() throws {
        _ = try stitcher().run()
        let audio = try ReadBack(folder.file("out.mp4")).audio
        for clip in 0..<3 {
            // Frames 3 to 9 of the clip's twelve, 2000 samples a frame.
            let middle = audio[(clip * 12 + 3) * 2000..<(clip * 12 + 9) * 2000]
            let powers = Self.tones.map { Made.power(middle, frequency: $0) }
            XCTAssertEqual(powers.firstIndex(of: powers.max()!), clip, "clip \(clip): \(powers)")
        }
    }

    func testAFadeShortensTheOutputByItsFrames() throws {
        let report = try stitcher(settings: settings { $0.transition = .fade; $0.transitionDuration = 0.25 }).run()
        XCTAssertEqual(report.joins.map(\.frames), [6, 6])
        XCTAssertEqual(report.frames, 36 - 12)
        XCTAssertEqual(try ReadBack(folder.file("out.mp4")).lumas.count, 24)
    }

    func testAFadesFramesMoveFromOneClipsLumaToTheNext() throws {
        _ = try stitcher(settings: settings { $0.transition = .fade; $0.transitionDuration = 0.25 }).run()
        let lumas = try ReadBack(folder.file("out.mp4")).lumas
        // Clip 0 alone for 6 frames, its join with clip 1 (6), clip 1's with clip 2 (6), clip 2 alone (6):
        // clip 1 gives all its frames to the two joins.
        assertLumas(Array(lumas[0..<6]) + Array(lumas[18..<24]), Array(repeating: 40, count: 6) + Array(repeating: 200, count: 6))
        XCTAssertEqual(lumas, lumas.sorted(), "the luma rises frame by frame: \(lumas)")
        XCTAssertTrue(lumas[6..<18].allSatisfy { $0 > 43 && $0 < 197 }, "every join frame a blend: \(lumas)")
        XCTAssertEqual(lumas[11], 120, accuracy: 15, "the first join ends near clip 1")
    }

    func testOnlyTheOutputIsLeftInItsFolder() throws {
        _ = try stitcher().run()
        XCTAssertEqual(folder.names, ["out.mp4"])
    }

    func testAnExistingOutputIsRefusedWithoutOverwriteAndLeftAlone() throws {
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.file("out.mp4")))
        assertSegueError(.outputExists, try stitcher().run())
        XCTAssertEqual(try String(contentsOfFile: folder.file("out.mp4"), encoding: .utf8), "old")
    }

    func testAnExistingOutputIsReplacedWithOverwrite() throws {
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.file("out.mp4")))
        _ = try stitcher(overwrite: true).run()
        XCTAssertEqual(try ReadBack(folder.file("out.mp4")).lumas.count, 36)
    }

    func testAStoppedRenderLeavesNothing() throws {
        let stop = StopRequest()
        stop.stop(signal: SIGTERM)
        assertSegueError(.interrupted(signal: SIGTERM), try stitcher().run(stop: stop))
        XCTAssertEqual(folder.names, [])
    }

    func testAWebMTargetWritesVP9InWebM() throws {
        let report = try stitcher("out.webm", settings: settings { $0.codec = .vp9 }).run()
        XCTAssertEqual(report.container, .webm)
        let read = try ReadBack(folder.file("out.webm"))
        XCTAssertEqual(read.videoCodec, "vp9")
        XCTAssertEqual(read.audioCodec, "opus")
        assertLumas(read.lumas, Self.cutLumas)
    }

    func testWithoutAudioTheOutputHasNoSound() throws {
        let report = try stitcher(settings: settings { $0.includeAudio = false }).run()
        XCTAssertEqual(report.audioSamples, 0)
        XCTAssertNil(try ReadBack(folder.file("out.mp4")).audioCodec)
    }

    func testAnHLSLadderWritesItsFilesAndTheReportListsThem() throws {
        let report = try stitcher("hls/master.m3u8").run()
        let files = try XCTUnwrap(report.files)
        XCTAssertTrue(files.contains(folder.file("hls/master.m3u8")), "\(files)")
        XCTAssertTrue(files.contains { $0.hasSuffix(".m4s") }, "\(files)")
        XCTAssertEqual(files.map { ($0 as NSString).lastPathComponent }.sorted(),
                       try FileManager.default.contentsOfDirectory(atPath: folder.file("hls")).filter { !$0.hasPrefix(".") }.sorted(),
                       "the report lists every file in the folder")
        XCTAssertEqual(report.renditions?.count, 2, "one rung for a 90-line canvas, and the sound")
        let master = try String(contentsOfFile: folder.file("hls/master.m3u8"), encoding: .utf8)
        XCTAssertTrue(master.hasPrefix("#EXTM3U"), master)
    }

    func testAStoppedLadderLeavesNoFile() throws {
        let stop = StopRequest()
        stop.stop(signal: SIGINT)
        assertSegueError(.interrupted(signal: SIGINT), try stitcher("hls/master.m3u8").run(stop: stop))
        XCTAssertEqual(folder.names, [], "the folder made for it is gone too")
    }

    /// Output frames 8..<28, across the first two joins.
    /// A segment of the middle: output frames 8 to 28, and the AAC packets whose blocks start there.
    let middleFrames = 8..<28, middleAudio = 15_360..<55_296

    func testASegmentOfTheMiddleShowsTheWholeStitchsPicturesThere() throws {
        _ = try stitcher().run()
        let whole = try ReadBack(folder.file("out.mp4")).lumas
        let stitcher = try stitcher("other.mp4")
        let rendered = try stitcher.renderSegment(frames: middleFrames, audio: middleAudio, at: folder.file("seg.mp4"), soundPath: nil)
        let segment = try ReadBack(folder.file("seg.mp4")).lumas
        XCTAssertEqual(rendered.pictures, 20)
        XCTAssertEqual(segment.count, 20)
        for (index, (part, full)) in zip(segment, whole[8..<28]).enumerated() {
            XCTAssertEqual(part, full, accuracy: 1, "segment frame \(index)")
        }
    }

    func testASegmentsVideoHasNoSoundOfItsOwn() throws {
        let stitcher = try stitcher()
        _ = try stitcher.renderSegment(frames: middleFrames, audio: middleAudio, at: folder.file("seg.mp4"), soundPath: nil)
        let read = try ReadBack(folder.file("seg.mp4"))
        XCTAssertNil(read.audioCodec, "its sound goes to a file of its own")
        XCTAssertEqual(read.times.first ?? -1, 0, accuracy: 1e-6, "its pictures count from its first frame")
        XCTAssertEqual(folder.names, ["seg.mp4"], "written in place, nothing else")
    }

    func testASegmentsSoundGoesToItsOwnFile() throws {
        let stitcher = try stitcher()
        let rendered = try stitcher.renderSegment(frames: middleFrames, audio: middleAudio, at: folder.file("seg.mp4"),
                                                  soundPath: folder.file("seg.m4a"))
        let sound = try ReadBack(folder.file("seg.m4a"))
        XCTAssertEqual(sound.audioCodec, "aac")
        XCTAssertGreaterThan(rendered.audioPackets, 0)
        // Every block that starts in the stretch (neither end the output's first or last).
        XCTAssertEqual(rendered.audioPackets, middleAudio.count / 1024)
    }
}
