import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia
@testable import SegueCore

/// The output's name says its container, and the container what it holds:
/// MP4 for .mp4, .m4v and .mov, WebM for .webm, nothing else written.
final class OutputContainerTests: XCTestCase {
    func testTheExtensionSaysTheContainerInAnyCase() {
        XCTAssertEqual(OutputContainer(path: "reel.mp4"), .mp4)
        XCTAssertEqual(OutputContainer(path: "/a/b/REEL.M4V"), .mp4)
        XCTAssertEqual(OutputContainer(path: "take.mov"), .mp4)
        XCTAssertEqual(OutputContainer(path: "out/reel.webm"), .webm)
        XCTAssertEqual(OutputContainer(path: "reel.WebM"), .webm)
        XCTAssertEqual(OutputContainer(path: "feed/master.m3u8"), .hls)
        XCTAssertTrue(OutputContainer.hls.holds(.hevc) && !OutputContainer.hls.holds(.vp9))
    }

    func testAnExtensionSegueDoesntWriteOrNoneIsRefusedNamingIt() {
        for path in ["reel.avi", "reel.mkv", "reel", "folder.webm/reel", ".webm", "reel.", "reel.mp4.partial"] {
            XCTAssertNil(OutputContainer(path: path), path)
        }
        XCTAssertEqual(OutputContainer.refusal(path: "out/reel.avi"), "out/reel.avi: Segue writes .mp4, .m4v, .mov, .webm and .m3u8 files, not .avi")
        XCTAssertEqual(OutputContainer.refusal(path: "reel"),
                       "reel: Segue writes .mp4, .m4v, .mov, .webm and .m3u8 files; give the output one of those extensions")
    }

    func testTheRequestRefusesAnExtensionBeforeAnyWork() {
        XCTAssertThrowsError(try StitchRequest(inputs: ["a.mp4"], output: "reel.avi").validate()) { error in
            XCTAssertEqual((error as? SegueError)?.reason, .usage)
            XCTAssertTrue("\(error)".hasPrefix("reel.avi: Segue writes"), "\(error)")
        }
        XCTAssertNoThrow(try StitchRequest(inputs: ["a.mp4"], output: "reel.webm").validate())
    }

    func testWebMWritesVP9UnlessAV1IsChosenAndRefusesH264AndHEVC() throws {
        let (vp9, notes) = try StitchSettings().fitted(to: .webm, codecChosen: false, output: "reel.webm")
        XCTAssertEqual(vp9.codec, .vp9)
        XCTAssertEqual(notes, [])
        var av1 = StitchSettings()
        av1.codec = .av1
        XCTAssertEqual(try av1.fitted(to: .webm, codecChosen: true, output: "reel.webm").0.codec, .av1)
        for codec in [VideoCodecChoice.h264, .hevc] {
            var settings = StitchSettings()
            settings.codec = codec
            XCTAssertThrowsError(try settings.fitted(to: .webm, codecChosen: true, output: "reel.webm")) { error in
                XCTAssertEqual((error as? SegueError)?.reason, .usage)
                XCTAssertEqual("\(error)", "reel.webm: WebM holds VP9 or AV1 video, not \(codec.displayName) (--codec av1 or vp9, or name the output .mp4)")
            }
        }
    }

    func testAnHLSLadderRefusesVP9AndAV1NamingItself() {
        for codec in [VideoCodecChoice.vp9, .av1] {
            var settings = StitchSettings()
            settings.codec = codec
            XCTAssertThrowsError(try settings.fitted(to: .hls, codecChosen: true, output: "d/master.m3u8")) { error in
                XCTAssertEqual("\(error)", "d/master.m3u8: An HLS ladder holds H.264 or HEVC video, not \(codec.displayName) "
                               + "(--codec h264 or hevc, or name the output .mp4 or .webm)")
            }
        }
    }

    func testMP4KeepsH264AsTheDefaultAndTakesVP9() throws {
        XCTAssertEqual(try StitchSettings().fitted(to: .mp4, codecChosen: false, output: "reel.mp4").0.codec, .h264)
        var settings = StitchSettings()
        settings.codec = .vp9
        XCTAssertEqual(try settings.fitted(to: .mp4, codecChosen: true, output: "reel.mp4").0.codec, .vp9)
    }

    func testSmartIsTurnedOffInWebMWithANote() throws {
        var settings = StitchSettings()
        settings.smart = true
        let (fitted, notes) = try settings.fitted(to: .webm, codecChosen: false, output: "reel.webm")
        XCTAssertFalse(fitted.smart)
        XCTAssertEqual(notes, [.smartOffInWebM(output: "reel.webm")])
        XCTAssertTrue(notes[0].description.contains("--smart is off"), notes[0].description)
        XCTAssertTrue(try settings.fitted(to: .mp4, codecChosen: false, output: "reel.mp4").0.smart, "MP4 keeps --smart")
    }

