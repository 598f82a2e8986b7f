import SegueCore

// The gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT)
// whose outgoing picture's colours come apart, each its GLSL
// `transition(uv)` with the uniforms a `GLTransition` sets. Authors:
// ButterflyWaveScrawler: mandubian; flyeye: gre.

/// Both pictures ripple along a butterfly curve, the outgoing one's colours apart.
struct GLButterflyWaveScrawler: GLShader {
    let amplitude: Float, waves: Float, colorSeparation: Float
    /// `sin(progress * amplitude)` at this frame's progress.
    private var scale: Float = 0
    /// Each column's four samples: `compute` reads only `p.x`, so every
    /// shift (across and up) is the column's own.
    private var samples: [GLFringe.Shifted] = []
    init(_ transition: GLTransition) {
        amplitude = transition.float("amplitude"); waves = transition.float("waves"); colorSeparation = transition.float("colorSeparation")
    }
    func prepared(for s: GLSampler) -> GLButterflyWaveScrawler {
        var prepared = self
        prepared.scale = GLSL.sin(s.progress * amplitude)
        prepared.samples = s.columns { u in
            let disp = prepared.compute(GLPoint(u, 0.5), s.progress)
            return GLFringe.Shifted(u, toShift: (1 - s.progress) * disp, fromShift: s.progress * disp, colorSeparation: colorSeparation, s)
        }
        return prepared
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        if s.progress <= 0 { return s.fromPixel(p) }
        if s.progress >= 1 { return s.toPixel(p) }
        return samples[s.column(p.x)].blend(row: s.row(p.y), progress: s.progress, s)
    }
    /// `colour` at every pixel, by column and row rather than coordinates,
    /// a column at a time: its four samples move down the pictures a row a pixel.
    func paint(_ canvas: GLCanvas, _ s: GLSampler) {
        let shown = s.progress <= 0 ? s.from : s.to, width = canvas.width
        canvas.inColumns(s) { s, col, rows, band in
            if s.progress > 0, s.progress < 1 {
                samples[col].blend(down: rows, progress: s.progress, s, into: band + col, width: width)
            } else {
                var pixel = band + col
                for row in rows {
                    pixel.pointee = shown.pixels[row * width + col]
                    pixel += width
                }
            }
        }
    }
    /// The butterfly polar function at `p` (its `x` alone: `o.y` is taken 0 times).
    private func compute(_ p: GLPoint, _ progress: Float) -> Float {
        let pi: Float = 3.14159265358979323846264
        let o = p * scale - GLPoint(0.5, 0.5)
        let theta = GLSL.acos(GLSL.dot(o, GLPoint(1, 0))) * waves
        let sn = GLSL.sin((2 * theta - pi) / 24)
        let s2 = sn * sn
        return (GLSL.exp(GLSL.cos(theta)) - 2 * GLSL.cos(4 * theta) + s2 * s2 * sn) / 10
    }
}

/// The blend ButterflyWaveScrawler and flyeye share: the incoming picture moved
/// by `toShift`, the outgoing one's red, green and blue by `fromShift` scaled
/// (1 - colorSeparation), 1 and (1 + colorSeparation).
/// Both effects shift a column's samples across by the same amounts, so
/// their taps across are worked out once a column.
enum GLFringe {
    /// The four samples' taps across for the column at `u`: the incoming
    /// picture's, then the outgoing one's red, green and blue.
    struct Taps {
        let to: GLTap, red: GLTap, green: GLTap, blue: GLTap
        init(_ u: Float, toShift: Float, fromShift: Float, colorSeparation: Float, _ s: GLSampler) {
            to = s.to.tap(u + toShift)
            red = s.from.tap(u + fromShift * (1 - colorSeparation))
            green = s.from.tap(u + fromShift)
            blue = s.from.tap(u + fromShift * (1 + colorSeparation))
        }
    }

    /// The four samples' taps down for the row at `v`, shifted up by
    /// `toShift` and `fromShift` scaled as across: for flyeye, whose shifts
    /// up are the row's own.
    struct Rows {
        let to: GLTap, red: GLTap, green: GLTap, blue: GLTap
        init(_ v: Float, toShift: Float, fromShift: Float, colorSeparation: Float, _ s: GLSampler) {
            to = s.to.rows(v + toShift)
            red = s.from.rows(v + fromShift * (1 - colorSeparation))
            green = s.from.rows(v + fromShift)
            blue = s.from.rows(v + fromShift * (1 + colorSeparation))
        }
    }

