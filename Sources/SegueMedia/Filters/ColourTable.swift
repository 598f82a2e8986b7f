internal import CFFmpeg
import Dispatch

/// A colour conversion of 4:2:0 Y'CbCr pictures as two tables over the
/// source's codes, applied in one pass with no RGB picture in between: each
/// output sample comes from its own luma and its 2x2 block's chroma. The
/// tables are computed by the caller (SegueKit's colour maths); this type
/// only looks them up.
///
/// Chroma is a grid of `gridPoints` a side over the 10-bit codes 0...1024,
/// interpolated bilinearly; luma is exact, one entry per 10-bit code.
/// Entries are output codes (8-bit) times 256.
package struct ColourTable: Sendable {
    /// Points per side of the chroma grid: a cell is 32 10-bit codes (as the
    /// lut3d cube's 33 points make), so a code's cell is a shift.
    package static let gridPoints = 33
    /// Output luma for each (Cr point, Cb point, luma code): `gridPoints² x 1024`.
    package let luma: [UInt16]
    /// Output Cb and Cr, interleaved, for each (Cr point, Cb point, luma code / 4): `gridPoints² x 256 x 2`.
    package let chroma: [UInt16]

    /// Luma codes the tables are indexed by (10-bit), and the chroma table's luma steps.
    package static let lumaCodes = 1024, chromaLumaSteps = 256

    package init(luma: [UInt16], chroma: [UInt16]) {
        let gridPoints = Self.gridPoints
        precondition(luma.count == gridPoints * gridPoints * Self.lumaCodes, "one luma entry per grid point and luma code")
        precondition(chroma.count == gridPoints * gridPoints * Self.chromaLumaSteps * 2, "two chroma entries per grid point and luma step")
        self.luma = luma
        self.chroma = chroma
    }
}

extension Frame {
    /// `source` (yuv420p10le or yuv420p) through `table` into `output`, a
    /// yuv420p picture of the same size; the rows are shared among `threads`.
    package static func convert(_ source: Frame, through table: ColourTable, into output: Frame, threads: Int = 1) {
        precondition(source.width == output.width && source.height == output.height, "convert(_:through:into:) keeps the size")
        precondition(source.pixelFormat == .yuv420p10 || source.pixelFormat == .yuv420p, "convert(_:through:into:) reads 4:2:0 at 10 or 8 bits")
        precondition(output.pixelFormat == .yuv420p, "convert(_:through:into:) writes yuv420p")
        let blockRows = (output.height + 1) / 2
        let parts = max(1, min(threads, blockRows / 16))
        table.luma.withUnsafeBufferPointer { luma in
            table.chroma.withUnsafeBufferPointer { chroma in
                let tables = TableView(luma: luma.baseAddress!, chroma: chroma.baseAddress!)
                // SAFETY: each part writes only its own block rows of `output`
                // and reads the tables and `source`, which nothing writes meanwhile.
                let work = UncheckedBox((source, output, tables))
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let (source, output, tables) = work.value
                    let rows = blockRows * part / parts..<blockRows * (part + 1) / parts
                    if source.pixelFormat == .yuv420p10 {
                        convertBlockRows(rows, source, output, tables, as: UInt16.self, toTenBits: 0)
                    } else {
                        convertBlockRows(rows, source, output, tables, as: UInt8.self, toTenBits: 2)
                    }
                }
            }
        }
    }

    /// Block rows `rows` (two luma rows, one chroma row each) of `source` into `output`.
    private static func convertBlockRows<Sample: FixedWidthInteger & UnsignedInteger>(
        _ rows: Range<Int>, _ source: Frame, _ output: Frame, _ tables: TableView, as _: Sample.Type, toTenBits: Int
    ) {
        let width = output.width, height = output.height
        let chromaWidth = (width + 1) / 2
        func row<T>(_ frame: Frame, _ plane: Int, _ y: Int, _: T.Type) -> UnsafeMutablePointer<T> {
            UnsafeMutableRawPointer(frame.dataPointer(plane)! + y * frame.lineSize(plane)).assumingMemoryBound(to: T.self)
        }
        for blockRow in rows {
            let top = 2 * blockRow, bottom = min(top + 1, height - 1)
            let y0 = row(source, 0, top, Sample.self), y1 = row(source, 0, bottom, Sample.self)
            let cb = row(source, 1, blockRow, Sample.self), cr = row(source, 2, blockRow, Sample.self)
            let out0 = row(output, 0, top, UInt8.self), out1 = row(output, 0, bottom, UInt8.self)
            let outCb = row(output, 1, blockRow, UInt8.self), outCr = row(output, 2, blockRow, UInt8.self)
            for block in 0..<chromaWidth {
                let left = 2 &* block, right = min(left &+ 1, width &- 1)
                let cell = tables.cell(cb: Int(cb[block]) &<< toTenBits, cr: Int(cr[block]) &<< toTenBits)
                let a = Int(y0[left]) &<< toTenBits, b = Int(y0[right]) &<< toTenBits
                let c = Int(y1[left]) &<< toTenBits, d = Int(y1[right]) &<< toTenBits
                // Written right before left and bottom before top, so an odd edge keeps its own sample.
                out0[right] = cell.luma(b); out0[left] = cell.luma(a)
                out1[right] = cell.luma(d); out1[left] = cell.luma(c)
                let chroma = cell.chroma((a &+ b &+ c &+ d) &>> 2)
                outCb[block] = chroma.cb
                outCr[block] = chroma.cr
            }
        }
    }
}

