#if canImport(Glibc)
import Glibc
#endif
import SegueCore

/// FFmpeg 6.1's newer xfade transitions (cover, reveal and wind shapes), which
/// Debian's 5.1 xfade lacks, drawn here sample by sample as 6.1's
/// `vf_xfade.c` draws them: in its float arithmetic, on each plane of the
/// picture with that plane's own size (so 4:2:0 chroma moves by its own
/// columns and rows), for one or two bytes a sample.
extension Frame {
    /// The picture of `shape` at `progress` (0: all `a`, the outgoing picture;
    /// 1: all `b`; clamped to 0...1) drawn into `output`.
    package static func shape(_ a: Frame, _ b: Frame, shape: TransitionShape, progress: Double, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "shape(_:_:shape:progress:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "shape(_:_:shape:progress:into:) works on three planar 8- or 16-bit planes")
        // xfade's own progress, in its float: 1 shows only a, 0 only b.
        let xfadeProgress = 1 - Float(max(0, min(1, progress)))
        for plane in 0..<3 {
            guard let planes = ShapePlanes(a, b, output, plane: plane) else { continue }
            if output.sampleBytes == 1 {
                planes.draw(shape, progress: xfadeProgress, as: UInt8.self)
            } else {
                planes.draw(shape, progress: xfadeProgress, as: UInt16.self)
            }
        }
    }
}

/// One plane of the outgoing (`a`), incoming (`b`) and output pictures.
private struct ShapePlanes {
    let a: UnsafeMutablePointer<UInt8>, b: UnsafeMutablePointer<UInt8>, out: UnsafeMutablePointer<UInt8>
    let strideA: Int, strideB: Int, strideOut: Int
    let width: Int, height: Int

    init?(_ frameA: Frame, _ frameB: Frame, _ output: Frame, plane: Int) {
        guard let a = frameA.dataPointer(plane), let b = frameB.dataPointer(plane),
              let out = output.dataPointer(plane) else { return nil }
        self.a = a; self.b = b; self.out = out
        strideA = frameA.lineSize(plane); strideB = frameB.lineSize(plane); strideOut = output.lineSize(plane)
        (width, height) = output.planeSize(plane)
    }

    func rowA<Sample>(_ row: Int, _: Sample.Type) -> UnsafePointer<Sample> {
        UnsafeRawPointer(a + row * strideA).assumingMemoryBound(to: Sample.self)
    }

    func rowB<Sample>(_ row: Int, _: Sample.Type) -> UnsafePointer<Sample> {
        UnsafeRawPointer(b + row * strideB).assumingMemoryBound(to: Sample.self)
    }

    func rowOut<Sample>(_ row: Int, _: Sample.Type) -> UnsafeMutablePointer<Sample> {
        UnsafeMutableRawPointer(out + row * strideOut).assumingMemoryBound(to: Sample.self)
    }

    /// `progress` is xfade's (1: all a, 0: all b).
    func draw<Sample: FixedWidthInteger & UnsignedInteger>(_ shape: TransitionShape, progress: Float, as type: Sample.Type) {
        switch shape {
        case .coverleft: horizontal(offset: Int(-progress * Float(width)), cover: true, as: type)
        case .coverright: horizontal(offset: Int(progress * Float(width)), cover: true, as: type)
        case .revealleft: horizontal(offset: Int(-progress * Float(width)), cover: false, as: type)
        case .revealright: horizontal(offset: Int(progress * Float(width)), cover: false, as: type)
        case .coverup: vertical(offset: Int(-progress * Float(height)), cover: true, as: type)
        case .coverdown: vertical(offset: Int(progress * Float(height)), cover: true, as: type)
        case .revealup: vertical(offset: Int(-progress * Float(height)), cover: false, as: type)
        case .revealdown: vertical(offset: Int(progress * Float(height)), cover: false, as: type)
        case .hlwind: horizontalWind(fromRight: true, progress: progress, as: type)
        case .hrwind: horizontalWind(fromRight: false, progress: progress, as: type)
        case .vuwind: verticalWind(fromBottom: true, progress: progress, as: type)
        case .vdwind: verticalWind(fromBottom: false, progress: progress, as: type)
        }
    }

