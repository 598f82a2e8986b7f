import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import SegueCore
internal import CFFmpeg

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
/// to sample through its `texture`.
/// SAFETY: `pixels` is owned here, allocated for `width * height` colours and
/// freed on deinit; bands of rows written in parallel never share a row, and
/// nothing reads a picture while it is written.
final class GLPicture: @unchecked Sendable {
    let width: Int, height: Int
    let pixels: UnsafeMutablePointer<GLColour>

    /// A picture whose pixels hold nothing yet: reading a frame or painting
    /// an effect writes every one.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width < 1 << 22 && height < 1 << 22, "GLPicture(width:height:) takes sizes up to 4M")
        self.width = width; self.height = height
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

    /// The picture to sample while it is not written: a view of its pixels.
    var texture: GLTexture { GLTexture(pixels: pixels, width: width, height: height) }

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
        read(frame, frame, crossFadedAt: 0, matrix: matrix)
    }

    /// Reads the cross-fade of `a` and `b` at `t` as `read` reads one frame:
    /// each code `mix(a's, b's, t)`, whose R'G'B' is the mix of theirs (the
    /// conversion is affine), for an effect that samples only the cross-fade.
    func read(_ a: Frame, _ b: Frame, crossFadedAt t: Float, matrix: GLColourMatrix) {
        func fits(_ frame: Frame) -> Bool {
            frame.width == width && frame.height == height && frame.planeCount >= 3 && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1)
        }
        precondition(fits(a) && fits(b), "GLPicture.read reads planar 4:2:0 frames of the picture's size and the matrix's depth")
        let lines = GLCodeLines(GLFramePlanes(a), a === b ? nil : GLFramePlanes(b), t: t)
        if a.sampleBytes == 1 {
            read(lines, matrix: matrix, as: UInt8.self)
        } else {
            read(lines, matrix: matrix, as: UInt16.self)
        }
    }

    @inline(__always)
    private func read<Sample: FixedWidthInteger & UnsignedInteger & SendableMetatype>(_ lines: GLCodeLines, matrix: GLColourMatrix, as _: Sample.Type) {
        let conversion = GLReadConversion(matrix)
        inBands(height) { rows in
            for row in rows { conversion.convert(lines.row(row, as: Sample.self), into: pixels + row * width, width: width, streaming: true) }
            #if arch(x86_64)
            cffmpeg_gl_stream_fence()
            #endif
        }
    }
}

/// A frame read as R'G'B' a band of rows at a time, as `GLPicture.read`
/// reads it whole: for an effect that reads the picture only at its own
/// pixels, each band is read as the canvas paints it, into rows of the
/// band's own that stay in the caches (not a whole picture out to memory
/// and back).
struct GLBandRead: Sendable {
    private let lines: GLCodeLines, conversion: GLReadConversion, wideSamples: Bool
    private let width: Int, height: Int

    init(_ frame: Frame, matrix: GLColourMatrix) {
        precondition(frame.planeCount >= 3 && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1), "GLBandRead reads planar 4:2:0 frames of the matrix's depth")
        lines = GLCodeLines(GLFramePlanes(frame), nil, t: 0); conversion = GLReadConversion(matrix); wideSamples = frame.sampleBytes > 1
        width = frame.width; height = frame.height
    }

    /// Reads rows `rows` (starting on an even row) into `band`, which has
    /// room for them, and returns them as a texture.
    func read(_ rows: Range<Int>, into band: UnsafeMutablePointer<GLColour>) -> GLTexture {
        for row in rows {
            let line = band + (row - rows.lowerBound) * width
            if wideSamples {
                conversion.convert(lines.row(row, as: UInt16.self), into: line, width: width)
            } else {
                conversion.convert(lines.row(row, as: UInt8.self), into: line, width: width)
            }
        }
        return GLTexture(pixels: band, rows: rows, width: width, height: height)
    }
}

/// A pixel's R'G'B' (and alpha 1) from its Y'CbCr codes as the sum of the
/// matrix's columns, each a colour: one register's arithmetic a pixel.
private struct GLReadConversion {
    let luma: GLColour, cb: GLColour, cr: GLColour, base: GLColour

    init(_ matrix: GLColourMatrix) {
        let s = matrix.scale, kr = matrix.kr, kb = matrix.kb, kg = matrix.kg
        let red = 2 * (1 - kr), blue = 2 * (1 - kb), chromaScale = 1 / (224 * s)
        // R' = Y + red Cr, B' = Y + blue Cb, G' = (Y - kr R' - kb B') / kg; Y, Cb and Cr from limited-range codes.
        luma = GLColour(1, 1, 1, 0) / (219 * s)
        cr = GLColour(red, -kr * red / kg, 0, 0) * chromaScale
        cb = GLColour(0, -kb * blue / kg, blue, 0) * chromaScale
        base = GLColour(0, 0, 0, 1) - 16 * s * luma - 128 * s * (cb + cr)
    }

