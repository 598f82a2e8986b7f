import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import SegueCore

/// How a picture's Y'CbCr codes map to R'G'B' (the canvas tells): the matrix's
/// luma weights and the bit depth of limited-range codes.
package struct GLColourMatrix: Sendable, Equatable {
    /// Red's and blue's luma weights (green's is what is left).
    package var kr: Float, kb: Float
    /// 8 or 10: codes 16...235 (64...940) for luma, 16...240 (64...960) for chroma.
    package var bits: Int

    package static func bt709(bits: Int) -> GLColourMatrix { GLColourMatrix(kr: 0.2126, kb: 0.0722, bits: bits) }
    package static func bt2020(bits: Int) -> GLColourMatrix { GLColourMatrix(kr: 0.2627, kb: 0.0593, bits: bits) }

    var kg: Float { 1 - kr - kb }
    /// 1 for 8-bit codes, 4 for 10-bit.
    var scale: Float { Float(1 << (bits - 8)) }
    var maxCode: Float { Float((1 << bits) - 1) }
}

/// Where a sample lies across a picture: the columns either side and its
/// fraction of the way from the left one to the right.
struct GLTap: Sendable {
    var left: Int, right: Int, fraction: Float
}

/// How far a sample lies below a pixel's row: whole rows and a fraction.
struct GLRowShift: Sendable {
    var rows: Int, fraction: Float
}

/// A colour as GLSL's `vec4`: R', G', B', alpha.
typealias GLColour = SIMD4<Float>

/// A picture as R'G'B'A floats a pixel (0...1 for the limited range's black
/// to white, not clamped: a picture an effect shows unmoved comes back as the
/// codes it came in; alpha 1), rows from the top, for a gl-transitions effect
/// to sample as a GL texture with LINEAR filtering and CLAMP_TO_EDGE wrapping.
/// SAFETY: `pixels` is owned here, allocated for `width * height` colours and
/// freed on deinit; bands of rows written in parallel never share a row, and
/// nothing reads a picture while it is written.
final class GLPicture: @unchecked Sendable {
    let width: Int, height: Int
    let pixels: UnsafeMutablePointer<GLColour>
    /// What `sample` works with: the size as floats, the last column and row.
    private let widthF: Float, heightF: Float, lastColumn: Int, lastRow: Int, lastColumnF: Float, lastRowF: Float

