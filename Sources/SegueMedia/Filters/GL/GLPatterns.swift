#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets.
// Authors: burn, colorphase, fadecolor, fadegrayscale: gre; cannabisleaf:
// @Flexi23; circle, multiply_blend, polar_function: Fernando Kuteken;
// crosshatch: pthrasher (adapted by gre); DoomScreenTransition: Zeh Fernando;
// GlitchDisplace: Matt DesLauriers; GlitchMemories: Gunnar Roth (after
// natewave); HorizontalClose, HorizontalOpen, VerticalClose, VerticalOpen:
// martiniti; LeftRight: zhmy; Overexposure: Ben Zhang; perlin: Rich Harris;
// pixelize: gre (after benraziel).

/// Both pictures brightened by `color`, most at the middle, while they cross-fade.
struct GLBurn: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let color: GLColour
    init(_ transition: GLTransition) { color = transition.colour("color") * GLColour(1, 1, 1, 0) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        return GLSL.mix(s.fromPixel(uv) + p * color, s.toPixel(uv) + (1 - p) * color, p)
    }
}

struct GLCannabisLeaf: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    /// `pow(progress, 3.5)` at this frame's progress.
    private var growth: Float = 0
    init(_ transition: GLTransition) {}
    func prepared(for progress: Float) -> GLCannabisLeaf {
        var prepared = self
        prepared.growth = GLSL.pow(progress, 3.5)
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        if s.progress == 0 { return s.fromPixel(uv) }
        var leaf = (uv - 0.5) / 10 / growth
        leaf.y += 0.35
        // shape is below 0.18 * 2 * 1.9 * 1.1 * 0.95 < 0.72: past 0.75 from the leaf's centre the step is 1 and
        // the mix is the outgoing picture, without the arctangent and sines.
        if GLSL.length(leaf) > 0.75 { return s.fromPixel(uv) }
        let r: Float = 0.18, o = GLSL.atan(leaf.y, leaf.x)
        // sin(o), cos(8o), cos(24o), cos(200o) in one four-lane sine.
        let waves = GLSL.sin(SIMD4(o, 8 * o, 24 * o, 200 * o), plusQuarterTurns: SIMD4(0, 1, 1, 1))
        let shape = r * (1 + waves[0]) * (1 + 0.9 * waves[1]) * (1 + 0.1 * waves[2]) * (0.9 + 0.05 * waves[3])
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), 1 - GLSL.step(1 - GLSL.length(leaf) + shape, 1))
    }
}

/// The outgoing picture shrinks to a circle about `center`, then the incoming one grows from it.
struct GLCircle: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let center: GLPoint, back: GLColour
    init(_ transition: GLTransition) {
        center = transition.point("center")
        back = transition.bool("usebgcolor") ? transition.colour("bgcolor") : transition.colour("backColor")
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let radius = Float(8).squareRoot() * abs(s.progress - 0.5)
        if GLSL.length(uv - center) > radius { return back }
        return s.progress < 0.5 ? s.fromPixel(uv) : s.toPixel(uv)
    }
}

/// A cross-fade with each channel (r, g, b, a) moving from `fromStep` to `toStep`.
struct GLColorPhase: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let fromStep: GLColour, toStep: GLColour
    init(_ transition: GLTransition) { fromStep = transition.colour("fromStep"); toStep = transition.colour("toStep") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        let weight = GLColour(GLSL.smoothstep(fromStep.x, toStep.x, p), GLSL.smoothstep(fromStep.y, toStep.y, p),
                              GLSL.smoothstep(fromStep.z, toStep.z, p), GLSL.smoothstep(fromStep.w, toStep.w, p))
        return s.fromPixel(uv) * (1 - weight) + s.toPixel(uv) * weight
    }
}

struct GLCrosshatch: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let center: GLPoint, threshold: Float, fadeEdge: Float
    /// `rand(vec2(v, 0))` by row and `rand(vec2(0, u))` by column (a libm sine each, twice a pixel otherwise).
    private var rowRands: [Float] = [], columnRands: [Float] = []
    init(_ transition: GLTransition) {
        center = transition.point("center"); threshold = transition.float("threshold"); fadeEdge = transition.float("fadeEdge")
    }
    func prepared(for s: GLSampler) -> GLCrosshatch {
        var prepared = self
        prepared.rowRands = s.rows { v in GLSL.rand(GLPoint(v, 0)) }
        prepared.columnRands = s.columns { u in GLSL.rand(GLPoint(0, u)) }
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        let dist = GLSL.distance(center, uv) / threshold
        let r = p - min(rowRands[s.row(uv.y)], columnRands[s.column(uv.x)])
        let m = GLSL.mix(0, GLSL.mix(GLSL.step(dist, r), 1, GLSL.smoothstep(1 - fadeEdge, 1, p)), GLSL.smoothstep(0, fadeEdge, p))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), m)
    }
}

