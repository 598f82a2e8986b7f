import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia

/// A feed cell's cover and poster (issue 47): a muted loop whose end
/// dissolves into its start, taken from the output frames the report names
/// (by `--cover-at`, else the stretch that changes most), and a JPEG of the
/// first of them; from an MP4 output and from an HLS ladder.
final class CoverTests: XCTestCase {
    let store = FixtureStore.shared

    func folder(_ name: String) throws -> String {
        let folder = store.folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Two seconds of flat grey (nothing changes), with silence.
    func stillClip() throws -> String {
        try store.path("cover-still.mp4") { path in
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=30:d=2",
                                               "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo", "-t", "2", "-c:v", "libx264",
                                               "-pix_fmt", "yuv420p", "-c:a", "aac", path])
            XCTAssertEqual(made.status, 0, made.standardError)
        }
    }

    func report(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// The marker each picture shows.
    func markers(_ output: DecodedOutput) -> [(clip: Int, frame: Int)?] { output.pictures.map(Marker.read) }

    func testACoverAtATimeLoopsWithoutAJumpAndThePosterIsItsFirstFrame() throws {
        let folder = try folder("cover-at")
        let clip = try store.path("cover-marker.mp4", MarkerClip(clip: 1, frames: 150))
        let result = try Tools.segue(["stitch", clip, "-o", folder + "/reel.mp4", "--cover", folder + "/cover.mp4", "--poster",
                                      folder + "/poster.jpg", "--cover-at", "2", "--report", folder + "/report.json", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let cover = try report(folder + "/report.json")["cover"] as? [String: Any] ?? [:]
        XCTAssertEqual(cover["firstFrame"] as? Int, 60, "\(cover)")
        XCTAssertEqual(cover["frames"] as? Int, 90)
        let decoded = try DecodedOutput(path: folder + "/cover.mp4")
        XCTAssertTrue(decoded.audio.isEmpty, "muted")
        XCTAssertEqual(decoded.width, 320, "a canvas under 360 px keeps its size")
        let shown = markers(decoded)
        XCTAssertEqual(shown.count, 90)
        // Frames 0-74 are output frames 60-134; the last 15 dissolve output 135-149 into 45-59, the frames leading into 60.
        for k in 0..<75 { XCTAssertTrue(shown[k]?.clip == 1 && shown[k]?.frame == 60 + k, "cover frame \(k): \(String(describing: shown[k]))") }
        XCTAssertTrue(shown[89]?.frame == 59, "its last frame is mostly the one before its first: \(String(describing: shown[89]))")
        // The seam steps as the reel does from 59 to 60 (a sixteenth of 149 still showing), not from 149 back to 60.
        let reel = try DecodedOutput(path: folder + "/reel.mp4")
        func difference(_ a: PlaneImage, _ b: PlaneImage) -> Double { PhotoFormatTests.meanDifference(a.bytes, b.bytes) }
        let step = difference(decoded.pictures[89], decoded.pictures[0]), natural = difference(reel.pictures[59], reel.pictures[60])
        XCTAssertEqual(step, natural, accuracy: 2, "the loop's seam is the reel's own step from 59 to 60")
        XCTAssertGreaterThan(difference(reel.pictures[149], reel.pictures[60]), natural + 2, "(the jump back would be bigger)")
        let poster = try DecodedOutput(path: folder + "/poster.jpg")
        XCTAssertEqual(poster.pictures.first.flatMap(Marker.read)?.frame, 60, "the poster is the frame the report names")
    }

    func testACoverIsTakenFromWhereThingsChangeInALadderToo() throws {
        let folder = try folder("cover-busy")
        let moving = try store.path("cover-marker.mp4", MarkerClip(clip: 1, frames: 150))
        let result = try Tools.segue(["stitch", try stillClip(), moving, "-o", folder + "/hls/master.m3u8", "--hls-time", "1",
                                      "--ladder", "180,90", "--cover", folder + "/cover.mp4", "--poster", folder + "/poster.jpg",
                                      "--report", folder + "/report.json", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let first = (try report(folder + "/report.json")["cover"] as? [String: Any])?["firstFrame"] as? Int ?? -1
        XCTAssertGreaterThanOrEqual(first, 60, "not the still grey: the moving clip")
        let shown = markers(try DecodedOutput(path: folder + "/cover.mp4"))
        XCTAssertEqual(shown.first??.frame, first - 60, "the cover starts at the frame the report names")
        XCTAssertEqual(try DecodedOutput(path: folder + "/poster.jpg").pictures.first.flatMap(Marker.read)?.frame, first - 60)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/hls/.cover-excerpt.mp4"), "the excerpt read back is gone")
    }

    func testASegmentedRenderTakesTheCoverWhereOneProcessDoes() throws {
        let folder = try folder("cover-segments")
        let inputs = [try stillClip(), try store.path("cover-marker.mp4", MarkerClip(clip: 1, frames: 150))]
        func cover(_ name: String, _ output: String, _ extra: [String] = []) throws -> Int {
            let result = try Tools.segue(["stitch"] + inputs + ["-o", folder + "/" + output, "--cover", folder + "/\(name)-cover.mp4",
                                                                "--poster", folder + "/\(name).jpg", "--report", folder + "/\(name).json",
                                                                "--quiet"] + extra)
            XCTAssertEqual(result.status, 0, result.standardError)
            let first = (try report(folder + "/\(name).json")["cover"] as? [String: Any])?["firstFrame"] as? Int ?? -1
            XCTAssertEqual(markers(try DecodedOutput(path: folder + "/\(name)-cover.mp4")).first??.frame, first - 60, name)
            XCTAssertEqual(try DecodedOutput(path: folder + "/\(name).jpg").pictures.first.flatMap(Marker.read)?.frame, first - 60, name)
            return first
        }
        // Segments of 1 s: the change from the still into the moving clip falls on a boundary (frame 60).
        let one = try cover("one", "one.mp4")
        XCTAssertEqual(try cover("jobs", "jobs.mp4", ["--jobs", "2", "--segment-duration", "1"]), one)
        XCTAssertEqual(try cover("ladder", "hls/master.m3u8", ["--jobs", "2", "--segment-duration", "1", "--hls-time", "1", "--ladder", "180"]),
                       one)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/hls/.cover-excerpt.mp4"), "the excerpt read back is gone")
    }

    func testCoverAndPosterNamesAreCheckedBeforeAnyWork() throws {
        let folder = try folder("cover-refused")
        let clip = try store.path("cover-marker.mp4", MarkerClip(clip: 1, frames: 150))
        for (flags, said) in [(["--cover", folder + "/c.avi"], ".mp4"), (["--poster", folder + "/p.png"], ".jpg"),
                              (["--cover", folder + "/reel.mp4"], "over an input, the output"), (["--cover-at", "1"], "--cover-at needs")] {
            let result = try Tools.segue(["stitch", clip, "-o", folder + "/reel.mp4"] + flags)
            XCTAssertEqual(result.status, 2, "\(flags): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(said), "\(flags): \(result.standardError)")
        }
        FileManager.default.createFile(atPath: folder + "/c.mp4", contents: Data("mine".utf8))
        let kept = try Tools.segue(["stitch", clip, "-o", folder + "/reel.mp4", "--cover", folder + "/c.mp4"])
        XCTAssertEqual(kept.status, 2, kept.standardError)
        XCTAssertEqual(try String(contentsOfFile: folder + "/c.mp4", encoding: .utf8), "mine", "nothing replaced without -y")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/reel.mp4"))
        // A segmented render's are checked when planning, and by the join again before it writes anything.
        let work = folder + "/work"
        let planned = try Tools.segue(["plan", clip, "-o", folder + "/joined.mp4", "--cover", folder + "/later.mp4", "--work", work])
        XCTAssertEqual(planned.status, 0, planned.standardError)
        XCTAssertEqual(try Tools.segue(["render", work, "--segment", "0", "--quiet"]).status, 0)
        FileManager.default.createFile(atPath: folder + "/later.mp4", contents: Data("mine too".utf8))
        let joined = try Tools.segue(["join", work])
        XCTAssertEqual(joined.status, 2, joined.standardError)
        XCTAssertTrue(joined.standardError.contains("later.mp4"), joined.standardError)
        XCTAssertEqual(try String(contentsOfFile: folder + "/later.mp4", encoding: .utf8), "mine too", "nothing replaced without -y")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/joined.mp4"))
    }
}
