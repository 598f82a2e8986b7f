import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The gl-transitions effects Segue draws on the CPU (`gl_` + the effect's
/// name), each join frame held to an independent numpy evaluation of the
/// effect's GLSL (Tests/Support/gl_transitions_judge.py, run with Debian's
/// /usr/bin/python3) on the same two decoded pictures at the same progress,
/// (k + 1) / (N + 1) for step k of N, through the same documented Y'CbCr ↔
/// R'G'B' conversion. Segue computes in Float, the judge mostly in float64:
/// a frame may differ by rounding (mean ≤ 0.5, max ≤ 2 code values).
final class GLTransitionTests: XCTestCase, TenBitPlanes {
    let store = FixtureStore.shared
    typealias Size = (width: Int, height: Int)
    static let tiny: Size = (96, 54)
    static let frameRate = 25
    static let judge = SegueTool.repository.appendingPathComponent("Tests/Support/gl_transitions_judge.py").path

    // MARK: Fixtures (as XfadeShapeTests makes them)

    func clip(_ source: String, frames: Int, size: Size) throws -> String {
        try store.path("gl-\(source)-\(frames)-\(size.width)x\(size.height).mp4") { path in
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

    func pictures(_ path: String, size: Size) throws -> [[UInt8]] {
        let raw = store.folder.appendingPathComponent("\(UUID().uuidString).yuv").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        return split(try Data(contentsOf: URL(fileURLWithPath: raw)), count: size.width * size.height * 3 / 2)
    }

    func split(_ data: Data, count: Int) -> [[UInt8]] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - count + 1, by: count).map { Array(bytes[$0..<($0 + count)]) }
    }

    func stitch(_ paths: [String], _ transition: String, frames: Int, size: Size) throws -> [[UInt8]] {
        var settings = StitchSettings()
        settings.transition = try XCTUnwrap(TransitionKind(name: transition))
        settings.transitionDuration = Double(frames) / Double(Self.frameRate)
        settings.includeAudio = false
        settings.crf = 0
        settings.preset = "ultrafast"
        let (_, report, path) = try store.stitch(paths.map { ClipEntry(path: $0) }, settings: settings)
        XCTAssertEqual(report.joins.map(\.transition.rawValue), [transition])
        return try pictures(path, size: size)
    }

    /// Samples as integers: one byte each, or two little-endian bytes each.
    static func samples(_ bytes: [UInt8], bits: Int) -> [Int] {
        bits == 8 ? bytes.map(Int.init) : stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
    }

    /// The largest and the mean absolute sample difference of two pictures.
    static func differences(_ a: [UInt8], _ b: [UInt8], bits: Int = 8) -> (max: Int, mean: Double) {
        let x = samples(a, bits: bits), y = samples(b, bits: bits)
        precondition(x.count == y.count)
        let each = zip(x, y).map { abs($0 - $1) }
        return (each.max() ?? 0, Double(each.reduce(0, +)) / Double(max(each.count, 1)))
    }

    /// The judge's pictures of `effect` for one pair of pictures a step.
    func judged(_ effect: String, outgoing: [[UInt8]], incoming: [[UInt8]], size: Size, bits: Int = 8) throws -> [[UInt8]] {
        let folder = store.folder.appendingPathComponent("gl-judge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.raw"), b = folder.appendingPathComponent("b.raw")
        let out = folder.appendingPathComponent("out.raw")
        try Data(outgoing.joined()).write(to: a)
        try Data(incoming.joined()).write(to: b)
        let result = try Tool.run("/usr/bin/python3", [Self.judge, effect, "\(size.width)", "\(size.height)", "\(outgoing.count)",
                                                       "\(bits)", a.path, b.path, out.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        return split(try Data(contentsOf: out), count: size.width * size.height * 3 / 2 * (bits == 8 ? 1 : 2))
    }

    /// The judge's join frames for two 20-frame clips joined over 5 frames (overlap: a's last 5 with b's first 5).
    func judgedJoin(_ effect: String, _ a: [[UInt8]], _ b: [[UInt8]]) throws -> [[UInt8]] {
        try judged(effect, outgoing: Array(a[15..<20]), incoming: Array(b[0..<5]), size: Self.tiny)
    }

    // MARK: Every effect

    func testEveryEffectMatchesTheJudgeOnSmallPictures() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let pa = try pictures(a, size: Self.tiny), pb = try pictures(b, size: Self.tiny)
        var report: [String] = []
        for effect in GLEffect.allCases {
            let output = try stitch([a, b], effect.transitionName, frames: 5, size: Self.tiny)
            XCTAssertEqual(output.count, 35, effect.rawValue)
            let expected = try judgedJoin(effect.rawValue, pa, pb)
            XCTAssertEqual(expected.count, 5, effect.rawValue)
            var worst = 0, meanSum = 0.0
            for k in expected.indices {
                let difference = Self.differences(output[15 + k], expected[k])
                worst = max(worst, difference.max); meanSum += difference.mean
                XCTAssertLessThanOrEqual(difference.max, 2, "\(effect) step \(k)")
                XCTAssertLessThanOrEqual(difference.mean, 0.5, "\(effect) step \(k)")
            }
            report.append("\(effect.rawValue) max \(worst) mean \(String(format: "%.3f", meanSum / Double(expected.count)))")
            // Not a still: the join moves from one picture towards the other.
            XCTAssertGreaterThan(Self.differences(output[15], output[19]).max, 16, effect.rawValue)
        }
        print("GLTransitionTests differences per effect: \(report.joined(separator: "; "))")
    }

    func testTheJudgeTellsEffectsApart() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let pa = try pictures(a, size: Self.tiny), pb = try pictures(b, size: Self.tiny)
        let output = try stitch([a, b], "gl_wipeleft", frames: 5, size: Self.tiny)
        for other in ["wiperight", "fade", "angular"] {
            let expected = try judgedJoin(other, pa, pb)
            let worst = expected.indices.map { Self.differences(output[15 + $0], expected[$0]).max }.max() ?? 0
            XCTAssertGreaterThan(worst, 16, "gl_wipeleft drawn where \(other) is expected would pass")
        }
    }

    // MARK: 10-bit

    /// Ten-bit limited-range samples of a smooth deterministic pattern, planar 4:2:0, little-endian.
    func tenBitPicture(seed: Int, size: Size) -> [UInt8] {
        var bytes: [UInt8] = []
        let planes = [(size.width, size.height, 64, 876), (size.width / 2, size.height / 2, 64, 896), (size.width / 2, size.height / 2, 64, 896)]
        for (index, (width, height, low, span)) in planes.enumerated() {
            for y in 0..<height {
                for x in 0..<width {
                    let wave = (x * (7 + seed) + y * (5 + index) * (seed + 1)) % 200
                    let value = UInt16(low + span * (wave < 100 ? wave : 200 - wave) / 100)
                    bytes += [UInt8(value & 0xff), UInt8(value >> 8)]
                }
            }
        }
        return bytes
    }

    func testTenBitPicturesMatchTheJudge() throws {
        let size: Size = (64, 36), steps = 3
        let a = tenBitPicture(seed: 1, size: size), b = tenBitPicture(seed: 2, size: size)
        let outgoing = try frame(a, size: size), incoming = try frame(b, size: size)
        for effect in [GLEffect.fade, .swirl, .randomsquares, .doorway] {
            let expected = try judged(effect.rawValue, outgoing: Array(repeating: a, count: steps),
                                      incoming: Array(repeating: b, count: steps), size: size, bits: 10)
            for step in 0..<steps {
                let output = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
                Frame.gl(outgoing, incoming, effect: effect, progress: Double(step + 1) / Double(steps + 1),
                         matrix: .bt709(bits: 10), into: output)
                let difference = Self.differences(try bytes(output), expected[step], bits: 10)
                XCTAssertLessThanOrEqual(difference.max, 2, "\(effect) step \(step)")
                XCTAssertLessThanOrEqual(difference.mean, 0.5, "\(effect) step \(step)")
            }
        }
    }

    func testAPictureShownUnmovedComesBackAsItsOwnCodes() throws {
        let size: Size = (64, 36)
        let a = tenBitPicture(seed: 3, size: size), b = tenBitPicture(seed: 4, size: size)
        let outgoing = try frame(a, size: size), incoming = try frame(b, size: size)
        let output = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
        Frame.gl(outgoing, incoming, effect: .fade, progress: -0.5, matrix: .bt709(bits: 10), into: output)
        XCTAssertEqual(try bytes(output), a, "fade before its start is the outgoing picture")
        Frame.gl(outgoing, incoming, effect: .fade, progress: 1.5, matrix: .bt709(bits: 10), into: output)
        XCTAssertEqual(try bytes(output), b, "fade after its end is the incoming picture")
    }

    // MARK: The catalogue

    func testSegueTransitionsListsEveryGLEffectAndRandomCanPickIt() throws {
        let result = try SegueTool.run(["transitions"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let names = result.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        let gl = GLEffect.allCases.map(\.transitionName)
        XCTAssertGreaterThanOrEqual(gl.count, 12)
        XCTAssertEqual(Array(names.suffix(gl.count + 1)), gl + ["random"])
        for name in gl {
            let kind = try XCTUnwrap(TransitionKind(name: name))
            XCTAssertEqual(kind.drawing, .gl(try XCTUnwrap(GLEffect(transitionName: name))))
            XCTAssertTrue(TransitionCatalogue.pickable.contains(kind), "random can pick \(name)")
        }
    }
}
