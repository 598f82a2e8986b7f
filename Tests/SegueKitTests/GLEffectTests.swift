import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// Every gl_ effect, at its defaults and with every uniform set, in 8 and 10
/// bits, SDR and HDR, drawn by Segue and by the judge (GLTransitionTests).
extension GLTransitionTests {
    /// Three steps of testsrc (its last three frames of 20) into testsrc2's first three.
    func smallPair() throws -> Pair {
        let a = try pictures(try clip("testsrc", frames: 20, size: Self.tiny), size: Self.tiny)
        let b = try pictures(try clip("testsrc2", frames: 20, size: Self.tiny), size: Self.tiny)
        return Pair(outgoing: Array(a[17..<20]), incoming: Array(b[0..<3]), size: Self.tiny, bits: 8, matrix: "bt709")
    }

    func testEveryEffectAtItsDefaultsMatchesTheJudge() throws {
        let report = try assertMatchesTheJudge(GLEffect.allCases.map(GLTransition.init), try smallPair())
        print("GLTransitionTests differences per effect: \(report.joined(separator: "; "))")
    }

    /// Each effect with every uniform moved off its default: the value reaches the drawing (the judge takes it
    /// as a keyword argument and keeps its own defaults) and changes the picture.
    func testEveryUniformReachesTheDrawing() throws {
        let pair = try smallPair()
        let changed = try GLEffect.allCases.filter { !$0.uniforms.isEmpty }.map { effect in
            try XCTUnwrap(GLTransition.parse(effect.transitionName + "(" + effect.uniforms.map(Self.otherSetting).joined(separator: ",") + ")")?.get())
        }
        XCTAssertGreaterThanOrEqual(changed.count, 8)
        try assertMatchesTheJudge(changed, pair, moving: false)
        for transition in changed {
            let plain = try drawn(GLTransition(transition.effect), pair), set = try drawn(transition, pair)
            let worst = zip(plain, set).map { Self.differences($0, $1).max }.max() ?? 0
            XCTAssertGreaterThan(worst, 8, "\(transition.spelling) draws other pictures than \(transition.effect.transitionName)")
        }
    }

    /// staticfade works its noise out once a frame by cell when there are fewer cells than pixels (its default
    /// 200 x 200 cells outnumber a small picture's pixels, which take the per-pixel way): both match the judge.
    func testStaticFadeByCellMatchesTheJudge() throws {
        let pair = try smallPair()
        XCTAssertLessThan(31 * 31, pair.size.width * pair.size.height)
        let byCell = try XCTUnwrap(GLTransition.parse("gl_staticfade(n_noise_pixels=30)")?.get())
        try assertMatchesTheJudge([byCell], pair)
        let other = try XCTUnwrap(GLTransition.parse("gl_staticfade(n_noise_pixels=20)")?.get())
        let worst = zip(try drawn(byCell, pair), try drawn(other, pair)).map { Self.differences($0, $1).max }.max() ?? 0
        XCTAssertGreaterThan(worst, 8, "the cells' size reaches the drawing")
    }

    /// The farthest below 0 and above 1 overshooting curves take the progress, each read at 1001 points:
    /// elastic's and back's three each, and a cubic-bezier whose y values leave 0...1 (its highest apart).
    static func overshoots() throws -> (low: Double, high: Double, farthest: Double) {
        let names = ["elastic-in", "elastic-out", "elastic-in-out", "back-in", "back-out", "back-in-out"]
        let curves = try names.map { try XCTUnwrap(Easing(name: $0), $0) }
        let bezier = try XCTUnwrap(Easing(name: "cubic-bezier(0.5,-3,0.5,4)"))
        let ts = (0...1000).map { Double($0) / 1000 }
        let values = curves.flatMap { curve in ts.map { curve($0) } }, far = ts.map { bezier($0) }
        return (min(values.min() ?? 0, far.min() ?? 0), values.max() ?? 1, far.max() ?? 1)
    }