/// The outgoing picture melts down in `bars` columns, each at its own speed.
struct GLDoomScreenTransition: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    let bars: Int, amplitude: Float
    /// Each column's `pos(num)`, which depends only on the uniforms.
    let positions: [Float]
    init(_ transition: GLTransition) {
        bars = transition.int("bars"); amplitude = transition.float("amplitude")
        let noise = transition.float("noise"), frequency = transition.float("frequency"), dripScale = transition.float("dripScale")
        positions = (0..<max(bars, 1)).map { [bars] num in
            let n = Float(num)
            let rand = GLSL.fract(GLSL.mod(n * 67123.313, 12) * GLSL.sin(n * 10.3) * GLSL.cos(n))
            let fn = n * frequency * 0.1 * Float(bars)
            let wave = GLSL.cos(fn * 0.5) * GLSL.cos(fn * 0.13) * GLSL.sin((fn + 10) * 0.3) / 2 + 0.5
            let drip = GLSL.sin(n / Float(bars - 1) * 3.141592) * dripScale
            return (noise == 0 ? wave : GLSL.mix(wave, rand, noise)) + (dripScale == 0 ? 0 : drip)
        }
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let bar = min(max(Int(uv.x * Float(bars)), 0), positions.count - 1)
        let phase = s.progress * (1 + positions[bar] * amplitude)
        if phase + uv.y < 1 { return s.fromColor(GLPoint(uv.x, uv.y + phase)) }
        return s.toPixel(uv)
    }
}

/// A cross-fade through a plain colour (`color`, or `bgcolor` when `usebgcolor`).
struct GLFadeColor: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let colorPhase: Float, mixColor: GLColour
    init(_ transition: GLTransition) {
        colorPhase = transition.float("colorPhase")
        mixColor = transition.bool("usebgcolor") ? transition.colour("bgcolor") : transition.colour("color")
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        return GLSL.mix(GLSL.mix(mixColor, s.fromPixel(uv), GLSL.smoothstep(1 - colorPhase, 0, p)),
                        GLSL.mix(mixColor, s.toPixel(uv), GLSL.smoothstep(colorPhase, 1, p)), p)
    }
}

struct GLFadeGrayscale: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let intensity: Float
    init(_ transition: GLTransition) { intensity = transition.float("intensity") }
    private static func grayscale(_ c: GLColour) -> GLColour {
        let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        return GLColour(y, y, y, 1)
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, fc = s.fromPixel(uv), tc = s.toPixel(uv)
        return GLSL.mix(GLSL.mix(Self.grayscale(fc), fc, GLSL.smoothstep(1 - intensity, 0, p)),
                        GLSL.mix(Self.grayscale(tc), tc, GLSL.smoothstep(intensity, 1, p)), p)
    }
}

/// Each picture displaced by the other's colours, through a grey mix. The
/// GLSL's voronoi noise never reaches its output and is left out; its
/// `transparentMode` sets only alpha, which is never drawn.
struct GLGlitchDisplace: GLPlacingShader {
    init(_ transition: GLTransition) {}
    private static func displace(_ tex: GLColour, _ uv: GLPoint, _ dotDepth: Float, _ textureDepth: Float, _ strength: Float) -> GLPoint {
        let dis = tex * dotDepth + 1 - tex * textureDepth
        return uv + GLPoint(dis.x - 1 + textureDepth * dotDepth, dis.y - 1 + textureDepth * dotDepth) * strength
    }
    private static func ease1(_ t: Float) -> Float {
        if t == 0 || t == 1 { return t }
        return t < 0.5 ? 0.5 * GLSL.pow(2, 20 * t - 10) : -0.5 * GLSL.pow(2, 10 - t * 20) + 1
    }
    private static func ease2(_ t: Float) -> Float { t == 1 ? t : 1 - GLSL.pow(2, -10 * t) }
    /// ease1 and ease2 of this frame's progress, and how far each picture
    /// turns to its grey or displaced colours.
    private var eased1: Float = 0, eased2: Float = 0, grey: Float = 0, displaced: Float = 0
    func prepared(for progress: Float) -> GLGlitchDisplace {
        var prepared = self
        prepared.eased1 = Self.ease1(progress); prepared.eased2 = Self.ease2(progress)
        prepared.grey = GLSL.smoothstep(0, 0.5, progress); prepared.displaced = GLSL.smoothstep(1, 0.5, progress)
        return prepared
    }
    /// Where the pixels at `first` and `second` sample: the outgoing
    /// picture where the incoming one's colour displaces it (lanes x, y),
    /// the incoming where the outgoing's does (z, w).
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) { (places(first, s), places(second, s)) }
    @inline(__always)
    private func places(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let pixels = s.pixels(uv)
        return GLColour(lowHalf: Self.displace(pixels.to, uv, 0.33, 0.5, eased2), highHalf: Self.displace(pixels.from, uv, 0.33, 0.7, 1 - eased1))
    }
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        (colour(first, sampled: s.colours(from: places.0.lowHalf, to: places.0.highHalf), s),
         colour(second, sampled: s.colours(from: places.1.lowHalf, to: places.1.highHalf), s))
    }
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        paintSamplingPlacePairs(canvas, sampler) { s, us, v, columns, line, incoming in
            for col in columns { line[col] = colour(GLPoint(us[col], v), sampled: (line[col], incoming[col]), s) }
        }
    }
    /// The GLSL's colour at `uv` from its samples at its places (the outgoing
    /// picture's, the incoming's): transparent, as the optimiser left it out
    /// of line, a call a pixel.
    @_transparent
    private func colour(_ uv: GLPoint, sampled: (GLColour, GLColour), _ s: GLSampler) -> GLColour {
        var (color1, color2) = s.pixels(uv)
        let (dColor2, dColor1) = sampled
        let low = dColor2.replacing(with: dColor1, where: dColor1 .< dColor2)  // min(dColor2, dColor1)
        let gray = low.x * 0.299 + low.y * 0.587 + low.z * 0.114
        color1 = GLSL.mix(color1, GLColour(gray, gray, gray, 1) * 2, grey)
        color2 = GLSL.mix(color2, dColor1, displaced)
        return GLSL.mix(color1, color2, eased1)
    }
}

