import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The sound stages over files written here: the music bed mixed under the
/// output and ducked while a clip is heard, and a timeline's own sound heard
/// instead of its clips' under the frames it covers.
final class SoundStageTests: XCTestCase {
    var folder: TestFolder!

    override func setUpWithError() throws { folder = try TestFolder() }
    override func tearDown() { folder = nil }

    /// 2000 samples a frame: 24 fps at 48 kHz.
    static let frame = 2000

    // MARK: Music

    /// A music stage over a 1 kHz tone (`seconds` long) under a plan of `planSeconds`.
    func musicStage(seconds: Double = 4, planSeconds: Double = 6) throws -> MusicStage {
        let path = folder.file("music-\(seconds).wav")
        if !FileManager.default.fileExists(atPath: path) { try TestWAV.tone(1000, seconds: seconds, to: path) }
        var settings = StitchSettings()
        settings.music = path
        let plan = try Plan(clips: [plannedInfo(seconds: planSeconds, audio: true)], settings: settings)
        return MusicStage(try MusicBed(path: path, plan: plan, settings: settings, access: InputAccess()))
    }

    /// The music the stage adds under `own` (a stereo block per frame, `frames` of them): what it heard less the own sound.
    func music(under own: Float, frames: Int, stage: MusicStage) throws -> [[Float]] {
        try (0..<frames).map { frame in
            let heard = try stage.process(Made.block(Self.frame, own), from: frame * Self.frame, frame: frame)
            return heard[0].map { $0 - own }
        }
    }

    func testTheMusicIsHeardUnderSilence() throws {
        let music = try music(under: 0, frames: 36, stage: musicStage())
        XCTAssertGreaterThan(Made.rms(music[30]), 0.01, "1.25 s in, past the fade in")
    }

    func testTheMusicFadesInOverItsFirstSecond() throws {
        let music = try music(under: 0, frames: 36, stage: musicStage())
        XCTAssertLessThan(Made.rms(music[0]), Made.rms(music[30]) / 10)
        XCTAssertLessThan(Made.rms(music[6]), Made.rms(music[18]))
    }

    func testTheMusicIsDuckedByTheSettingsDecibelsUnderASoundThatIsHeard() throws {
        let quiet = try music(under: 0, frames: 48, stage: musicStage())
        let loud = try music(under: 0.5, frames: 48, stage: musicStage())
        // Two seconds in: the fade in is over and the attack (0.3 s) long settled.
        let ratio = Made.rms(loud[45]) / Made.rms(quiet[45])
        XCTAssertEqual(20 * log10(ratio), -StitchSettings().duck, accuracy: 0.5)
    }

    func testTheMusicIsNotDuckedUnderSoundBelowThePresenceThreshold() throws {
        let quiet = try music(under: 0, frames: 48, stage: musicStage())
        let faint = try music(under: MusicBed.presenceThreshold / 2, frames: 48, stage: musicStage())
        XCTAssertEqual(Made.rms(faint[45]), Made.rms(quiet[45]), accuracy: 1e-4)
    }

    func testAShortBedLoopsUnderALongerOutput() throws {
        let music = try music(under: 0, frames: 72, stage: musicStage(seconds: 1))
        // The bed lasts 24 frames: frames 50 and 70 are its third pass.
        XCTAssertEqual(Made.rms(music[70]), Made.rms(music[30]), accuracy: 0.01)
        XCTAssertEqual(Made.rms(music[50]), Made.rms(music[30]), accuracy: 0.01)
    }

    func testTheMusicFadesOutToTheOutputsEnd() throws {
        let music = try music(under: 0, frames: 48, stage: musicStage(planSeconds: 2))
        XCTAssertLessThan(Made.rms(music[47]), Made.rms(music[24]) / 10, "the last frame, 1/48 of the two-second fade out left")
    }

    func testSkippingTheBedLandsWhereMixingSilenceWould() throws {
        let mixed = try musicStage(), skipped = try musicStage()
        _ = try music(under: 0, frames: 30, stage: mixed)
        try skipped.bed.skip(30 * Self.frame)
        let afterMixing = try mixed.process(Made.block(Self.frame), from: 30 * Self.frame, frame: 30)
        let afterSkipping = try skipped.process(Made.block(Self.frame), from: 30 * Self.frame, frame: 30)
        XCTAssertEqual(afterSkipping, afterMixing)
    }

    func testTheChainOfAPlanWithMusicNamesItsBed() throws {
        let path = folder.file("bed.wav")
        try TestWAV.tone(500, seconds: 1, to: path)
        var settings = StitchSettings()
        settings.music = path
        let plan = try Plan(clips: [plannedInfo(seconds: 1, audio: true)], settings: settings)
        let chain = try SoundChain.make(plan: plan, settings: settings, access: InputAccess(), from: 0, output: RecordingSoundOutput())
        XCTAssertEqual(chain.music?.path, path)
    }

