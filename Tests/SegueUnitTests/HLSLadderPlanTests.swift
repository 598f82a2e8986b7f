import XCTest
@testable import SegueRender
@testable import SegueModel
import SegueCore

/// An HLS ladder's rungs, segment grid and playlists, worked out without files.
final class HLSLadderPlanTests: XCTestCase {
    func canvas(_ width: Int, _ height: Int, fps: Rational = Rational(30, 1)) -> Canvas {
        Canvas(width: width, height: height, frameRate: fps, sampleRate: 48_000)
    }

    func testTheDefaultLadderIsTheCanvasAndTheStandardRungsBelowIt() throws {
        let landscape = try HLSLadder(canvas: canvas(1920, 1080), settings: StitchSettings())
        XCTAssertEqual(landscape.rungs.map { "\($0.width)x\($0.height)" }, ["1920x1080", "1280x720", "640x360"])
        XCTAssertEqual(landscape.rungs.map(\.playlist), ["video_1080p.m3u8", "video_720p.m3u8", "video_360p.m3u8"])
        XCTAssertEqual(landscape.rungs[0].maxRate, 6_220_800, "0.1 bit a pixel at 1080p30")
        XCTAssertEqual(landscape.rungs[0].bufferBits, 2 * landscape.rungs[0].maxRate)
        let portrait = try HLSLadder(canvas: canvas(1080, 1920), settings: StitchSettings())
        XCTAssertEqual(portrait.rungs.map { "\($0.width)x\($0.height)" }, ["1080x1920", "720x1280", "360x640"])
        var asked = StitchSettings()
        asked.ladder = [120, 180]
        XCTAssertEqual(try HLSLadder(canvas: canvas(320, 180), settings: asked).rungs.map { "\($0.width)x\($0.height)" }, ["320x180", "214x120"])
        asked.ladder = [360]
        XCTAssertThrowsError(try HLSLadder(canvas: canvas(320, 180), settings: asked)) { error in
            XCTAssertTrue((error as? LadderError)?.message.contains("sharper than the canvas") == true, "\(error)")
        }
    }

    func testAnHDRCanvasHasHEVCRungsInItsRangeAndAnSDRLadderBeside() throws {
        var hlg = canvas(1920, 1080)
        hlg.colour = OutputColour(.hlg, bitDepth: 10)
        var settings = StitchSettings()
        settings.ladder = [1080, 720]
        let rungs = try HLSLadder(canvas: hlg, settings: settings).rungs
        XCTAssertEqual(rungs.map(\.playlist), ["video_1080p_hlg.m3u8", "video_720p_hlg.m3u8", "video_1080p.m3u8", "video_720p.m3u8"])
        XCTAssertEqual(rungs.map(\.codec), [.hevc, .hevc, .h264, .h264])
        XCTAssertEqual(rungs.map(\.range), [.hlg, .hlg, .sdr, .sdr])
    }

    func testSegmentsAreWholeFramesAtLeastAsLongAsAsked() throws {
        var settings = StitchSettings()
        XCTAssertEqual(try HLSLadder(canvas: canvas(640, 360), settings: settings).segmentFrames, 180)
        XCTAssertEqual(try HLSLadder(canvas: canvas(640, 360, fps: Rational(30000, 1001)), settings: settings).segmentFrames, 180)
        settings.hlsSeconds = 2
        XCTAssertEqual(try HLSLadder(canvas: canvas(640, 360, fps: Rational(24000, 1001)), settings: settings).segmentFrames, 48)
        XCTAssertEqual(try HLSLadder(canvas: canvas(640, 360, fps: Rational(25, 1)), settings: settings).segmentFrames, 50)
    }

    func testTheLadderOptionReadsListsOfEvenShortSides() {
        var settings = StitchSettings()
        let ladder = OutputOption.named("ladder")!
        XCTAssertNil(ladder.readText("720, 1080,360", &settings))
        XCTAssertEqual(settings.ladder, [1080, 720, 360], "largest first")
        for bad in ["", "720,,360", "721", "32", "720,720", "1080p", "1,2,3,4,5,6,7,8,9"] {
            XCTAssertNotNil(ladder.readText(bad, &settings), bad)
        }
    }

