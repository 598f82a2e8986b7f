import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets:
// those that warp the pictures' cross-fade, sampling it once
// (`samplesTheCrossFade`). Authors: hexagonalize, rotate_scale_fade:
// Fernando Kuteken; kaleidoscope: nwoeanhinnogaehr.

/// Both pictures become hexagons, cross-fade and sharpen again.
struct GLHexagonalize: GLPairedShader {
    let steps: Int, horizontalHexagons: Float
    /// √3, as `sqrt(3.0)` rounds to a float.
    private static var sqrt3: Float { 1.7320508075688772 }
    /// How far the pictures are into hexagons at this frame's progress (0:
    /// not at all), and the hexagons' side.
    private var dist: Float = 0, size: Float = 0
    static var samplesTheCrossFade: Bool { true }
    init(_ transition: GLTransition) { steps = transition.int("steps"); horizontalHexagons = transition.float("horizontalHexagons") }
    func prepared(for progress: Float) -> GLHexagonalize {
        var prepared = self, dist = 2 * min(progress, 1 - progress)
        dist = steps > 0 ? (dist * Float(steps)).rounded(.up) / Float(steps) : dist
        prepared.dist = dist
        prepared.size = (Self.sqrt3 / 3) * dist / horizontalHexagons
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { colours(uv, uv, s).0 }
    @inline(__always)
    func colours(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        guard dist > 0 else { return s.crossFades(first, second) }
        let (x, y) = centres(SIMD2(first.x, second.x), SIMD2(first.y, second.y), s.ratio)
        return s.crossFades(GLPoint(x[0], y[0]), GLPoint(x[1], y[1]))
    }
    /// `colours` at every pixel, a pair at a time: a pixel in the hexagon of
    /// the one before it takes that one's colour (the same centre, so the
    /// same sample), sampling only where a row crosses into a new hexagon.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        guard dist > 0 else { return paintPairs(canvas, sampler) }
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            var col = columns.lowerBound, centre = GLPoint(.nan, .nan), colour = GLColour()
            while col < columns.upperBound {  // (a stride's iterator is a call a step here)
                let next = min(col + 1, columns.upperBound - 1)
                let (x, y) = centres(SIMD2(us[col], us[next]), SIMD2(v, v), s.ratio)
                let first = GLPoint(x[0], y[0]), second = GLPoint(x[1], y[1])
                if first != centre && second != first {
                    (line[col], line[next]) = s.crossFades(first, second)
                    centre = second; colour = line[next]
                } else {
                    if first != centre { centre = first; colour = s.crossFade(first) }
                    line[col] = colour
                    if second != centre { centre = second; colour = s.crossFade(second) }
                    line[next] = colour
                }
                col += 2
            }
        }
    }
    /// The centres of the hexagons holding two points, lane by lane (the
    /// GLSL's `hexagonFromPoint`, `roundHexagon`, `pointFromHexagon`).
    @inline(__always)
    private func centres(_ px: SIMD2<Float>, _ py: SIMD2<Float>, _ ratio: Float) -> (SIMD2<Float>, SIMD2<Float>) {
        let sqrt3 = Self.sqrt3
        let pointX = (px - 0.5) / size, pointY = (py / ratio - 0.5) / size
        let hq = (sqrt3 / 3) * pointX + (-1.0 / 3.0) * pointY
        let hr = 0 * pointX + 2.0 / 3.0 * pointY
        let hs = -hq - hr
        var q = GLSL.floor(hq + 0.5), r = GLSL.floor(hr + 0.5)
        let s = GLSL.floor(hs + 0.5)
        let deltaQ = GLSL.abs(q - hq), deltaR = GLSL.abs(r - hr), deltaS = GLSL.abs(s - hs)
        let qFarthest = (deltaQ .> deltaR) .& (deltaQ .> deltaS), rFarthest = .!qFarthest .& (deltaR .> deltaS)
        let roundedQ = -r - s, roundedR = -q - s
        q.replace(with: roundedQ, where: qFarthest)
        r.replace(with: roundedR, where: rFarthest)
        let x = (sqrt3 * q + (sqrt3 / 2) * r) * size + 0.5
        let y = (0 * q + (3.0 / 2.0) * r) * size + 0.5
        return (x, y * ratio)
    }
}