/// Where a block's chroma falls in the grid: its four corners' entries and
/// their weights (summing to 2^(2 x `TableView.shift`)).
private struct GridCell {
    let luma: UnsafePointer<UInt16>, chroma: UnsafePointer<UInt16>
    let w00: Int, w10: Int, w01: Int, w11: Int

    static let lumaRow = ColourTable.gridPoints * ColourTable.lumaCodes
    static let chromaStep = ColourTable.chromaLumaSteps * 2, chromaRow = ColourTable.gridPoints * chromaStep
    /// Weights times entries: 8 bits of fraction in each entry, 2 x shift in the weights.
    static let scale = 8 + 2 * TableView.shift

    /// The output luma (8-bit) for a 10-bit luma code.
    @inline(__always) func luma(_ code: Int) -> UInt8 {
        let base = luma + code, codes = ColourTable.lumaCodes, row = Self.lumaRow
        let sum = w00 &* Int(base[0]) &+ w10 &* Int(base[codes]) &+ w01 &* Int(base[row]) &+ w11 &* Int(base[row &+ codes])
        return UInt8(truncatingIfNeeded: (sum &+ (1 &<< (Self.scale - 1))) &>> Self.scale)
    }

    /// The output Cb and Cr (8-bit) for the block's mean 10-bit luma code.
    @inline(__always) func chroma(_ meanLuma: Int) -> (cb: UInt8, cr: UInt8) {
        let base = chroma + (meanLuma &>> 2) &* 2, step = Self.chromaStep, row = Self.chromaRow
        let cb = w00 &* Int(base[0]) &+ w10 &* Int(base[step]) &+ w01 &* Int(base[row]) &+ w11 &* Int(base[row &+ step])
        let cr = w00 &* Int(base[1]) &+ w10 &* Int(base[step &+ 1]) &+ w01 &* Int(base[row &+ 1]) &+ w11 &* Int(base[row &+ step &+ 1])
        let half = 1 &<< (Self.scale - 1)
        return (UInt8(truncatingIfNeeded: (cb &+ half) &>> Self.scale), UInt8(truncatingIfNeeded: (cr &+ half) &>> Self.scale))
    }
}

/// The tables as raw pointers, for the row loop.
private struct TableView {
    let luma: UnsafePointer<UInt16>, chroma: UnsafePointer<UInt16>
    /// A chroma cell is 2^shift 10-bit codes.
    static let shift = (ColourTable.lumaCodes / (ColourTable.gridPoints - 1)).trailingZeroBitCount

    @inline(__always) func cell(cb: Int, cr: Int) -> GridCell {
        let shift = Self.shift, last = ColourTable.gridPoints &- 2, size = 1 &<< shift
        let cbCell = min(cb &>> shift, last), crCell = min(cr &>> shift, last)
        let cbFraction = cb &- (cbCell &<< shift), crFraction = cr &- (crCell &<< shift)
        let offset = crCell &* ColourTable.gridPoints &+ cbCell
        return GridCell(luma: luma + offset &* ColourTable.lumaCodes, chroma: chroma + offset &* GridCell.chromaStep,
                        w00: (size &- cbFraction) &* (size &- crFraction), w10: cbFraction &* (size &- crFraction),
                        w01: (size &- cbFraction) &* crFraction, w11: cbFraction &* crFraction)
    }
}

/// A value carried into `concurrentPerform`'s closure, which must be Sendable.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
