#if canImport(Glibc)
import Glibc
#endif
import SegueCore

/// The gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
/// each evaluated per output pixel as its GLSL `transition(uv)` does, with its
/// default uniforms, in single precision as written (no fused arithmetic).
/// Credits, one an effect:
/// - fade, circleopen, heart, windowslice, randomsquares, ripple, doorway: gre
/// - directional: Gaëtan Renaudeau
/// - wipeleft, wiperight: Jake Nelson
/// - angular: Fernando Kuteken
/// - swirl: Sergey Kosarevsky (ported by gre)
/// - pinwheel: Mr Speaker
/// - radial: Xaychru (ported by gre)
struct GLSampler {
    let from: GLPicture, to: GLPicture
    /// The effect's `progress`, 0 (all `from`) to 1.
    let progress: Float

    @inline(__always) func fromColor(_ u: Float, _ v: Float) -> SIMD3<Float> { from.sample(u, v) }
    @inline(__always) func toColor(_ u: Float, _ v: Float) -> SIMD3<Float> { to.sample(u, v) }
}

/// GLSL's built-ins, as the specification defines them.
enum GLSL {
    static let pi: Float = 3.141592653589

    @inline(__always) static func mix(_ x: SIMD3<Float>, _ y: SIMD3<Float>, _ a: Float) -> SIMD3<Float> { x * (1 - a) + y * a }
    /// 0 where `x < edge`, else 1.
    @inline(__always) static func step(_ edge: Float, _ x: Float) -> Float { x < edge ? 0 : 1 }
    @inline(__always) static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }
    @inline(__always) static func fract(_ x: Float) -> Float { x - x.rounded(.down) }
    /// `x - y * floor(x / y)`.
    @inline(__always) static func mod(_ x: Float, _ y: Float) -> Float { x - y * (x / y).rounded(.down) }
    @inline(__always) static func sign(_ x: Float) -> Float { x > 0 ? 1 : (x < 0 ? -1 : 0) }
}

