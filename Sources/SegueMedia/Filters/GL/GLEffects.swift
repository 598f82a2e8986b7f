#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// The gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets.
// Authors: fade, circleopen, heart, windowslice, randomsquares, ripple,
// doorway: gre; directional: Gaëtan Renaudeau; wipeleft, wiperight: Jake
// Nelson; angular: Fernando Kuteken; swirl: Sergey Kosarevsky (ported by gre);
// pinwheel: Mr Speaker; radial: Xaychru (ported by gre).

extension GLEffect {
    /// The code that draws the effect.
    var shader: any GLShader.Type {
        switch self {
        case .fade: return GLFade.self
        case .wipeleft: return GLWipeLeft.self
        case .wiperight: return GLWipeRight.self
        case .directional: return GLDirectional.self
        case .circleopen: return GLCircleOpen.self
        case .angular: return GLAngular.self
        case .swirl: return GLSwirl.self
        case .heart: return GLHeart.self
        case .pinwheel: return GLPinwheel.self
        case .windowslice: return GLWindowSlice.self
        case .radial: return GLRadial.self
        case .ripple: return GLRipple.self
        case .randomsquares: return GLRandomSquares.self
        case .doorway: return GLDoorway.self
        case .cube: return GLCube.self
        case .invertedpagecurl: return GLInvertedPageCurl.self
        case .bowtiehorizontal: return GLBowTieHorizontal.self
        case .bowtievertical: return GLBowTieVertical.self
        case .bowtiewithparameter: return GLBowTieWithParameter.self
        case .butterflywavescrawler: return GLButterflyWaveScrawler.self
        case .circlecrop: return GLCircleCrop.self
        case .colourdistance: return GLColourDistance.self
        case .crazyparametricfun: return GLCrazyParametricFun.self
        case .crosswarp: return GLCrossWarp.self
        case .directionalwarp: return GLDirectionalWarp.self
        case .directionalwipe: return GLDirectionalWipe.self
        case .dreamy: return GLDreamy.self
        case .dreamyzoom: return GLDreamyZoom.self
        case .flyeye: return GLFlyEye.self
        case .gridflip: return GLGridFlip.self
        case .hexagonalize: return GLHexagonalize.self
        case .kaleidoscope: return GLKaleidoscope.self
        case .morph: return GLMorph.self
        case .mosaic: return GLMosaic.self
        case .polkadotscurtain: return GLPolkaDotsCurtain.self
        case .rotate_scale_fade: return GLRotateScaleFade.self
        case .squareswire: return GLSquaresWire.self
        case .squeeze: return GLSqueeze.self
        case .swap: return GLSwap.self
        case .bounce: return GLBounce.self
        case .rectangle: return GLRectangle.self
        case .burn: return GLBurn.self
        case .cannabisleaf: return GLCannabisLeaf.self
        case .circle: return GLCircle.self
        case .colorphase: return GLColorPhase.self
        case .crosshatch: return GLCrosshatch.self
        case .doomscreentransition: return GLDoomScreenTransition.self
        case .fadecolor: return GLFadeColor.self
        case .fadegrayscale: return GLFadeGrayscale.self
        case .glitchdisplace: return GLGlitchDisplace.self
        case .glitchmemories: return GLGlitchMemories.self
        case .horizontalclose: return GLHorizontalClose.self
        case .horizontalopen: return GLHorizontalOpen.self
        case .verticalclose: return GLVerticalClose.self
        case .verticalopen: return GLVerticalOpen.self
        case .leftright: return GLLeftRight.self
        case .topbottom: return GLTopBottom.self
        case .multiply_blend: return GLMultiplyBlend.self
        case .overexposure: return GLOverexposure.self
        case .perlin: return GLPerlin.self
        case .pixelize: return GLPixelize.self
        case .polar_function: return GLPolarFunction.self
        case .randomnoisex: return GLRandomNoiseX.self
        case .rectanglecrop: return GLRectangleCrop.self
        case .rolls: return GLRolls.self
        case .simplezoom: return GLSimpleZoom.self
        case .simplezoomout: return GLSimpleZoomOut.self
        case .staticfade: return GLStaticFade.self
        case .undulatingburnout: return GLUndulatingBurnOut.self
        case .waterdrop: return GLWaterDrop.self
        case .wind: return GLWind.self
        case .windowblinds: return GLWindowBlinds.self
        case .wipedown: return GLWipeDown.self
        case .wipeup: return GLWipeUp.self
        case .zoomincircles: return GLZoomInCircles.self
        case .zoomleftwipe: return GLZoomLeftWipe.self
        case .zoomrigthwipe: return GLZoomRigthWipe.self
        }
    }
}