    /// xfade's coverleft/right (b moves in over a still a) and revealleft/right
    /// (a moves out over a still b): column `x` shows the moving picture's
    /// column `x + offset` where that lies inside the picture.
    private func horizontal<Sample: FixedWidthInteger & UnsignedInteger>(offset: Int, cover: Bool, as type: Sample.Type) {
        for row in 0..<height {
            let ra = rowA(row, type), rb = rowB(row, type), ro = rowOut(row, type)
            for x in 0..<width {
                let moved = offset + x
                // C's `moved % width + width * (moved < 0)`, except that a whole
                // width back wraps to column 0 (C reads one past the row there).
                let wrapped = (moved % width + width) % width
                let inside = moved >= 0 && moved < width
                if cover {
                    ro[x] = inside ? rb[wrapped] : ra[x]
                } else {
                    ro[x] = inside ? rb[x] : ra[wrapped]
                }
            }
        }
    }

    /// xfade's coverup/down and revealup/down: whole rows, as `horizontal` does columns.
    private func vertical<Sample: FixedWidthInteger & UnsignedInteger>(offset: Int, cover: Bool, as type: Sample.Type) {
        for row in 0..<height {
            let moved = offset + row
            let wrapped = (moved % height + height) % height
            let inside = moved >= 0 && moved < height
            let source: UnsafePointer<Sample>
            if cover {
                source = inside ? rowB(wrapped, type) : rowA(row, type)
            } else {
                source = inside ? rowB(row, type) : rowA(wrapped, type)
            }
            rowOut(row, type).update(from: source, count: width)
        }
    }

    /// xfade's hlwind (from the right edge leftwards) and hrwind: a soft edge
    /// ragged per row by `frand(0, y)`.
    private func horizontalWind<Sample: FixedWidthInteger & UnsignedInteger>(fromRight: Bool, progress: Float, as type: Sample.Type) {
        for row in 0..<height {
            let r = XfadeArithmetic.frand(0, row)
            let ra = rowA(row, type), rb = rowB(row, type), ro = rowOut(row, type)
            for x in 0..<width {
                let across = Float(x) / Float(width)
                let position = fromRight ? 1 - across : across
                ro[x] = XfadeArithmetic.wind(ra[x], rb[x], position: position, random: r, progress: progress)
            }
        }
    }

    /// xfade's vuwind (from the bottom upwards) and vdwind: ragged per column by `frand(x, 0)`.
    private func verticalWind<Sample: FixedWidthInteger & UnsignedInteger>(fromBottom: Bool, progress: Float, as type: Sample.Type) {
        for row in 0..<height {
            let down = Float(row) / Float(height)
            let position = fromBottom ? 1 - down : down
            let ra = rowA(row, type), rb = rowB(row, type), ro = rowOut(row, type)
            for x in 0..<width {
                let r = XfadeArithmetic.frand(x, 0)
                ro[x] = XfadeArithmetic.wind(ra[x], rb[x], position: position, random: r, progress: progress)
            }
        }
    }
}

/// vf_xfade.c's helpers, operation for operation in single precision (no
/// fused or reordered arithmetic: Swift keeps float expressions as written).
enum XfadeArithmetic {
    /// xfade's `frand(x, y)`: `r = sinf(x * 12.9898f + y * 78.233f) * 43758.545f; r - floorf(r)`.
    static func frand(_ x: Int, _ y: Int) -> Float {
        let r: Float = sinf(Float(x) * 12.9898 + Float(y) * 78.233) * 43758.545
        return r - floorf(r)
    }

    /// xfade's `smoothstep(edge0, edge1, x)`, its `av_clipf` included.
    static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        var t = (x - edge0) / (edge1 - edge0)
        if t < 0 { t = 0 } else if t > 1 { t = 1 }
        return t * t * (3 - 2 * t)
    }

    /// One sample of a wind shape: `mix(b, a, smoothstep(0, -0.2, position *
    /// (1 - 0.2) + 0.2 * random - (1 - progress) * (1 + 0.2)))`, `mix(x, y, m)`
    /// being `x * m + y * (1 - m)`, truncated to the sample type as C converts.
    static func wind<Sample: FixedWidthInteger & UnsignedInteger>(_ a: Sample, _ b: Sample, position: Float, random: Float,
                                                                  progress: Float) -> Sample {
        let keep: Float = 1 - 0.2, grow: Float = 1 + 0.2
        let edge = position * keep + 0.2 * random - (1 - progress) * grow
        let m = smoothstep(0, -0.2, edge)
        let mixed = Float(b) * m + Float(a) * (1 - m)
        return Sample(mixed)
    }
}