extension GLEffect {
    /// The effect's colour at texture coordinates (`u`, `v`), origin bottom left.
    @inline(__always)
    func colour(_ u: Float, _ v: Float, _ s: GLSampler) -> SIMD3<Float> {
        let p = s.progress
        switch self {
        case .fade: return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), p)
        case .wipeleft: return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), GLSL.step(1 - u, p))
        case .wiperight: return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), GLSL.step(u, p))
        case .directional: return directional(u, v, s)
        case .circleopen:
            let dx = u - 0.5, dy = v - 0.5
            let m = GLSL.smoothstep(-0.3, 0, 1.414213562373 * (dx * dx + dy * dy).squareRoot() - p * (1 + 0.3))
            return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), 1 - m)
        case .angular:
            let normalised = (atan2f(v - 0.5, u - 0.5) + GLSL.pi) / (2 * GLSL.pi)
            return normalised > p ? s.fromColor(u, v) : s.toColor(u, v)
        case .swirl: return swirl(u, v, s)
        case .heart: return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), inHeart(u, v, size: p))
        case .pinwheel:
            let modPos = GLSL.mod(atan2f(v - 0.5, u - 0.5) + p * 2, 3.1415 / 4)
            return GLSL.mix(s.toColor(u, v), s.fromColor(u, v), GLSL.step(GLSL.sign(p - modPos), 0.5))
        case .windowslice:
            let pr = GLSL.smoothstep(-0.5, 0, u - p * (1 + 0.5))
            return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), GLSL.step(pr, GLSL.fract(10 * u)))
        case .radial:
            let m = GLSL.smoothstep(0, 1, atan2f(v * 2 - 1, u * 2 - 1) - (p - 0.5) * GLSL.pi * 2.5)
            return GLSL.mix(s.toColor(u, v), s.fromColor(u, v), m)
        case .ripple: return ripple(u, v, s)
        case .randomsquares:
            let r = Self.rand((10 * u).rounded(.down), (10 * v).rounded(.down))
            let m = GLSL.smoothstep(0, -0.5, r - p * (1 + 0.5))
            return GLSL.mix(s.fromColor(u, v), s.toColor(u, v), m)
        case .doorway: return doorway(u, v, s)
        }
    }

    /// directional, `direction` (0, 1): the incoming picture pushes the outgoing one up.
    private func directional(_ u: Float, _ v: Float, _ s: GLSampler) -> SIMD3<Float> {
        let px = u + s.progress * 0, py = v + s.progress * 1
        let fx = GLSL.fract(px), fy = GLSL.fract(py)
        let inside = GLSL.step(0, py) * GLSL.step(py, 1) * GLSL.step(0, px) * GLSL.step(px, 1)
        return GLSL.mix(s.toColor(fx, fy), s.fromColor(fx, fy), inside)
    }

    /// swirl: both pictures turned about the centre, most near it, while they cross-fade.
    private func swirl(_ u: Float, _ v: Float, _ s: GLSampler) -> SIMD3<Float> {
        let t = s.progress, radius: Float = 1
        var x = u - 0.5, y = v - 0.5
        let distance = (x * x + y * y).squareRoot()
        if distance < radius {
            let percent = (radius - distance) / radius
            let a: Float = t <= 0.5 ? 0 * (1 - t / 0.5) + 1 * (t / 0.5) : 1 * (1 - (t - 0.5) / 0.5) + 0 * ((t - 0.5) / 0.5)
            let theta = percent * percent * a * 8 * 3.14159
            let sn = sinf(theta), cs = cosf(theta)
            (x, y) = (x * cs + y * -sn, x * sn + y * cs)
        }
        x += 0.5; y += 0.5
        return GLSL.mix(s.fromColor(x, y), s.toColor(x, y), t)
    }

    /// heart's `inHeart(uv, vec2(0.5, 0.4), progress)`.
    private func inHeart(_ u: Float, _ v: Float, size: Float) -> Float {
        if size == 0 { return 0 }
        let ox = (u - 0.5) / (1.6 * size), oy = (v - 0.4) / (1.6 * size)
        let a = ox * ox + oy * oy - 0.3
        return GLSL.step(a * a * a, ox * ox * oy * oy * oy)
    }

    /// ripple, amplitude 100, speed 50.
    private func ripple(_ u: Float, _ v: Float, _ s: GLSampler) -> SIMD3<Float> {
        let p = s.progress, dx = u - 0.5, dy = v - 0.5
        let distance = (dx * dx + dy * dy).squareRoot()
        let wave = (sinf(p * distance * 100 - p * 50) + 0.5) / 30
        return GLSL.mix(s.fromColor(u + dx * wave, v + dy * wave), s.toColor(u, v), GLSL.smoothstep(0.2, 1, p))
    }

    /// randomsquares' `rand(co)`: `fract(sin(dot(co, vec2(12.9898, 78.233))) * 43758.5453)`.
    static func rand(_ x: Float, _ y: Float) -> Float {
        let dot: Float = x * 12.9898 + y * 78.233
        return GLSL.fract(sinf(dot) * 43758.5453)
    }

    /// doorway, reflection 0.4, perspective 0.4, depth 3, a black background.
    private func doorway(_ u: Float, _ v: Float, _ s: GLSampler) -> SIMD3<Float> {
        let p = s.progress
        func inBounds(_ x: Float, _ y: Float) -> Bool { 0 < x && 0 < y && x < 1 && y < 1 }
        var fromX: Float = -1, fromY: Float = -1
        let middleSlit = 2 * abs(u - 0.5) - p
        if middleSlit > 0 {
            fromX = u + (u > 0.5 ? -1 : 1) * (0.5 * p)
            let d = 1 / (1 + 0.4 * p * (1 - middleSlit))
            fromY = ((v - d / 2) * d) + d / 2
        }
        let size = 1 * (1 - (1 - p)) + 3 * (1 - p)
        let toX = (u - 0.5) * size + 0.5, toY = (v - 0.5) * size + 0.5
        if inBounds(fromX, fromY) { return s.fromColor(fromX, fromY) }
        if inBounds(toX, toY) { return s.toColor(toX, toY) }
        // The floor: the incoming picture mirrored below, fading with height.
        let background = SIMD3<Float>(0, 0, 0)
        let mirrorX = toX * 1 + 0, mirrorY = toY * -1.2 + -0.02
        guard inBounds(mirrorX, mirrorY) else { return background }
        return background + GLSL.mix(background, s.toColor(mirrorX, mirrorY), 0.4 * (1 * (1 - mirrorY) + 0 * mirrorY))
    }
}