struct GLFade: GLShader {
    static var samplesTheCrossFade: Bool { true }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { s.crossFadePixel(uv) }
}

struct GLWipeLeft: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(1 - uv.x, s.progress))
    }
}

struct GLWipeRight: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(uv.x, s.progress))
    }
}

/// The incoming picture pushes the outgoing one the way `direction` points.
struct GLDirectional: GLShader {
    let direction: GLPoint
    init(_ transition: GLTransition) {
        let value = transition.value("direction")
        direction = GLPoint(GLSL.sign(value[0]), GLSL.sign(value[1]))
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = uv + s.progress * direction
        let (from, to) = s.colours(GLSL.fract(p))
        return GLSL.mix(to, from, GLSL.step(0, p.y) * GLSL.step(p.y, 1) * GLSL.step(0, p.x) * GLSL.step(p.x, 1))
    }
}

struct GLCircleOpen: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let smoothness: Float, opening: Bool
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness"); opening = transition.bool("opening") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let x = opening ? s.progress : 1 - s.progress
        let m = GLSL.smoothstep(-smoothness, 0, 1.414213562373 * GLSL.distance(GLPoint(0.5, 0.5), uv) - x * (1 + smoothness))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), opening ? 1 - m : m)
    }
}

struct GLAngular: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let normalised = (GLSL.atan(uv.y - 0.5, uv.x - 0.5) + GLSL.pi) / (2 * GLSL.pi)
        return normalised > s.progress ? s.fromPixel(uv) : s.toPixel(uv)
    }
}

/// Both pictures turned about the centre, most near it, while they cross-fade.
/// Drawn two pixels at a time, where they sample and then what: a pixel's
/// chain (distance, table, turn, sample) is too long for the processor to
/// start the next pixel's on its own.
struct GLSwirl: GLPlacingShader {
    /// The turn's sine and cosine by distance from the centre at this frame's
    /// progress (a libm sine and cosine a pixel cost more than the drawing):
    /// the turn moves at most 16π·|strength| a unit of distance, within
    /// GLTable's bound but at a progress a curve takes far past 0 or 1.
    private var turn: GLTable<GLPoint>?
    static var samplesTheCrossFade: Bool { true }
    init(_ transition: GLTransition) {}
    func prepared(for t: Float) -> GLSwirl {
        var prepared = self
        let a = Self.strength(t)
        if 16 * 3.14159 * Swift.abs(a) <= GLTable<GLPoint>.maxSlope {
            prepared.turn = GLTable { distance in Self.exactTurn(distance, a) }
        }
        return prepared
    }
    /// How strongly the GLSL swirls at progress `t`: 0 to 1 at the middle and back.
    private static func strength(_ t: Float) -> Float { t <= 0.5 ? GLSL.mix(0, 1, t / 0.5) : GLSL.mix(1, 0, (t - 0.5) / 0.5) }
    /// The GLSL's turn (its sine and cosine) at `distance` (radius 1) when the swirl is `a` strong.
    private static func exactTurn(_ distance: Float, _ a: Float) -> GLPoint {
        let radius: Float = 1, percent = (radius - distance) / radius
        let theta = percent * percent * a * 8 * 3.14159
        return GLPoint(GLSL.sin(theta), GLSL.cos(theta))
    }
    /// Where the pixels at `first` and `second` sample the cross-fade: turned about the centre.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let t = s.progress, radius: Float = 1
        var p = SIMD4(lowHalf: first, highHalf: second) - 0.5
        let squares = p * p
        let distances = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let one = turn(distances[0], t), other = turn(distances[1], t)
        // (dot(p, (cs, -sn)), dot(p, (sn, cs))) for both points, where they lie inside the radius.
        let turned = SIMD4(p[0], p[0], p[2], p[2]) * SIMD4(one.y, one.x, other.y, other.x)
            + SIMD4(p[1], p[1], p[3], p[3]) * SIMD4(-one.x, one.y, -other.x, other.y)
        let inside = SIMD4(distances[0], distances[0], distances[1], distances[1]) .< radius
        p.replace(with: turned, where: inside)
        p += 0.5
        s.from.prefetch(p[0], p[1]); s.from.prefetch(p[2], p[3])
        return (GLColour(lowHalf: p.lowHalf, highHalf: .zero), GLColour(lowHalf: p.highHalf, highHalf: .zero))
    }
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        s.crossFades(places.0.lowHalf, places.1.lowHalf)
    }
    /// The places, then the cross-fade sampled at them in one go.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) { paintSamplingPlaces(canvas, sampler) }
    @inline(__always)
    private func turn(_ distance: Float, _ t: Float) -> GLPoint {
        turn?(distance) ?? Self.exactTurn(distance, Self.strength(t))
    }
}

