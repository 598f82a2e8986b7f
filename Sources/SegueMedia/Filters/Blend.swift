import CFFmpeg

/// The only per-pixel code: transition pictures made from whole planes of two
/// same-sized planar 8-bit frames (the canvas format, yuv420p).
extension Frame {
    /// A cross-dissolve: `(a * (256 - weight) + b * weight) / 256` on every sample,
    /// in integer maths so the compiler can vectorise the row loop.
    package static func blend(_ a: Frame, _ b: Frame, weight: Int, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "blend(_:_:weight:into:) needs pictures of one size and format")
        precondition(output.isPlanar8Bit && output.planeCount >= 3, "blend(_:_:weight:into:) works on three 8-bit planes")
        let weightB = UInt16(max(0, min(256, weight)))
        let weightA = 256 - weightB
        for plane in 0..<3 {
            let (width, height) = output.planeSize(plane)
            guard let source1 = a.dataPointer(plane), let source2 = b.dataPointer(plane),
                  let destination = output.dataPointer(plane) else { continue }
            let stride1 = a.lineSize(plane), stride2 = b.lineSize(plane), strideOut = output.lineSize(plane)
            for row in 0..<height {
                let rowA = source1 + row * stride1, rowB = source2 + row * stride2, rowOut = destination + row * strideOut
                for x in 0..<width {
                    let mixed = UInt16(rowA[x]) &* weightA &+ UInt16(rowB[x]) &* weightB &+ 128
                    rowOut[x] = UInt8(truncatingIfNeeded: mixed >> 8)
                }
            }
        }
    }

    package enum SlideDirection: Sendable { case left, right, up, down }

    /// The next picture `b` pushing `a` out towards `direction` by `fraction` of
    /// the picture (0 shows only a, 1 only b): two row copies per row.
    package static func slide(_ a: Frame, _ b: Frame, fraction: Double, direction: SlideDirection, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "slide(_:_:fraction:direction:into:) needs pictures of one size and format")
        precondition(output.isPlanar8Bit && output.planeCount >= 3, "slide(_:_:fraction:direction:into:) works on three 8-bit planes")
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
                        ro.update(from: ra + shift, count: width - shift)
                        (ro + width - shift).update(from: rb, count: shift)
                    } else {
                        ro.update(from: rb + width - shift, count: shift)
                        (ro + shift).update(from: ra, count: width - shift)
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
                    ro.update(from: fromA ? pa + sourceRow * sa : pb + sourceRow * sb, count: width)
                }
            }
        }
    }
}
