#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets:
// those that build a shape or a scene. Authors: cube, swap: gre;
// InvertedPageCurl: Hewlett-Packard (BSD 3-Clause), adapted by Sergey
// Kosarevsky; BowTieHorizontal, BowTieVertical: huynx; BowTieWithParameter:
// KMojek; CircleCrop: Fernando Kuteken (ported by gre); Bounce: Adrian Purser;
// Rectangle: martiniti.
//
// GLInvertedPageCurl follows the page curl published with WebVfx, under this
// licence:
// Copyright (c) 2010 Hewlett-Packard Development Company, L.P. All rights reserved.
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//    * Redistributions of source code must retain the above copyright notice,
//      this list of conditions and the following disclaimer.
//    * Redistributions in binary form must reproduce the above copyright
//      notice, this list of conditions and the following disclaimer in the
//      documentation and/or other materials provided with the distribution.
//    * Neither the name of Hewlett-Packard nor the names of its contributors
//      may be used to endorse or promote products derived from this software
//      without specific prior written permission.
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
// AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
// DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR
// ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
// (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
// LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON
// ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
// (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
// SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

/// The outgoing picture turns away on one face of a cube as the incoming one
/// turns in on the next, over a floor reflecting both.
struct GLCube: GLSamplingShader {
    let persp: Float, unzoom: Float, reflection: Float, floating: Float, bgcolor: GLColour
    init(_ transition: GLTransition) {
        persp = transition.float("persp"); unzoom = transition.float("unzoom")
        reflection = transition.float("reflection"); floating = transition.float("floating")
        bgcolor = transition.colour("bgcolor")
    }
    @inline(__always)
    func sampling(_ op: GLPoint, _ s: GLSampler) -> GLPixelSampling {
        let progress = s.progress
        let uz = unzoom * 2 * (0.5 - Swift.abs(0.5 - progress))
        let p = -uz * 0.5 + (1 + uz) * op
        let fromP = Self.xskew((p - GLPoint(progress, 0)) / GLPoint(1 - progress, 1), 1 - GLSL.mix(progress, 0, persp), 0)
        let toP = Self.xskew(p / GLPoint(progress, 1), GLSL.mix(GLSL.pow(progress, 2), 1, persp), 1)
        if GLSL.inBounds(fromP) { return .from(fromP) }
        if GLSL.inBounds(toP) { return .to(toP) }
        var c = bgcolor
        let zero = GLColour(repeating: 0)
        let pfr = project(fromP), pto = project(toP)
        if GLSL.inBounds(pfr) { c += GLSL.mix(zero, s.fromColor(pfr), reflection * GLSL.mix(1, 0, pfr.y)) }
        if GLSL.inBounds(pto) { c += GLSL.mix(zero, s.toColor(pto), reflection * GLSL.mix(1, 0, pto.y)) }
        return .colour(c)
    }
    /// Mirrored below the picture, `floating` hundredths down.
    private func project(_ p: GLPoint) -> GLPoint { p * GLPoint(1, -1.2) + GLPoint(0, -floating / 100) }
    /// `p` on a face seen in perspective `persp` (0...1), its far edge at x = `center` (0 or 1).
    @inline(__always)
    private static func xskew(_ p: GLPoint, _ persp: Float, _ center: Float) -> GLPoint {
        let x = GLSL.mix(p.x, 1 - p.x, center)
        let d = Swift.abs(center - 0.5)
        let q = GLPoint(x, (p.y - 0.5 * (1 - persp) * x) / (1 + (persp - 1) * x)) - GLPoint(0.5 - d, 0)
        return q * GLPoint(0.5 / d * (center < 0.5 ? 1 : -1), 1) + GLPoint(center < 0.5 ? 0 : 1, 0)
    }
}

