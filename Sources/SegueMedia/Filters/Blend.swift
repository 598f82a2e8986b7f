internal import CFFmpeg
import SegueCore

/// The only per-pixel code: transition pictures made from whole planes of two
/// same-sized planar frames of the canvas format (yuv420p, or yuv420p10le for
/// 10-bit output: one or two bytes a sample).
extension Frame {
    /// A cross-dissolve: `(a * (256 - weight) + b * weight) / 256` on every sample,
    /// in integer maths so the compiler can vectorise the row loop.
    package static func blend(_ a: Frame, _ b: Frame, weight: Int, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "blend(_:_:weight:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "blend(_:_:weight:into:) works on three planar 8- or 16-bit planes")
        let weightB = UInt32(max(0, min(256, weight)))
        // 8-bit sums fit 16 bits, so the row loop vectorises twice as wide.
        if output.sampleBytes == 1 {
            blendPlanes(a, b, weight: UInt16(weightB), into: output, as: UInt8.self)
        } else {
            blendPlanes(a, b, weight: weightB, into: output, as: UInt16.self)
        }
    }

    private static func blendPlanes<Sample: FixedWidthInteger & UnsignedInteger, Sum: FixedWidthInteger & UnsignedInteger>(
        _ a: Frame, _ b: Frame, weight weightB: Sum, into output: Frame, as _: Sample.Type
    ) {
        let weightA = 256 - weightB
        for plane in 0..<3 {
            let (width, height) = output.planeSize(plane)
            guard let source1 = a.dataPointer(plane), let source2 = b.dataPointer(plane),
                  let destination = output.dataPointer(plane) else { continue }
            let stride1 = a.lineSize(plane), stride2 = b.lineSize(plane), strideOut = output.lineSize(plane)
            for row in 0..<height {
                let rowA = UnsafeRawPointer(source1 + row * stride1).assumingMemoryBound(to: Sample.self)
                let rowB = UnsafeRawPointer(source2 + row * stride2).assumingMemoryBound(to: Sample.self)
                let rowOut = UnsafeMutableRawPointer(destination + row * strideOut).assumingMemoryBound(to: Sample.self)
                for x in 0..<width {
                    let mixed = Sum(rowA[x]) &* weightA &+ Sum(rowB[x]) &* weightB &+ 128
                    rowOut[x] = Sample(truncatingIfNeeded: mixed >> 8)
                }
            }
        }
    }

    /// The next picture `b` pushing `a` out towards `direction` by `fraction` of
    /// the picture (0 shows only a, 1 only b): two row copies per row.
    package static func slide(_ a: Frame, _ b: Frame, fraction: Double, direction: SlideDirection, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "slide(_:_:fraction:direction:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "slide(_:_:fraction:direction:into:) works on three planar 8- or 16-bit planes")
        let bytes = output.sampleBytes
        let horizontal = direction == .left || direction == .right
        // Whole luma pixels, even so that 4:2:0 chroma moves by whole samples too.
        let extent = horizontal ? output.width : output.height
        let lumaShift = min(extent, max(0, Int((Double(extent) * fraction / 2).rounded()) * 2))
        for plane in 0..<3 {
            let (width, height) = output.planeSize(plane)
            let planeExtent = horizontal ? width : height
            let shift = plane == 0 ? lumaShift : min(planeExtent, lumaShift * planeExtent / max(extent, 1))
            guard let pa = a.dataPointer(plane), let pb = b.dataPointer(plane),
                  let po = output.dataPointer(plane) else { continue }
            let sa = a.lineSize(plane), sb = b.lineSize(plane), so = output.lineSize(plane)
            switch direction {
            case .left, .right:
                // left: a's right part moves to the left edge, b's left part fills the right.
                for row in 0..<height {
                    let ra = pa + row * sa, rb = pb + row * sb, ro = po + row * so
                    if direction == .left {
                        ro.update(from: ra + shift * bytes, count: (width - shift) * bytes)
                        (ro + (width - shift) * bytes).update(from: rb, count: shift * bytes)
                    } else {
                        ro.update(from: rb + (width - shift) * bytes, count: shift * bytes)
                        (ro + shift * bytes).update(from: ra, count: (width - shift) * bytes)
                    }
                }
            case .up, .down:
                for row in 0..<height {
                    let ro = po + row * so
                    let fromA: Bool, sourceRow: Int
                    if direction == .up {
                        fromA = row < height - shift
                        sourceRow = fromA ? row + shift : row - (height - shift)
                    } else {
                        fromA = row >= shift
                        sourceRow = fromA ? row - shift : row + (height - shift)
                    }
                    ro.update(from: fromA ? pa + sourceRow * sa : pb + sourceRow * sb, count: width * bytes)
                }
            }
        }
    }
}
