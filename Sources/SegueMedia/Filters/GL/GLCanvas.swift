import Dispatch
import Foundation
import SegueCore
import Synchronization

/// The rows an effect paints into before they become Y'CbCr: a band's worth
/// for each band painted at once, kept from frame to frame (a whole R'G'B'
/// picture would go out to memory and come back for the conversion).
/// SAFETY: `rows` is owned here, allocated for `slots * GLCanvas.bandRows *
/// width` colours and freed on deinit; a slot is lent to one band at a time.
final class GLScratch: @unchecked Sendable {
    let width: Int
    private let slots: Int
    private let rows: UnsafeMutablePointer<GLColour>
    private let free: Mutex<[Int]>

    init(width: Int) {
        self.width = width
        // concurrentPerform paints on as many threads as there are cores.
        slots = ProcessInfo.processInfo.activeProcessorCount + 1
        rows = .allocate(capacity: slots * GLCanvas.bandRows * width)
        free = Mutex(Array(0..<slots))
    }

    deinit { rows.deallocate() }

    /// Runs `body` with a band's rows to itself: a free slot's, or (should
    /// more bands run at once than there are cores) rows of its own.
    func withBand<Result>(_ body: (UnsafeMutablePointer<GLColour>) -> Result) -> Result {
        guard let slot = free.withLock({ $0.popLast() }) else {
            let own = UnsafeMutablePointer<GLColour>.allocate(capacity: GLCanvas.bandRows * width)
            defer { own.deallocate() }
            return body(own)
        }
        defer { free.withLock { $0.append(slot) } }
        return body(rows + slot * GLCanvas.bandRows * width)
    }
}

/// Where an effect paints a frame: `inTiles` hands it each row's R'G'B'
/// pixels a tile of columns at a time, and each band of rows, once painted,
/// is written into `frame` as Y'CbCr codes, rounded half up and clamped to
/// the sample's range: luma per pixel, chroma from the mean of the 2x2
/// block's own Cb and Cr. Alpha is not drawn.
struct GLCanvas: Sendable {
    /// Rows a band spans (even, so that no 2x2 block straddles two bands).
    static let bandRows = 8
    /// Columns a tile spans: a warp's samples of one tile lie near each
    /// other in the pictures, so they stay in the caches.
    static let tileWidth = 64

    let width: Int, height: Int
    private let scratch: GLScratch
    private let frame: GLFramePlanes, matrix: GLColourMatrix

    init(_ frame: Frame, matrix: GLColourMatrix, scratch: GLScratch) {
        precondition(frame.width == scratch.width && frame.planeCount >= 3 && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1),
                     "GLCanvas(_:matrix:scratch:) needs a planar frame of the scratch's width and the matrix's depth")
        width = frame.width; height = frame.height
        self.scratch = scratch; self.matrix = matrix
        self.frame = GLFramePlanes(frame)
    }

    /// Runs `body(row, columns, line)` for every row 64 columns at a time,
    /// `line` the row's first pixel, bands of rows in parallel; then writes the band.
    func inTiles(_ body: (Int, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void) {
        let width = width, height = height, bandRows = Self.bandRows
        withoutActuallyEscaping(body) { body in
            let painter = GLPainter(body)
            DispatchQueue.concurrentPerform(iterations: (height + bandRows - 1) / bandRows) { band in
                let rows = (band * bandRows)..<min(height, (band + 1) * bandRows)
                scratch.withBand { lines in
                    for columns in stride(from: 0, to: width, by: Self.tileWidth) {
                        for row in rows { painter.body(row, columns..<min(columns + Self.tileWidth, width), lines + (row - rows.lowerBound) * width) }
                    }
                    write(rows, from: lines)
                }
            }
        }
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
        let s = matrix.scale, top = matrix.maxCode
        let weights = GLColour(matrix.kr, matrix.kg, matrix.kb, 0)
        let cbScale = 1 / (2 * (1 - matrix.kb)), crScale = 1 / (2 * (1 - matrix.kr))
        // Clamped to 0...top (a NaN to 0), then floored.
        @inline(__always) func code(_ value: Float) -> Sample {
            let code = value + 0.5
            return Sample(truncatingIfNeeded: GLSL.floorAndFraction(code > 0 ? (code < top ? code : top) : 0).0)
        }
        for chromaRow in (rows.lowerBound / 2)..<((rows.upperBound + 1) / 2) {
            let us = frame.line(1, chromaRow, as: Sample.self), vs = frame.line(2, chromaRow, as: Sample.self)
            let pair = (2 * chromaRow)..<min(2 * chromaRow + 2, height)
            for chromaCol in 0..<((width + 1) / 2) {
                // Summed as the block reads: its upper row left to right, then its lower.
                var cb: Float = 0, cr: Float = 0, count: Float = 0
                for row in pair {
                    let line = lines + (row - rows.lowerBound) * width, ys = frame.line(0, row, as: Sample.self)
                    for col in (2 * chromaCol)..<min(2 * chromaCol + 2, width) {
                        let colour = line[col]
                        let luma = (colour * weights).sum()
                        ys[col] = code(16 * s + 219 * s * luma)
                        cb += (colour.z - luma) * cbScale
                        cr += (colour.x - luma) * crScale
                        count += 1
                    }
                }
                us[chromaCol] = code(128 * s + 224 * s * (cb / count))
                vs[chromaCol] = code(128 * s + 224 * s * (cr / count))
            }
        }
    }
}

/// An effect's paint body handed to the lanes.
/// SAFETY: `inTiles` returns only when every lane has, and the body it wraps
/// writes only the row it is given.
private struct GLPainter: @unchecked Sendable {
    let body: (Int, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void
    init(_ body: @escaping (Int, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void) { self.body = body }
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
