import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// FFmpeg 6.1's twelve newer xfade transitions, drawn by Segue's own pixel
/// code, each join frame held to a reference made outside Segue from the same
/// decoded pictures at the same progress (xfade's P = 1 - (k + 1) / (N + 1)
/// for step k of N):
///
/// - cover and reveal: the ffmpeg CLI's `xfade=transition=custom` with the
///   shape written as an expression, run on each plane alone (extractplanes,
///   then mergeplanes), since 6.1 draws on each plane with its own size;
///   the expression rounds `P * W` to single precision as 6.1's
///   `(-progress) * width` does, so an edge on a whole column lands the same;
/// - wind: FFmpeg's `frand` cannot be written as an xfade expression (it
///   rounds `sinf` and its product to single precision, and the product's
///   fraction is all that is kept), so those four are held to a numpy
///   transcription of 6.1's C code, calling libm's own `sinf`.
final class XfadeShapeTests: XCTestCase, RawPlanes, LosslessClips {
    let store = FixtureStore.shared
    typealias Size = (width: Int, height: Int)
    static let tiny: Size = (96, 54)
    static let frameRate = 25
    static let winds: Set<String> = ["hlwind", "hrwind", "vuwind", "vdwind"]

    // MARK: Fixtures (LosslessClips)

    /// The largest difference of any sample of two pictures.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count)
        return zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    // MARK: References

    /// A cover or reveal shape as an xfade custom expression on one plane.
    static func expression(_ shape: String) -> String {
        let horizontal = shape.hasSuffix("left") || shape.hasSuffix("right")
        let extent = horizontal ? "W" : "H", coordinate = horizontal ? "X" : "Y"
        let sign = shape.hasSuffix("left") || shape.hasSuffix("up") ? "-" : "+"
        // z = (int)(P * extent) with the product rounded to single precision first.
        let offset = "st(0,P*\(extent));st(1,if(gt(ld(0),0),pow(2,floor(log(ld(0))/log(2))-23),1));"
            + "st(2,trunc(round(ld(0)/ld(1))*ld(1)));st(3,\(coordinate)\(sign)ld(2));"
        let inside = "gte(ld(3),0)*lt(ld(3),\(extent))"
        let wrapped = "ld(3)+\(extent)*lt(ld(3),0)-\(extent)*gte(ld(3),\(extent))"
        if shape.hasPrefix("cover") {
            let moved = horizontal ? "b0(ld(3),Y)" : "b0(X,ld(3))"
            return offset + "if(\(inside),\(moved),A)"
        }
        let moved = horizontal ? "a0(\(wrapped),Y)" : "a0(X,\(wrapped))"
        return offset + "if(\(inside),B,\(moved))"
    }

    /// The CLI's custom xfade for a cover or reveal shape, plane by plane, at
    /// the places the join takes in Segue's output (TransitionCatalogueTests'
    /// timing: overlap from `length - frames`, freeze from `length`).
    func cliReference(_ shape: String, from: String, to: String, length: Int, frames: Int, mode: TransitionMode,
                      size: Size) throws -> [[UInt8]] {
        let key = "\(shape)-\((from as NSString).lastPathComponent)-\((to as NSString).lastPathComponent)-\(frames)-\(mode)"
        let raw = try store.path("shape-reference-\(key).yuv") { path in
            let offset = mode == .overlap ? length - frames - 1 : length - 1
            let clonedIn = mode == .overlap ? 1 : frames + 1
            let rate = Double(Self.frameRate)
            let timing = "duration=\(Double(frames + 1) / rate):offset=\(Double(offset) / rate)"
            var graph = "[0:v]tpad=stop_mode=clone:stop=\(frames + 3),extractplanes=y+u+v[ay][au][av];"
                + "[1:v]tpad=start=\(clonedIn):start_mode=clone,extractplanes=y+u+v[by][bu][bv];"
            for plane in ["y", "u", "v"] {
                graph += "[a\(plane)][b\(plane)]xfade=transition=custom:expr='\(Self.expression(shape))':\(timing)[o\(plane)];"
            }
            graph += "[oy][ou][ov]mergeplanes=0x001020:yuv420p"
            // st()/ld() share one set of variables between xfade's slice threads: one thread.
            try ffmpeg(["-filter_complex_threads", "1", "-i", from, "-i", to, "-filter_complex", graph, "-f", "rawvideo", path])
        }
        let all = Self.split(try Data(contentsOf: URL(fileURLWithPath: raw)), count: size.width * size.height * 3 / 2)
        let first = mode == .overlap ? length - frames : length
        return Array(all[first..<(first + frames)])
    }