    /// A picture whose pixels hold nothing yet: reading a frame or painting
    /// an effect writes every one.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width < 1 << 22 && height < 1 << 22, "GLPicture(width:height:) takes sizes up to 4M")
        self.width = width; self.height = height
        widthF = Float(width); heightF = Float(height); lastColumn = width - 1; lastRow = height - 1
        lastColumnF = Float(lastColumn); lastRowF = Float(lastRow)
        pixels = Self.allocate(width * height)
    }

    deinit { free(pixels) }

    /// Room for `count` colours on 2 MB boundaries, in huge pages where the
    /// kernel lends them (transparent huge pages, `madvise`): an effect that
    /// turns or scatters its samples touches a new 4 KB page nearly every
    /// pixel, and 2 MB pages keep the whole picture within the TLB's reach.
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<GLColour> {
        let bytes = count * MemoryLayout<GLColour>.stride, hugePage = 2 << 20
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, hugePage, bytes) == 0, let memory else { fatalError("GLPicture: no memory for \(count) pixels") }
        #if canImport(Glibc)
        _ = madvise(memory, (bytes + hugePage - 1) / hugePage * hugePage, MADV_HUGEPAGE)
        #endif
        return memory.bindMemory(to: GLColour.self, capacity: count)
    }

    /// Colour at texture coordinates `u`, `v` (origin at the bottom left),
    /// bilinear between the four nearest pixel centres, edges repeated.
    @inline(__always)
    func sample(_ u: Float, _ v: Float) -> GLColour {
        let (across, down) = taps(u, v)
        return sample(across, down)
    }

    /// `tap(u)` and `rows(v)` at once, the same sums in two lanes.
    @inline(__always)
    func taps(_ u: Float, _ v: Float) -> (across: GLTap, down: GLTap) {
        let (floors, fractions) = floorsAndFractions(SIMD2(u, 1 - v) * SIMD2(widthF, heightF) - 0.5, SIMD2<UInt32>.self)
        return (tap(floors[0], fractions[0], lastColumn), tap(floors[1], fractions[1], lastRow, times: width))
    }


    /// `taps` at two points at once.
    @inline(__always)
    func taps(_ p: GLPoint, _ q: GLPoint) -> (GLTap, GLTap, GLTap, GLTap) {
        let size = SIMD4(widthF, heightF, widthF, heightF)
        let (floors, fractions) = floorsAndFractions(SIMD4(p.x, 1 - p.y, q.x, 1 - q.y) * size - 0.5, SIMD4<UInt32>.self)
        return (tap(floors[0], fractions[0], lastColumn), tap(floors[1], fractions[1], lastRow, times: width),
                tap(floors[2], fractions[2], lastColumn), tap(floors[3], fractions[3], lastRow, times: width))
    }

    /// `floorAndFraction(_:within:)` of each lane (the sizes across, down, across...).
    @inline(__always)
    private func floorsAndFractions<Vector: SIMD, Bits: SIMD>(_ x: Vector, _ bits: Bits.Type) -> (Bits, Vector)
    where Vector.Scalar == Float, Bits.Scalar == UInt32 {
        var size = Vector(repeating: widthF)
        for lane in stride(from: 1, to: Vector.scalarCount, by: 2) { size[lane] = heightF }
        let clamped = x.replacing(with: size, where: .!(x .< size)).replacing(with: -1, where: .!(x .> -1))
        return GLSL.floorAndFraction(clamped, bits)
    }

    /// The tap from a floor (an Int32's bits) and fraction: the column (or
    /// row, `times` the width) there and the next, each held to 0...last.
    @inline(__always)
    private func tap(_ floor: UInt32, _ fraction: Float, _ last: Int, times scale: Int = 1) -> GLTap {
        tap(Int(Int32(bitPattern: floor)), fraction, last, times: scale)
    }

    @inline(__always)
    private func tap(_ index: Int, _ fraction: Float, _ last: Int, times scale: Int = 1) -> GLTap {
        GLTap(left: min(max(index, 0), last) &* scale, right: min(max(index &+ 1, 0), last) &* scale, fraction: fraction)
    }

    /// `x` (a position in pixels, less half a pixel) clamped to -1...size (a
    /// NaN, an effect's 0 / 0, to -1) and floored.
    @inline(__always)
    private static func floorAndFraction(_ x: Float, within size: Float) -> (Int, Float) {
        GLSL.floorAndFraction(x > -1 ? (x < size ? x : size) : -1)
    }
    /// `sample(u, v)` with `u`'s half worked out already: for an effect whose
    /// samples share a `u` down each column.
    @inline(__always)
    func sample(_ tap: GLTap, _ v: Float) -> GLColour { sample(tap, rows(v)) }

    /// `sample(u, v)` from `u`'s and `v`'s halves: `across` (columns) from
    /// `tap(u)`, `down` (offsets of rows) from `rows(v)`.
    @inline(__always)
    func sample(_ across: GLTap, _ down: GLTap) -> GLColour {
        let fx = across.fraction, c0 = across.left, c1 = across.right
        let top = pixels[down.left &+ c0] * (1 - fx) + pixels[down.left &+ c1] * fx
        let bottom = pixels[down.right &+ c0] * (1 - fx) + pixels[down.right &+ c1] * fx
        return top * (1 - down.fraction) + bottom * down.fraction
    }

    /// The two rows a sample at `v` blends (as offsets of their first pixels), and how far it lies from the upper one;
    /// clamped as `tap` is.
    @inline(__always)
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
    @inline(__always)
    func rows(_ row: Int, _ shift: GLRowShift) -> GLTap { tap(row &+ shift.rows, shift.fraction, lastRow, times: width) }

    /// The two columns a sample at `u` blends, and how far it lies from the left one.
    @inline(__always)
    func tap(_ u: Float) -> GLTap {
        let (column, fraction) = Self.floorAndFraction(u * widthF - 0.5, within: widthF)
        return tap(column, fraction, lastColumn)
    }

    /// The pixel whose centre is at `u`, `v`: what `sample` returns there (to
    /// a few units in the last place), without the bilinear arithmetic.
    @inline(__always)
    func pixel(_ u: Float, _ v: Float) -> GLColour { pixels[row(v) &* width &+ column(u)] }

    /// The row holding `v` (edges repeated).
    @inline(__always)
    func row(_ v: Float) -> Int { Self.index((1 - v) * heightF, last: lastRowF) }

    /// The column holding `u` (edges repeated).
    @inline(__always)
    func column(_ u: Float) -> Int { Self.index(u * widthF, last: lastColumnF) }

    /// `floor(x)` held to 0...last (a NaN to 0): clamped first, so the floor
    /// of a value that is not negative is its truncation, one instruction.
    @inline(__always)
    private static func index(_ x: Float, last: Float) -> Int { Int(x > 0 ? (x < last ? x : last) : 0) }

    /// Runs `body` for bands of rows in parallel, `body(rows)` for each.
    func inBands(_ rows: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(rows, 32)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((band * rows / bands)..<((band + 1) * rows / bands))
        }
    }
}

extension GLPicture {
    /// Reads `frame`'s picture (of this size) as R'G'B': each pixel takes the
    /// chroma sample of its 2x2 block (nearest; 4:2:0 chroma sits once per block).
    func read(_ frame: Frame, matrix: GLColourMatrix) {
        precondition(frame.width == width && frame.height == height && frame.planeCount >= 3
                     && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1), "read(_:matrix:) reads planar 4:2:0 frames of the picture's size and the matrix's depth")
        if frame.sampleBytes == 1 {
            read(frame, matrix: matrix, as: UInt8.self)
        } else {
            read(frame, matrix: matrix, as: UInt16.self)
        }
    }

    @inline(__always)
    private func read<Sample: FixedWidthInteger & UnsignedInteger & SendableMetatype>(_ frame: Frame, matrix: GLColourMatrix, as _: Sample.Type) {
        let s = matrix.scale, kr = matrix.kr, kb = matrix.kb, kg = matrix.kg
        let lumaScale = 1 / (219 * s), chromaScale = 1 / (224 * s)
        let planes = GLFramePlanes(frame)
        inBands(height) { rows in
            for row in rows {
                let ys = planes.line(0, row, as: Sample.self), us = planes.line(1, row / 2, as: Sample.self)
                let vs = planes.line(2, row / 2, as: Sample.self)
                let line = pixels + row * width
                for col in 0..<width {
                    let luma = (Float(ys[col]) - 16 * s) * lumaScale
                    let cb = (Float(us[col / 2]) - 128 * s) * chromaScale
                    let cr = (Float(vs[col / 2]) - 128 * s) * chromaScale
                    let r = luma + 2 * (1 - kr) * cr
                    let b = luma + 2 * (1 - kb) * cb
                    line[col] = GLColour(r, (luma - kr * r - kb * b) / kg, b, 1)
                }
            }
        }
    }
}
