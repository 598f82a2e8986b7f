import Dispatch
import Foundation
import SegueCore
internal import CFFmpeg
import Synchronization

/// The rows an effect paints into before they become Y'CbCr, and those the
/// pictures read band by band are read into: a band's worth of each for each
/// band painted at once, kept from frame to frame (a whole R'G'B' picture
/// would go out to memory and come back).
/// SAFETY: `rows` and `blankRow` are owned here, allocated for `slots * 3 *
/// bandSize` and `width` colours and freed on deinit; a slot is lent to one
/// band at a time, and the blank row is only read.
final class GLScratch: @unchecked Sendable {
    let width: Int
    private let slots: Int
    private let rows: UnsafeMutablePointer<GLColour>
    private let free: Mutex<[Int]>
    /// A row of transparent black.
    private let blankRow: UnsafeMutablePointer<GLColour>

    init(width: Int) {
        self.width = width
        // concurrentPerform paints on as many threads as there are cores.
        slots = ProcessInfo.processInfo.activeProcessorCount + 1
        rows = .allocate(capacity: slots * 3 * GLCanvas.columnBandRows * width)
        free = Mutex(Array(0..<slots))
        blankRow = .allocate(capacity: width)
        blankRow.initialize(repeating: GLColour(), count: width)
    }

    deinit { rows.deallocate(); blankRow.deallocate() }

    /// What stands for a picture read band by band outside the bands: its
    /// first row, transparent black.
    func blank(height: Int) -> GLTexture { GLTexture(pixels: blankRow, rows: 0..<1, width: width, height: height) }

    /// A band's worth of colours: the most rows a band spans.
    var bandSize: Int { GLCanvas.columnBandRows * width }

    /// Runs `body(lines, pictures)` with a band's rows to itself (a free
    /// slot's, or, should more bands run at once than there are cores, rows
    /// of its own): `lines` to paint, `pictures` room for two pictures' rows.
    func withBand<Result>(_ body: (UnsafeMutablePointer<GLColour>, UnsafeMutablePointer<GLColour>) -> Result) -> Result {
        guard let slot = free.withLock({ $0.popLast() }) else {
            let own = UnsafeMutablePointer<GLColour>.allocate(capacity: 3 * bandSize)
            defer { own.deallocate() }
            return body(own, own + bandSize)
        }
        defer { free.withLock { $0.append(slot) } }
        let lines = rows + slot * 3 * bandSize
        return body(lines, lines + bandSize)
    }
}

/// The pictures an effect reads only at its own pixels
/// (`GLShader.readAtItsPixels`), read band by band as the canvas paints.
struct GLBandReads: Sendable {
    var from: GLBandRead?, to: GLBandRead?
}