struct GLHeart: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.fromPixel(uv), s.toPixel(uv), Self.inHeart(uv, center: GLPoint(0.5, 0.4), size: s.progress))
    }
    private static func inHeart(_ p: GLPoint, center: GLPoint, size: Float) -> Float {
        if size == 0 { return 0 }
        let o = (p - center) / (1.6 * size)
        let a = o.x * o.x + o.y * o.y - 0.3
        return GLSL.step(a * a * a, o.x * o.x * o.y * o.y * o.y)
    }
}

struct GLPinwheel: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let speed: Float
    init(_ transition: GLTransition) { speed = transition.float("speed") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let circPos = GLSL.atan(uv.y - 0.5, uv.x - 0.5) + s.progress * speed
        let modPos = GLSL.mod(circPos, 3.1415 / 4)
        return GLSL.mix(s.toPixel(uv), s.fromPixel(uv), GLSL.step(GLSL.sign(s.progress - modPos), 0.5))
    }
}

struct GLWindowSlice: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let count: Float, smoothness: Float
    init(_ transition: GLTransition) { count = transition.float("count"); smoothness = transition.float("smoothness") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let pr = GLSL.smoothstep(-smoothness, 0, uv.x - s.progress * (1 + smoothness))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), GLSL.step(pr, GLSL.fract(count * uv.x)))
    }
}

struct GLRadial: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let smoothness: Float
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let rp = uv * 2 - 1
        let m = GLSL.smoothstep(0, smoothness, GLSL.atan(rp.y, rp.x) - (s.progress - 0.5) * GLSL.pi * 2.5)
        return GLSL.mix(s.toPixel(uv), s.fromPixel(uv), m)
    }
}

/// The outgoing picture ripples out from the centre as the incoming one
/// fades in: drawn two pixels at a time, where they sample and then what.
struct GLRipple: GLPlacingShader {
    static var readAtItsPixels: GLPictures { .to }
    let amplitude: Float, speed: Float
    init(_ transition: GLTransition) { amplitude = transition.float("amplitude"); speed = transition.float("speed") }
    /// The wave by distance from the centre at this frame's progress, when gentle enough for a GLTable.
    private var wave: GLTable<SIMD2<Float>>?
    func prepared(for p: Float) -> GLRipple {
        var prepared = self
        if Swift.abs(p * amplitude) <= GLTable<SIMD2<Float>>.maxSlope {
            prepared.wave = GLTable { SIMD2(GLSL.sin(p * $0 * amplitude - p * speed), 0) }
        }
        return prepared
    }
    /// Where the pixels at `first` and `second` sample the outgoing picture: moved out along their direction from the centre.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let points = SIMD4(lowHalf: first, highHalf: second), directions = points - 0.5, squares = directions * directions
        let distances = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let sines = SIMD2(sine(distances[0], s.progress), sine(distances[1], s.progress))
        let moved = points + directions * (SIMD4(sines[0], sines[0], sines[1], sines[1]) + 0.5) / 30
        return (GLColour(lowHalf: moved.lowHalf, highHalf: .zero), GLColour(lowHalf: moved.highHalf, highHalf: .zero))
    }
    @_transparent
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (from, other) = s.fromColours(places.0.lowHalf, places.1.lowHalf), m = GLSL.smoothstep(0.2, 1, s.progress)
        return (GLSL.mix(from, s.toPixel(first), m), GLSL.mix(other, s.toPixel(second), m))
    }
    /// The places, their samples in one go, then the incoming picture mixed in.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        paintSamplingPlaces(canvas, sampler, mixingIncomingBy: GLSL.smoothstep(0.2, 1, sampler.progress))
    }
    /// `sin(progress * distance * amplitude - progress * speed)`.
    @inline(__always)
    private func sine(_ distance: Float, _ p: Float) -> Float { wave?(distance).x ?? GLSL.sin(p * distance * amplitude - p * speed) }
}