    func testEveryPresetHasItsOwnVP9SpeedFasterToSlower() {
        let speeds = OptionLimits.presets.map(VideoCodecChoice.vpxSpeed(for:))
        // Realtime before good before best; within a deadline, cpu-used falls.
        let order = ["realtime": 0, "good": 1, "best": 2]
        let keys = speeds.map { order[$0.deadline]! * 100 - $0.cpuUsed }
        XCTAssertEqual(keys, keys.sorted())
        XCTAssertEqual(Set(keys).count, speeds.count, "no two presets share a speed")
        XCTAssertEqual(VideoCodecChoice.vpxSpeed(for: "ultrafast").deadline, "realtime")
    }

    func testAWebVTTCueIsTextNeverMarkupWithItsStylesAsTags() {
        XCTAssertEqual(Muxer.webVTTPayload("a <b> & c --> d", styles: []), "a &lt;b&gt; &amp; c --&gt; d")
        XCTAssertEqual(Muxer.webVTTPayload("\n\nfirst\n\n\nsecond\n", styles: []), "first\nsecond")
        // Bold over "one two", italic over "two three": tags close and reopen so they nest.
        let styles = [TimedTextStyle(start: 0, end: 7, flags: 1), TimedTextStyle(start: 4, end: 13, flags: 2)]
        XCTAssertEqual(Muxer.webVTTPayload("one two three", styles: styles), "<b>one </b><b><i>two</i></b><i> three</i>")
        XCTAssertEqual(Muxer.webVTTPayload("é u", styles: [TimedTextStyle(start: 2, end: 3, flags: 4)]), "é <u>u</u>")
    }
}

/// A written file's codecs as RFC 6381 names them, from its configuration records.
final class CodecStringTests: XCTestCase {
    func testTheConfigurationRecordsGiveTheCodecStrings() {
        var stream = StreamInfo(index: 0, kind: .video, codecName: "h264", timeBase: Rational(1, 30))
        stream.extradata = [1, 0x64, 0x00, 0x1F, 0xFF]
        XCTAssertEqual(CodecStrings.videoString(stream), "avc1.64001F")
        // HEVC Main 10, level 5.1 (153), progressive and frame-only constraint bits.
        stream.codecName = "hevc"
        stream.codecTag = "hvc1"
        stream.extradata = [1, 0x02, 0x20, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 153]
        XCTAssertEqual(CodecStrings.videoString(stream), "hvc1.2.4.L153.90")
        // AV1 Main, level 4.0 (8), Main tier, 10-bit.
        stream.codecName = "av1"
        stream.extradata = [0x81, 0x08, 0x40, 0]
        XCTAssertEqual(CodecStrings.videoString(stream), "av01.0.08M.10")
    }

    func testAVP9StreamsLevelIsTheLowestThatHoldsIt() {
        XCTAssertEqual(CodecStrings.vp9Level(width: 320, height: 180, frameRate: 30), 11)
        XCTAssertEqual(CodecStrings.vp9Level(width: 1280, height: 720, frameRate: 30), 31)
        XCTAssertEqual(CodecStrings.vp9Level(width: 1920, height: 1080, frameRate: 30), 40)
        XCTAssertEqual(CodecStrings.vp9Level(width: 1920, height: 1080, frameRate: 60), 41)
        XCTAssertEqual(CodecStrings.vp9Level(width: 3840, height: 2160, frameRate: 30), 50)
        XCTAssertEqual(CodecStrings(video: "vp09.00.31.08", audio: "opus").mimeType(.webm),
                       "video/webm; codecs=\"vp09.00.31.08, opus\"")
    }

    func testARenderTargetIsResolvedOnceFromTheNameAndTheCanvas() throws {
        let canvas = Canvas(width: 1280, height: 720, frameRate: Rational(30, 1), sampleRate: 48_000)
        let settings = StitchSettings()
        XCTAssertEqual(try RenderTarget(path: "out/reel.MOV", canvas: canvas, settings: settings), .file(path: "out/reel.MOV", container: .mp4))
        XCTAssertEqual(try RenderTarget(path: "reel.webm", canvas: canvas, settings: settings).container, .webm)
        let ladder = try RenderTarget(path: "d/master.m3u8", canvas: canvas, settings: settings)
        XCTAssertEqual(ladder.container, .hls)
        XCTAssertEqual(ladder.path, "d/master.m3u8")
        XCTAssertEqual(ladder.ladder?.rungs.first.map { [$0.width, $0.height] }, [1280, 720], "the canvas's own rung first")
        XCTAssertNil(try RenderTarget(path: "reel.mp4", canvas: canvas, settings: settings).ladder)
        XCTAssertThrowsError(try RenderTarget(path: "reel.avi", canvas: canvas, settings: settings)) { error in
            XCTAssertEqual((error as? SegueError)?.reason, .usage)
            XCTAssertEqual("\(error)", OutputContainer.refusal(path: "reel.avi"))
        }
        var sharper = settings
        sharper.ladder = [1080]
        XCTAssertThrowsError(try RenderTarget(path: "d/master.m3u8", canvas: canvas, settings: sharper), "a rung sharper than the canvas") { error in
            XCTAssertEqual((error as? SegueError)?.reason, .usage)
        }
    }
}