/// What an effect paints a band with: `body(s, row or column, columns or
/// rows, line or band)`, `s` the band's sampler (`GLCanvas.inTiles`, `inColumns`).
typealias GLBandBody = (GLSampler, Int, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void

/// Where an effect paints a frame: `inTiles` hands it each row's R'G'B'
/// pixels a tile of columns at a time, with its band's sampler (the pictures
/// read band by band read for the band's rows), and each band of rows, once
/// painted, is written into `frame` as Y'CbCr codes, rounded half up and clamped to
/// the sample's range: luma per pixel, chroma from the mean of the 2x2
/// block's own Cb and Cr. Alpha is not drawn.
struct GLCanvas: Sendable {
    /// Rows a band spans (even, so that no 2x2 block straddles two bands).
    static let bandRows = 8
    /// Columns a tile spans: a warp's samples of one tile lie near each
    /// other in the pictures, so they stay in the caches.
    static let tileWidth = 64
    /// Rows a band spans when it is painted a column at a time (even, and a
    /// multiple of `bandRows`: the scratch rows are this many).
    static let columnBandRows = 32

    let width: Int, height: Int
    private let scratch: GLScratch
    private let frame: GLFramePlanes, matrix: GLColourMatrix
    private let reads: GLBandReads

    init(_ frame: Frame, matrix: GLColourMatrix, scratch: GLScratch, reads: GLBandReads = GLBandReads()) {
        precondition(frame.width == scratch.width && frame.planeCount >= 3 && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1),
                     "GLCanvas(_:matrix:scratch:) needs a planar frame of the scratch's width and the matrix's depth")
        width = frame.width; height = frame.height
        self.scratch = scratch; self.matrix = matrix; self.reads = reads
        self.frame = GLFramePlanes(frame)
    }

    /// Runs `body(s, row, columns, line)` for every row 64 columns at a
    /// time, `line` the row's first pixel and `s` its band's `sampler`, bands
    /// of rows in parallel; then writes the band.
    func inTiles(_ sampler: GLSampler, _ body: GLBandBody) {
        let width = width
        inBands(of: Self.bandRows, sampler, body) { painter, s, rows, lines in
            for columns in stride(from: 0, to: width, by: Self.tileWidth) {
                for row in rows { painter.body(s, row, columns..<min(columns + Self.tileWidth, width), lines + (row - rows.lowerBound) * width) }
            }
        }
    }

    /// `inTiles`, each row handed as `body(s, us, v, columns, line)`: `v` the
    /// texture coordinate of its pixels' centres, `us` every column's.
    func inTilesAtCentres(_ sampler: GLSampler,
                          _ body: (GLSampler, UnsafeBufferPointer<Float>, Float, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void) {
        let height = Float(height)
        sampler.columns { $0 }.withUnsafeBufferPointer { us in
            inTiles(sampler) { s, row, columns, line in body(s, us, 1 - (Float(row) + 0.5) / height, columns, line) }
        }
    }

    /// Runs `body(s, column, rows, band)` for every column of each band of
    /// 32 rows, `band` the band's first row and `s` its `sampler`, bands in
    /// parallel; then writes the band. For an effect whose samples move down
    /// a column together: each then reads down the pictures at one stride
    /// (`GLColumnSampler` loads its lines a few rows ahead).
    func inColumns(_ sampler: GLSampler, _ body: GLBandBody) {
        let width = width
        inBands(of: Self.columnBandRows, sampler, body) { painter, s, rows, lines in
            for column in 0..<width { painter.body(s, column, rows, lines) }
        }
    }

    /// Bands of `bandRows` rows in parallel: the band's pictures read, then
    /// `paint(painter, s, rows, lines)` with `body`, the band's sampler and
    /// scratch rows, then the band written.
    private func inBands(of bandRows: Int, _ sampler: GLSampler, _ body: GLBandBody,
                         _ paint: (GLPainter, GLSampler, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void) {
        let height = height
        withoutActuallyEscaping(body) { body in
            withoutActuallyEscaping(paint) { paint in
                let painter = GLPainter(body), band = GLBandPaint(paint)
                DispatchQueue.concurrentPerform(iterations: (height + bandRows - 1) / bandRows) { index in
                    let rows = (index * bandRows)..<min(height, (index + 1) * bandRows)
                    scratch.withBand { lines, pictures in
                        band.paint(painter, self.sampler(sampler, for: rows, in: pictures), rows, lines)
                        write(rows, from: lines)
                    }
                }
            }
        }
    }

    /// `sampler` for a band of `rows`: the pictures read band by band read
    /// for those rows into `pictures` (room for two).
    private func sampler(_ sampler: GLSampler, for rows: Range<Int>, in pictures: UnsafeMutablePointer<GLColour>) -> GLSampler {
        guard reads.from != nil || reads.to != nil else { return sampler }
        return GLSampler(from: reads.from?.read(rows, into: pictures) ?? sampler.from,
                         to: reads.to?.read(rows, into: pictures + scratch.bandSize) ?? sampler.to,
                         progress: sampler.progress, ratio: sampler.ratio)
    }

    /// Writes `rows` (starting on an even row), painted in `lines`, into the frame.
    private func write(_ rows: Range<Int>, from lines: UnsafeMutablePointer<GLColour>) {
        if frame.sampleBytes == 1 {
            write(rows, from: lines, as: UInt8.self)
        } else {
            write(rows, from: lines, as: UInt16.self)
        }
    }

    @inline(__always)
    private func write<Sample: FixedWidthInteger & UnsignedInteger>(_ rows: Range<Int>, from lines: UnsafeMutablePointer<GLColour>, as _: Sample.Type) {
        let conversion = GLCodes(matrix)
        for chromaRow in (rows.lowerBound / 2)..<((rows.upperBound + 1) / 2) {
            let us = frame.line(1, chromaRow, as: Sample.self), vs = frame.line(2, chromaRow, as: Sample.self)
            let pair = (2 * chromaRow)..<min(2 * chromaRow + 2, height)
            // Whole 2x2 blocks four pixels at once; a last odd row or column as the block has it.
            let wholeBlocks = pair.count == 2 ? width / 2 : 0
            let upper = lines + (pair.lowerBound - rows.lowerBound) * width, lower = upper + width
            let upperCodes = frame.line(0, pair.lowerBound, as: Sample.self)
            let lowerCodes = wholeBlocks > 0 ? frame.line(0, pair.lowerBound + 1, as: Sample.self) : upperCodes
            #if arch(x86_64)
            UnsafeRawPointer(upper).withMemoryRebound(to: Float.self, capacity: 4 * width) { upperFloats in
                UnsafeRawPointer(lower).withMemoryRebound(to: Float.self, capacity: 4 * width) { lowerFloats in
                    cffmpeg_gl_write_blocks(upperFloats, lowerFloats, wholeBlocks, conversion.codes, Sample.bitWidth > 8 ? 1 : 0,
                                            upperCodes, lowerCodes, us, vs)
                }
            }
            #else
            for chromaCol in 0..<wholeBlocks {
                let col = 2 * chromaCol
                let (lumas, chroma) = conversion.block(upper[col], upper[col + 1], lower[col], lower[col + 1])
                upperCodes[col] = Sample(truncatingIfNeeded: lumas[0]); upperCodes[col + 1] = Sample(truncatingIfNeeded: lumas[1])
                lowerCodes[col] = Sample(truncatingIfNeeded: lumas[2]); lowerCodes[col + 1] = Sample(truncatingIfNeeded: lumas[3])
                us[chromaCol] = Sample(truncatingIfNeeded: chroma[0]); vs[chromaCol] = Sample(truncatingIfNeeded: chroma[1])
            }
            #endif
            for chromaCol in wholeBlocks..<((width + 1) / 2) {
                // Summed as the block reads: its upper row left to right, then its lower.
                var sums = SIMD2<Float>(), count: Float = 0
                for row in pair {
                    let line = lines + (row - rows.lowerBound) * width, ys = frame.line(0, row, as: Sample.self)
                    for col in (2 * chromaCol)..<min(2 * chromaCol + 2, width) {
                        let (luma, cbcr) = conversion.pixel(line[col])
                        ys[col] = Sample(truncatingIfNeeded: luma)
                        sums += cbcr
                        count += 1
                    }
                }
                let chroma = conversion.chroma(sums, count: count)
                us[chromaCol] = Sample(truncatingIfNeeded: chroma[0]); vs[chromaCol] = Sample(truncatingIfNeeded: chroma[1])
            }
        }
    }
}

/// R'G'B' to Y'CbCr codes for a matrix: luma per pixel, chroma from the mean
/// of a block's own Cb and Cr, each rounded half up and clamped to the
/// sample's range. A NaN component (where the GLSL is undefined: a power of
/// a progress a curve takes below 0) is 0, as a GPU stores it. Alpha plays
/// no part.
private struct GLCodes {
    let kr: Float, kg: Float, kb: Float, cbScale: Float, crScale: Float
    let scale: Float, top: Float

    init(_ matrix: GLColourMatrix) {
        kr = matrix.kr; kg = matrix.kg; kb = matrix.kb
        cbScale = 1 / (2 * (1 - matrix.kb)); crScale = 1 / (2 * (1 - matrix.kr))
        scale = matrix.scale; top = matrix.maxCode
    }

    /// A whole 2x2 block (upper left, upper right, lower left, lower right):
    /// its four luma codes in that order, and its Cb and Cr codes.
    @inline(__always)
    func block(_ a: GLColour, _ b: GLColour, _ c: GLColour, _ d: GLColour) -> (lumas: SIMD4<UInt32>, chroma: SIMD2<UInt32>) {
        let red = stored(SIMD4(a.x, b.x, c.x, d.x)), green = stored(SIMD4(a.y, b.y, c.y, d.y)), blue = stored(SIMD4(a.z, b.z, c.z, d.z))
        let lumas = red * kr + green * kg + blue * kb
        let cbs = (blue - lumas) * cbScale, crs = (red - lumas) * crScale
        // Summed as the block reads: its upper row left to right, then its lower.
        let sums = SIMD2(cbs[0], crs[0]) + SIMD2(cbs[1], crs[1]) + SIMD2(cbs[2], crs[2]) + SIMD2(cbs[3], crs[3])
        return (codes(16 * scale + 219 * scale * lumas), codes(128 * scale + 224 * scale * (sums / 4)))
    }

    #if arch(x86_64)
    /// The matrix and range as `cffmpeg_gl_write_blocks` takes them.
    var codes: cffmpeg_gl_codes {
        cffmpeg_gl_codes(kr: kr, kg: kg, kb: kb, cb_scale: cbScale, cr_scale: crScale, luma_offset: 16 * scale, luma_step: 219 * scale,
                         chroma_offset: 128 * scale, chroma_step: 224 * scale, top: top)
    }
    #endif

    /// A pixel's luma and its share of its block's Cb and Cr.
    @inline(__always)
    func pixel(_ colour: GLColour) -> (luma: UInt32, cbcr: SIMD2<Float>) {
        let colour = stored(colour), luma = colour.x * kr + colour.y * kg + colour.z * kb
        let code: SIMD2<UInt32> = codes(SIMD2(16 * scale + 219 * scale * luma, 0))
        return (code[0], SIMD2((colour.z - luma) * cbScale, (colour.x - luma) * crScale))
    }

    /// The Cb and Cr codes of a block's summed shares over `count` pixels.
    @inline(__always)
    func chroma(_ sums: SIMD2<Float>, count: Float) -> SIMD2<UInt32> { codes(128 * scale + 224 * scale * (sums / count)) }

    /// Components as a GPU stores them: a NaN as 0.
    @inline(__always)
    private func stored(_ components: SIMD4<Float>) -> SIMD4<Float> { components.replacing(with: 0, where: components .!= components) }

    /// Each lane's code: rounded half up, clamped to 0...top, a NaN to 0.
    @inline(__always)
    private func codes<Vector: SIMD, Bits: SIMD>(_ value: Vector) -> Bits where Vector.Scalar == Float, Bits.Scalar == UInt32 {
        let code = value + 0.5
        let above = code.replacing(with: 0, where: .!(code .> 0))
        return GLSL.floorAndFraction(above.replacing(with: top, where: .!(above .< top)), Bits.self).0
    }
}

/// An effect's paint body handed to the lanes.
/// SAFETY: `inBands` returns only when every lane has, and the body it wraps
/// writes only the row (`inTiles`) or the column of the band (`inColumns`) it is given.
private struct GLPainter: @unchecked Sendable {
    let body: GLBandBody
    init(_ body: @escaping GLBandBody) { self.body = body }
}

/// How a band is painted, handed to the lanes (as GLPainter).
/// SAFETY: as GLPainter's: each band paints only its own scratch rows.
private struct GLBandPaint: @unchecked Sendable {
    let paint: (GLPainter, GLSampler, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void
    init(_ paint: @escaping (GLPainter, GLSampler, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void) { self.paint = paint }
}

/// A frame's three planes and their strides, for the bands of a conversion.
/// SAFETY: the frame outlives the conversion (one `draw`), and each band
/// reads or writes only its own rows of luma and chroma.
struct GLFramePlanes: @unchecked Sendable {
    let sampleBytes: Int
    private let planes: [UnsafeMutablePointer<UInt8>], strides: [Int]

    init(_ frame: Frame) {
        sampleBytes = frame.sampleBytes
        planes = (0..<3).map { plane in
            guard let data = frame.dataPointer(plane) else { preconditionFailure("GLFramePlanes needs a frame with three planes of data") }
            return data
        }
        strides = (0..<3).map { frame.lineSize($0) }
    }

    /// Row `row` of plane `plane` as samples.
    @inline(__always)
    func line<Sample>(_ plane: Int, _ row: Int, as _: Sample.Type) -> UnsafeMutablePointer<Sample> {
        UnsafeMutableRawPointer(planes[plane] + row * strides[plane]).assumingMemoryBound(to: Sample.self)
    }
}