/// A cross-fade through a spinning kaleidoscope of both pictures: drawn eight
/// pixels at a time, their seven turns and folds (a chain each pixel waits
/// on) side by side in the lanes of four registers, two chains the processor
/// works on at once.
struct GLKaleidoscope: GLShader {
    let speed: Float, angle: Float, power: Float
    /// The seven turns' sines and cosines at this frame's progress.
    private var sines = SIMD8<Float>(), cosines = SIMD8<Float>()
    static var samplesTheCrossFade: Bool { true }
    init(_ transition: GLTransition) { speed = transition.float("speed"); angle = transition.float("angle"); power = transition.float("power") }
    func prepared(for progress: Float) -> GLKaleidoscope {
        var prepared = self, t = GLSL.pow(progress, power) * speed
        for turn in 0..<7 {
            prepared.sines[turn] = GLSL.sin(t); prepared.cosines[turn] = GLSL.cos(t)
            t += angle
        }
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = folded(SIMD8(uv.x, uv.y, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5), SIMD8(repeating: 0.5)).0
        return blend(uv, s.crossFade(GLPoint(p[0], p[1])), s)
    }
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        let width = Float(canvas.width), height = Float(canvas.height)
        canvas.inTiles(sampler) { sampler, row, columns, line in
            let v = 1 - (Float(row) + 0.5) / height
            var col = columns.lowerBound
            while col < columns.upperBound {  // (a stride's iterator is a call a step here)
                defer { col += 8 }
                // A row's last pixels (fewer than eight) drawn again in the spare lanes.
                let last = SIMD8(repeating: Int32(columns.upperBound - 1))
                let lanes = SIMD8(repeating: Int32(col)) &+ SIMD8(0, 1, 2, 3, 4, 5, 6, 7)
                let cols = lanes.replacing(with: last, where: lanes .> last)
                let us = (SIMD8<Float>(cols) + 0.5) / width
                let (points, others) = folded(SIMD8(us[0], v, us[1], v, us[2], v, us[3], v), SIMD8(us[4], v, us[5], v, us[6], v, us[7], v))
                let turned = (sampler.crossFades(GLPoint(points[0], points[1]), GLPoint(points[2], points[3])),
                              sampler.crossFades(GLPoint(points[4], points[5]), GLPoint(points[6], points[7])),
                              sampler.crossFades(GLPoint(others[0], others[1]), GLPoint(others[2], others[3])),
                              sampler.crossFades(GLPoint(others[4], others[5]), GLPoint(others[6], others[7])))
                line[Int(cols[0])] = blend(GLPoint(us[0], v), turned.0.0, sampler)
                line[Int(cols[1])] = blend(GLPoint(us[1], v), turned.0.1, sampler)
                line[Int(cols[2])] = blend(GLPoint(us[2], v), turned.1.0, sampler)
                line[Int(cols[3])] = blend(GLPoint(us[3], v), turned.1.1, sampler)
                line[Int(cols[4])] = blend(GLPoint(us[4], v), turned.2.0, sampler)
                line[Int(cols[5])] = blend(GLPoint(us[5], v), turned.2.1, sampler)
                line[Int(cols[6])] = blend(GLPoint(us[6], v), turned.3.0, sampler)
                line[Int(cols[7])] = blend(GLPoint(us[7], v), turned.3.1, sampler)
            }
        }
    }
    /// The GLSL's seven turns and folds of eight points (x and y in turn), two
    /// registers' chains side by side.
    @inline(__always)
    private func folded(_ uv: SIMD8<Float>, _ others: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>) {
        var p = uv - 0.5, q = others - 0.5
        for turn in 0..<7 {
            // (sn * p.x + cs * p.y, sn * p.y - cs * p.x) for each point.
            let sn = sines[turn], cs = cosines[turn], signed = SIMD8(cs, -cs, cs, -cs, cs, -cs, cs, -cs)
            p = sn * p + signed * SIMD8(p[1], p[0], p[3], p[2], p[5], p[4], p[7], p[6])
            q = sn * q + signed * SIMD8(q[1], q[0], q[3], q[2], q[5], q[4], q[7], q[6])
            p = Self.fold(p); q = Self.fold(q)
        }
        return (p, q)
    }
    /// `abs(mod(p, 2.0) - 1.0)` for |p| < 2, which every turn keeps it to: p
    /// starts within 0.5 of the origin and a turn keeps its length, so no
    /// coordinate reaches sqrt(2). `mod(p, 2.0)` is then `p + 2.0` below
    /// zero, `p` above, the same sum the GLSL's `p - 2.0 * floor(p / 2.0)` takes.
    @inline(__always)
    private static func fold(_ p: SIMD8<Float>) -> SIMD8<Float> {
        let wrapped = p + SIMD8<Float>(repeating: 2).replacing(with: 0, where: p .>= 0) - 1
        return unsafeBitCast(unsafeBitCast(wrapped, to: SIMD8<UInt32>.self) & 0x7fff_ffff, to: SIMD8<Float>.self)
    }
    /// The GLSL's blend at `uv`, `turned` being `mix(fromColor(p), toColor(p), progress)` at its kaleidoscope's point.
    @inline(__always)
    private func blend(_ uv: GLPoint, _ turned: GLColour, _ s: GLSampler) -> GLColour {
        let progress = s.progress
        return GLSL.mix(s.crossFadePixel(uv), turned, 1 - 2 * Swift.abs(progress - 0.5))
    }
}