/// The outgoing picture curls away from a corner like a page, its back grey,
/// shading the incoming one below.
struct GLInvertedPageCurl: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    static let pi: Float = 3.141592653589793
    static let scale: Float = 512, sharpness: Float = 3
    static let radius: Float = 1 / pi / 2
    /// The GLSL's `rotation` (by -100°) and `rrotation` (back), without their translations.
    let c1: Float, s1: Float, c2: Float, s2: Float
    init(_ transition: GLTransition) {
        let angle: Float = 100 * Self.pi / 180
        c1 = GLSL.cos(-angle); s1 = GLSL.sin(-angle); c2 = GLSL.cos(angle); s2 = GLSL.sin(angle)
    }

    /// The curl at `amount` (-0.16...1.5, from progress) and its cylinder's angle.
    struct Curl { let amount: Float, angle: Float }

    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let amount = s.progress * (1.5 - -0.16) + -0.16
        let curl = Curl(amount: amount, angle: 2 * Self.pi * amount)
        let r = Self.radius
        var point = rotate(p)
        let yc = point.y - amount
        if yc < -r { return behindSurface(p, yc, point, curl, s) }
        if yc > r { return s.fromPixel(p) }
        let hitAngle = (GLSL.acos(yc / r) + curl.angle) - Self.pi
        let hitAngleMod = GLSL.mod(hitAngle, 2 * Self.pi)
        if (hitAngleMod > Self.pi && amount < 0.5) || (hitAngleMod > Self.pi / 2 && amount < 0) {
            return seeThrough(yc, p, curl, s)
        }
        point = hitPoint(hitAngle, point)
        if point.x < 0 || point.y < 0 || point.x > 1 || point.y > 1 { return seeThroughWithShadow(yc, p, point, curl, s) }
        var color = backside(yc, point, s)
        let otherColor: GLColour
        if yc < 0 {
            let dx2 = point.x - 0.5, dy2 = point.y - 0.5
            var shado = 1 - ((dx2 * dx2 + dy2 * dy2).squareRoot() / 0.71)
            let nyc2 = -yc / r
            shado *= nyc2 * nyc2 * nyc2
            shado *= 0.5
            otherColor = GLColour(0, 0, 0, shado)
        } else {
            otherColor = s.fromPixel(p)
        }
        color = Self.antiAlias(color, otherColor, r - Swift.abs(yc))
        let cl = seeThroughWithShadow(yc, p, point, curl, s)
        return Self.antiAlias(color, cl, Self.distanceToEdge(point))
    }

    /// `rotation * vec3(p, 1.0)` (its z stays 1).
    private func rotate(_ p: GLPoint) -> GLPoint { GLPoint(c1 * p.x + -s1 * p.y + -0.801, s1 * p.x + c1 * p.y + 0.89) }
    /// The GLSL's `hitPoint`: y set from the angle, then `rrotation * point`.
    private func hitPoint(_ hitAngle: Float, _ point: GLPoint) -> GLPoint {
        let y = hitAngle / (2 * Self.pi)
        return GLPoint(c2 * point.x + -s2 * y + 0.985, s2 * point.x + c2 * y + 0.985)
    }

    @inline(__always)
    private static func antiAlias(_ color1: GLColour, _ color2: GLColour, _ distance: Float) -> GLColour {
        let d = distance * scale
        if d < 0 { return color2 }
        if d > 2 { return color1 }
        let dd = GLSL.pow(1 - d / 2, sharpness)
        return ((color2 - color1) * dd) + color1
    }

    @inline(__always)
    private static func distanceToEdge(_ point: GLPoint) -> Float {
        var dx = Swift.abs(point.x > 0.5 ? 1 - point.x : point.x)
        var dy = Swift.abs(point.y > 0.5 ? 1 - point.y : point.y)
        if point.x < 0 { dx = -point.x }
        if point.x > 1 { dx = point.x - 1 }
        if point.y < 0 { dy = -point.y }
        if point.y > 1 { dy = point.y - 1 }
        if (point.x < 0 || point.x > 1) && (point.y < 0 || point.y > 1) { return (dx * dx + dy * dy).squareRoot() }
        return min(dx, dy)
    }

    @inline(__always)
    private func seeThrough(_ yc: Float, _ p: GLPoint, _ curl: Curl, _ s: GLSampler) -> GLColour {
        let hitAngle = Self.pi - (GLSL.acos(yc / Self.radius) - curl.angle)
        let point = hitPoint(hitAngle, rotate(p))
        if yc <= 0 && (point.x < 0 || point.y < 0 || point.x > 1 || point.y > 1) { return s.toPixel(p) }
        if yc > 0 { return s.fromPixel(p) }
        return Self.antiAlias(s.fromColor(point), GLColour(repeating: 0), Self.distanceToEdge(point))
    }

    @inline(__always)
    private func seeThroughWithShadow(_ yc: Float, _ p: GLPoint, _ point: GLPoint, _ curl: Curl, _ s: GLSampler) -> GLColour {
        var shadow = Self.distanceToEdge(point) * 30
        shadow = (1 - shadow) / 3
        if shadow < 0 { shadow = 0 } else { shadow *= curl.amount }
        var shadowColor = seeThrough(yc, p, curl, s)
        shadowColor.x -= shadow; shadowColor.y -= shadow; shadowColor.z -= shadow
        return shadowColor
    }

    private func backside(_ yc: Float, _ point: GLPoint, _ s: GLSampler) -> GLColour {
        let color = s.fromColor(point)
        var gray = (color.x + color.z + color.y) / 15
        gray += (8.0 / 10.0) * (GLSL.pow(max(0, 1 - Swift.abs(yc / Self.radius)), 2.0 / 10.0) / 2 + (5.0 / 10.0))
        return GLColour(gray, gray, gray, color.w)
    }

    /// Below the curl: the incoming picture, shaded under the rolled part. (The GLSL's first
    /// shadow value is always replaced, so it is not computed.)
    private func behindSurface(_ p: GLPoint, _ yc: Float, _ point: GLPoint, _ curl: Curl, _ s: GLSampler) -> GLColour {
        let r = Self.radius
        let yc = (-r - r - yc)
        let hitAngle = (GLSL.acos(yc / r) + curl.angle) - Self.pi
        let hit = hitPoint(hitAngle, point)
        var shado: Float = 0
        if yc < 0 && hit.x >= 0 && hit.y >= 0 && hit.x <= 1 && hit.y <= 1 && (hitAngle < Self.pi || curl.amount > 0.5) {
            let dx = hit.x - 0.5, dy = hit.y - 0.5
            shado = 1 - ((dx * dx + dy * dy).squareRoot() / (71.0 / 100.0))
            let nyc = -yc / r
            shado *= nyc * nyc * nyc
            shado *= 0.5
        }
        let to = s.toPixel(p)
        return GLColour(to.x - shado, to.y - shado, to.z - shado, 1)
    }
}