    func testASoundIsHeardAboveThePresenceThresholdOnly() {
        XCTAssertTrue(MusicBed.isHeard(Made.block(100, 0.01)))
        XCTAssertFalse(MusicBed.isHeard(Made.block(100, 0.001)))
        XCTAssertFalse(MusicBed.isHeard(Made.block(0)), "an empty block is not heard")
    }

    // MARK: A timeline's sound

    /// A plan of three one-second clips at 24 fps; the middle one stands under a timeline whose one
    /// sound clip plays `wav` from its start for 24 record frames at `level` dB.
    func timelinePlan(level: Double = 0) throws -> Plan {
        let path = folder.file("timeline.wav")
        try TestWAV.tone(1000, seconds: 2, to: path)
        let source = EditRange(start: EditTime(value: 0, rate: 24), duration: EditTime(value: 24, rate: 24))
        let item = EditAudioClip(clip: EditClip(name: "M", media: EditMedia(location: path), source: source), level: level)
        let placed = PlacedAudioClip(item: item, number: 1, recordStart: 0, recordFrames: 24, before: 0, after: 0, fadeIn: 0, fadeOut: 0)
        let piece = TimelineSound.Piece(name: "M", path: path, placed: placed, fileStart: 0, mediaStart: 0, silent: false)
        let sound = TimelineSound(rate: Rational(24, 1), tracks: [.init(name: "A1", pieces: [piece])])
        return try Plan(clips: [plannedInfo("a.mp4", seconds: 1, audio: true), plannedInfo("b.mp4", seconds: 1, audio: true),
                                plannedInfo("c.mp4", seconds: 1, audio: true)],
                        settings: StitchSettings(), joins: [], sounds: [sound],
                        places: [nil, SoundPlace(track: 0, entry: 0, recordFrame: 0), nil])
    }

    func timelineStage(level: Double = 0) throws -> TimelineSoundStage {
        let mix = try XCTUnwrap(TimelineSoundMix.make(plan: try timelinePlan(level: level), access: InputAccess(), loudness: nil))
        return TimelineSoundStage(mix)
    }

    func testTheTimelinesSoundCoversTheFramesOfItsClipOnly() throws {
        let plan = try timelinePlan()
        XCTAssertEqual(plan.soundTracks.map(\.stretches), [[PlannedSound.Stretch(frames: 24..<48, origin: 48_000)]])
        let mix = try XCTUnwrap(TimelineSoundMix.make(plan: plan, access: InputAccess(), loudness: nil))
        XCTAssertEqual([0, 23, 24, 47, 48, 71].map(mix.covers(frame:)), [false, false, true, true, false, false])
    }

    func testAFrameOutsideTheTimelinesStretchKeepsItsClipsOwnSound() throws {
        let stage = try timelineStage()
        let own = Made.block(Self.frame, 0.3)
        XCTAssertEqual(try stage.process(own, from: 0, frame: 0), own)
        XCTAssertEqual(try stage.process(own, from: 23 * Self.frame, frame: 23), own)
        XCTAssertEqual(try stage.process(own, from: 48 * Self.frame, frame: 48), own)
    }

    func testAFrameInsideTheStretchHearsTheTimelinesSoundInsteadOfItsOwn() throws {
        let stage = try timelineStage()
        let heard = try stage.process(Made.block(Self.frame, 0.3), from: 24 * Self.frame, frame: 24)
        // Record frame 0 is output frame 24: the file's first samples, as written.
        let expected = Made.tone(1000, count: Self.frame)
        XCTAssertEqual(heard[0].count, Self.frame)
        XCTAssertLessThan(zip(heard[0], expected).map { abs($0 - $1) }.max() ?? 1, 0.002)
        XCTAssertEqual(heard[1], heard[0])
    }

    func testTheTimelinesSoundRunsOnFromWhereTheStretchIsAskedFor() throws {
        let stage = try timelineStage()
        let heard = try stage.process(Made.block(Self.frame), from: 30 * Self.frame, frame: 30)
        let expected = Made.tone(1000, from: 6 * Self.frame, count: Self.frame)
        XCTAssertLessThan(zip(heard[0], expected).map { abs($0 - $1) }.max() ?? 1, 0.002, "six frames into the file")
    }

    func testASoundClipsLevelScalesItsSound() throws {
        let full = try timelineStage().process(Made.block(Self.frame), from: 24 * Self.frame, frame: 24)
        let lowered = try timelineStage(level: -6).process(Made.block(Self.frame), from: 24 * Self.frame, frame: 24)
        XCTAssertEqual(Made.rms(lowered[0]) / Made.rms(full[0]), pow(10, -6.0 / 20), accuracy: 0.01)
    }

    func testAPlanWithoutATimelinesSoundHasNoMix() throws {
        let plan = try Plan(clips: [plannedInfo(seconds: 1, audio: true)], settings: StitchSettings())
        XCTAssertNil(TimelineSoundMix.make(plan: plan, access: InputAccess(), loudness: nil))
    }
}