/// A cross-fade with each channel shifted its own way, the shift jumping with progress.
struct GLGlitchMemories: GLShader {
    /// The shift at this frame's progress: the GLSL's `floor(uv / 16.0)` is 0
    /// inside the picture, so the shift is one for the whole frame.
    private var dist = GLPoint(0, 0)
    init(_ transition: GLTransition) {}
    func prepared(for p: Float) -> GLGlitchMemories {
        var prepared = self
        let noise = GLSL.floor(GLPoint(p, p) * GLPoint(1200, 3500)) / 64
        prepared.dist = p > 0 ? (GLSL.fract(noise) - 0.5) * 0.3 * (1 - p) : GLPoint(0, 0)
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, taps = columns[s.column(uv.x)]
        let red = uv.y + dist.y * 0.2, green = uv.y + dist.y * 0.3, blue = uv.y + dist.y * 0.5
        return GLColour(GLSL.mix(s.from.sample(taps.red, red), s.to.sample(taps.red, red), p).x,
                        GLSL.mix(s.from.sample(taps.green, green), s.to.sample(taps.green, green), p).y,
                        GLSL.mix(s.from.sample(taps.blue, blue), s.to.sample(taps.blue, blue), p).z, 1)
    }
    /// Each column's taps across for the red, green and blue samples (both pictures are as wide).
    private var columns: [(red: GLTap, green: GLTap, blue: GLTap)] = []
    func prepared(for s: GLSampler) -> GLGlitchMemories {
        var prepared = prepared(for: s.progress)
        let dist = prepared.dist
        prepared.columns = s.columns { u in (s.from.tap(u + dist.x * 0.2), s.from.tap(u + dist.x * 0.3), s.from.tap(u + dist.x * 0.5)) }
        return prepared
    }
}

/// Horizontal and vertical close and open: a soft band grows from the middle
/// line (open) or closes in from the edges (close).
struct GLHorizontalClose: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, edge = 2 - abs((uv.y - 0.5) / (p - 1)) - 2 * p
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.smoothstep(0.5, 0, edge))
    }
}

struct GLHorizontalOpen: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let regress = 1 - s.progress, edge = 2 - abs((uv.y - 0.5) / (regress - 1)) - 2 * regress
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.smoothstep(0, 0.5, edge))
    }
}

struct GLVerticalClose: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, edge = 2 - abs((uv.x - 0.5) / (p - 1)) - 2 * p
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.smoothstep(0.5, 0, edge))
    }
}

struct GLVerticalOpen: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let regress = 1 - s.progress, edge = 2 - abs((uv.x - 0.5) / (regress - 1)) - 2 * regress
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.smoothstep(0, 0.5, edge))
    }
}

/// LeftRight and TopBottom: the incoming picture slides in over the outgoing
/// one, which shrinks and darkens on black.
@inline(__always)
private func slideOverShrinking(_ uv: GLPoint, _ incoming: GLPoint, _ s: GLSampler) -> GLColour {
    let size = GLSL.mix(1, 3, s.progress * 0.2)
    let shrunk = (uv + GLPoint(-0.5, -0.5)) * GLPoint(size, size) + GLPoint(0.5, 0.5)
    if GLSL.inBounds(incoming) { return s.toColor(incoming) }
    if GLSL.inBounds(shrunk) { return s.fromColor(shrunk) * (1 - s.progress) }
    return GLColour(0, 0, 0, 1)
}