    /// Past its ends (an overshooting curve's progress, as editly's eased progress reaches gl-transition's
    /// draw) every effect draws what its GLSL draws there.
    func testEveryEffectPastItsEndsMatchesTheJudge() throws {
        let (low, high, farthest) = try Self.overshoots()
        XCTAssertLessThan(low, -0.5); XCTAssertGreaterThan(high, 1.3); XCTAssertGreaterThan(farthest, 1.5)
        var pair = try smallPair()
        pair.progresses = [low, high, farthest]
        let report = try assertMatchesTheJudge(GLEffect.allCases.map(GLTransition.init), pair, moving: false)
        print("GLTransitionTests differences past the ends: \(report.joined(separator: "; "))")
        // A fractional power of a progress below 0 is NaN, and so is the colour it weighs: stored as 0, black.
        let undefined = try XCTUnwrap(GLTransition.parse("gl_colourdistance(power=2.5)")?.get())
        try assertMatchesTheJudge([undefined], pair, moving: false)
        let black = try drawn(undefined, pair)[0]
        XCTAssertGreaterThan(black.prefix(pair.size.width * pair.size.height).filter { $0 == 16 }.count, pair.size.width * pair.size.height / 2,
                             "NaN colours stored as black")
    }

    /// ripple and waterdrop read their sine by distance from a GLTable while it is gentle enough; steeper, they
    /// call libm a pixel: both ways match the judge.
    func testRippleAndWaterDropPastTheirTablesMatchTheJudge() throws {
        let steep = try ["gl_ripple(amplitude=1000)", "gl_waterdrop(amplitude=500)"].map { try XCTUnwrap(GLTransition.parse($0)?.get()) }
        XCTAssertTrue(steep.allSatisfy { Swift.abs($0.float("amplitude")) > GLTable<SIMD2<Float>>.maxSlope })
        try assertMatchesTheJudge(steep, try smallPair())
    }

    /// The four-lane sine (crazyparametricfun's pulls, cannabisleaf's waves) keeps within 2.5e-7 of the true sine,
    /// and with quarter turns added of the true cosine and their negatives, over its range (quadrant edges and
    /// negatives included); larger arguments go to libm.
    func testFourLaneSineKeepsToTheTrueSine() {
        let turns = SIMD4<UInt32>(0, 1, 2, 3)
        var worst: Double = 0, worstTurned: Double = 0, x: Float = -8191.9
        while x < 8192 {
            let lanes = SIMD4(x, x.nextUp, -x * 0.37, x * 1e-3)
            let sines = GLSL.sin(lanes), turned = GLSL.sin(lanes, plusQuarterTurns: turns)
            for lane in 0..<4 {
                let angle = Double(lanes[lane])
                worst = max(worst, Swift.abs(Double(sines[lane]) - Foundation.sin(angle)))
                worstTurned = max(worstTurned, Swift.abs(Double(turned[lane]) - Foundation.sin(angle + Double(lane) * Double.pi / 2)))
            }
            x += 0.0173
        }
        XCTAssertLessThan(worst, 2.5e-7)
        XCTAssertLessThan(worstTurned, 2.5e-7)
        let edges = SIMD4<Float>(Float.pi / 2, -Float.pi, 3 * Float.pi / 2, 0)
        let atEdges = GLSL.sin(edges) - SIMD4(sinf(edges[0]), sinf(edges[1]), sinf(edges[2]), 0)
        XCTAssertLessThan(max(atEdges.max(), -atEdges.min()), 2.5e-7)
        let large = SIMD4<Float>(9000.5, -20000.25, 1e6, 3)
        XCTAssertEqual(GLSL.sin(large), SIMD4(sinf(large[0]), sinf(large[1]), sinf(large[2]), sinf(3)))
        XCTAssertEqual(GLSL.sin(large, plusQuarterTurns: turns), SIMD4(sinf(large[0]), cosf(large[1]), -sinf(large[2]), -cosf(3)))
    }

    /// `name=value` with a value other than the default, inside the uniform's range.
    static func otherSetting(_ uniform: GLUniform) -> String {
        let values = uniform.defaults.map { value -> String in
            if uniform.kind == .bool { return value != 0 ? "false" : "true" }
            var other = value == 0 ? uniform.range.upperBound / 4 : value * 1.5
            if !uniform.range.contains(other) { other = value == 0 ? uniform.range.lowerBound / 4 : value * 0.5 }
            if uniform.isIntegral { other = other.rounded() == value ? value + 1 : other.rounded() }
            return "\(other)"
        }
        return uniform.name + "=" + values.joined(separator: ",")
    }