    /// The blend at the column of `across` and the row of `down`.
    @inline(__always)
    static func blend(_ across: Taps, _ down: Rows, progress: Float, _ s: GLSampler) -> GLColour {
        let texTo = s.to.sample(across.to, down.to)
        let red = s.from.sample(across.red, down.red).x
        let green = s.from.sample(across.green, down.green).y
        let blue = s.from.sample(across.blue, down.blue).z
        return mixed(texTo, red, green, blue, progress)
    }

    /// The incoming picture's colour and the outgoing one's channels, each from its own sample, cross-faded.
    @inline(__always)
    static func mixed(_ texTo: GLColour, _ red: Float, _ green: Float, _ blue: Float, _ progress: Float) -> GLColour {
        texTo * progress + GLColour(red, green, blue, 1) * (1 - progress)
    }

    /// A column's four samples whose shifts up are the column's own too
    /// (ButterflyWaveScrawler's): each sample's rows are the pixel's row
    /// moved by a whole number of rows, and its fraction the same all the way down.
    struct Shifted {
        let taps: Taps, to: GLRowShift, red: GLRowShift, green: GLRowShift, blue: GLRowShift
        init(_ u: Float, toShift: Float, fromShift: Float, colorSeparation: Float, _ s: GLSampler) {
            taps = Taps(u, toShift: toShift, fromShift: fromShift, colorSeparation: colorSeparation, s)
            to = s.to.shift(toShift)
            red = s.from.shift(fromShift * (1 - colorSeparation))
            green = s.from.shift(fromShift)
            blue = s.from.shift(fromShift * (1 + colorSeparation))
        }
        /// `blend` at the pixel in row `row` (from the top) of this column.
        @inline(__always)
        func blend(row: Int, progress: Float, _ s: GLSampler) -> GLColour {
            let texTo = s.to.sample(taps.to, s.to.rows(row, to))
            let red = s.from.sample(taps.red, s.from.rows(row, red)).x
            let green = s.from.sample(taps.green, s.from.rows(row, green)).y
            let blue = s.from.sample(taps.blue, s.from.rows(row, blue)).z
            return mixed(texTo, red, green, blue, progress)
        }
        /// `blend` at each row of `rows` down this column, written a row
        /// (`width` colours) apart from `pixel` on: each sample's blend
        /// across a row worked out once, not once for each of two pixels.
        @inline(__always)
        func blend(down rows: Range<Int>, progress: Float, _ s: GLSampler, into pixel: UnsafeMutablePointer<GLColour>, width: Int) {
            var toSamples = GLColumnSampler(), redSamples = GLColumnSampler()
            var greenSamples = GLColumnSampler(), blueSamples = GLColumnSampler()
            var pixel = pixel
            for row in rows {
                let texTo = toSamples.sample(s.to, taps.to, s.to.rows(row, to))
                let red = redSamples.sample(s.from, taps.red, s.from.rows(row, red)).x
                let green = greenSamples.sample(s.from, taps.green, s.from.rows(row, green)).y
                let blue = blueSamples.sample(s.from, taps.blue, s.from.rows(row, blue)).z
                pixel.pointee = mixed(texTo, red, green, blue, progress)
                pixel += width
            }
        }
    }
}

/// The outgoing picture pulled through a grid of lenses, its colours apart.
struct GLFlyEye: GLShader {
    let size: Float, zoom: Float, colorSeparation: Float
    /// The fringe's taps across by column and down by row: `disp` is
    /// `size * (cos(zoom * x), sin(zoom * y))`, the column's shift across
    /// and the row's up, so every tap is a column's or a row's own.
    private var taps: [GLFringe.Taps] = [], rows: [GLFringe.Rows] = []
    init(_ transition: GLTransition) {
        size = transition.float("size"); zoom = transition.float("zoom"); colorSeparation = transition.float("colorSeparation")
    }
    func prepared(for s: GLSampler) -> GLFlyEye {
        var prepared = self
        let progress = s.progress
        prepared.taps = s.columns { u in
            let disp = size * GLSL.cos(zoom * u)
            return GLFringe.Taps(u, toShift: (1 - progress) * disp, fromShift: progress * disp, colorSeparation: colorSeparation, s)
        }
        prepared.rows = s.rows { v in
            let disp = size * GLSL.sin(zoom * v)
            return GLFringe.Rows(v, toShift: (1 - progress) * disp, fromShift: progress * disp, colorSeparation: colorSeparation, s)
        }
        return prepared
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        GLFringe.blend(taps[s.column(p.x)], rows[s.row(p.y)], progress: s.progress, s)
    }
    /// `colour` at every pixel by column and row, each row's taps looked up once.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTiles(sampler) { s, row, columns, line in
            let down = rows[row]
            for col in columns { line[col] = GLFringe.blend(taps[col], down, progress: s.progress, s) }
        }
    }
}
