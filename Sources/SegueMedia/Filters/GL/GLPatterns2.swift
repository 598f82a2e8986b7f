#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets.
// Authors: polar_function: Fernando Kuteken; randomNoisex: towrabbit;
// RectangleCrop: martiniti; Rolls: Mark Craig; SimpleZoom: 0gust1;
// SimpleZoomOut: Tianshuo; StaticFade: Ben Lucas; undulatingBurnOut:
// pthrasher (adapted by gre); WaterDrop: Paweł Płóciennik; wind: gre;
// windowblinds: Fabien Benetou; wipeDown, wipeUp: Jake Nelson; ZoomInCircles:
// dycm8009 (ported by gre); ZoomLeftWipe, ZoomRigthWipe: Handk;
// PolkaDotsCurtain: bobylito; ColourDistance: P-Seebauer (ported by gre).

/// The incoming picture grows in a flower of `segments` petals.
struct GLPolarFunction: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let segments: Int
    init(_ transition: GLTransition) { segments = transition.int("segments") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let pi: Float = 3.14159265359
        let angle = GLSL.atan(uv.y - 0.5, uv.x - 0.5) - 0.5 * pi
        let radius = (GLSL.cos(Float(segments) * angle) + 4) / 4
        return GLSL.length(uv - GLPoint(0.5, 0.5)) > radius * s.progress ? s.fromPixel(uv) : s.toPixel(uv)
    }
}

struct GLRandomNoiseX: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let dot: Float = uv.x * 12.9898 + uv.y * 78.233
        let random = GLSL.fract(GLSL.sin(dot) * 43758.5453123)
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.floor(random + s.progress))
    }
}

/// The outgoing picture is cropped to a shrinking rectangle on `bgcolor`, then the incoming one grows from it.
struct GLRectangleCrop: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let bgcolor: GLColour
    init(_ transition: GLTransition) { bgcolor = transition.colour("bgcolor") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, s3 = GLSL.pow(2 * abs(p - 0.5), 3), edge = 1 - 2 * abs(p - 0.5)
        let inside = GLSL.step(edge, uv.x + 0.25) * GLSL.step(edge, uv.y + 0.25) * GLSL.step(edge, 1.25 - uv.x) * GLSL.step(edge, 1.25 - uv.y)
        return GLSL.mix(p < 0.5 ? s.fromPixel(uv) : s.toPixel(uv), bgcolor, GLSL.step(s3, abs(1 - inside)))
    }
}

/// The outgoing picture turns a quarter turn about a corner (`type` 0...3), down if `RotDown`.
struct GLRolls: GLSamplingShader {
    static var readAtItsPixels: GLPictures { .to }
    let type: Int, rotDown: Bool
    init(_ transition: GLTransition) { type = transition.int("type"); rotDown = transition.bool("RotDown") }
    @inline(__always)
    func sampling(_ uv: GLPoint, _ s: GLSampler) -> GLPixelSampling {
        let pi: Float = 3.14159265358979323846, resolution = GLPoint(s.ratio, 1)
        let turn: Float = type < 2 ? (rotDown ? pi : -pi) : (rotDown ? -pi : pi)
        let theta = turn / 2 * s.progress
        let flipX = type == 0 || type == 3, flipY = type == 2 || type == 3
        let uvi = GLPoint(flipX ? 1 - uv.x : uv.x, flipY ? 1 - uv.y : uv.y)
        let c1 = GLSL.cos(theta), s1 = GLSL.sin(theta)
        var uv2 = GLPoint(uvi.x * resolution.x * c1 - uvi.y * resolution.y * s1, uvi.x * resolution.x * s1 + uvi.y * resolution.y * c1)
        guard uv2.x >= 0, uv2.x <= resolution.x, uv2.y >= 0, uv2.y <= resolution.y else { return .colour(s.toPixel(uv)) }
        uv2 /= resolution
        return .from(GLPoint(flipX ? 1 - uv2.x : uv2.x, flipY ? 1 - uv2.y : uv2.y))
    }
}

struct GLSimpleZoom: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    let quick: Float
    init(_ transition: GLTransition) { quick = GLSL.clamp(transition.float("zoom_quickness"), 0.2, 1) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let zoomed = 0.5 + (uv - 0.5) * (1 - GLSL.smoothstep(0, quick, s.progress))
        return GLSL.mix(s.fromColor(zoomed), s.toPixel(uv), GLSL.smoothstep(quick - 0.2, 1, s.progress))
    }
}

