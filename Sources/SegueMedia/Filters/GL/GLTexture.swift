/// A `GLPicture` as an effect samples it, a GL texture with LINEAR
/// filtering and CLAMP_TO_EDGE wrapping: its pixels and sizes by value, so
/// that a paint loop keeps them in registers.
/// Its helpers are `@_transparent`: `@inline(__always)` gives way once a
/// paint loop has outgrown the optimiser's budget, and a sample then cost a
/// call (its taps and colours through memory) a pixel.
/// SAFETY: a texture lives within one `draw`, while its picture is neither
/// freed nor written.
struct GLTexture: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<GLColour>
    let width: Int, height: Int
    /// What `sample` works with: the size as floats, the last column and row.
    private let widthF: Float, heightF: Float, lastColumn: Int, lastRow: Int, lastColumnF: Float, lastRowF: Float

    init(pixels: UnsafeMutablePointer<GLColour>, width: Int, height: Int) {
        self.pixels = pixels; self.width = width; self.height = height
        widthF = Float(width); heightF = Float(height); lastColumn = width - 1; lastRow = height - 1
        lastColumnF = Float(lastColumn); lastRowF = Float(lastRow)
    }

    /// Colour at texture coordinates `u`, `v` (origin at the bottom left),
    /// bilinear between the four nearest pixel centres, edges repeated.
    @_transparent
    func sample(_ u: Float, _ v: Float) -> GLColour {
        let (across, down) = taps(u, v)
        return sample(across, down)
    }

    /// `tap(u)` and `rows(v)` at once, the same sums in two lanes.
    @_transparent
    func taps(_ u: Float, _ v: Float) -> (across: GLTap, down: GLTap) {
        let (floors, fractions) = floorsAndFractions(SIMD2(u, 1 - v) * SIMD2(widthF, heightF) - 0.5, SIMD2<UInt32>.self)
        return (tap(floors[0], fractions[0], lastColumn), tap(floors[1], fractions[1], lastRow, times: width))
    }


    /// `taps` at two points at once.
    @_transparent
    func taps(_ p: GLPoint, _ q: GLPoint) -> (GLTap, GLTap, GLTap, GLTap) {
        let size = SIMD4(widthF, heightF, widthF, heightF)
        let (floors, fractions) = floorsAndFractions(SIMD4(p.x, 1 - p.y, q.x, 1 - q.y) * size - 0.5, SIMD4<UInt32>.self)
        return (tap(floors[0], fractions[0], lastColumn), tap(floors[1], fractions[1], lastRow, times: width),
                tap(floors[2], fractions[2], lastColumn), tap(floors[3], fractions[3], lastRow, times: width))
    }

    /// `floorAndFraction(_:within:)` of each lane (the sizes across, down, across...).
    @_transparent
    private func floorsAndFractions<Vector: SIMD, Bits: SIMD>(_ x: Vector, _ bits: Bits.Type) -> (Bits, Vector)
    where Vector.Scalar == Float, Bits.Scalar == UInt32 {
        var size = Vector(repeating: widthF)
        for lane in stride(from: 1, to: Vector.scalarCount, by: 2) { size[lane] = heightF }
        let clamped = x.replacing(with: size, where: .!(x .< size)).replacing(with: -1, where: .!(x .> -1))
        return GLSL.floorAndFraction(clamped, bits)
    }

    /// The tap from a floor (an Int32's bits) and fraction: the column (or
    /// row, `times` the width) there and the next, each held to 0...last.
    @_transparent
    private func tap(_ floor: UInt32, _ fraction: Float, _ last: Int, times scale: Int = 1) -> GLTap {
        tap(Int(Int32(bitPattern: floor)), fraction, last, times: scale)
    }

    @_transparent
    private func tap(_ index: Int, _ fraction: Float, _ last: Int, times scale: Int = 1) -> GLTap {
        GLTap(left: min(max(index, 0), last) &* scale, right: min(max(index &+ 1, 0), last) &* scale, fraction: fraction)
    }

    /// `x` (a position in pixels, less half a pixel) clamped to -1...size (a
    /// NaN, an effect's 0 / 0, to -1) and floored.
    @_transparent
    private static func floorAndFraction(_ x: Float, within size: Float) -> (Int, Float) {
        GLSL.floorAndFraction(x > -1 ? (x < size ? x : size) : -1)
    }
    /// `sample(u, v)` with `u`'s half worked out already: for an effect whose
    /// samples share a `u` down each column.
    @_transparent
    func sample(_ tap: GLTap, _ v: Float) -> GLColour { sample(tap, rows(v)) }

    /// `sample(u, v)` from `u`'s and `v`'s halves: `across` (columns) from
    /// `tap(u)`, `down` (offsets of rows) from `rows(v)`.
    @_transparent
    func sample(_ across: GLTap, _ down: GLTap) -> GLColour {
        let fx = across.fraction, c0 = across.left, c1 = across.right
        let top = pixels[down.left &+ c0] * (1 - fx) + pixels[down.left &+ c1] * fx
        let bottom = pixels[down.right &+ c0] * (1 - fx) + pixels[down.right &+ c1] * fx
        return top * (1 - down.fraction) + bottom * down.fraction
    }

    /// The two rows a sample at `v` blends (as offsets of their first pixels), and how far it lies from the upper one;
    /// clamped as `tap` is.
    @_transparent
    func rows(_ v: Float) -> GLTap {
        let (row, fraction) = Self.floorAndFraction((1 - v) * heightF - 0.5, within: heightF)
        return tap(row, fraction, lastRow, times: width)
    }

    /// A shift up by `dv` (texture coordinates) as whole rows and a fraction:
    /// a sample at `v + dv` at a pixel's row lies that far from the row.
    func shift(_ dv: Float) -> GLRowShift {
        let (rows, fraction) = GLSL.floorAndFraction(-dv * heightF)
        return GLRowShift(rows: rows, fraction: fraction)
    }

    /// `rows(v + dv)` at the pixel in row `row` (from the top), `shift` being `shift(dv)`: the same rows, clamped
    /// alike, and the same fraction but for rounding.
    @_transparent
    func rows(_ row: Int, _ shift: GLRowShift) -> GLTap { tap(row &+ shift.rows, shift.fraction, lastRow, times: width) }

    /// The two columns a sample at `u` blends, and how far it lies from the left one.
    @_transparent
    func tap(_ u: Float) -> GLTap {
        let (column, fraction) = Self.floorAndFraction(u * widthF - 0.5, within: widthF)
        return tap(column, fraction, lastColumn)
    }

    /// The pixel whose centre is at `u`, `v`: what `sample` returns there (to
    /// a few units in the last place), without the bilinear arithmetic.
    @_transparent
    func pixel(_ u: Float, _ v: Float) -> GLColour { pixels[row(v) &* width &+ column(u)] }

    /// The row holding `v` (edges repeated).
    @_transparent
    func row(_ v: Float) -> Int { Self.index((1 - v) * heightF, last: lastRowF) }

    /// The column holding `u` (edges repeated).
    @_transparent
    func column(_ u: Float) -> Int { Self.index(u * widthF, last: lastColumnF) }

    /// `floor(x)` held to 0...last (a NaN to 0): clamped first, so the floor
    /// of a value that is not negative is its truncation, one instruction.
    @_transparent
    private static func index(_ x: Float, last: Float) -> Int { Int(x > 0 ? (x < last ? x : last) : 0) }
}