/// Both pictures spin about `center`, shrinking to 1/`scale` and back, over
/// `backColor`, as they cross-fade: drawn two pixels at a time (each pixel's
/// square root and divisions in a chain of their own).
struct GLRotateScaleFade: GLPairedShader {
    let center: GLPoint, rotations: Float, scale: Float, backColor: GLColour
    /// The turn's cosine and sine and the scale at this frame's progress.
    private var c: Float = 1, sn: Float = 0, currentScale: Float = 1
    init(_ transition: GLTransition) {
        center = transition.point("center"); rotations = transition.float("rotations")
        scale = transition.float("scale"); backColor = transition.colour("backColor")
    }
    static var samplesTheCrossFade: Bool { true }
    func prepared(for progress: Float) -> GLRotateScaleFade {
        let pi: Float = 3.14159265359
        var prepared = self
        let angle = 2 * pi * rotations * progress
        prepared.c = GLSL.cos(angle); prepared.sn = GLSL.sin(angle)
        prepared.currentScale = GLSL.mix(scale, 1, 2 * Swift.abs(progress - 0.5))
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { colours(uv, uv, s).0 }
    @inline(__always)
    func colours(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let centres = SIMD4(lowHalf: center, highHalf: center)
        let difference = SIMD4(lowHalf: first, highHalf: second) - centres
        let squares = difference * difference
        let lengths = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let dists = SIMD4(lengths[0], lengths[0], lengths[1], lengths[1])
        let dir = difference / dists  // normalize(difference); dist = length(difference)
        // (dir.x * c - dir.y * sn, dir.x * sn + dir.y * c) for both points.
        let rotatedDir = SIMD4(dir[0], dir[0], dir[2], dir[2]) * SIMD4(c, sn, c, sn)
            + SIMD4(dir[1], dir[1], dir[3], dir[3]) * SIMD4(-sn, c, -sn, c)
        let rotatedUv = centres + rotatedDir * dists / currentScale
        return (shown(rotatedUv.lowHalf, s), shown(rotatedUv.highHalf, s))
    }
    @_transparent
    private func shown(_ rotatedUv: GLPoint, _ s: GLSampler) -> GLColour {
        if rotatedUv.x < 0 || rotatedUv.x > 1 || rotatedUv.y < 0 || rotatedUv.y > 1 { return backColor }
        return s.crossFade(rotatedUv)
    }
}