struct GLLeftRight: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        slideOverShrinking(uv, uv - GLPoint(1 - s.progress, 0), s)
    }
}

struct GLTopBottom: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        slideOverShrinking(uv, uv + GLPoint(0, 1 - s.progress), s)
    }
}

struct GLMultiplyBlend: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let a = s.fromPixel(uv), b = s.toPixel(uv), blended = a * b
        return s.progress < 0.5 ? GLSL.mix(a, blended, 2 * s.progress) : GLSL.mix(blended, b, 2 * s.progress - 1)
    }
}

struct GLOverexposure: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let strength: Float
    init(_ transition: GLTransition) { strength = transition.float("strength") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress, from = s.fromPixel(uv), to = s.toPixel(uv)
        let fromM = 1 - p + GLSL.sin(3.141592653589793 * p) * strength, toM = p + GLSL.sin(3.141592653589793 * p) * strength
        var c = from * from.w * fromM + to * to.w * toM
        c.w = GLSL.mix(from.w, to.w, p)
        return c
    }
}

/// The incoming picture shows where smooth value noise (its own hash, seeded by `seed`) falls below progress.
struct GLPerlin: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let scale: Float, smoothness: Float, seed: Float
    /// `random` of each lattice corner a picture's noise reads (0...scale + 1
    /// each way), worked out once rather than four times a pixel.
    private let corners: [Float], side: Int
    init(_ transition: GLTransition) {
        scale = transition.float("scale"); smoothness = transition.float("smoothness"); seed = transition.float("seed")
        let seed = seed, side = Int(scale.rounded(.up)) + 2
        self.side = side
        corners = side > 1024 ? [] : (0..<(side * side)).map { Self.random(GLPoint(Float($0 % side), Float($0 / side)), seed: seed) }
    }
    private static func random(_ co: GLPoint, seed: Float) -> Float {
        let dt: Float = co.x * seed + co.y * 78.233
        return GLSL.fract(GLSL.sin(GLSL.mod(dt, 3.14)) * 43758.5453)
    }
    private func random(_ co: GLPoint) -> Float {
        let x = Int(co.x), y = Int(co.y)
        guard !corners.isEmpty, x >= 0, y >= 0, x < side, y < side else { return Self.random(co, seed: seed) }
        return corners[y * side + x]
    }
    private func noise(_ st: GLPoint) -> Float {
        let i = GLSL.floor(st), f = GLSL.fract(st)
        let a = random(i), b = random(i + GLPoint(1, 0)), c = random(i + GLPoint(0, 1)), d = random(i + GLPoint(1, 1))
        let u = f * f * (3 - 2 * f)
        return GLSL.mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let n = noise(uv * scale), p = GLSL.mix(-smoothness, 1 + smoothness, s.progress)
        let q = GLSL.smoothstep(p - smoothness, p + smoothness, n)
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), 1 - q)
    }
}

struct GLPixelize: GLShader {
    let squaresMin: GLPoint, steps: Int
    /// How far the pictures are into squares at this frame's progress (0:
    /// not at all), and the squares' size.
    private var dist: Float = 0, squareSize = GLPoint(0, 0)
    static var samplesTheCrossFade: Bool { true }
    init(_ transition: GLTransition) { squaresMin = transition.point("squaresMin"); steps = transition.int("steps") }
    func prepared(for progress: Float) -> GLPixelize {
        var prepared = self, dist = min(progress, 1 - progress)
        dist = steps > 0 ? (dist * Float(steps)).rounded(.up) / Float(steps) : dist
        prepared.dist = dist; prepared.squareSize = 2 * dist / squaresMin
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { s.crossFade(centre(uv)) }
    /// Where the pixel at `uv` samples: its square's centre (`uv` itself before the squares form).
    @inline(__always)
    private func centre(_ uv: GLPoint) -> GLPoint { dist > 0 ? (GLSL.floor(uv / squareSize - 0.5) + 0.5) * squareSize : uv }
    /// `colour` at every pixel: a pixel in the square of the one before it
    /// takes that one's colour (the same centre, so the same sample).
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            var col = columns.lowerBound, last = GLPoint(.nan, .nan), colour = GLColour()
            while col < columns.upperBound {  // (a stride's iterator is a call a step here)
                let place = centre(GLPoint(us[col], v))
                if place != last { last = place; colour = s.crossFade(place) }
                line[col] = colour
                col += 1
            }
        }
    }
}