struct GLSimpleZoomOut: GLShader {
    static var readAtItsPixels: GLPictures { .from }
    let quick: Float, fade: Bool
    init(_ transition: GLTransition) { quick = GLSL.clamp(transition.float("zoom_quickness"), 0.2, 1); fade = transition.bool("fade") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        let zoomed = 0.5 + (uv - 0.5) * (1 - (1 - GLSL.smoothstep(1 - quick, 1, p)))
        let m = fade ? GLSL.smoothstep(1 - quick, 1, p) : (p < 1 - quick ? 0 : 1)
        return GLSL.mix(s.fromPixel(uv), s.toColor(zoomed), m)
    }
}

/// A cut at the middle through blocky colour static, thickest there.
struct GLStaticFade: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let pixels: Float, luminosity: Float
    /// Each noise cell's colour and whether it shows (1) at this frame's
    /// progress, cells `floor(uv * pixels)` row by row; none when there would
    /// be more cells than pixels.
    private var cells: [GLColour] = [], cellsAcross = 0
    init(_ transition: GLTransition) { pixels = transition.float("n_noise_pixels"); luminosity = transition.float("static_luminosity") }
    private static func rnd(_ st: GLPoint) -> Float {
        let dot: Float = st.x * 10.5302340293 + st.y * 70.23492931
        return GLSL.fract(GLSL.sin(dot) * 12345.5453123)
    }
    func prepared(for s: GLSampler) -> GLStaticFade {
        var prepared = self
        let across = Int(pixels.rounded(.down)) + 1
        guard across * across <= s.from.width * s.from.height else { return prepared }
        prepared.cellsAcross = across
        prepared.cells = (0..<across * across).map { index in
            cell(GLPoint(Float(index % across), Float(index / across)) / pixels, s.progress)
        }
        return prepared
    }
    /// The cell at `st`'s noise colour, its alpha 1 where it shows and 0 where the picture does.
    private func cell(_ st: GLPoint, _ p: Float) -> GLColour {
        let noise = GLColour(luminosity * Self.rnd(st * GLPoint(p * 2, p * 3)), luminosity * Self.rnd(st * GLPoint(p * 3, p * 5)),
                             luminosity * Self.rnd(st * GLPoint(p * 5, p * 7)), 1)
        let threshold = min(1, 1.2 * (1 - abs(2 * (p - 0.5))) - 0.1)
        return GLColour(noise.x, noise.y, noise.z, GLSL.step(Self.rnd(st), threshold))
    }
    /// The GLSL's `mix(from, to, step(0.5, progress))` is one picture or the other, whole.
    static func pictures(at progress: Float) -> GLPictures { progress < 0.5 ? .from : .to }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let scaled = uv * pixels
        guard cellsAcross > 0 else { return colour(uv, noise: cell(GLSL.floor(scaled) / pixels, s.progress), s) }
        return colour(uv, noise: cells[cellIndex(scaled.y) * cellsAcross + cellIndex(scaled.x)], s)
    }
    /// The picture at `uv` under its cell's `noise` where that shows.
    @inline(__always)
    private func colour(_ uv: GLPoint, noise: GLColour, _ s: GLSampler) -> GLColour {
        let picture = s.progress < 0.5 ? s.fromPixel(uv) : s.toPixel(uv)
        return GLSL.mix(picture, GLColour(noise.x, noise.y, noise.z, 1), noise.w)
    }
    /// The cell across (or down) where `uv * pixels` is `scaled`.
    @inline(__always)
    private func cellIndex(_ scaled: Float) -> Int { min(max(GLSL.floorAndFraction(scaled).0, 0), cellsAcross - 1) }
    /// `colour` at every pixel, each column's and row's cell from a table.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        guard cellsAcross > 0 else { return paintEachPixel(canvas, sampler) }
        let across = sampler.columns { cellIndex($0 * pixels) }
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            let row = cellIndex(v * pixels) * cellsAcross
            for col in columns { line[col] = colour(GLPoint(us[col], v), noise: cells[row + across[col]], s) }
        }
    }
}

