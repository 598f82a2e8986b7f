import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The gl-transitions effects Segue draws on the CPU (`gl_` + the effect's
/// name), each picture held to an independent numpy evaluation of the
/// effect's GLSL (Tests/Support/gl/judge.py and its effects_*.py, run with
/// Debian's /usr/bin/python3, defaults its own) on the same two pictures at
/// the same progress, through the same documented Y'CbCr ↔ R'G'B'
/// conversion. Segue computes in Float, the judge mostly in float64: a
/// picture may differ by rounding (mean ≤ 0.5, max ≤ 2 code values).
final class GLTransitionTests: XCTestCase, RawPlanes, LosslessClips {
    let store = FixtureStore.shared
    typealias Size = (width: Int, height: Int)
    static let tiny: Size = (96, 54)
    static let frameRate = 25
    static let judge = SegueTool.repository.appendingPathComponent("Tests/Support/gl/judge.py").path

    // MARK: Fixtures (LosslessClips)

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

    // MARK: The judge

    /// Two runs of pictures and the matrix they are coded in, for the judge and for `Frame.gl`.
    struct Pair {
        var outgoing: [[UInt8]], incoming: [[UInt8]]
        var size: Size, bits: Int, matrix: String
        /// Each step's progress where not evenly inside 0...1 (past its ends, as an overshooting curve's).
        var progresses: [Double]? = nil
        var steps: Int { outgoing.count }
        /// Step k of N is drawn at (k + 1) / (N + 1), or at `progresses[k]`.
        func progress(_ step: Int) -> Double { progresses?[step] ?? Double(step + 1) / Double(steps + 1) }
        /// The judge's STEPS: the count, or the progresses listed.
        var judgeSteps: String { progresses.map { "at:" + $0.map { "\($0)" }.joined(separator: ",") } ?? "\(steps)" }
        var colourMatrix: GLColourMatrix { matrix == "bt2020" ? .bt2020(bits: bits) : .bt709(bits: bits) }
    }

    /// The judge's pictures for each transition (`GLTransition`s: an effect and
    /// the uniforms set on it), one run of python for all.
    func judged(_ transitions: [GLTransition], _ pair: Pair) throws -> [[[UInt8]]] {
        let folder = store.folder.appendingPathComponent("gl-judge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.raw"), b = folder.appendingPathComponent("b.raw")
        try Data(pair.outgoing.joined()).write(to: a)
        try Data(pair.incoming.joined()).write(to: b)
        var arguments = [Self.judge, pair.matrix, "\(pair.size.width)", "\(pair.size.height)", pair.judgeSteps, "\(pair.bits)", a.path, b.path]
        for (index, transition) in transitions.enumerated() {
            arguments += [transition.effect.rawValue, try Self.uniformsJSON(transition), folder.appendingPathComponent("\(index).raw").path]
        }
        let result = try Tool.run("/usr/bin/python3", arguments)
        XCTAssertEqual(result.status, 0, result.standardError)
        let pictureBytes = pair.size.width * pair.size.height * 3 / 2 * (pair.bits == 8 ? 1 : 2)
        return try transitions.indices.map {
            Self.split(try Data(contentsOf: folder.appendingPathComponent("\($0).raw")), count: pictureBytes)
        }
    }

    /// The uniforms a transition sets away from Segue's defaults, as the judge's keyword arguments.
    static func uniformsJSON(_ transition: GLTransition) throws -> String {
        var set: [String: Any] = [:]
        for (uniform, value) in zip(transition.effect.uniforms, transition.values) where value != uniform.defaults {
            let numbers = value.map { uniform.isIntegral ? Int($0) as Any : Double($0) as Any }
            set[uniform.name] = uniform.kind == .bool ? (value[0] != 0) as Any : (numbers.count == 1 ? numbers[0] : numbers as Any)
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: set, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Segue's pictures of `transition` for every step of `pair`.
    func drawn(_ transition: GLTransition, _ pair: Pair) throws -> [[UInt8]] {
        try (0..<pair.steps).map { step in
            let outgoing = try frame(pair.outgoing[step], size: pair.size, bits: pair.bits)
            let incoming = try frame(pair.incoming[step], size: pair.size, bits: pair.bits)
            let output = try Frame.video(width: pair.size.width, height: pair.size.height, pixelFormat: pair.bits == 8 ? .yuv420p : .yuv420p10)
            Frame.gl(outgoing, incoming, transition: transition, progress: pair.progress(step), matrix: pair.colourMatrix, into: output)
            return try bytes(output)
        }
    }

    /// Every transition drawn by Segue and by the judge, each step within rounding; returns a line per transition.
    @discardableResult
    func assertMatchesTheJudge(_ transitions: [GLTransition], _ pair: Pair, moving: Bool = true) throws -> [String] {
        let expected = try judged(transitions, pair)
        var report: [String] = []
        for (transition, judge) in zip(transitions, expected) {
            let output = try drawn(transition, pair)
            XCTAssertEqual(judge.count, pair.steps, transition.spelling)
            var worst = 0, meanSum = 0.0
            for (step, (mine, theirs)) in zip(output, judge).enumerated() {
                let difference = Self.differences(mine, theirs, bits: pair.bits)
                worst = max(worst, difference.max); meanSum += difference.mean
                XCTAssertLessThanOrEqual(difference.max, 2, "\(transition.spelling) step \(step)")
                XCTAssertLessThanOrEqual(difference.mean, 0.5, "\(transition.spelling) step \(step)")
            }
            if moving, output.count > 1 {
                XCTAssertGreaterThan(Self.differences(output[0], output[output.count - 1], bits: pair.bits).max, 16,
                                     "\(transition.spelling) moves from one picture towards the other")
            }
            report.append("\(transition.spelling) max \(worst) mean \(String(format: "%.3f", meanSum / Double(max(output.count, 1))))")
        }
        return report
    }
}
