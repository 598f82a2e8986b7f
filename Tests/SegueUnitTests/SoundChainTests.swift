import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// A stage that records what it was given and maps every sample x to 10x + `mark`,
/// so the order stages ran in shows in the digits.
final class MarkingStage: SoundStage {
    let mark: Float
    var calls: [(start: Int, frame: Int, first: Float)] = []

    init(_ mark: Float) { self.mark = mark }

    func process(_ block: [[Float]], from start: Int, frame: Int) throws -> [[Float]] {
        calls.append((start, frame, block[0].first ?? .nan))
        return block.map { $0.map { $0 * 10 + mark } }
    }
}

/// The output's sound as a chain: each frame's own sound through the stages in
/// order, then to the output (the writer's, cut into the encoder's blocks).
final class SoundChainTests: XCTestCase {
    let canvas = Canvas(width: 64, height: 36, frameRate: Rational(24, 1), sampleRate: 48_000)

    func testStagesHearTheBlockInTheOrderTheyStand() throws {
        let chain = SoundChain(stages: [MarkingStage(1), MarkingStage(2)], output: RecordingSoundOutput())
        let heard = try chain.hear(Made.block(4), from: 0, frame: 0)
        XCTAssertEqual(heard[0], [12, 12, 12, 12], "the first stage's 1, then the second's 2")
        XCTAssertEqual(heard[1], heard[0])
    }

    func testEachStageTakesTheBlockTheOneBeforeItLeft() throws {
        let first = MarkingStage(3), second = MarkingStage(4)
        let chain = SoundChain(stages: [first, second], output: RecordingSoundOutput())
        _ = try chain.hear(Made.block(2, 0.5), from: 0, frame: 0)
        XCTAssertEqual(first.calls.map(\.first), [0.5])
        XCTAssertEqual(second.calls.map(\.first), [8])
    }

    func testEveryStageIsToldTheBlocksFirstSampleAndFrame() throws {
        let stage = MarkingStage(0)
        let chain = SoundChain(stages: [stage], output: RecordingSoundOutput())
        _ = try chain.hear(Made.block(2000), from: 0, frame: 0)
        _ = try chain.hear(Made.block(2000), from: 2000, frame: 1)
        XCTAssertEqual(stage.calls.map(\.start), [0, 2000])
        XCTAssertEqual(stage.calls.map(\.frame), [0, 1])
    }

    func testAChainWithoutStagesHearsTheOwnSoundUnchanged() throws {
        let chain = SoundChain(stages: [], output: RecordingSoundOutput())
        XCTAssertEqual(try chain.hear([[0.25, -0.5], [0.75, 1]], from: 96, frame: 3), [[0.25, -0.5], [0.75, 1]])
        XCTAssertNil(chain.music)
    }

    func testWrittenBlocksReachTheOutputAtTheirStartAndFinishOnce() throws {
        let output = RecordingSoundOutput()
        let chain = SoundChain(stages: [MarkingStage(1)], output: output)
        try chain.write(Made.block(3, 0.5), at: 0)
        try chain.write(Made.block(3, 0.25), at: 3)
        try chain.finish()
        XCTAssertEqual(output.blocks.map(\.start), [0, 3])
        XCTAssertEqual(output.blocks.map(\.samples), [[0.5, 0.5, 0.5], [0.25, 0.25, 0.25]], "written as given: the stages hear, they don't write")
        XCTAssertEqual(output.finished, 1)
    }

    func testAPlanWithoutTimelineSoundOrMusicMakesNoStages() throws {
        let plan = try Plan(clips: [plannedInfo(seconds: 1, audio: true)], settings: StitchSettings())
        let chain = try SoundChain.make(plan: plan, settings: StitchSettings(), access: InputAccess(), from: 0,
                                        output: RecordingSoundOutput())
        XCTAssertEqual(try chain.hear(Made.block(5, 0.125), from: 0, frame: 0), Made.block(5, 0.125))
        XCTAssertNil(chain.music)
    }

