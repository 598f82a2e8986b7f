import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// The collaborators a stitch is given are the ones it uses: one input access,
/// with its cache, for clips and music alike.
final class CollaboratorTests: XCTestCase {
    let store = FixtureStore.shared

    func testARemoteClipAndARemoteMusicBedAreFetchedOnceAndNotAgainWithAWarmCache() throws {
        let clip = try store.path("marker-0-45.mp4", MarkerClip(clip: 0, frames: 45))
        // Shorter than the output, so the bed loops: a loop must not fetch it again either.
        let music = try FFmpeg.make("collaborator-bed.m4a", ["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=0.6",
                                                           "-ac", "2", "-c:a", "aac"])
        let server = try TestServer(root: store.folder.path)
        let cache = store.folder.appendingPathComponent("cache-music-\(UUID().uuidString)").path
        let clipURL = "\(server.base)/\((clip as NSString).lastPathComponent)"
        let musicURL = "\(server.base)/\((music as NSString).lastPathComponent)"
        let arguments = ["stitch", clipURL, "--music", musicURL, "--cache", cache, "--preset", "ultrafast", "--quiet", "-y"]

        let first = try SegueTool.run(arguments + ["-o", store.outputPath("music-cached-1")])
        XCTAssertEqual(first.status, 0, first.standardError)
        let afterFirst = try server.stats()
        XCTAssertEqual(afterFirst["full"] as? Int, 2, "the clip's and the bed's bodies, once each: \(afterFirst)")
        XCTAssertEqual(afterFirst["partial"] as? Int, 0, "nothing read over the network but the cache's fetches: \(afterFirst)")

        let second = try SegueTool.run(arguments + ["-o", store.outputPath("music-cached-2")])
        XCTAssertEqual(second.status, 0, second.standardError)
        let afterSecond = try server.stats()
        XCTAssertEqual(afterSecond["full"] as? Int, 2, "no body fetched again: \(afterSecond)")
        XCTAssertEqual(afterSecond["partial"] as? Int, 0, "\(afterSecond)")
    }

    func testAStitcherGivenLoudnessMeasuresClipsItsCallerDidNotMeasure() throws {
        // A quiet tone (about -32 LUFS), never measured by the caller.
        let quiet = try store.path("quiet-tone-0-60.mp4", MarkerClip(clip: 0, frames: 60, toneAmplitude: 0.02))
        var settings = StitchSettings()
        settings.loudness = -16
        settings.preset = "ultrafast"
        let clips = try [Prober.probe(quiet).get()]
        XCTAssertNil(clips[0].loudness, "not measured before the stitch")
        let plan = try Plan(clips: clips, settings: settings)
        let output = store.outputPath("loudness-unmeasured")
        let stitcher = Stitcher(planned: try PlannedStitch(plan: plan.aimed(at: output, settings: settings), settings: settings))
        _ = try stitcher.run()
        XCTAssertNotNil(stitcher.plan.clips[0].info.loudness, "measured by the stitcher")
        let (_, log) = try FFmpeg.run(["-v", "info", "-i", output, "-vn", "-af", "ebur128", "-f", "null", "-"])
        let line = log.split(separator: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix("I:") } ?? ""
        let integrated = try XCTUnwrap(Double(line.split(separator: " ").dropFirst().first ?? ""), log)
        XCTAssertEqual(integrated, -16, accuracy: 1.0, "brought to the target, not left as recorded")
    }
}
