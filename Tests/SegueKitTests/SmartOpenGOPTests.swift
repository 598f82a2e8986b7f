import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
import SegueBitstream

/// `--smart` on H.264 open GOPs (x264 `open-gop`, as broadcast and some
/// cameras write): each keyframe after the first an I picture with a
/// recovery point, not an IDR, whose leading B pictures refer back across it.
extension SmartTests {
    /// Marker clip `clip` of `frames` frames as x264 writes it with open GOPs
    /// of 30 and 3 B-frames; `pyramid`: the middle B-frame a reference (x264's default).
    func h264OpenGOPClip(_ clip: Int, frames: Int, pyramid: Bool = false) throws -> String {
        let source = try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
        let name = "h264-open-gop\(pyramid ? "-pyramid" : "")-\(clip)-\(frames).mp4"
        return try store.path(name) { path in
            let parameters = "keyint=30:min-keyint=30:scenecut=0:open-gop=1:bframes=3:b-pyramid=\(pyramid ? "normal" : "none")"
            let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", source, "-c:v", "libx264", "-preset", "fast", "-crf", "20",
                                                 "-x264-params", parameters, "-pix_fmt", "yuv420p", "-color_primaries", "bt709",
                                                 "-color_trc", "bt709", "-colorspace", "bt709", "-c:a", "copy", path])
            XCTAssertEqual(result.status, 0, result.standardError)
        }
    }

    func testH264OpenGOPCopiesFromEachIPictureRewrittenAsAnIDR() throws {
        let paths = try (0..<3).map { try h264OpenGOPClip($0, frames: 150) }
        let units = try Self.videoPackets(paths[1]).list.map { Self.h264UnitTypes($0.bytes) }
        XCTAssertEqual(units.filter { $0.contains(H264.idrSlice) }.count, 1, "one IDR, then open GOPs")
        let (smart, _) = try assertSameAsWithoutSmart(paths, { $0.transition = .fade; $0.transitionDuration = 0.5 })
        let copied = try XCTUnwrap(smart.report.smart).map(\.framesCopied)
        XCTAssertGreaterThanOrEqual(Double(copied.reduce(0, +)) / 420, 0.7, "\(copied)")
        // Clips 1 and 2 copy from an I picture at frame 30, written as an IDR: three IDRs copied, one per clip.
        let output = try Self.videoPackets(smart.path).list.map { Self.h264UnitTypes($0.bytes) }
        XCTAssertGreaterThanOrEqual(output.filter { $0.contains(H264.idrSlice) }.count, 3)
        try assertCopiedPicturesAreTheSources(smart, sources: paths)
        try assertOwnFramesNearTheirSource(smart, sources: paths, floor: 30)
        // A real browser plays it to the end.
        let played = try Tool.run(SegueTool.repository.appendingPathComponent("Scripts/browser-play").path, ["--timeout", "120", smart.path])
        XCTAssertEqual(played.status, 0, played.standardOutput + played.standardError)
    }

    func testH264OpenGOPTrimmedMidGOPCopiesTheGOPsWithinIt() throws {
        let paths = try (0..<2).map { try h264OpenGOPClip($0, frames: 240) }
        let entries = [ClipEntry(path: paths[0], inPoint: 0.5, outPoint: 5.2), ClipEntry(path: paths[1], inPoint: 1.5, outPoint: 7.4)]
        let (smart, _) = try assertSameAsWithoutSmart(entries, { $0.transition = .fade; $0.transitionDuration = 0.3 })
        let copied = try XCTUnwrap(smart.report.smart).map(\.framesCopied)
        XCTAssertGreaterThanOrEqual(copied[0], 80, "\(copied)")
        XCTAssertGreaterThanOrEqual(copied[1], 120, "\(copied)")
        try assertCopiedPicturesAreTheSources(smart, sources: paths)
    }

    func testH264OpenGOPWithReferenceLeadingPicturesStartsNoCopyThere() throws {
        // B-pyramid: where a middle leading B picture is a reference, a copy can't leave it out: no run starts at that I picture.
        let paths = try (0..<2).map { try h264OpenGOPClip($0, frames: 120, pyramid: true) }
        let (smart, _) = try assertSameAsWithoutSmart(paths, { $0.transition = .fade; $0.transitionDuration = 0.5 })
        let clips = try XCTUnwrap(smart.report.smart)
        XCTAssertTrue(clips[1].notCopied.contains { if case .leadingReferenced = $0 { true } else { false } }, "\(clips[1].notCopied)")
        try assertCopiedPicturesAreTheSources(smart, sources: paths)
    }

    func testH264OpenGOPSmartSegmentsAndJobsJoinToThePlainSmartStitch() throws {
        try assertJobsJoinToTheWholeStitch(try (0..<2).map { try h264OpenGOPClip($0, frames: 120) },
                                           ["--smart", "--transition", "fade", "--transition-duration", "0.5"])
    }

    /// At least as many output pictures as the report says were copied decode
    /// to exactly the source's picture at that place (re-encoded ones don't).
    func assertCopiedPicturesAreTheSources(_ run: Run, sources: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        var decoded: [String: DecodedOutput] = [:]
        for path in Set(sources) { decoded[path] = try DecodedOutput(path: path) }
        var identical = 0
        for clip in run.plan.clips {
            let source = try XCTUnwrap(decoded[clip.info.path], file: file, line: line)
            let first = Int((clip.info.use.inPoint * 30).rounded())
            for position in 0..<clip.frameCount where first + position < source.pictures.count {
                if Self.psnr(run.output.pictures[clip.startFrame + position], source.pictures[first + position]) == .infinity { identical += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(identical, run.report.framesCopied, "copied pictures decode as the source's", file: file, line: line)
    }

    static func h264UnitTypes(_ sample: [UInt8]) -> [Int] {
        var types: [Int] = [], offset = 0
        while offset + 4 < sample.count {
            let length = sample[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(Int(sample[offset + 4] & 0x1F))
            offset += 4 + length
        }
        return types
    }
}