    func testAMusicBedThatIsNotThereFailsNamingIt() throws {
        var settings = StitchSettings()
        settings.music = "/nonexistent/music.wav"
        let plan = try Plan(clips: [plannedInfo(seconds: 1, audio: true)], settings: settings)
        XCTAssertThrowsError(try SoundChain.make(plan: plan, settings: settings, access: InputAccess(), from: 0,
                                                 output: RecordingSoundOutput())) { error in
            XCTAssertEqual((error as? SegueError)?.subject, "/nonexistent/music.wav", "\(error)")
        }
    }

    // MARK: The writer's sound

    func writerSound(frameSize: Int = 1024) throws -> (WriterSound, OutputWriter, RecordingSink) {
        let sink = RecordingSink(audioFrameSize: frameSize)
        let writer = try OutputWriter(sink: sink, canvas: canvas)
        return (WriterSound(writer: writer, sampleRate: 48_000), writer, sink)
    }

    func testTheWritersSoundIsCutIntoTheEncodersBlocksStampedWithTheirFirstSample() throws {
        let (sound, writer, sink) = try writerSound()
        try sound.write(Made.block(1500), at: 0)
        try sound.write(Made.block(1500), at: 1500)
        try writer.finish()
        XCTAssertEqual(sink.events, [.sound(pts: 0, samples: 1024), .sound(pts: 1024, samples: 1024), .finish])
    }

    func testFinishingTheWritersSoundSendsTheShortLastBlock() throws {
        let (sound, writer, sink) = try writerSound(frameSize: 960)
        try sound.write(Made.block(2000), at: 0)
        try sound.finish()
        try writer.finish()
        XCTAssertEqual(sink.events, [.sound(pts: 0, samples: 960), .sound(pts: 960, samples: 960), .sound(pts: 1920, samples: 80), .finish])
        XCTAssertEqual(sound.samplesWritten, 2000)
    }

    func testSoundThatFillsWholeBlocksEndsWithoutAnEmptyOne() throws {
        let (sound, writer, sink) = try writerSound()
        try sound.write(Made.block(2048), at: 0)
        try sound.finish()
        try writer.finish()
        XCTAssertEqual(sink.events, [.sound(pts: 0, samples: 1024), .sound(pts: 1024, samples: 1024), .finish])
    }

    func testTheWritersSoundKeepsTheSamplesInOrderAcrossBlocks() throws {
        let sink = RecordingCopyingSink(audioFrameSize: 4)
        let writer = try OutputWriter(sink: sink, canvas: canvas)
        let sound = WriterSound(writer: writer, sampleRate: 48_000)
        try sound.write([[1, 2, 3], [1, 2, 3]], at: 0)
        XCTAssertEqual(sound.samplesWritten, 0, "three samples wait for a fourth")
        try sound.write([[4, 5, 6], [4, 5, 6]], at: 3)
        XCTAssertEqual(sound.samplesWritten, 4)
        try sound.finish()
        XCTAssertEqual(sound.samplesWritten, 6)
        try writer.finish()
    }

    // MARK: A segment's sound

    func testASegmentsSoundFileHoldsTheSoundWrittenToIt() throws {
        let folder = try TestFolder()
        let path = folder.file("sound.m4a")
        // The only (so last) segment: every packet from the first block on.
        let output: any SoundOutput = try SegmentSound(path: path, keeping: 0..<Int.max, sampleRate: 48_000, channels: 2,
                                                        bitRate: 128_000)
        for frame in 0..<24 {
            let tone = Made.tone(1000, from: frame * 2000, count: 2000)
            try output.write([tone, tone], at: frame * 2000)
        }
        try output.finish()
        let read = try ReadBack(path)
        XCTAssertEqual(read.audioCodec, "aac")
        XCTAssertEqual(Double(read.audio.count), 48_000, accuracy: 1024, "a second of sound")
        XCTAssertEqual(Made.rms(read.audio[4_800..<43_200]), 0.5 / 2.0.squareRoot(), accuracy: 0.05)
    }
}