struct GLRandomSquares: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let size: GLPoint, smoothness: Float
    init(_ transition: GLTransition) {
        size = transition.point("size"); smoothness = transition.float("smoothness")
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let r = GLSL.rand(GLSL.floor(size * uv))
        let m = GLSL.smoothstep(0, -smoothness, r - s.progress * (1 + smoothness))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), m)
    }
}

/// The outgoing picture opens like doors onto the incoming one, which zooms
/// in from `depth` over a floor reflecting it. What a pixel samples depends
/// on its column (the doors' shift and squeeze, where the zoom lands across)
/// and on its row (where the zoom and its reflection land down) apart.
struct GLDoorway: GLShader {
    let reflection: Float, perspective: Float, depth: Float
    private var columns: [Column] = []
    /// A column's door (whether the outgoing picture shows there, its taps
    /// across and squeeze `d`) and where the incoming picture lands across.
    private struct Column {
        let opens: Bool, from: GLTap, d: Float, half: Float, toInside: Bool, to: GLTap
    }
    /// A row's sample of the incoming picture and of its reflection, where each lands inside.
    private struct Row {
        let toInside: Bool, to: GLTap, mirrorInside: Bool, mirror: GLTap, fade: Float
    }
    init(_ transition: GLTransition) {
        reflection = transition.float("reflection"); perspective = transition.float("perspective"); depth = transition.float("depth")
    }
    func prepared(for s: GLSampler) -> GLDoorway {
        var prepared = self
        let p = s.progress, size = GLSL.mix(1, depth, 1 - p)
        prepared.columns = s.columns { u in
            let middleSlit = 2 * abs(u - 0.5) - p, x = u + (u > 0.5 ? -1 : 1) * 0.5 * p, to = (u + -0.5) * size + 0.5
            let d = 1 / (1 + perspective * p * (1 - middleSlit))
            return Column(opens: middleSlit > 0 && 0 < x && x < 1, from: s.from.tap(x), d: d, half: d / 2,
                          toInside: 0 < to && to < 1, to: s.to.tap(to))
        }
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { colour(columns[s.column(uv.x)], row(uv.y, s), uv.y, s) }
    /// `colour` at every pixel, the tables' taps across and the row's taps down.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { s, _, v, columns, line in
            let row = row(v, s)
            for col in columns { line[col] = colour(self.columns[col], row, v, s) }
        }
    }
    /// The row at `v`: where the zoomed incoming picture (`(uv - 0.5) * size + 0.5`) and its reflection land down.
    @inline(__always)
    private func row(_ v: Float, _ s: GLSampler) -> Row {
        let to = (v + -0.5) * GLSL.mix(1, depth, 1 - s.progress) + 0.5, mirror = to * -1.2 + -0.02
        return Row(toInside: 0 < to && to < 1, to: s.to.rows(to), mirrorInside: 0 < mirror && mirror < 1,
                   mirror: s.to.rows(mirror), fade: reflection * GLSL.mix(1, 0, mirror))
    }
    /// The GLSL's colour down `column` on `row` (at `v`): the door, else the incoming picture, else its reflection on black.
    @inline(__always)
    private func colour(_ column: Column, _ row: Row, _ v: Float, _ s: GLSampler) -> GLColour {
        if column.opens {
            let y = (v - column.half) * column.d + column.half
            if 0 < y, y < 1 { return s.from.sample(column.from, s.from.rows(y)) }
        }
        let black = GLColour(0, 0, 0, 1)
        guard column.toInside else { return black }
        if row.toInside { return s.to.sample(column.to, row.to) }
        guard row.mirrorInside else { return black }
        return black + GLSL.mix(black, s.to.sample(column.to, row.mirror), row.fade)
    }
}