    /// The shares of a chroma sample's codes, the same for the pixels beside it.
    @inline(__always)
    func chroma(_ cbCode: Float, _ crCode: Float) -> GLColour { base + cbCode * cb + crCode * cr }

    /// The colour of a pixel of luma code `lumaCode` beside `chroma`'s sample.
    @inline(__always)
    func colour(_ lumaCode: Float, _ chroma: GLColour) -> GLColour { chroma + lumaCode * luma }

    /// A row's `width` colours from its codes, into `line`; `streaming` past
    /// the caches, for a whole picture (then fenced when its band is done).
    @inline(__always)
    func convert<Sample>(_ codes: GLCodeRow<Sample>, into line: UnsafeMutablePointer<GLColour>, width: Int, streaming: Bool = false) {
        @inline(__always)
        func store(_ colour: GLColour, at col: Int) {
            #if arch(x86_64)
            if streaming {
                UnsafeMutableRawPointer(line + col).withMemoryRebound(to: Float.self, capacity: 4) {
                    cffmpeg_gl_stream_colour($0, colour.x, colour.y, colour.z, colour.w)
                }
                return
            }
            #endif
            line[col] = colour
        }
        // Four pixels (two chroma samples) at once, each chroma sample's share once for its two pixels.
        for quad in 0..<(width / 4) {
            let col = 4 * quad, lumas = codes.lumas(col), (cb, cr) = codes.chromas(2 * quad)
            let left = chroma(cb[0], cr[0]), right = chroma(cb[1], cr[1])
            store(colour(lumas[0], left), at: col)
            store(colour(lumas[1], left), at: col + 1)
            store(colour(lumas[2], right), at: col + 2)
            store(colour(lumas[3], right), at: col + 3)
        }
        for col in (4 * (width / 4))..<width {
            let (y, cb, cr) = codes.pixel(col)
            store(colour(y, chroma(cb, cr)), at: col)
        }
    }
}

/// The Y'CbCr codes a picture is read from: one frame's, or two frames'
/// mixed at `t` (as GLSL's `mix`).
private struct GLCodeLines: Sendable {
    let a: GLFramePlanes, b: GLFramePlanes?, t: Float

    init(_ a: GLFramePlanes, _ b: GLFramePlanes?, t: Float) { self.a = a; self.b = b; self.t = t }

    @inline(__always)
    func row<Sample: FixedWidthInteger & UnsignedInteger>(_ row: Int, as _: Sample.Type) -> GLCodeRow<Sample> {
        GLCodeRow(a: GLCodeRow.Lines(a, row), b: b.map { GLCodeRow.Lines($0, row) }, t: t)
    }
}

/// A row's codes as floats (`GLCodeLines`): four pixels' lumas and their two
/// chroma samples at once, or one pixel's.
private struct GLCodeRow<Sample: FixedWidthInteger & UnsignedInteger> {
    /// A frame's luma row and the chroma rows beside it.
    struct Lines {
        let ys: UnsafeMutablePointer<Sample>, us: UnsafeMutablePointer<Sample>, vs: UnsafeMutablePointer<Sample>
        @inline(__always)
        init(_ planes: GLFramePlanes, _ row: Int) {
            ys = planes.line(0, row, as: Sample.self); us = planes.line(1, row / 2, as: Sample.self); vs = planes.line(2, row / 2, as: Sample.self)
        }
        @inline(__always)
        func lumas(_ col: Int) -> SIMD4<Float> { SIMD4(Float(ys[col]), Float(ys[col + 1]), Float(ys[col + 2]), Float(ys[col + 3])) }
        @inline(__always)
        func chromas(_ chroma: Int) -> (SIMD2<Float>, SIMD2<Float>) {
            (SIMD2(Float(us[chroma]), Float(us[chroma + 1])), SIMD2(Float(vs[chroma]), Float(vs[chroma + 1])))
        }
        @inline(__always)
        func pixel(_ col: Int) -> SIMD4<Float> { SIMD4(Float(ys[col]), Float(us[col / 2]), Float(vs[col / 2]), 0) }
    }
    let a: Lines, b: Lines?, t: Float

    @inline(__always)
    func lumas(_ col: Int) -> SIMD4<Float> {
        guard let b else { return a.lumas(col) }
        return GLSL.mix(a.lumas(col), b.lumas(col), t)
    }
    /// The Cb and Cr codes of chroma samples `chroma` and `chroma + 1`.
    @inline(__always)
    func chromas(_ chroma: Int) -> (cb: SIMD2<Float>, cr: SIMD2<Float>) {
        guard let b else { return a.chromas(chroma) }
        let (cbA, crA) = a.chromas(chroma), (cbB, crB) = b.chromas(chroma)
        return (GLSL.mix(cbA, cbB, t), GLSL.mix(crA, crB, t))
    }
    /// Pixel `col`'s Y', Cb and Cr codes.
    @inline(__always)
    func pixel(_ col: Int) -> (Float, Float, Float) {
        let codes = b.map { GLSL.mix(a.pixel(col), $0.pixel(col), t) } ?? a.pixel(col)
        return (codes[0], codes[1], codes[2])
    }
}
