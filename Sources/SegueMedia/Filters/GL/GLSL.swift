#if canImport(Glibc)
import Glibc
#endif

/// GLSL's `vec2`, for effects ported from the gl-transitions GLSL.
typealias GLPoint = SIMD2<Float>

/// GLSL's built-ins, as the OpenGL ES Shading Language specification defines
/// them, in single precision with no fused arithmetic.
enum GLSL {
    static let pi: Float = 3.141592653589

    @inline(__always) static func mix(_ x: GLColour, _ y: GLColour, _ a: Float) -> GLColour { x * (1 - a) + y * a }
    @inline(__always) static func mix(_ x: GLPoint, _ y: GLPoint, _ a: Float) -> GLPoint { x * (1 - a) + y * a }
    @inline(__always) static func mix(_ x: Float, _ y: Float, _ a: Float) -> Float { x * (1 - a) + y * a }
    /// 0 where `x < edge`, else 1.
    @inline(__always) static func step(_ edge: Float, _ x: Float) -> Float { x < edge ? 0 : 1 }
    @inline(__always) static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = clamp((x - edge0) / (edge1 - edge0), 0, 1)
        return t * t * (3 - 2 * t)
    }
    @inline(__always) static func clamp(_ x: Float, _ low: Float, _ high: Float) -> Float { min(max(x, low), high) }
    /// `floor`, without a call into libm (the baseline x86-64 has no rounding
    /// instruction) and without a branch on the sign (half the values an
    /// effect floors are negative: such a branch is mispredicted as often).
    @inline(__always) static func floor(_ x: Float) -> Float {
        guard x.magnitude < roundingLimit else { return x.rounded(.down) }
        let nearest = (x + roundingMagic) - roundingMagic
        return nearest - one(borrow(x - nearest))
    }
    /// `floor` of each lane (a `vec2`, or two side by side).
    @inline(__always) static func floor<Vector: SIMD>(_ p: Vector) -> Vector where Vector.Scalar == Float {
        guard all((p .< roundingLimit) .& (p .> -roundingLimit)) else { return p.rounded(.down) }
        let nearest = (p + roundingMagic) - roundingMagic
        return nearest - Vector(repeating: 1).replacing(with: 0, where: nearest .<= p)
    }
    /// `abs` of each lane: the sign bit cleared.
    @inline(__always) static func abs<Vector: SIMD>(_ p: Vector) -> Vector where Vector.Scalar == Float {
        p.replacing(with: 0, where: p .== 0).replacing(with: -p, where: p .< 0)
    }
    /// `floor(x)` as an integer and `x - floor(x)`, for |x| < 2^22.
    /// The integer is read from the bits of `x + 1.5 * 2^23`, whose last bits
    /// are then `x` rounded to the nearest: no conversion that could trap.
    @inline(__always) static func floorAndFraction(_ x: Float) -> (Int, Float) {
        let shifted = x + roundingMagic
        let offset = x - (shifted - roundingMagic)
        let below = borrow(offset)
        let integer = Int(Int32(bitPattern: shifted.bitPattern &- roundingMagic.bitPattern &- below))
        return (integer, offset + one(below))
    }
    /// `floorAndFraction` of each lane, lane by lane the same sums; the
    /// floors as the bits of Int32s in `Bits` (`x`'s lanes as UInt32s).
    @inline(__always) static func floorAndFraction<Vector: SIMD, Bits: SIMD>(_ x: Vector, _: Bits.Type) -> (Bits, Vector)
    where Vector.Scalar == Float, Bits.Scalar == UInt32 {
        let shifted = x + roundingMagic
        let offset = (x - (shifted - roundingMagic)) + 0
        let below = unsafeBitCast(offset, to: Bits.self) &>> 31
        let integer = unsafeBitCast(shifted, to: Bits.self) &- roundingMagic.bitPattern &- below
        return (integer, offset + unsafeBitCast(Float(1).bitPattern & (0 &- below), to: Vector.self))
    }
    /// 1 where `offset` (x less its nearest integer) is below zero, else 0,
    /// from its sign bit: a comparison here compiles to a branch that goes
    /// each way half the time. `-0` (x = -0) counts as zero.
    @inline(__always) private static func borrow(_ offset: Float) -> UInt32 { (offset + 0).bitPattern >> 31 }
    /// 1.0 for a borrow of 1, 0.0 for 0, by masking the bits of 1.0.
    @inline(__always) private static func one(_ borrow: UInt32) -> Float { Float(bitPattern: Float(1).bitPattern & (0 &- borrow)) }
    /// 1.5 * 2^23: `(x + it) - it` is `x` rounded to the nearest integer for |x| < 2^22.
    private static let roundingMagic: Float = 12_582_912
    private static let roundingLimit: Float = 4_194_304
    @inline(__always) static func fract(_ x: Float) -> Float { x - floor(x) }
    @inline(__always) static func fract(_ p: GLPoint) -> GLPoint { p - floor(p) }
    /// `x - y * floor(x / y)`.
    @inline(__always) static func mod(_ x: Float, _ y: Float) -> Float { x - y * floor(x / y) }
    @inline(__always) static func sign(_ x: Float) -> Float { x > 0 ? 1 : (x < 0 ? -1 : 0) }
    @inline(__always) static func length(_ p: GLPoint) -> Float { (p.x * p.x + p.y * p.y).squareRoot() }
    @inline(__always) static func distance(_ p: GLPoint, _ q: GLPoint) -> Float { length(p - q) }
    @inline(__always) static func dot(_ p: GLPoint, _ q: GLPoint) -> Float { p.x * q.x + p.y * q.y }
    @inline(__always) static func normalize(_ p: GLPoint) -> GLPoint { p / length(p) }
    /// `atan(y, x)`.
    @inline(__always) static func atan(_ y: Float, _ x: Float) -> Float { atan2f(y, x) }
    @inline(__always) static func sin(_ x: Float) -> Float { sinf(x) }
    @inline(__always) static func cos(_ x: Float) -> Float { cosf(x) }
    /// `sin` of four lanes at once, without libm, for an effect that takes
    /// sines a pixel: within 2.5e-7 of the true sine for |x| < 8192
    /// (Cephes' sinf: x less its nearest multiple of π/2 in three exact
    /// parts, then the quadrant's polynomial); beyond that, libm's.
    @inline(__always) static func sin(_ x: SIMD4<Float>) -> SIMD4<Float> { sin(x, plusQuarterTurns: .zero) }
    /// `sin(x + turns · π/2)` lane by lane, the quarter turns added exactly
    /// (one makes a lane's cosine), as `sin(_:)`.
    @inline(__always) static func sin(_ x: SIMD4<Float>, plusQuarterTurns turns: SIMD4<UInt32>) -> SIMD4<Float> {
        guard all((x .< 8192) .& (x .> -8192)) else { return libmSin(x, plusQuarterTurns: turns) }
        let shifted = x * (2 / Float.pi) + roundingMagic
        let quarters = shifted - roundingMagic
        let quadrant = unsafeBitCast(shifted, to: SIMD4<UInt32>.self) &- roundingMagic.bitPattern &+ turns
        let r = ((x - quarters * 1.5703125) - quarters * 4.837512969970703125e-4) - quarters * 7.54978995489188216e-8
        let z = r * r
        let sine = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * r + r
        let cosine = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1
        let value = sine.replacing(with: cosine, where: (quadrant & 1) .!= 0)
        // Quadrants 2 and 3 are the negatives of 0 and 1: their sign bit flipped.
        return unsafeBitCast(unsafeBitCast(value, to: SIMD4<UInt32>.self) ^ ((quadrant & 2) &<< 30), to: SIMD4<Float>.self)
    }
    private static func libmSin(_ x: SIMD4<Float>, plusQuarterTurns turns: SIMD4<UInt32>) -> SIMD4<Float> {
        var result = SIMD4<Float>()
        for lane in 0..<4 {
            let value = turns[lane] & 1 == 0 ? sinf(x[lane]) : cosf(x[lane])
            result[lane] = turns[lane] & 2 == 0 ? value : -value
        }
        return result
    }
    @inline(__always) static func pow(_ x: Float, _ y: Float) -> Float { powf(x, y) }
    @inline(__always) static func exp(_ x: Float) -> Float { expf(x) }
    @inline(__always) static func acos(_ x: Float) -> Float { acosf(x) }
    @inline(__always) static func mod<Vector: SIMD>(_ p: Vector, _ y: Float) -> Vector where Vector.Scalar == Float { p - y * floor(p / y) }
    /// `length` of a `vec4` (what `distance` of two colours takes).
    @inline(__always) static func length(_ c: GLColour) -> Float { (c.x * c.x + c.y * c.y + c.z * c.z + c.w * c.w).squareRoot() }
    /// Both coordinates strictly inside the texture: `all(lessThan(0, p)) && all(lessThan(p, 1))`.
    @inline(__always) static func inBounds(_ p: GLPoint) -> Bool { 0 < p.x && 0 < p.y && p.x < 1 && p.y < 1 }
    /// The common `fract(sin(dot(co, vec2(12.9898, 78.233))) * 43758.5453)`.
    @inline(__always) static func rand(_ co: GLPoint) -> Float {
        let dot: Float = co.x * 12.9898 + co.y * 78.233
        return fract(sinf(dot) * 43758.5453)
    }
}

/// A function on 0...1 (a frame's sine of the distance from the centre, say)
/// worked out at `steps` + 1 points and read linearly between them: for a
/// sine whose argument moves at most `maxSlope` over 0...1, within 1.3e-5.
/// What a pixel reads then costs a multiply and two loads, not a call into libm.
struct GLTable<Value: SIMD & Sendable>: Sendable where Value.Scalar == Float {
    static var steps: Int { 16384 }
    /// The steepest argument (radians over 0...1) a sine can have here.
    static var maxSlope: Float { 0.01 * Float(steps) }
    private let values: [Value]

    init(_ f: (Float) -> Value) {
        values = (0...Self.steps + 1).map { f(Float($0) / Float(Self.steps)) }
    }

    /// `f(x)` for `x` in 0...1 (beyond, about f(0) or f(1)).
    @inline(__always) func callAsFunction(_ x: Float) -> Value {
        let (step, fraction) = GLSL.floorAndFraction(x * Float(Self.steps))
        let index = min(max(step, 0), Self.steps)
        return values[index] * (1 - fraction) + values[index + 1] * fraction
    }
}
