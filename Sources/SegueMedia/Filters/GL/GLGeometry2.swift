#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets:
// those that move or warp the pictures. Authors: CrazyParametricFun:
// mandubian; crosswarp: Eke Péter; directionalwarp: pschroen;
// directionalwipe, squareswire, squeeze: gre; Dreamy: mikolalysenko;
// DreamyZoom: Zeh Fernando; morph: paniq.

/// The outgoing picture pulled along a hypocycloid into a swirl.
struct GLCrazyParametricFun: GLPlacingShader {
    static var readAtItsPixels: GLPictures { .to }
    let a: Float, b: Float, amplitude: Float, smoothness: Float
    /// The curve's point at this frame's progress, and how far the incoming picture shows.
    private var x: Float = 0, y: Float = 0, incoming: Float = 0
    init(_ transition: GLTransition) {
        a = transition.float("a"); b = transition.float("b")
        amplitude = transition.float("amplitude"); smoothness = transition.float("smoothness")
    }
    func prepared(for progress: Float) -> GLCrazyParametricFun {
        var prepared = self
        prepared.x = (a - b) * GLSL.cos(progress) + b * GLSL.cos(progress * ((a / b) - 1))
        prepared.y = (a - b) * GLSL.sin(progress) - b * GLSL.sin(progress * ((a / b) - 1))
        prepared.incoming = GLSL.smoothstep(0.2, 1, progress)
        return prepared
    }
    /// The places, their samples in one go, then the incoming picture mixed in.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) { paintSamplingPlaces(canvas, sampler, mixingIncomingBy: incoming) }
    /// Where the outgoing picture is sampled for the pixels at `first` and `second`, worked out side by side.
    /// Not prefetched (measured slower): most places are pulled past the picture and held to its edges,
    /// whose rows stay in the caches.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let progress = s.progress, points = SIMD4(lowHalf: first, highHalf: second), dir = points - 0.5
        let squares = dir * dir
        let dists = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let scaled = progress * dists * amplitude
        let sines = GLSL.sin(SIMD4(scaled[0] * x, scaled[0] * y, scaled[1] * x, scaled[1] * y))
        let pulled = points + dir * sines / smoothness
        return (GLColour(lowHalf: pulled.lowHalf, highHalf: .zero), GLColour(lowHalf: pulled.highHalf, highHalf: .zero))
    }
    /// The outgoing picture where it is pulled to, the samples' taps side by side, mixed with the incoming.
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (pulled, otherPulled) = (places.0.lowHalf, places.1.lowHalf)
        let (firstFrom, secondFrom) = s.from.corners(pulled, otherPulled) ?? s.fromColours(pulled, otherPulled)
        return (GLSL.mix(firstFrom, s.toPixel(first), incoming), GLSL.mix(secondFrom, s.toPixel(second), incoming))
    }
}

/// The outgoing picture zooms in as the incoming one zooms out into place, right to left.
struct GLCrossWarp: GLShader {
    /// Each column's `x` (how far the incoming picture has come there) and
    /// both samples' taps across: `x` depends on progress and `p.x` alone.
    private var columns: [Column] = []
    private struct Column {
        let x: Float, from: GLTap, to: GLTap
    }
    init(_ transition: GLTransition) {}
    func prepared(for s: GLSampler) -> GLCrossWarp {
        var prepared = self
        prepared.columns = s.columns { u in
            let x = GLSL.smoothstep(0, 1, s.progress * 2 + u - 1)
            return Column(x: x, from: s.from.tap((u - 0.5) * (1 - x) + 0.5), to: s.to.tap((u - 0.5) * x + 0.5))
        }
        return prepared
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour { colour(columns[s.column(p.x)], p.y, s) }
    /// `colour` at every pixel, each column's taps across from the table.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { s, _, v, columns, line in
            for col in columns { line[col] = colour(self.columns[col], v, s) }
        }
    }
    /// The GLSL's `mix(getFromColor((p - .5) * (1. - x) + .5), getToColor((p - .5) * x + .5), x)` down `column` at `v`.
    @inline(__always)
    private func colour(_ column: Column, _ v: Float, _ s: GLSampler) -> GLColour {
        let x = column.x
        let from = s.from.sample(column.from, s.from.rows((v - 0.5) * (1 - x) + 0.5))
        let to = s.to.sample(column.to, s.to.rows((v - 0.5) * x + 0.5))
        return GLSL.mix(from, to, x)
    }
}