/// Point-in-triangle and the soft edge the bow-tie effects share.
enum GLBowTie {
    static func check(_ p1: GLPoint, _ p2: GLPoint, _ p3: GLPoint) -> Float {
        (p1.x - p3.x) * (p2.y - p3.y) - (p2.x - p3.x) * (p1.y - p3.y)
    }
    static func contains(_ pt: GLPoint, _ p1: GLPoint, _ p2: GLPoint, _ p3: GLPoint) -> Bool {
        let b1 = check(pt, p1, p2) < 0, b2 = check(pt, p2, p3) < 0, b3 = check(pt, p3, p1) < 0
        return b1 == b2 && b2 == b3
    }
    /// 0 on the sides `bot1`-`top` and `bot2`-`top`, rising to 1 at 0.005 from the nearer.
    static func blurEdge(_ bot1: GLPoint, _ bot2: GLPoint, _ top: GLPoint, _ testPt: GLPoint) -> Float {
        func distance(_ bot: GLPoint) -> Float {
            let lineDir = bot - top
            return Swift.abs(GLSL.dot(GLSL.normalize(GLPoint(lineDir.y, -lineDir.x)), bot - testPt))
        }
        let minDist = min(distance(bot2), distance(bot1))
        return minDist < 0.005 ? minDist / 0.005 : 1
    }
    /// The two bow-tie effects: `first` and `second` are the triangles (tip, then base corners);
    /// `nearFirst` tells the half of the picture where `first`'s edge is softened.
    @inline(__always)
    static func colour(_ uv: GLPoint, _ s: GLSampler, first: (GLPoint, GLPoint, GLPoint), second: (GLPoint, GLPoint, GLPoint),
                       nearFirst: Bool) -> GLColour {
        if contains(uv, first.0, first.1, first.2) {
            if s.progress < 0.1 { return s.fromPixel(uv) }
            if nearFirst { return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), blurEdge(first.1, first.2, first.0, uv)) }
            return s.progress > 0 ? s.toPixel(uv) : s.fromPixel(uv)
        } else if contains(uv, second.0, second.1, second.2) {
            if !nearFirst { return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), blurEdge(second.1, second.2, second.0, uv)) }
            return s.fromPixel(uv)
        }
        return s.fromPixel(uv)
    }
}

