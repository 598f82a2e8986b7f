import Dispatch
import SegueCore

/// The gl-transitions effects, drawn on the CPU: both pictures converted to
/// R'G'B' floats once, the effect evaluated at every output pixel's centre
/// (rows in parallel), and the result converted back to 4:2:0.
extension Frame {
    /// `effect` at `progress` (clamped to 0...1) from `a` (the outgoing
    /// picture) to `b`, drawn into `output`; `matrix` is the canvas's.
    package static func gl(_ a: Frame, _ b: Frame, effect: GLEffect, progress: Double, matrix: GLColourMatrix, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "gl(_:_:effect:progress:matrix:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "gl(_:_:effect:progress:matrix:into:) works on three planar 8- or 16-bit planes")
        let sampler = GLSampler(from: GLPicture(a, matrix: matrix), to: GLPicture(b, matrix: matrix),
                                progress: Float(max(0, min(1, progress))))
        var picture = GLPicture(width: output.width, height: output.height)
        effect.paint(&picture, sampler)
        picture.write(into: output, matrix: matrix)
    }
}

extension GLEffect {
    /// Evaluates the effect at every pixel of `picture`, bands of rows in parallel.
    fileprivate func paint(_ picture: inout GLPicture, _ sampler: GLSampler) {
        let width = picture.width, height = picture.height
        let bands = min(height, 16)
        picture.red.withUnsafeMutableBufferPointer { red in
            picture.green.withUnsafeMutableBufferPointer { green in
                picture.blue.withUnsafeMutableBufferPointer { blue in
                    let planes = GLBands(red: red, green: green, blue: blue)
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        for row in (band * height / bands)..<((band + 1) * height / bands) {
                            let v = 1 - (Float(row) + 0.5) / Float(height)
                            for col in 0..<width {
                                let colour = self.colour((Float(col) + 0.5) / Float(width), v, sampler)
                                let index = row * width + col
                                planes.red[index] = colour.x; planes.green[index] = colour.y; planes.blue[index] = colour.z
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The output planes handed to the bands of `paint`.
/// SAFETY: each band writes only its own rows, the buffers outlive
/// `concurrentPerform` (which returns when every band has), and nothing reads
/// them until then.
private struct GLBands: @unchecked Sendable {
    let red: UnsafeMutableBufferPointer<Float>, green: UnsafeMutableBufferPointer<Float>, blue: UnsafeMutableBufferPointer<Float>
}