/// A wavy-edged circle burns out from `center`, its rim drawn toward `color`.
struct GLUndulatingBurnOut: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let smoothness: Float, center: GLPoint, color: GLColour
    init(_ transition: GLTransition) {
        smoothness = transition.float("smoothness"); center = transition.point("center"); color = transition.colour("color")
    }
    private func gradient(_ r: Float, _ dist: Float) -> Float {
        let d = r - dist
        return GLSL.mix(GLSL.smoothstep(-smoothness, 0, r - dist * (1 + smoothness)), -1 - GLSL.step(0.005, d),
                        GLSL.step(-0.005, d) * GLSL.step(d, 0.01))
    }
    /// The wave's magnitude and `sin(x * offset)` at this frame's progress.
    private var magnitude: Float = 0, swing: Float = 0
    func prepared(for x: Float) -> GLUndulatingBurnOut {
        var prepared = self
        prepared.magnitude = GLSL.mix(0.02, 0.09, GLSL.smoothstep(0, 1, x))
        prepared.swing = GLSL.sin(x * GLSL.mix(40, 30, GLSL.smoothstep(0, 1, x)))
        return prepared
    }
    private func wave(_ p: GLPoint, _ x: Float) -> Float {
        let pi: Float = 3.14159265358979323846, o = p - center
        let degs = (GLSL.atan(o.y, o.x) * (180 / pi) + 180) * ((pi * 30) / 360)
        let sine = GLSL.sin(degs), q = 2 * sine * sine
        let ease = sine < 0.5 ? q : -q + 4 * sine - 1
        return x + ease * magnitude * swing
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let m = gradient(wave(uv, s.progress), GLSL.distance(center, uv))
        let from = s.fromPixel(uv), to = s.toPixel(uv)
        return GLSL.mix(GLSL.mix(from, to, m), GLSL.mix(from, color, 0.75), GLSL.step(m, -2))
    }
}

/// A drop falls on the outgoing picture and its ripple spreads the incoming
/// one: drawn two pixels at a time, where they sample and then what; where
/// both lie inside the drop, their samples are taken side by side.
struct GLWaterDrop: GLPlacingShader {
    static var readAtItsPixels: GLPictures { .to }
    let amplitude: Float, speed: Float
    init(_ transition: GLTransition) { amplitude = transition.float("amplitude"); speed = transition.float("speed") }
    /// The ripple by distance from the centre at this frame's progress, when gentle enough for a GLTable.
    private var ripple: GLTable<SIMD2<Float>>?
    func prepared(for p: Float) -> GLWaterDrop {
        var prepared = self
        if Swift.abs(amplitude) <= GLTable<SIMD2<Float>>.maxSlope {
            prepared.ripple = GLTable { SIMD2(GLSL.sin($0 * amplitude - p * speed), 0) }
        }
        return prepared
    }
    /// Where the pixels at `first` and `second` sample the outgoing picture:
    /// inside the drop (`z` 1), moved by the ripple; else at their own pixel (`z` 0).
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let p = s.progress, points = SIMD4(lowHalf: first, highHalf: second), dirs = points - 0.5, squares = dirs * dirs
        let dists = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let inside = dists .<= p
        guard any(inside) else { return (GLColour(lowHalf: first, highHalf: .zero), GLColour(lowHalf: second, highHalf: .zero)) }
        let ripples = SIMD2(inside[0] ? ripple(dists[0], p) : 0, inside[1] ? ripple(dists[1], p) : 0)
        let moved = points + dirs * SIMD4(ripples[0], ripples[0], ripples[1], ripples[1])
        if inside[0] { s.from.prefetch(moved[0], moved[1]) }
        if inside[1] { s.from.prefetch(moved[2], moved[3]) }
        return (GLColour(lowHalf: moved.lowHalf, highHalf: SIMD2(inside[0] ? 1 : 0, 0)),
                GLColour(lowHalf: moved.highHalf, highHalf: SIMD2(inside[1] ? 1 : 0, 0)))
    }
    /// Both pixels' colours; where both lie inside the drop, their samples' taps side by side.
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        guard places.0.z != 0, places.1.z != 0 else { return (colour(first, at: places.0, s), colour(second, at: places.1, s)) }
        let (from, other) = s.fromColours(places.0.lowHalf, places.1.lowHalf)
        return (GLSL.mix(from, s.toPixel(first), s.progress), GLSL.mix(other, s.toPixel(second), s.progress))
    }
    /// The GLSL's colour at `uv`, the outgoing picture sampled at `place`
    /// (transparent: the optimiser left it out of line, a call a pixel).
    @_transparent
    private func colour(_ uv: GLPoint, at place: GLColour, _ s: GLSampler) -> GLColour {
        GLSL.mix(place.z != 0 ? s.fromColor(place.lowHalf) : s.fromPixel(uv), s.toPixel(uv), s.progress)
    }
    /// `sin(dist * amplitude - progress * speed)`.
    @inline(__always)
    private func ripple(_ dist: Float, _ p: Float) -> Float { ripple?(dist).x ?? GLSL.sin(dist * amplitude - p * speed) }
}