/// Two triangles grow from the left and right edges into a bow tie.
struct GLBowTieHorizontal: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        return GLBowTie.colour(uv, s, first: (GLPoint(p, 0.5), GLPoint(0, 0.5 - p), GLPoint(0, 0.5 + p)),
                               second: (GLPoint(1 - p, 0.5), GLPoint(1, 0.5 - p), GLPoint(1, 0.5 + p)), nearFirst: uv.x < 0.5)
    }
}

/// Two triangles grow from the bottom and top edges into a bow tie.
struct GLBowTieVertical: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        return GLBowTie.colour(uv, s, first: (GLPoint(0.5, p), GLPoint(0.5 - p, 0), GLPoint(0.5 + p, 0)),
                               second: (GLPoint(0.5, 1 - p), GLPoint(0.5 - p, 1), GLPoint(0.5 + p, 1)), nearFirst: uv.y < 0.5)
    }
}

/// A bow-tie wipe whose tips meet at x = `adjust`; `reverse` runs it backwards.
struct GLBowTieWithParameter: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let adjust: Float, reverse: Bool
    init(_ transition: GLTransition) { adjust = transition.float("adjust"); reverse = transition.bool("reverse") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let p = s.progress
        if reverse { return p < 0.5 ? secondHalf(uv, 1 - p, s) : firstHalf(uv, 1 - p, s) }
        return p < 0.5 ? firstHalf(uv, p, s) : secondHalf(uv, p, s)
    }
    private func firstHalf(_ uv: GLPoint, _ prog: Float, _ s: GLSampler) -> GLColour {
        let height: Float = 0.5
        if uv.y < 0.5 {
            if GLBowTie.contains(uv, GLPoint(-0, prog - height), GLPoint(1, prog - height), GLPoint(adjust, prog)) { return s.toPixel(uv) }
        } else {
            if GLBowTie.contains(uv, GLPoint(-0, 1 - prog + height), GLPoint(1, 1 - prog + height), GLPoint(adjust, 1 - prog)) {
                return s.toPixel(uv)
            }
        }
        return s.fromPixel(uv)
    }
    @inline(__always)
    private func secondHalf(_ uv: GLPoint, _ prog: Float, _ s: GLSampler) -> GLColour {
        let height: Float = 0.5
        if uv.x > adjust {
            let tip = GLPoint(GLSL.mix(adjust, 1, 2 * (prog - 0.5)), 0.5)
            if GLBowTie.contains(uv, GLPoint(prog + height, 1), GLPoint(prog + height, -0), tip) { return s.fromPixel(uv) }
        } else {
            let tip = GLPoint(GLSL.mix(adjust, 0, 2 * (prog - 0.5)), 0.5)
            if GLBowTie.contains(uv, GLPoint(1 - prog - height, 1), GLPoint(1 - prog - height, -0), tip) { return s.fromPixel(uv) }
        }
        return s.toPixel(uv)
    }
}

/// The picture shrinks to a circle on `bgcolor`, and the next grows from one.
struct GLCircleCrop: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let bgcolor: GLColour
    init(_ transition: GLTransition) { bgcolor = transition.colour("bgcolor") }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let progress = s.progress
        let ratio2 = GLPoint(1, 1 / s.ratio)
        let size = GLSL.pow(2 * Swift.abs(progress - 0.5), 3)
        let dist = GLSL.length((p - 0.5) * ratio2)
        return GLSL.mix(progress < 0.5 ? s.fromPixel(p) : s.toPixel(p), bgcolor, GLSL.step(size, dist))
    }
}

