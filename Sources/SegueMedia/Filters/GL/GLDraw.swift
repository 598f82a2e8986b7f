import SegueCore

/// The gl-transitions effects, drawn on the CPU: both pictures converted to
/// R'G'B' floats once, the effect evaluated at every output pixel's centre
/// (bands of rows in parallel), and the result converted back to 4:2:0.
extension Frame {
    /// `transition` at `progress` (clamped to 0...1) from `a` (the outgoing
    /// picture) to `b`, drawn into `output`; `matrix` is the canvas's.
    package static func gl(_ a: Frame, _ b: Frame, transition: GLTransition, progress: Double, matrix: GLColourMatrix, into output: Frame) {
        precondition(a.isShaped(like: output) && b.isShaped(like: output), "gl(_:_:transition:progress:matrix:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "gl(_:_:transition:progress:matrix:into:) works on three planar 8- or 16-bit planes")
        let sampler = GLSampler(from: GLPicture(a, matrix: matrix), to: GLPicture(b, matrix: matrix),
                                progress: Float(max(0, min(1, progress))), ratio: Float(output.width) / Float(output.height))
        let picture = GLPicture(width: output.width, height: output.height)
        transition.effect.shader.init(transition).paint(picture, sampler)
        picture.write(into: output, matrix: matrix)
    }
}

/// What an effect's GLSL reads besides its own uniforms: the two textures,
/// `progress` and `ratio`.
struct GLSampler: Sendable {
    let from: GLPicture, to: GLPicture
    /// The effect's `progress`, 0 (all `from`) to 1.
    let progress: Float
    /// The picture's width over its height.
    let ratio: Float

    @inline(__always) func fromColor(_ p: GLPoint) -> GLColour { from.sample(p.x, p.y) }
    @inline(__always) func toColor(_ p: GLPoint) -> GLColour { to.sample(p.x, p.y) }
}

/// One gl-transitions effect: its uniforms read once from a `GLTransition`,
/// its GLSL `transition(uv)` as `colour(_:_:)`.
protocol GLShader: Sendable {
    init(_ transition: GLTransition)
    /// The effect's colour at texture coordinates `uv` (origin bottom left).
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour
    /// Evaluates the effect at every pixel of `picture` (a requirement, so
    /// each effect gets its own specialised loop).
    func paint(_ picture: GLPicture, _ sampler: GLSampler)
}

extension GLShader {
    func paint(_ picture: GLPicture, _ sampler: GLSampler) {
        let width = picture.width, height = picture.height
        picture.inBands(height) { rows in
            for row in rows {
                let v = 1 - (Float(row) + 0.5) / Float(height)
                let line = picture.pixels + row * width
                for col in 0..<width {
                    line[col] = colour(GLPoint((Float(col) + 0.5) / Float(width), v), sampler)
                }
            }
        }
    }
}