/// `direction` normalised so |x| + |y| = 1, and where the centre lies along it:
/// what the directional wipes sweep along.
struct GLSweep {
    let v: GLPoint, d: Float
    init(_ direction: [Float]) {
        var v = GLSL.normalize(GLPoint(direction[0], direction[1]))
        v /= Swift.abs(v.x) + Swift.abs(v.y)
        self.v = v; d = v.x * 0.5 + v.y * 0.5
    }
    /// The GLSL's `smoothstep(-smoothness, 0.0, v.x * uv.x + v.y * uv.y - (d - 0.5 + progress * (1.0 + smoothness)))`.
    @inline(__always)
    func edge(_ uv: GLPoint, _ progress: Float, _ smoothness: Float) -> Float {
        GLSL.smoothstep(-smoothness, 0, v.x * uv.x + v.y * uv.y - (d - 0.5 + progress * (1 + smoothness)))
    }
}

/// A soft edge sweeps along `direction`, each picture zooming across it.
struct GLDirectionalWarp: GLSamplingShader {
    let smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness"); sweep = GLSweep(transition.value("direction")) }
    @inline(__always)
    func sampling(_ uv: GLPoint, _ s: GLSampler) -> GLPixelSampling {
        let m = 1 - sweep.edge(uv, s.progress, smoothness)
        let fromPlace = (uv - 0.5) * (1 - m) + 0.5, toPlace = (uv - 0.5) * m + 0.5
        // Off the soft edge the mix weighs one picture 0 (x * 1 + y * 0 is x): its sample is left out.
        if m == 0 { return .from(fromPlace) }
        if m == 1 { return .to(toPlace) }
        return .mixed(fromPlace, toPlace, m)
    }
}

/// A soft-edged wipe along `direction`.
struct GLDirectionalWipe: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness"); sweep = GLSweep(transition.value("direction")) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let m = (1 - GLSL.step(s.progress, 0)) * (1 - sweep.edge(uv, s.progress, smoothness))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), m)
    }
}

/// Squares along a sweep in `direction` grow to the incoming picture.
struct GLSquaresWire: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let squares: GLPoint, smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) {
        squares = transition.point("squares"); smoothness = transition.float("smoothness")
        sweep = GLSweep(transition.value("direction"))
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let pr = sweep.edge(p, s.progress, smoothness)
        let squarep = GLSL.fract(p * squares)
        let squaremin = pr / 2, squaremax = 1 - pr / 2
        let started: Float = 1 - GLSL.step(s.progress, 0)
        let above: Float = GLSL.step(squaremin, squarep.x) * GLSL.step(squaremin, squarep.y)
        let a: Float = started * above * GLSL.step(squarep.x, squaremax) * GLSL.step(squarep.y, squaremax)
        return GLSL.mix(s.fromPixel(p), s.toPixel(p), a)
    }
}

/// A cross-fade with a gentle vertical wave on each picture.
struct GLDreamy: GLShader {
    /// Each column's samples at this frame's progress: the pictures move up
    /// or down by the column's own offsets, so a column's taps across and
    /// its samples' fractions down are the same all the way down.
    private var columns: [Column] = []
    private struct Column {
        let across: GLTap, outgoing: GLRowShift, incoming: GLRowShift
    }
    init(_ transition: GLTransition) {}
    func prepared(for s: GLSampler) -> GLDreamy {
        var prepared = self
        prepared.columns = s.columns { u in
            Column(across: s.from.tap(u), outgoing: s.from.shift(Self.offset(s.progress, u).y), incoming: s.to.shift(Self.offset(1 - s.progress, u).y))
        }
        return prepared
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour { colour(row: s.row(p.y), columns[s.column(p.x)], s) }
    /// `colour` at every pixel, a column at a time: its samples move down the pictures a row a pixel.
    func paint(_ canvas: GLCanvas, _ s: GLSampler) {
        let width = canvas.width
        canvas.inColumns(s) { s, col, rows, band in
            let column = columns[col]
            // Each sample's blend across a row worked out once, not once for each of two pixels.
            var outgoing = GLColumnSampler(), incoming = GLColumnSampler()
            var pixel = band + col
            for row in rows {
                pixel.pointee = GLSL.mix(outgoing.sample(s.from, column.across, row: row, column.outgoing),
                                         incoming.sample(s.to, column.across, row: row, column.incoming), s.progress)
                pixel += width
            }
        }
    }
    /// The GLSL's `mix(getFromColor(p + offset(progress, p.x, 0.0)), getToColor(p + offset(1.0 - progress, p.x, 3.14)), progress)`
    /// at the pixel in row `row` (from the top) of `column`.
    @inline(__always)
    private func colour(row: Int, _ column: Column, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.from.sample(column.across, s.from.rows(row, column.outgoing)),
                 s.to.sample(column.across, s.to.rows(row, column.incoming)), s.progress)
    }
    private static func offset(_ progress: Float, _ x: Float) -> GLPoint {
        GLPoint(0, 0.03 * progress * GLSL.cos(10 * (progress + x)))
    }
}