/// The picture shrinks to a rectangle on `bgcolor`, and the next grows from one.
struct GLRectangle: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let bgcolor: GLColour
    init(_ transition: GLTransition) { bgcolor = transition.colour("bgcolor") }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let progress = s.progress
        let size = GLSL.pow(2 * Swift.abs(progress - 0.5), 3)
        let edge = Swift.abs(1 - 2 * progress)
        var dist = GLSL.step(edge, p.x + 0.25) * GLSL.step(edge, p.y + 0.25)
        dist *= 1 * GLSL.step(edge, 1.25 - p.x) * GLSL.step(edge, 1.25 - p.y)
        return GLSL.mix(progress < 0.5 ? s.fromPixel(p) : s.toPixel(p), bgcolor, GLSL.step(size, dist))
    }
}

/// The outgoing picture drops out of the frame, bouncing `bounces` times, its
/// shadow on the incoming one.
struct GLBounce: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    let shadowColour: GLColour, shadowHeight: Float, bounces: Float
    init(_ transition: GLTransition) {
        shadowColour = transition.colour("shadow_colour")
        shadowHeight = transition.float("shadow_height"); bounces = transition.float("bounces")
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let pi: Float = 3.14159265358
        let time = s.progress
        let stime = GLSL.sin(time * pi / 2)
        let phase = time * pi * bounces
        let y = Swift.abs(GLSL.cos(phase)) * (1 - stime)
        let d = uv.y - y
        let fade = GLSL.mix(((d / shadowHeight) * shadowColour.w) + (1 - shadowColour.w), 1, GLSL.smoothstep(0.95, 1, s.progress))
        let shadowed = GLSL.mix(s.toPixel(uv), shadowColour, GLSL.step(d, shadowHeight) * (1 - fade))
        return GLSL.mix(shadowed, s.fromColor(GLPoint(uv.x, uv.y + (1 - y))), GLSL.step(d, 0))
    }
}

/// The pictures swap places, each swinging in perspective, over a floor reflecting both.
struct GLSwap: GLSamplingShader {
    let reflection: Float, perspective: Float, depth: Float
    init(_ transition: GLTransition) {
        reflection = transition.float("reflection"); perspective = transition.float("perspective"); depth = transition.float("depth")
    }
    @inline(__always)
    func sampling(_ p: GLPoint, _ s: GLSampler) -> GLPixelSampling {
        let progress = s.progress
        var size = GLSL.mix(1, depth, progress)
        var persp = perspective * progress
        let kfr = GLPoint(size / (1 - perspective * progress), size / (1 - size * persp * p.x))
        let pfr = (p + GLPoint(-0.0, -0.5)) * kfr + GLPoint(0, 0.5)
        size = GLSL.mix(1, depth, 1 - progress)
        persp = perspective * (1 - progress)
        let kto = GLPoint(size / (1 - perspective * (1 - progress)), size / (1 - size * persp * (0.5 - p.x)))
        let pto = (p + GLPoint(-1, -0.5)) * kto + GLPoint(1, 0.5)
        if progress < 0.5 {
            if GLSL.inBounds(pfr) { return .from(pfr) }
            if GLSL.inBounds(pto) { return .to(pto) }
        } else {
            if GLSL.inBounds(pto) { return .to(pto) }
            if GLSL.inBounds(pfr) { return .from(pfr) }
        }
        let black = GLColour(0, 0, 0, 1)
        var c = black
        let ffr = pfr * GLPoint(1, -1.2) + GLPoint(0, -0.02), fto = pto * GLPoint(1, -1.2) + GLPoint(0, -0.02)
        if GLSL.inBounds(ffr) { c += GLSL.mix(black, s.fromColor(ffr), reflection * GLSL.mix(1, 0, ffr.y)) }
        if GLSL.inBounds(fto) { c += GLSL.mix(black, s.toColor(fto), reflection * GLSL.mix(1, 0, fto.y)) }
        return .colour(c)
    }
}