    /// FFmpeg 6.1's wind shapes, transcribed from vf_xfade.c in numpy's float32
    /// with libm's `sinf`, on each plane with its own size.
    static let windScript = #"""
    import ctypes, sys
    import numpy as np
    libm = ctypes.CDLL("libm.so.6")
    libm.sinf.restype = ctypes.c_float
    libm.sinf.argtypes = [ctypes.c_float]
    f = np.float32
    def frand(x, y):
        r = f(libm.sinf(f(x) * f(12.9898) + f(y) * f(78.233))) * f(43758.545)
        return f(r - np.floor(r))
    shape, width, height, steps, bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    dtype = np.uint8 if bits == 8 else np.dtype("<u2")
    a_all = np.fromfile(sys.argv[6], dtype=dtype)
    b_all = np.fromfile(sys.argv[7], dtype=dtype)
    sizes = [(width, height), (width // 2, height // 2), (width // 2, height // 2)]
    picture = sum(w * h for w, h in sizes)
    out = []
    for k in range(steps):
        p = f(1) - f(k + 1) / f(steps + 1)
        start = k * picture
        for w, h in sizes:
            a = a_all[start:start + w * h].reshape(h, w).astype(np.float32)
            b = b_all[start:start + w * h].reshape(h, w).astype(np.float32)
            start += w * h
            if shape in ("hlwind", "hrwind"):
                across = np.arange(w, dtype=np.float32) / f(w)
                pos = np.broadcast_to(f(1) - across if shape == "hlwind" else across, (h, w))
                r = np.array([[frand(0, y)] for y in range(h)], dtype=np.float32)
            else:
                down = (np.arange(h, dtype=np.float32) / f(h)).reshape(h, 1)
                pos = np.broadcast_to(f(1) - down if shape == "vuwind" else down, (h, w))
                r = np.array([[frand(x, 0) for x in range(w)]], dtype=np.float32)
            keep, grow = f(1) - f(0.2), f(1) + f(0.2)
            edge = (pos * keep + f(0.2) * r) - (f(1) - p) * grow
            t = np.clip(edge / f(-0.2), f(0), f(1)).astype(np.float32)
            m = (t * t) * (f(3) - f(2) * t)
            mixed = b * m + a * (f(1) - m)
            out.append(np.trunc(mixed).astype(dtype))
    np.concatenate([o.ravel() for o in out]).tofile(sys.argv[8])
    """#

    /// The numpy wind reference for `outgoing` and `incoming` pictures, one pair a step.
    func numpyReference(_ shape: String, outgoing: [[UInt8]], incoming: [[UInt8]], size: Size, bits: Int = 8) throws -> [[UInt8]] {
        let folder = store.folder.appendingPathComponent("shape-numpy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("wind.py"), a = folder.appendingPathComponent("a.raw")
        let b = folder.appendingPathComponent("b.raw"), out = folder.appendingPathComponent("out.raw")
        try Self.windScript.write(to: script, atomically: true, encoding: .utf8)
        try Data(outgoing.joined()).write(to: a)
        try Data(incoming.joined()).write(to: b)
        let result = try Tool.run("/usr/bin/python3", [script.path, shape, "\(size.width)", "\(size.height)", "\(outgoing.count)",
                                                       "\(bits)", a.path, b.path, out.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        let bytesPerSample = bits == 8 ? 1 : 2
        return Self.split(try Data(contentsOf: out), count: size.width * size.height * 3 / 2 * bytesPerSample)
    }

    /// The reference for `shape`'s join between clips `from` and `to` (`length` frames each).
    func reference(_ shape: String, from: String, to: String, length: Int, frames: Int, mode: TransitionMode = .overlap,
                   size: Size) throws -> [[UInt8]] {
        guard Self.winds.contains(shape) else {
            return try cliReference(shape, from: from, to: to, length: length, frames: frames, mode: mode, size: size)
        }
        let a = try pictures(from, size: size), b = try pictures(to, size: size)
        let outgoing = (0..<frames).map { mode == .overlap ? a[length - frames + $0] : a[length - 1] }
        let incoming = (0..<frames).map { mode == .overlap ? b[$0] : b[0] }
        return try numpyReference(shape, outgoing: outgoing, incoming: incoming, size: size)
    }

    /// The largest sample difference of each join frame of `output` (from `start`) from `reference`'s.
    static func joinDifferences(_ output: [[UInt8]], start: Int, _ reference: [[UInt8]]) -> [Int] {
        reference.indices.map { maxDifference(output[start + $0], reference[$0]) }
    }

    // MARK: Frame-exact

    func testEveryShapeIsFrameExactOnSmallPictures() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        var report: [String] = []
        for shape in TransitionShape.allCases.map(\.rawValue) {
            let output = try stitch([a, b], shape, frames: 5, size: Self.tiny).pictures
            XCTAssertEqual(output.count, 35, shape)
            let expected = try reference(shape, from: a, to: b, length: 20, frames: 5, size: Self.tiny)
            let differences = Self.joinDifferences(output, start: 15, expected)
            report.append("\(shape) \(differences.max() ?? -1)")
            XCTAssertEqual(differences.max(), 0, "\(shape): \(differences)")
            // Not a still: the join moves from one picture to the other.
            XCTAssertGreaterThan(Self.maxDifference(output[15], output[19]), 0, shape)
        }
        print("XfadeShapeTests max sample difference per shape: \(report.joined(separator: ", "))")
    }

    func testShapesAreFrameExactOnLargerPicturesOverTenFrames() throws {
        let size: Size = (320, 180)
        let a = try clip("testsrc", frames: 50, size: size), b = try clip("testsrc2", frames: 50, size: size)
        for shape in ["coverleft", "revealdown", "hrwind", "vuwind"] {
            let output = try stitch([a, b], shape, frames: 10, size: size).pictures
            XCTAssertEqual(output.count, 90, shape)
            let differences = Self.joinDifferences(output, start: 40, try reference(shape, from: a, to: b, length: 50, frames: 10, size: size))
            XCTAssertEqual(differences.max(), 0, "\(shape): \(differences)")
        }
    }

    func testTheReferenceTellsShapesApart() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let output = try stitch([a, b], "coverleft", frames: 5, size: Self.tiny).pictures
        for other in ["revealleft", "coverright", "coverup", "hlwind"] {
            let differences = Self.joinDifferences(output, start: 15, try reference(other, from: a, to: b, length: 20, frames: 5, size: Self.tiny))
            XCTAssertGreaterThan(differences.max() ?? 0, 16, "coverleft drawn where \(other) is expected would pass")
        }
    }

    func testFreezeModeDrawsAShapeBetweenTheHeldPictures() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        for shape in ["revealup", "vdwind"] {
            let output = try stitch([a, b], shape, frames: 5, mode: .freeze, size: Self.tiny).pictures
            XCTAssertEqual(output.count, 45, "\(shape): 20 + 5 held + 20 frames")
            let expected = try reference(shape, from: a, to: b, length: 20, frames: 5, mode: .freeze, size: Self.tiny)
            XCTAssertEqual(Self.joinDifferences(output, start: 20, expected).max(), 0, shape)
        }
    }

    // MARK: 10-bit

    /// Ten-bit samples of a deterministic pattern, planar 4:2:0, as raw little-endian bytes.
    func tenBitPicture(seed: Int, size: Size) -> [UInt8] {
        var bytes: [UInt8] = []
        let planes = [(size.width, size.height), (size.width / 2, size.height / 2), (size.width / 2, size.height / 2)]
        for (index, (width, height)) in planes.enumerated() {
            for y in 0..<height {
                for x in 0..<width {
                    let value = UInt16((x * 37 + y * 11 * (seed + 1) + index * 300 + seed * 97) % 1024)
                    bytes += [UInt8(value & 0xff), UInt8(value >> 8)]
                }
            }
        }
        return bytes
    }

    func testTenBitPicturesAreDrawnAsFFmpegDrawsSixteenBitSamples() throws {
        let size: Size = (64, 36), steps = 5
        let a = tenBitPicture(seed: 1, size: size), b = tenBitPicture(seed: 2, size: size)
        let outgoing = try frame(a, size: size), incoming = try frame(b, size: size)
        for shape in [TransitionShape.hlwind, .vdwind] {
            let expected = try numpyReference(shape.rawValue, outgoing: Array(repeating: a, count: steps),
                                              incoming: Array(repeating: b, count: steps), size: size, bits: 16)
            for step in 0..<steps {
                let output = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
                Frame.shape(outgoing, incoming, shape: shape, progress: Double(step + 1) / Double(steps + 1), into: output)
                XCTAssertEqual(try bytes(output), expected[step], "\(shape) step \(step)")
            }
        }
        // And a cover at a third of the way: column x shows b's column x + 2/3 of the width, else a.
        let output = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
        Frame.shape(outgoing, incoming, shape: .coverright, progress: 0.25, into: output)
        let drawn = try bytes(output)
        let z = Int(Float(0.75) * Float(size.width))
        for x in 0..<size.width {
            let source = x + z < size.width ? b : a, column = x + z < size.width ? x + z : x
            XCTAssertEqual(drawn[2 * x], source[2 * column], "luma column \(x)")
            XCTAssertEqual(drawn[2 * x + 1], source[2 * column + 1], "luma column \(x)")
        }
    }

    func testProgressOutsideZeroToOneIsClamped() throws {
        let size: Size = (64, 36)
        let a = tenBitPicture(seed: 3, size: size), b = tenBitPicture(seed: 4, size: size)
        let outgoing = try frame(a, size: size), incoming = try frame(b, size: size)
        for shape in TransitionShape.allCases {
            let before = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
            let after = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
            Frame.shape(outgoing, incoming, shape: shape, progress: -0.5, into: before)
            Frame.shape(outgoing, incoming, shape: shape, progress: 1.5, into: after)
            XCTAssertEqual(try bytes(before), a, "\(shape) before the start is the outgoing picture")
            XCTAssertEqual(try bytes(after), b, "\(shape) after the end is the incoming picture")
        }
    }

    // MARK: The catalogue

    func testSegueTransitionsListsTheTwelveAfterXfadesOwnBeforeRandom() throws {
        let result = try SegueTool.run(["transitions"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let names = result.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        let shapes = TransitionShape.allCases.map(\.rawValue)
        XCTAssertEqual(shapes, ["coverleft", "coverright", "coverup", "coverdown", "revealleft", "revealright", "revealup",
                                "revealdown", "hlwind", "hrwind", "vuwind", "vdwind"])
        let listed = names.filter { GLEffect(transitionName: $0) == nil }
        XCTAssertEqual(Array(listed.suffix(13)), shapes + ["random"])
        XCTAssertEqual(Set(names).count, names.count, "each name once")
        for shape in shapes {
            let kind = try XCTUnwrap(TransitionKind(name: shape))
            XCTAssertEqual(kind.drawing, .shape(try XCTUnwrap(TransitionShape(rawValue: shape))))
            XCTAssertTrue(TransitionCatalogue.pickable.contains(kind), "random can pick \(shape)")
        }
    }
}