/// Zooms and turns into a white flash, then out of it onto the incoming picture.
struct GLDreamyZoom: GLShader {
    let rotation: Float, scale: Float
    /// This frame's half (the first zooms into the outgoing picture), phase,
    /// scale, flash, and the turn's cosine and sine.
    private var early = true, newScale: Float = 1, flash: Float = 0, c: Float = 1, sn: Float = 0
    init(_ transition: GLTransition) { rotation = transition.float("rotation"); scale = transition.float("scale") }
    func prepared(for progress: Float) -> GLDreamyZoom {
        var prepared = self
        let deg2rad: Float = 0.03926990816987241548078304229099  // as the GLSL has it (π/80)
        let early = progress < 0.5
        let phase = early ? progress * 2 : (progress - 0.5) * 2
        let angleOffset = early ? GLSL.mix(0, rotation * deg2rad, phase) : GLSL.mix(-rotation * deg2rad, 0, phase)
        prepared.early = early
        prepared.newScale = early ? GLSL.mix(1, scale, phase) : GLSL.mix(scale, 1, phase)
        prepared.flash = early ? GLSL.mix(0, 1, phase) : GLSL.mix(1, 0, phase)
        prepared.c = GLSL.cos(angleOffset); prepared.sn = GLSL.sin(angleOffset)
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let ratio = s.ratio
        let p = (uv - GLPoint(0.5, 0.5)) / newScale * GLPoint(ratio, 1)
        // The GLSL turns p by angleOffset as cos(atan(p.y, p.x) + angleOffset) * length(p) (and sin):
        // the same rotation as a matrix, to a few units in the last place, without three calls into libm.
        let turned = GLPoint((p.x * c - p.y * sn) / ratio + 0.5, (p.x * sn + p.y * c) + 0.5)
        let colour = early ? s.fromColor(turned) : s.toColor(turned)
        return colour + flash
    }
}

/// A cross-fade with each picture pushed by both pictures' colours: drawn
/// two pixels at a time, their pushes side by side in one register, then
/// their taps.
struct GLMorph: GLPlacingShader {
    let strength: Float
    init(_ transition: GLTransition) { strength = transition.float("strength") }
    /// Where the pixels at `first` and `second` sample the outgoing picture
    /// (lanes x, y) and the incoming (z, w), each moved by both pictures' colours there.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (ca, cb) = s.pixels(first), (cc, cd) = s.pixels(second)
        // ((c.xy + c.z) * 0.5) * 2.0 - 1.0 of each picture's colour, at both points.
        let oa = ((SIMD4(ca.x, ca.y, cc.x, cc.y) + SIMD4(ca.z, ca.z, cc.z, cc.z)) * 0.5) * 2 - 1
        let ob = ((SIMD4(cb.x, cb.y, cd.x, cd.y) + SIMD4(cb.z, cb.z, cd.z, cd.z)) * 0.5) * 2 - 1
        let oc = (oa * (1 - 0.5) + ob * 0.5) * strength  // mix(oa, ob, 0.5) * strength
        let w0 = s.progress, w1 = 1 - w0
        let points = SIMD4(lowHalf: first, highHalf: second)
        let fromPoints = points + oc * w0, toPoints = points - oc * w1
        return (GLColour(lowHalf: fromPoints.lowHalf, highHalf: toPoints.lowHalf), GLColour(lowHalf: fromPoints.highHalf, highHalf: toPoints.highHalf))
    }
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (firstFrom, firstTo) = s.colours(from: places.0.lowHalf, to: places.0.highHalf)
        let (secondFrom, secondTo) = s.colours(from: places.1.lowHalf, to: places.1.highHalf)
        return (GLSL.mix(firstFrom, firstTo, s.progress), GLSL.mix(secondFrom, secondTo, s.progress))
    }
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        paintSamplingPlacePairs(canvas, sampler) { s, _, _, columns, line, incoming in
            for col in columns { line[col] = GLSL.mix(line[col], incoming[col], s.progress) }
        }
    }
}

/// The outgoing picture is squeezed to a line, its colours apart, over the incoming one.
struct GLSqueeze: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    let colorSeparation: Float
    init(_ transition: GLTransition) { colorSeparation = transition.float("colorSeparation") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let y = 0.5 + (uv.y - 0.5) / (1 - s.progress)
        if y < 0 || y > 1 { return s.toPixel(uv) }
        let fp = GLPoint(uv.x, y)
        let off = s.progress * GLPoint(0, colorSeparation)
        let c = s.fromColor(fp), cn = s.fromColor(fp - off), cp = s.fromColor(fp + off)
        return GLColour(cn.x, c.y, cp.z, c.w)
    }
}
