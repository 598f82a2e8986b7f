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

/// A picture as three planes of R'G'B' floats (0...1 for the limited range's
/// black to white, not clamped: a picture an effect shows unmoved comes back
/// as the codes it came in), rows from the top, for a gl-transitions effect to
/// sample as a GL texture with LINEAR filtering and CLAMP_TO_EDGE wrapping.
struct GLPicture {
    let width: Int, height: Int
    var red: [Float], green: [Float], blue: [Float]

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        red = [Float](repeating: 0, count: width * height)
        green = red; blue = red
    }

    /// Colour at texture coordinates `u`, `v` (origin at the bottom left),
    /// bilinear between the four nearest pixel centres, edges repeated.
    @inline(__always)
    func sample(_ u: Float, _ v: Float) -> SIMD3<Float> {
        let x = min(max(u * Float(width) - 0.5, -1), Float(width))
        let y = min(max((1 - v) * Float(height) - 0.5, -1), Float(height))
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        let c0 = min(max(Int(x0), 0), width - 1), c1 = min(max(Int(x0) + 1, 0), width - 1)
        let r0 = min(max(Int(y0), 0), height - 1) * width, r1 = min(max(Int(y0) + 1, 0), height - 1) * width
        let top = pixel(r0 + c0) * (1 - fx) + pixel(r0 + c1) * fx
        let bottom = pixel(r1 + c0) * (1 - fx) + pixel(r1 + c1) * fx
        return top * (1 - fy) + bottom * fy
    }

    @inline(__always)
    func pixel(_ index: Int) -> SIMD3<Float> { SIMD3(red[index], green[index], blue[index]) }
}

extension GLPicture {
    /// `frame`'s pictures as R'G'B': each pixel takes the chroma sample of its
    /// 2x2 block (nearest; 4:2:0 chroma sits once per block).
    init(_ frame: Frame, matrix: GLColourMatrix) {
        precondition(frame.planeCount >= 3 && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1),
                     "GLPicture(_:matrix:) reads planar 4:2:0 frames of the matrix's bit depth")
        self.init(width: frame.width, height: frame.height)
        if frame.sampleBytes == 1 {
            read(frame, matrix: matrix, as: UInt8.self)
        } else {
            read(frame, matrix: matrix, as: UInt16.self)
        }
    }

    private mutating func read<Sample: FixedWidthInteger & UnsignedInteger>(_ frame: Frame, matrix: GLColourMatrix, as _: Sample.Type) {
        guard let yPlane = frame.dataPointer(0), let uPlane = frame.dataPointer(1), let vPlane = frame.dataPointer(2) else { return }
        let s = matrix.scale, kg = matrix.kg
        let yStride = frame.lineSize(0), uStride = frame.lineSize(1), vStride = frame.lineSize(2)
        for row in 0..<height {
            let ys = UnsafeRawPointer(yPlane + row * yStride).assumingMemoryBound(to: Sample.self)
            let us = UnsafeRawPointer(uPlane + row / 2 * uStride).assumingMemoryBound(to: Sample.self)
            let vs = UnsafeRawPointer(vPlane + row / 2 * vStride).assumingMemoryBound(to: Sample.self)
            for col in 0..<width {
                let luma = (Float(ys[col]) - 16 * s) / (219 * s)
                let cb = (Float(us[col / 2]) - 128 * s) / (224 * s)
                let cr = (Float(vs[col / 2]) - 128 * s) / (224 * s)
                let r = luma + 2 * (1 - matrix.kr) * cr
                let b = luma + 2 * (1 - matrix.kb) * cb
                let index = row * width + col
                red[index] = r; blue[index] = b
                green[index] = (luma - matrix.kr * r - matrix.kb * b) / kg
            }
        }
    }

    /// Writes the picture into `frame` as Y'CbCr codes, rounded half up and
    /// clamped to the sample's range: luma per pixel, chroma from the mean of
    /// the 2x2 block's own Cb and Cr.
    func write(into frame: Frame, matrix: GLColourMatrix) {
        precondition(frame.width == width && frame.height == height && frame.planeCount >= 3
                     && frame.sampleBytes == (matrix.bits > 8 ? 2 : 1), "write(into:matrix:) needs a frame of the picture's size and depth")
        if frame.sampleBytes == 1 {
            store(into: frame, matrix: matrix, as: UInt8.self)
        } else {
            store(into: frame, matrix: matrix, as: UInt16.self)
        }
    }

    private func store<Sample: FixedWidthInteger & UnsignedInteger>(into frame: Frame, matrix: GLColourMatrix, as _: Sample.Type) {
        guard let yPlane = frame.dataPointer(0), let uPlane = frame.dataPointer(1), let vPlane = frame.dataPointer(2) else { return }
        let s = matrix.scale, top = matrix.maxCode, kg = matrix.kg
        func code(_ value: Float) -> Sample { Sample(min(max((value + 0.5).rounded(.down), 0), top)) }
        for row in 0..<height {
            let ys = UnsafeMutableRawPointer(yPlane + row * frame.lineSize(0)).assumingMemoryBound(to: Sample.self)
            for col in 0..<width {
                let index = row * width + col
                let luma = matrix.kr * red[index] + kg * green[index] + matrix.kb * blue[index]
                ys[col] = code(16 * s + 219 * s * luma)
            }
        }
        let (chromaWidth, chromaHeight) = frame.planeSize(1)
        for chromaRow in 0..<chromaHeight {
            let us = UnsafeMutableRawPointer(uPlane + chromaRow * frame.lineSize(1)).assumingMemoryBound(to: Sample.self)
            let vs = UnsafeMutableRawPointer(vPlane + chromaRow * frame.lineSize(2)).assumingMemoryBound(to: Sample.self)
            for chromaCol in 0..<chromaWidth {
                var cb: Float = 0, cr: Float = 0, count: Float = 0
                for row in (2 * chromaRow)..<min(2 * chromaRow + 2, height) {
                    for col in (2 * chromaCol)..<min(2 * chromaCol + 2, width) {
                        let index = row * width + col
                        let luma = matrix.kr * red[index] + kg * green[index] + matrix.kb * blue[index]
                        cb += (blue[index] - luma) / (2 * (1 - matrix.kb))
                        cr += (red[index] - luma) / (2 * (1 - matrix.kr))
                        count += 1
                    }
                }
                us[chromaCol] = code(128 * s + 224 * s * (cb / count))
                vs[chromaCol] = code(128 * s + 224 * s * (cr / count))
            }
        }
    }
}
