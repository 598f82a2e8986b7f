import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// The plain stitch is the oracle, and `Scripts/differential` judges
/// the other ways of stitching the same inputs against it (every picture,
/// durations and frame counts, chapters, the sound's lag and level). Here it
/// runs on marker clips of mixed rates and layouts, with cuts, fades and a
/// freeze, through segments rendered in a shuffled order and `--jobs`.
///
/// `--smart` is judged too (its lossless re-encodes were first found broken
/// here): the marker clips' video and their AAC sound are copied, around
/// re-encoded seams.
final class DifferentialTests: XCTestCase {
    let store = FixtureStore.shared
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/differential").path

    /// Marker clips: 1.5 s at 30 fps with 48 kHz stereo, 1.6 s at 25 fps with
    /// 44.1 kHz mono, 1.2 s at 30 fps without sound; then 1.5 s of the ffmpeg
    /// CLI's with pink noise under a tone (48 kHz stereo AAC, copied by
    /// `--smart`): a tone matches itself a period away, noise only in its place.
    func inputs() throws -> [String] {
        let noise = try store.path("differential-3-30fps-48k-noise.mp4") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1.5",
                                     "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.2:sample_rate=48000:duration=1.5:seed=3",
                                     "-f", "lavfi", "-i", "sine=frequency=1300:sample_rate=48000:duration=1.5",
                                     "-filter_complex", "[1][2]amix=inputs=2,pan=stereo|c0=c0|c1=c0[a]", "-map", "0:v", "-map", "[a]",
                                     "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", path])
        }
        return [try store.path("differential-0-30fps-48k-stereo.mp4", MarkerClip(clip: 0, frames: 45)),
                try store.path("differential-1-25fps-44k-mono.mp4",
                               MarkerClip(clip: 1, frames: 40, frameRate: Rational(25, 1), sampleRate: 44_100, channels: 1)),
                try store.path("differential-2-30fps-silent.mp4", MarkerClip(clip: 2, frames: 36, sampleRate: nil)),
                noise]
    }

    /// Runs the runner over `inputs` (by default the four above) with `flags` in `modes`; its exit code and report.
    func differential(_ flags: [String], modes: [String], inputs: [String]? = nil,
                      segmentSeconds: String = "0.9") throws -> SegueTool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", DifferentialTests.script, "--segue", SegueTool.executable.path,
                             "--modes", modes.joined(separator: ","), "--segment-duration", segmentSeconds]
            + (try inputs ?? self.inputs()) + flags
        return try SegueTool.capture(process)
    }

    /// Every mode agrees, and every judge said so (one OK line each).
    func assertAgree(_ flags: [String], modes: [String] = ["smart", "segments", "jobs"], inputs: [String]? = nil,
                     segmentSeconds: String = "0.9", file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try differential(flags, modes: modes, inputs: inputs, segmentSeconds: segmentSeconds)
        XCTAssertEqual(result.status, 0, result.standardOutput + result.standardError, file: file, line: line)
        let judges = ["pictures", "durations", "sound"] + (flags.contains("--chapters") ? ["chapters"] : [])
        for mode in modes {
            for judge in judges {
                XCTAssertTrue(result.standardOutput.contains("OK   \(mode) \(judge): "),
                              "no OK from \(mode) \(judge):\n\(result.standardOutput)", file: file, line: line)
            }
        }
        XCTAssertFalse(result.standardOutput.contains("FAIL"), result.standardOutput, file: file, line: line)
    }

    func testCutsAgreeWithThePlainStitchInEveryMode() throws {
        try assertAgree(["--chapters"])
    }

    func testFadesAgreeWithThePlainStitchInEveryMode() throws {
        try assertAgree(["--transition", "fade", "--transition-duration", "0.4", "--chapters"])
    }

    func testAFreezeAgreesWithThePlainStitchInEveryMode() throws {
        try assertAgree(["--mode", "freeze", "--transition", "fade", "--transition-duration", "0.4"])
    }

    /// A segment 7.2 s into an 8 s WebM clip (Vorbis 5.1 at 48 kHz, at the
    /// canvas rate) decodes it from its start: sought into, its sound stood
    /// where Matroska's millisecond timestamps said, 13 samples off for the rest
    /// of the clip (tones: noise sets off the AAC encoder's intensity-stereo
    /// bursts, up to 1.3 dB in a 100 ms window, wherever its state puts them).
    func testASegmentDeepInAWebMClipHasThePlainStitchsSound() throws {
        let webm = try store.path("differential-webm-vorbis51-tones-8s.webm") { path in
            try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=30:duration=8",
                                     "-f", "lavfi", "-i", "aevalsrc=0.2*sin(2*PI*440*t)|0.2*sin(2*PI*550*t)|0.1*sin(2*PI*330*t)"
                                        + "|0.05*sin(2*PI*60*t)|0.1*sin(2*PI*660*t)|0.1*sin(2*PI*880*t):s=48000:d=8:c=5.1",
                                     "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k",
                                     "-c:a", "libvorbis", path])
        }
        try assertAgree([], modes: ["segments"], inputs: [webm], segmentSeconds: "3.6")
    }

    /// The runner is an oracle only if it can fail: a usage error is told apart
    /// (exit 2), and a mode that disagrees fails (exit 1, a FAIL line): here a
    /// `segue` whose plans ask for lossy pictures (`--crf 30` after the runner's `--crf 0`).
    func testTheRunnerTellsUsageErrorsAndDisagreementsApart() throws {
        let usage = Process()
        usage.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        usage.arguments = ["python3", DifferentialTests.script, "--segue", SegueTool.executable.path, "--modes", "nonsense",
                           try inputs()[0]]
        XCTAssertEqual(try SegueTool.capture(usage).status, 2)

        let lossy = try store.path("differential-lossy-plans.sh") { path in
            let script = "#!/bin/sh\nif [ \"$1\" = plan ]; then exec '\(SegueTool.executable.path)' \"$@\" --crf 30; fi\n"
                + "exec '\(SegueTool.executable.path)' \"$@\"\n"
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", DifferentialTests.script, "--segue", lossy, "--modes", "segments",
                             "--segment-duration", "0.9"] + (try inputs())
        let result = try SegueTool.capture(process)
        XCTAssertEqual(result.status, 1, result.standardOutput + result.standardError)
        XCTAssertTrue(result.standardOutput.contains("FAIL segments pictures: "), result.standardOutput)
    }
}
