import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The sink that encodes: an MP4 (H.264, AAC) or WebM (VP9, Opus) written from
/// pictures and sound made in memory, read back with Segue's own decoders.
final class EncodingSinkTests: XCTestCase {
    var folder: TestFolder!

    override func setUpWithError() throws { folder = try TestFolder() }
    override func tearDown() { folder = nil }

    /// Writes `clip` and reads it back.
    func written(_ clip: TestClip, name: String = "clip.mp4") throws -> ReadBack {
        let path = folder.file(name)
        try clip.write(to: path)
        return try ReadBack(path)
    }

    func testAnMP4HoldsEveryPicture() throws {
        XCTAssertEqual(try written(TestClip(luma: 80, frames: 24)).lumas.count, 24)
    }

    func testEachPictureShowsAtItsFramesTime() throws {
        let read = try written(TestClip(luma: 80, frames: 12, frameRate: Rational(25, 1)))
        XCTAssertEqual(read.times.count, 12)
        for (index, time) in read.times.enumerated() { XCTAssertEqual(time, Double(index) / 25, accuracy: 1e-6, "picture \(index)") }
    }

    func testAFlatPictureReadsBackAsItsLuma() throws {
        let read = try written(TestClip(luma: 150, frames: 6))
        XCTAssertEqual(read.width, 160)
        XCTAssertEqual(read.height, 90)
        XCTAssertEqual(read.roundedLumas, Array(repeating: 150, count: 6))
    }

    func testAnMP4sSoundIsAACLastingTheSamplesWritten() throws {
        let read = try written(TestClip(luma: 80, frames: 24))
        XCTAssertEqual(read.videoCodec, "h264")
        XCTAssertEqual(read.audioCodec, "aac")
        XCTAssertEqual(read.sampleRate, 48_000)
        XCTAssertEqual(Double(read.audio.count), 48_000, accuracy: 1024, "one second, its priming trimmed")
        XCTAssertEqual(Made.rms(read.audio[4_800..<43_200]), 0.5 / 2.0.squareRoot(), accuracy: 0.03)
    }

    func testAnMP4sSoundIsTakenInBlocksOf1024() throws {
        let sink = try EncodingSink(path: folder.file("a.mp4"), format: EncodingSink.Format(width: 64, height: 36, frameRate: Rational(24, 1),
                                                                                            preset: "ultrafast"))
        XCTAssertEqual(sink.audioFrameSize, 1024)
        try sink.finish()
    }

    func testAWebMIsVP9AndOpusInMatroska() throws {
        let read = try written(TestClip(luma: 80, frames: 12, container: .webm), name: "clip.webm")
        XCTAssertTrue(read.formatName.contains("webm"), read.formatName)
        XCTAssertEqual(read.videoCodec, "vp9")
        XCTAssertEqual(read.audioCodec, "opus")
        XCTAssertEqual(read.lumas.count, 12)
        XCTAssertEqual(Double(read.audio.count), 24_000, accuracy: 960)
    }

    func testAWebMsSoundIsTakenInOpusBlocksOf960() throws {
        var format = EncodingSink.Format(width: 64, height: 36, frameRate: Rational(24, 1), codec: .vp9, preset: "ultrafast")
        format.container = .webm
        let sink = try EncodingSink(path: folder.file("a.webm"), format: format)
        XCTAssertEqual(sink.audioFrameSize, 960)
        try sink.finish()
    }

    func testAFileWithoutAudioHasNoSoundTrack() throws {
        let read = try written(TestClip(luma: 80, frames: 6, toneHz: nil))
        XCTAssertNil(read.audioCodec)
        XCTAssertEqual(read.lumas.count, 6)
    }

    func testASinkWithoutAudioIgnoresSound() throws {
        var format = EncodingSink.Format(width: 64, height: 36, frameRate: Rational(24, 1), preset: "ultrafast")
        format.audio = nil
        let path = folder.file("silent.mp4")
        let sink = try EncodingSink(path: path, format: format)
        try sink.encode(picture: try Made.picture(luma: 60, pts: 0))
        try sink.encode(sound: try Made.sound(samples: 1024, value: 0.5, pts: 0))
        try sink.finish()
        XCTAssertNil(try ReadBack(path).audioCodec)
    }

    func testTheFormatOfAPlanTakesTheCanvasAndTheSettings() {
        var settings = StitchSettings()
        settings.crf = 30
        settings.preset = "veryfast"
        settings.audioBitRate = 64_000
        let format = EncodingSink.Format(canvas: Canvas(width: 320, height: 180, frameRate: Rational(30, 1), sampleRate: 44_100),
                                         settings: settings)
        XCTAssertEqual([format.width, format.height, format.crf], [320, 180, 30])
        XCTAssertEqual(format.preset, "veryfast")
        XCTAssertEqual(format.audio?.sampleRate, 44_100)
        XCTAssertEqual(format.audio?.bitRate, 64_000)
        settings.includeAudio = false
        XCTAssertNil(EncodingSink.Format(canvas: Canvas(width: 320, height: 180, frameRate: Rational(30, 1), sampleRate: 48_000),
                                         settings: settings).audio)
    }
}
