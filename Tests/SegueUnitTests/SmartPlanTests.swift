import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// `--smart`'s choices in-process: the flag and key, which AAC sound can be
/// copied and the run of it that is, and the display matrix's turns and
/// mirrors (copies end to end: SegueKitTests' Smart*Tests).
final class SmartPlanTests: XCTestCase {
    func testManifestAndOptionsCarrySmart() throws {
        var flags = OutputOptions()
        flags.smart = true
        XCTAssertTrue(StitchSettings(options: flags.overriding(nil)).smart)
        XCTAssertFalse(StitchSettings(options: OutputOptions()).smart)
        let (_, output) = try Manifest.parse(Data(#"{"clips": ["a.mp4"], "output": {"smart": true}}"#.utf8), relativeTo: "/")
        XCTAssertEqual(output?.smart, true)
        XCTAssertThrowsError(try Manifest.parse(Data(#"{"clips": ["a.mp4"], "output": {"smart": 1}}"#.utf8), relativeTo: "/"))
    }

    func testOnlyAACLCAtTheOutputsRateAndLayoutWith1024SampleFramesQualifies() {
        func qualifies(_ config: [UInt8], _ rate: Int = 48_000, _ channels: Int = 2) -> Bool {
            SoundCopyPlanner.isLowComplexityAAC(config, sampleRate: rate, channels: channels)
        }
        XCTAssertTrue(qualifies([0x11, 0x90]))
        XCTAssertTrue(qualifies([0x11, 0x90, 0x56, 0xE5, 0x00]), "FFmpeg's explicit 'no SBR'")
        XCTAssertTrue(qualifies([0x12, 0x10], 44_100), "an iPhone's 44.1 kHz stereo")
        XCTAssertTrue(qualifies([0x12, 0x08], 44_100, 1), "an iPhone's 44.1 kHz mono")
        XCTAssertTrue(qualifies([0x11, 0x88], 48_000, 1), "an Android phone's 48 kHz mono")
        XCTAssertFalse(qualifies([0x12, 0x10]), "44.1 kHz into 48 kHz")
        XCTAssertFalse(qualifies([0x11, 0x88]), "mono into stereo")
        XCTAssertFalse(qualifies([0x11, 0x90], 48_000, 1), "stereo into mono")
        XCTAssertFalse(qualifies([0x11, 0x94]), "960-sample frames")
        XCTAssertFalse(qualifies([0x2B, 0x11, 0x88, 0x00]), "HE-AAC")
        XCTAssertFalse(qualifies([]))
    }

    func testTheCopiedRunIsTheLongestRegularStretchBeforeAnyTimestampGap() {
        let size = SoundCopyPlanner.frameSize
        var packets = [SoundCopyPlanner.Scanned(pts: -1024, duration: 1024, plain: false)]
        packets += (0..<100).map { SoundCopyPlanner.Scanned(pts: Int64($0 * size), duration: 1024, plain: true) }
        // A 34-sample gap: the stitched sound runs on across it, the timestamps don't.
        packets += (100..<200).map { SoundCopyPlanner.Scanned(pts: Int64($0 * size + 34), duration: 1024, plain: true) }
        let copy = SoundCopyPlanner.choose(packets, exactStart: 96_000, region: 96_000..<(96_000 + 300 * size))
        // From `margin` frames in; 96000 + margin frames lies 768 past a grid line: moved 256 later, onto the next frame.
        let first = 96_000 + SoundCopyPlanner.margin * size
        XCTAssertEqual(first % size, 768)
        XCTAssertEqual(copy, ClipSoundCopy(firstPTS: Int64(SoundCopyPlanner.margin * size), count: 100 - SoundCopyPlanner.margin,
                                           firstSlot: first / size + 1, shift: 256))
        XCTAssertEqual(copy?.slot(ofPTS: Int64(7 * size)), 101)
        XCTAssertNil(copy?.slot(ofPTS: Int64(7 * size + 1)))
        XCTAssertNil(SoundCopyPlanner.choose(Array(packets.prefix(8)), exactStart: 0, region: 0..<(300 * size)), "too short")
    }

    func testEveryTurnAndMirrorIsReadFromItsMatrixAndWrittenBack() {
        for rotation in [0, 90, 180, 270] {
            for mirrored in [false, true] {
                let orientation = DisplayOrientation(rotation: rotation, mirrored: mirrored)
                XCTAssertEqual(DisplayOrientation(matrix: orientation.matrix(storedWidth: 320, storedHeight: 180)), orientation)
                // Turned to be stored and stood up again, a picture is as it was.
                XCTAssertEqual(Self.compose(orientation.storedFilters + orientation.uprightFilters), "identity", "\(orientation)")
            }
        }
        XCTAssertEqual(DisplayOrientation(matrix: Muxer.displayMatrix(clockwise: 90)), DisplayOrientation(rotation: 90, mirrored: false))
        let one: Int32 = 1 << 16
        XCTAssertNil(DisplayOrientation(matrix: [one, 0, 0, one / 2, one, 0, 0, 0, 1 << 30]), "a shear")
        XCTAssertNil(DisplayOrientation(matrix: [2 * one, 0, 0, 0, one, 0, 0, 0, 1 << 30]), "a scale")
    }

    /// The eight turns and mirrors of a square's corners, as the filters move them: "identity" when they undo each other.
    static func compose(_ filters: [String]) -> String {
        var corners = [(0, 0), (1, 0), (1, 1), (0, 1)]
        for filter in filters {
            corners = corners.map { x, y in
                switch filter {
                case "hflip": return (1 - x, y)
                case "vflip": return (x, 1 - y)
                case "transpose=clock": return (1 - y, x)
                case "transpose=cclock": return (y, 1 - x)
                case "transpose=clock_flip": return (1 - y, 1 - x)
                case "transpose=cclock_flip": return (y, x)
                default: return (-9, -9)
                }
            }
        }
        return corners.map { "\($0)" } == [(0, 0), (1, 0), (1, 1), (0, 1)].map { "\($0)" } ? "identity" : "\(corners)"
    }
}