/// A soft edge sweeps left to right, each row `size` ragged at random.
struct GLWind: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let size: Float
    /// `rand(vec2(0, v))` by row (a libm sine a pixel otherwise).
    private var rowRands: [Float] = []
    init(_ transition: GLTransition) { size = transition.float("size") }
    func prepared(for s: GLSampler) -> GLWind {
        var prepared = self
        prepared.rowRands = s.rows { v in GLSL.rand(GLPoint(0, v)) }
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let r = rowRands[s.row(uv.y)]
        let m = GLSL.smoothstep(0, -size, uv.x * (1 - size) + size * r - s.progress * (1 + size))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), m)
    }
}

/// A cross-fade running ahead in every other of a growing number of bands.
struct GLWindowBlinds: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        var t = s.progress
        if t > 0.05, t < 0.95, GLSL.mod(GLSL.floor(uv.y * 100 * s.progress), 2) == 0 { t *= 2 - 0.5 }
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), t)
    }
}

struct GLWipeDown: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(1 - uv.y, s.progress))
    }
}

struct GLWipeUp: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(uv.y, s.progress))
    }
}

/// Rings of the outgoing picture zoom at different speeds, then fade to the incoming one.
struct GLZoomInCircles: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let r = GLSL.length(2 * ((uv - 0.5) * GLPoint(1, 1 / s.ratio)))
        let pro = s.progress / 0.8
        var z = pro * 0.2, t: Float = 0, p = uv
        if pro > 1 {
            z = 0.2 + (pro - 1) * 5
            t = GLSL.clamp((s.progress - 0.8) / 0.07, 0, 1)
        }
        let zoom = { (amount: Float) in 0.5 + (uv - 0.5) * amount }
        if r < 0.5 + z {
            // The innermost disc stays as it is.
        } else if r < 0.8 + z * 1.5 {
            p = zoom(1 - 0.15 * pro); t *= 0.5
        } else if r < 1.2 + z * 2.5 {
            p = zoom(1 - 0.2 * pro); t *= 0.2
        } else {
            p = zoom(1 - 0.25 * pro)
        }
        return s.mixed(p, t)
    }
}

/// ZoomLeftWipe and ZoomRigthWipe: the outgoing picture zooms in for the
/// first half, then a hard edge wipes the incoming one in.
@inline(__always)
private func zoomThenWipe(_ uv: GLPoint, _ s: GLSampler, quick: Float, edge: Float) -> GLColour {
    let p = s.progress
    guard p < 0.5 else { return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(edge, (p - 0.5) * 2)) }
    let amount = GLSL.smoothstep(0, quick, p)
    let zoomed = 0.5 + (uv - 0.5) * (amount < 0.5 ? 1 - amount : amount)
    return GLSL.mix(s.fromColor(zoomed), s.toPixel(uv), GLSL.step(0.5, p))
}

struct GLZoomLeftWipe: GLShader {
    let quick: Float
    init(_ transition: GLTransition) { quick = GLSL.clamp(transition.float("zoom_quickness"), 0, 0.5) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { zoomThenWipe(uv, s, quick: quick, edge: 1 - uv.x) }
}

struct GLZoomRigthWipe: GLShader {
    let quick: Float
    init(_ transition: GLTransition) { quick = GLSL.clamp(transition.float("zoom_quickness"), 0, 0.5) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { zoomThenWipe(uv, s, quick: quick, edge: uv.x) }
}

/// The incoming picture shows through dots that grow outwards from `center`.
struct GLPolkaDotsCurtain: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let dots: Float, center: GLPoint
    init(_ transition: GLTransition) { dots = transition.float("dots"); center = transition.point("center") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let nextImage = GLSL.distance(GLSL.fract(uv * dots), GLPoint(0.5, 0.5)) < (s.progress / GLSL.distance(uv, center))
        return nextImage ? s.toPixel(uv) : s.fromPixel(uv)
    }
}

/// Each pixel turns to the incoming picture once the two pictures' colours there are within progress.
struct GLColourDistance: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let power: Float
    init(_ transition: GLTransition) { power = transition.float("power") }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let fTex = s.fromPixel(p), tTex = s.toPixel(p)
        let m = GLSL.step(GLSL.length(fTex - tTex), s.progress)
        return GLSL.mix(GLSL.mix(fTex, tTex, m), tTex, GLSL.pow(s.progress, power))
    }
}
