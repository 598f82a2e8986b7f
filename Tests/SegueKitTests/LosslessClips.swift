import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel

/// The transition tests' fixtures: short clips drawn by lavfi's test sources,
/// coded losslessly and tagged BT.709 limited range (so Segue takes their
/// pictures as they are: what Segue and the ffmpeg CLI decode is the same),
/// and every picture of a file as yuv420p bytes.
protocol LosslessClips {
    var store: FixtureStore { get }
    static var frameRate: Int { get }
}

extension LosslessClips {
    /// `frames` frames of lavfi's `source` at `size`, made once per test run.
    func clip(_ source: String, frames: Int = 50, size: (width: Int, height: Int) = (320, 180)) throws -> String {
        try store.path("lossless-\(source)-\(frames)-\(size.width)x\(size.height)-\(Self.frameRate).mp4") { path in
            try ffmpeg(["-f", "lavfi", "-i", "\(source)=s=\(size.width)x\(size.height):r=\(Self.frameRate),format=yuv420p",
                        "-frames:v", "\(frames)", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast",
                        "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", path])
        }
    }

    @discardableResult
    func ffmpeg(_ arguments: [String]) throws -> String {
        let result = try Tool.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments)
        XCTAssertEqual(result.status, 0, "ffmpeg \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardError
    }

    /// Every picture of `path`, decoded by the ffmpeg CLI, as yuv420p bytes.
    func pictures(_ path: String, size: (width: Int, height: Int) = (320, 180)) throws -> [[UInt8]] {
        let raw = store.folder.appendingPathComponent("\(UUID().uuidString).yuv").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        return split(try Data(contentsOf: URL(fileURLWithPath: raw)), size: size)
    }

    /// Stitches `paths` with `transition` (losslessly, no sound: only drawing can differ), checking every
    /// join got it; the plan and every output picture.
    func stitch(_ paths: [String], _ transition: String, frames: Int, mode: TransitionMode = .overlap,
                size: (width: Int, height: Int) = (320, 180),
                _ configure: (inout StitchSettings) -> Void = { _ in }) throws -> (plan: Plan, pictures: [[UInt8]]) {
        var settings = StitchSettings()
        settings.transition = try XCTUnwrap(TransitionKind(name: transition))
        settings.transitionDuration = Double(frames) / Double(Self.frameRate)
        settings.mode = mode
        settings.includeAudio = false
        settings.crf = 0
        settings.preset = "ultrafast"
        configure(&settings)
        let (plan, report, path) = try store.stitch(paths.map { ClipEntry(path: $0) }, settings: settings)
        XCTAssertEqual(report.joins.map(\.transition.rawValue), [String](repeating: transition, count: paths.count - 1))
        return (plan, try pictures(path, size: size))
    }

    /// Raw yuv420p bytes cut into pictures of `size`.
    func split(_ data: Data, size: (width: Int, height: Int)) -> [[UInt8]] {
        Self.split(data, count: size.width * size.height * 3 / 2)
    }

    /// Raw bytes cut into pictures of `count` bytes each.
    static func split(_ data: Data, count: Int) -> [[UInt8]] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - count + 1, by: count).map { Array(bytes[$0..<($0 + count)]) }
    }
}