    func testTheMasterSaysPeakAndAverageBandwidthCodecsAndRange() {
        var rung = HLSPlaylists.Stream(playlist: "video_720p.m3u8", width: 1280, height: 720, frameRate: Rational(30000, 1001),
                                       codecs: "avc1.64001f", peakBitRate: 3_000_000)
        let estimate = HLSPlaylists.master([rung], sound: (128_000, nil))
        XCTAssertTrue(estimate.contains("#EXT-X-STREAM-INF:BANDWIDTH=3128000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=1280x720,"
                                        + "FRAME-RATE=29.970,VIDEO-RANGE=SDR,AUDIO=\"audio\"\nvideo_720p.m3u8\n"), estimate)
        XCTAssertTrue(estimate.contains("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\"") && estimate.contains("URI=\"audio.m3u8\""), estimate)
        rung = HLSPlaylists.measured(rung, segments: [(2, 500_000), (2, 250_000), (0.5, 100_000)], initBytes: 1000, target: 2)
        XCTAssertEqual(rung.peakBitRate, 2_000_000)
        XCTAssertEqual(rung.averageBitRate, 1_511_112, "the media segments' 850,000 bytes over 4.5 s (the init segment isn't streamed again)")
        XCTAssertEqual(rung.bytes, 851_000, "the files' bytes count the init segment")
        XCTAssertEqual(rung.longestSegment, 2)
        let sound = HLSPlaylists.measured(.init(playlist: "audio.m3u8", codecs: "mp4a.40.2"), segments: [(2, 32_000)], initBytes: 0, target: 2)
        let measured = HLSPlaylists.master([rung], sound: (128_000, sound))
        XCTAssertTrue(measured.contains("BANDWIDTH=2128000,AVERAGE-BANDWIDTH=1639112,"), measured)
    }

    func testThePeakIsTheRFCsOverRunsOfHalfToOneAndAHalfTargetDurations() {
        // A 0.1 s last segment alone would be 4 Mb/s: it counts only with the one before it (2.1 s, 300,000 bytes).
        let short = HLSPlaylists.measured(.init(playlist: "v.m3u8", codecs: "avc1"), segments: [(2, 250_000), (0.1, 50_000)],
                                          initBytes: 0, target: 2)
        XCTAssertEqual(short.peakBitRate, 1_142_858)
        // Two 1 s segments under a 2 s target: single ones (1 s) and the pair (2 s) are runs; the busier single wins.
        XCTAssertEqual(HLSPlaylists.peakRate([(1, 100_000), (1, 300_000)], target: 2), 2_400_000)
        // Nothing lasts half the target: no run; the average stands in.
        XCTAssertNil(HLSPlaylists.peakRate([(0.5, 10_000)], target: 6))
        XCTAssertEqual(HLSPlaylists.measured(.init(playlist: "v.m3u8", codecs: "avc1"), segments: [(0.5, 10_000)], initBytes: 0,
                                             target: 6).peakBitRate, 160_000)
        XCTAssertEqual(HLSPlaylists.targetDuration(of: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"), 6)
    }

    func testCodecsComeFromTheSequenceParameterSetInEitherForm() {
        let annexB: [UInt8] = [0, 0, 0, 1, 0x67, 0x64, 0x00, 0x1F, 0xAC, 0, 0, 0, 1, 0x68, 0xEE]
        XCTAssertEqual(HLSPlaylists.avcCodecs(annexB), "avc1.64001f")
        XCTAssertEqual(HLSPlaylists.avcCodecs([1, 0x42, 0xC0, 0x0D, 0xFF]), "avc1.42c00d")
        XCTAssertEqual(HLSPlaylists.avcCodecs([]), "avc1")
    }

    func testAFinishedPlaylistIsVODWithItsSegmentsRead() {
        let event = "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-MAP:URI=\"a_init.mp4\"\n#EXTINF:2.000000,\na_00000.m4s\n#EXTINF:1.5,\na_00001.m4s\n"
        let vod = HLSPlaylists.vod(event)
        XCTAssertTrue(vod.contains("#EXT-X-PLAYLIST-TYPE:VOD") && vod.hasSuffix("#EXT-X-ENDLIST\n"), vod)
        XCTAssertEqual(HLSPlaylists.segments(of: event).map(\.uri), ["a_00000.m4s", "a_00001.m4s"])
        XCTAssertEqual(HLSPlaylists.segments(of: event).map(\.seconds), [2, 1.5])
    }
}