    func testTenBitSDRAndHDRPicturesMatchTheJudge() throws {
        let size: Size = (64, 36)
        for matrix in ["bt709", "bt2020"] {
            let pair = Pair(outgoing: [tenBitPicture(seed: 1, size: size)], incoming: [tenBitPicture(seed: 2, size: size)],
                            size: size, bits: 10, matrix: matrix)
            try assertMatchesTheJudge(GLEffect.allCases.map(GLTransition.init), pair)
        }
    }

    /// `tenBitPicture`, or its 8-bit codes.
    func picture(seed: Int, size: Size, bits: Int) -> [UInt8] {
        let wide = tenBitPicture(seed: seed, size: size)
        return bits == 10 ? wide : stride(from: 0, to: wide.count, by: 2).map { UInt8((Int(wide[$0]) | Int(wide[$0 + 1]) << 8) >> 2) }
    }

    /// Ten-bit limited-range samples of a smooth deterministic pattern, planar 4:2:0, little-endian.
    func tenBitPicture(seed: Int, size: Size) -> [UInt8] {
        var bytes: [UInt8] = []
        let chroma = ((size.width + 1) / 2, (size.height + 1) / 2)
        let planes = [(size.width, size.height, 64, 876), (chroma.0, chroma.1, 64, 896), (chroma.0, chroma.1, 64, 896)]
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

    func testAPictureShownUnmovedComesBackAsItsOwnCodes() throws {
        try assertShownUnmoved(size: (64, 36))
    }

    /// An odd width and height leave 2x2 blocks with one column or row, converted back pixel by pixel.
    func testAnOddSizedPictureShownUnmovedComesBackAsItsOwnCodes() throws {
        try assertShownUnmoved(size: (37, 21))
    }

    private func assertShownUnmoved(size: Size) throws {
        let a = tenBitPicture(seed: 3, size: size), b = tenBitPicture(seed: 4, size: size)
        let outgoing = try frame(a, size: size), incoming = try frame(b, size: size)
        let output = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
        // butterflywavescrawler paints by column and row, kaleidoscope eight pixels at a time (a row's last
        // ones again in spare lanes); both return either picture as it is at the ends.
        for transition in [GLTransition(.fade), GLTransition(.butterflywavescrawler), GLTransition(.kaleidoscope)] {
            Frame.gl(outgoing, incoming, transition: transition, progress: 0, matrix: .bt709(bits: 10), into: output)
            XCTAssertEqual(try bytes(output), a, "\(transition.spelling) at its start is the outgoing picture")
            Frame.gl(outgoing, incoming, transition: transition, progress: 1, matrix: .bt709(bits: 10), into: output)
            XCTAssertEqual(try bytes(output), b, "\(transition.spelling) at its end is the incoming picture")
        }
    }

    /// An effect that samples only the cross-fade reads both frames as one picture: each pixel the mix of the
    /// two read apart (the conversion is affine), to float rounding; at either end exactly the one shown.
    func testTheCrossFadeReadIsTheMixOfThePicturesReadApart() throws {
        let size: Size = (37, 21), matrix = GLColourMatrix.bt2020(bits: 10)
        let a = try frame(tenBitPicture(seed: 5, size: size), size: size), b = try frame(tenBitPicture(seed: 6, size: size), size: size)
        let from = GLPicture(width: size.width, height: size.height), to = GLPicture(width: size.width, height: size.height)
        let crossFade = GLPicture(width: size.width, height: size.height), count = size.width * size.height
        from.read(a, matrix: matrix)
        to.read(b, matrix: matrix)
        for t: Float in [0.3, 0.75] {
            crossFade.read(a, b, crossFadedAt: t, matrix: matrix)
            let worst = (0..<count).map { index -> Float in
                let difference = crossFade.pixels[index] - GLSL.mix(from.pixels[index], to.pixels[index], t)
                return max(difference.max(), (-difference).max())
            }.max() ?? 1
            XCTAssertLessThan(worst, 1e-5, "cross-fade at \(t)")
            XCTAssertGreaterThan((0..<count).filter { crossFade.pixels[$0] != from.pixels[$0] }.count, count / 2, "at \(t)")
        }
        crossFade.read(a, b, crossFadedAt: 0, matrix: matrix)
        XCTAssertTrue((0..<count).allSatisfy { crossFade.pixels[$0] == from.pixels[$0] }, "at 0 the outgoing picture as it reads")
        crossFade.read(a, b, crossFadedAt: 1, matrix: matrix)
        XCTAssertTrue((0..<count).allSatisfy { crossFade.pixels[$0] == to.pixels[$0] }, "at 1 the incoming picture as it reads")
    }

    /// An effect that reads a picture only at its own pixels draws the same, byte for byte, with that picture read
    /// band by band as with it read whole: 8 and 10 bits, an odd size of several bands.
    func testPicturesReadBandByBandDrawWhatPicturesReadWholeDraw() throws {
        let size: Size = (37, 45), effects = GLEffect.allCases.filter { !$0.shader.readAtItsPixels.isEmpty }
        XCTAssertGreaterThan(effects.count, 40)
        for bits in [8, 10] {
            let a = try frame(picture(seed: 7, size: size, bits: bits), size: size, bits: bits)
            let b = try frame(picture(seed: 8, size: size, bits: bits), size: size, bits: bits)
            let format: PixelFormat = bits == 8 ? .yuv420p : .yuv420p10, matrix: GLColourMatrix = bits == 8 ? .bt709(bits: 8) : .bt2020(bits: 10)
            let banded = try Frame.video(width: size.width, height: size.height, pixelFormat: format)
            let whole = try Frame.video(width: size.width, height: size.height, pixelFormat: format)
            let byBand = GLWorkspace(), atOnce = GLWorkspace(readsBandByBand: false)
            for effect in effects {
                for progress in [0.2, 0.55, 0.9] {
                    byBand.draw(a, b, transition: GLTransition(effect), progress: progress, matrix: matrix, into: banded)
                    atOnce.draw(a, b, transition: GLTransition(effect), progress: progress, matrix: matrix, into: whole)
                    XCTAssertEqual(try bytes(banded), try bytes(whole), "\(effect) at \(progress), \(bits) bits")
                }
            }
        }
    }

    /// The effects' own paint loops (tables by column, row or tile, pixels
    /// in pairs, columns at a time) draw what `colour` draws at each pixel.
    func testEffectsOwnPaintLoopsDrawWhatTheirColourDraws() throws {
        let size: Size = (53, 45)
        let a = try frame(picture(seed: 3, size: size, bits: 8), size: size, bits: 8), b = try frame(picture(seed: 4, size: size, bits: 8), size: size, bits: 8)
        let painted = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p)
        let eachPixel = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p)
        let ownLoops = GLWorkspace(), pixelByPixel = GLWorkspace(paintsEachPixel: true)
        for effect in GLEffect.allCases {
            for progress in [-2.5, -0.37, 0.05, 0.3, 0.55, 0.8, 0.97, 1.37, 3.5] {
                ownLoops.draw(a, b, transition: GLTransition(effect), progress: progress, matrix: .bt709(bits: 8), into: painted)
                pixelByPixel.draw(a, b, transition: GLTransition(effect), progress: progress, matrix: .bt709(bits: 8), into: eachPixel)
                XCTAssertEqual(try bytes(painted), try bytes(eachPixel), "\(effect) at \(progress)")
            }
        }
    }

    // MARK: Through the stitch

    /// The join frames of a stitch, judged: overlap draws a's last frames with b's first, freeze a's last
    /// picture held with b's first.
    func testStitchedJoinsMatchTheJudgeInBothModes() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let pa = try pictures(a, size: Self.tiny), pb = try pictures(b, size: Self.tiny)
        let name = "gl_circleopen(smoothness=0.1,opening=false)"
        let transition = try XCTUnwrap(GLTransition.parse(name)?.get())
        let overlap = try stitch([a, b], name, frames: 5, size: Self.tiny).pictures
        XCTAssertEqual(overlap.count, 35)
        let pair = Pair(outgoing: Array(pa[15..<20]), incoming: Array(pb[0..<5]), size: Self.tiny, bits: 8, matrix: "bt709")
        for (step, expected) in try judged([transition], pair)[0].enumerated() {
            XCTAssertLessThanOrEqual(Self.differences(overlap[15 + step], expected).max, 2, "overlap step \(step)")
        }
        let freeze = try stitch([a, b], "gl_doorway", frames: 5, mode: .freeze, size: Self.tiny).pictures
        XCTAssertEqual(freeze.count, 45, "20 + 5 held + 20 frames")
        let held = Pair(outgoing: Array(repeating: pa[19], count: 5), incoming: Array(repeating: pb[0], count: 5),
                        size: Self.tiny, bits: 8, matrix: "bt709")
        for (step, expected) in try judged([GLTransition(.doorway)], held)[0].enumerated() {
            XCTAssertLessThanOrEqual(Self.differences(freeze[20 + step], expected).max, 2, "freeze step \(step)")
        }
    }

    /// An eased join through the stitch: back-in-out takes gl_directional's progress below 0 and above 1, and the
    /// join frames are what the judge draws at the curve's progress there.
    func testAnOvershootingCurveReachesTheEffectPastItsEnds() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let pa = try pictures(a, size: Self.tiny), pb = try pictures(b, size: Self.tiny)
        let curve = try XCTUnwrap(Easing(name: "back-in-out"))
        let eased = try stitch([a, b], "gl_directional", frames: 5, size: Self.tiny) { $0.easing = curve }.pictures
        var pair = Pair(outgoing: Array(pa[15..<20]), incoming: Array(pb[0..<5]), size: Self.tiny, bits: 8, matrix: "bt709")
        pair.progresses = (0..<5).map { curve(Double($0 + 1) / 6) }
        XCTAssertLessThan(pair.progresses?.min() ?? 0, 0); XCTAssertGreaterThan(pair.progresses?.max() ?? 1, 1)
        for (step, expected) in try judged([GLTransition(.directional)], pair)[0].enumerated() {
            XCTAssertLessThanOrEqual(Self.differences(eased[15 + step], expected).max, 2, "step \(step) at \(pair.progress(step))")
        }
    }

    /// A bad parameter is exit 2 naming it and listing the effect's, from the flag or a manifest's join; nothing written.
    func testBadParametersAreExitTwoListingTheEffects() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let folder = store.folder.appendingPathComponent("gl-bad-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let flag = try Tools.segue(["stitch", a, b, "-o", folder + "/x.mp4", "--transition", "gl_doorway(dept=2)"])
        XCTAssertEqual(flag.status, 2, flag.standardError)
        XCTAssertTrue(flag.standardError.contains("no parameter 'dept'"), flag.standardError)
        XCTAssertTrue(flag.standardError.contains("depth (float, default 3)"), flag.standardError)
        let manifest = folder + "/joins.json"
        let clips: [[String: Any]] = [["path": a, "join": ["transition": "gl_ripple(speed=1e9)"]], ["path": b]]
        try JSONSerialization.data(withJSONObject: ["clips": clips]).write(to: URL(fileURLWithPath: manifest))
        let join = try Tools.segue(["stitch", manifest, "-o", folder + "/x.mp4"])
        XCTAssertEqual(join.status, 2, join.standardError)
        XCTAssertTrue(join.standardError.contains("'speed' takes a number from -10000 to 10000"), join.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x.mp4"))
    }

    func testTheJudgeTellsEffectsApart() throws {
        let a = try clip("testsrc", frames: 20, size: Self.tiny), b = try clip("testsrc2", frames: 20, size: Self.tiny)
        let pa = try pictures(a, size: Self.tiny), pb = try pictures(b, size: Self.tiny)
        let output = try stitch([a, b], "gl_wipeleft", frames: 5, size: Self.tiny).pictures
        let pair = Pair(outgoing: Array(pa[15..<20]), incoming: Array(pb[0..<5]), size: Self.tiny, bits: 8, matrix: "bt709")
        let others: [GLEffect] = [.wiperight, .fade, .angular]
        for (other, expected) in zip(others, try judged(others.map(GLTransition.init), pair)) {
            let worst = expected.indices.map { Self.differences(output[15 + $0], expected[$0]).max }.max() ?? 0
            XCTAssertGreaterThan(worst, 16, "gl_wipeleft drawn where gl_\(other) is expected would pass")
        }
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
            XCTAssertEqual(kind.drawing, .gl(GLTransition(try XCTUnwrap(GLEffect(transitionName: name)))))
            XCTAssertTrue(TransitionCatalogue.pickable.contains(kind), "random can pick \(name)")
        }
    }
}
