import SegueCore

/// The gl-transitions effects, drawn on the CPU: both pictures converted to
/// R'G'B' floats once (or their cross-fade, for an effect that samples
/// nothing else; or band by band, a picture an effect reads only at its own
/// pixels), the effect evaluated at every output pixel's centre (bands of
/// rows in parallel), and the result converted back to 4:2:0.
extension Frame {
    /// `transition` at `progress` from `a` (the outgoing picture, 0) to `b`
    /// (1), drawn into `output`; `matrix` is the canvas's. A progress past
    /// either end (an overshooting curve's) is drawn as the GLSL draws it
    /// there, as gl-transition's `draw` takes it: not held to 0...1.
    package static func gl(_ a: Frame, _ b: Frame, transition: GLTransition, progress: Double, matrix: GLColourMatrix, into output: Frame) {
        GLWorkspace().draw(a, b, transition: transition, progress: progress, matrix: matrix, into: output)
    }
}

/// The R'G'B' pictures a join's gl_ frames are drawn in, kept from frame to
/// frame of one size (a 1080p picture is 33 MB: fresh pages each frame cost
/// more than the drawing).
package final class GLWorkspace {
    private var from: GLPicture?, to: GLPicture?, scratch: GLScratch?
    /// Whether a picture an effect reads only at its own pixels is read band
    /// by band as the canvas paints (the same colours; false reads it whole).
    private let readsBandByBand: Bool
    /// Whether every effect is painted a pixel at a time through its
    /// `colour`, its own paint loop and tables passed by (the same colours).
    private let paintsEachPixel: Bool

    package init(readsBandByBand: Bool = true, paintsEachPixel: Bool = false) {
        self.readsBandByBand = readsBandByBand; self.paintsEachPixel = paintsEachPixel
    }

    /// `Frame.gl`, drawn in this workspace's pictures.
    package func draw(_ a: Frame, _ b: Frame, transition: GLTransition, progress: Double, matrix: GLColourMatrix, into frame: Frame) {
        precondition(a.isShaped(like: frame) && b.isShaped(like: frame), "draw(_:_:transition:progress:matrix:into:) needs pictures of one size and format")
        precondition(frame.sampleBytes > 0 && frame.planeCount >= 3, "draw(_:_:transition:progress:matrix:into:) works on three planar 8- or 16-bit planes")
        if scratch?.width != frame.width { scratch = GLScratch(width: frame.width) }
        precondition(progress.isFinite, "draw(_:_:transition:progress:matrix:into:) draws at a finite progress")
        let shader = transition.effect.shader, progress = Float(progress)
        let read = shader.pictures(at: progress)
        let banded = (readsBandByBand && !shader.samplesTheCrossFade ? shader.readAtItsPixels : []).intersection(read)
        let reads = GLBandReads(from: banded.contains(.from) ? GLBandRead(a, matrix: matrix) : nil,
                                to: banded.contains(.to) ? GLBandRead(b, matrix: matrix) : nil)
        let sampler = shader.samplesTheCrossFade ? crossFade(a, b, at: progress, matrix: matrix)
            : pictures(a, b, at: progress, matrix: matrix, readingWhole: read.subtracting(banded))
        let canvas = GLCanvas(frame, matrix: matrix, scratch: scratch!, reads: reads)
        let prepared = shader.init(transition).prepared(for: sampler)
        if paintsEachPixel {
            prepared.paintEachPixel(canvas, sampler)
        } else {
            prepared.paint(canvas, sampler)
        }
    }

    /// The pictures in `whole` read whole, to be sampled apart; a blank row
    /// stands for each of the others (read band by band, or not at all).
    private func pictures(_ a: Frame, _ b: Frame, at progress: Float, matrix: GLColourMatrix, readingWhole whole: GLPictures) -> GLSampler {
        func texture(_ slot: ReferenceWritableKeyPath<GLWorkspace, GLPicture?>, _ frame: Frame, _ which: GLPictures) -> GLTexture {
            guard whole.contains(which) else { return scratch!.blank(height: frame.height) }
            let picture = picture(slot, like: frame)
            picture.read(frame, matrix: matrix)
            return picture.texture
        }
        return GLSampler(from: texture(\.from, a, .from), to: texture(\.to, b, .to), progress: progress, ratio: Float(a.width) / Float(a.height))
    }

    /// The pictures' cross-fade read as one picture, for an effect that samples nothing else.
    private func crossFade(_ a: Frame, _ b: Frame, at progress: Float, matrix: GLColourMatrix) -> GLSampler {
        let crossFade = picture(\.from, like: a)
        crossFade.read(a, b, crossFadedAt: progress, matrix: matrix)
        return GLSampler(crossFade: crossFade.texture, progress: progress, ratio: Float(a.width) / Float(a.height))
    }

    private func picture(_ slot: ReferenceWritableKeyPath<GLWorkspace, GLPicture?>, like frame: Frame) -> GLPicture {
        if let picture = self[keyPath: slot], picture.width == frame.width, picture.height == frame.height { return picture }
        let picture = GLPicture(width: frame.width, height: frame.height)
        self[keyPath: slot] = picture
        return picture
    }
}

/// What an effect's GLSL reads besides its own uniforms: the two textures,
/// `progress` and `ratio`. Its helpers are `@_transparent`, as GLTexture's are.
struct GLSampler: Sendable {
    /// The pictures; for an effect that `samplesTheCrossFade`, both its cross-fade.
    let from: GLTexture, to: GLTexture
    /// The effect's `progress`, 0 (all `from`) to 1, or past either end.
    let progress: Float
    /// The picture's width over its height.
    let ratio: Float

    init(from: GLTexture, to: GLTexture, progress: Float, ratio: Float) {
        self.from = from; self.to = to; self.progress = progress; self.ratio = ratio
    }
    /// Samples the pictures' cross-fade at `progress`, `crossFade`.
    init(crossFade: GLTexture, progress: Float, ratio: Float) {
        self.init(from: crossFade, to: crossFade, progress: progress, ratio: ratio)
    }

    /// `mix(fromColor(p), toColor(p), progress)`, for an effect that
    /// `samplesTheCrossFade`: one sample of the cross-fade, not two.
    @_transparent func crossFade(_ p: GLPoint) -> GLColour { fromColor(p) }
    /// `crossFade(p)` and `crossFade(q)`, their taps worked out side by side.
    @_transparent func crossFades(_ p: GLPoint, _ q: GLPoint) -> (GLColour, GLColour) { fromColours(p, q) }
    /// `crossFade` at the fragment's own coordinates, read straight from its pixel.
    @_transparent func crossFadePixel(_ uv: GLPoint) -> GLColour { fromPixel(uv) }

    @_transparent func fromColor(_ p: GLPoint) -> GLColour { from.sample(p.x, p.y) }
    @_transparent func toColor(_ p: GLPoint) -> GLColour { to.sample(p.x, p.y) }
    /// `mix(fromColor(p), toColor(p), a)`, the two samples sharing their
    /// arithmetic (both pictures are one size).
    @_transparent func mixed(_ p: GLPoint, _ a: Float) -> GLColour {
        let (fromColour, toColour) = colours(p)
        return GLSL.mix(fromColour, toColour, a)
    }
    /// `mixed(p, a)` and `mixed(q, a)`, their taps worked out side by side.
    @_transparent func mixed(_ p: GLPoint, _ q: GLPoint, _ a: Float) -> (GLColour, GLColour) {
        let (across, down, otherAcross, otherDown) = from.taps(p, q)
        return (GLSL.mix(from.sample(across, down), to.sample(across, down), a),
                GLSL.mix(from.sample(otherAcross, otherDown), to.sample(otherAcross, otherDown), a))
    }
    /// `(fromColor(p), toColor(p))`, sharing their taps.
    @_transparent func colours(_ p: GLPoint) -> (GLColour, GLColour) {
        let (across, down) = from.taps(p.x, p.y)
        return (from.sample(across, down), to.sample(across, down))
    }
    /// `(fromColor(p), toColor(q))`, their taps worked out side by side.
    @_transparent func colours(from p: GLPoint, to q: GLPoint) -> (GLColour, GLColour) {
        let (across, down, toAcross, toDown) = from.taps(p, q)
        return (from.sample(across, down), to.sample(toAcross, toDown))
    }
    /// `(fromColor(p), fromColor(q))`, their taps worked out side by side.
    @_transparent func fromColours(_ p: GLPoint, _ q: GLPoint) -> (GLColour, GLColour) {
        let (across, down, otherAcross, otherDown) = from.taps(p, q)
        return (from.sample(across, down), from.sample(otherAcross, otherDown))
    }
    /// `fromColor` and `toColor` at the fragment's own coordinates, read
    /// straight from its pixel.
    @_transparent func fromPixel(_ uv: GLPoint) -> GLColour { from.pixel(uv.x, uv.y) }
    @_transparent func toPixel(_ uv: GLPoint) -> GLColour { to.pixel(uv.x, uv.y) }
    /// `(fromPixel(uv), toPixel(uv))`, the pixel found once: for an effect
    /// that reads both pictures alike (whole, or both band by band).
    @_transparent func pixels(_ uv: GLPoint) -> (from: GLColour, to: GLColour) {
        let index = from.index(uv.x, uv.y)
        return (from.pixel(at: index), to.pixel(at: index))
    }
    /// `value(u)` at each column's centre, for an effect to look up by
    /// `column(_:)`; the paint loops' `u` (`columns { $0 }`).
    func columns<Value>(_ value: (Float) -> Value) -> [Value] {
        (0..<from.width).map { value((Float($0) + 0.5) / Float(from.width)) }
    }
    /// The column whose centre is at `u`.
    @_transparent func column(_ u: Float) -> Int { from.column(u) }
    /// `value(v)` at each row's centre, for an effect to look up by `row(_:)`.
    func rows<Value>(_ value: (Float) -> Value) -> [Value] {
        (0..<from.height).map { value(1 - (Float($0) + 0.5) / Float(from.height)) }
    }
    /// The row whose centre is at `v`.
    @_transparent func row(_ v: Float) -> Int { from.row(v) }
}

extension GLTransition {
    /// A vec2 (or ivec2) uniform's value.
    func point(_ name: String) -> GLPoint { let v = value(name); return GLPoint(v[0], v[1]) }
    /// A vec3 uniform as an opaque colour, or a vec4 uniform as it is.
    @inline(__always)
    func colour(_ name: String) -> GLColour {
        let v = value(name)
        return GLColour(v[0], v[1], v[2], v.count > 3 ? v[3] : 1)
    }
}

/// The outgoing picture, the incoming, or both.
struct GLPictures: OptionSet, Sendable {
    let rawValue: Int
    static let from = GLPictures(rawValue: 1), to = GLPictures(rawValue: 2)
    static let both: GLPictures = [.from, .to]
}

/// One gl-transitions effect: its uniforms read once from a `GLTransition`,
/// its GLSL `transition(uv)` as `colour(_:_:)`.
protocol GLShader: Sendable {
    init(_ transition: GLTransition)
    /// Whether the effect's GLSL reads the pictures only as their cross-fade
    /// at `progress` (`mix(getFromColor(p), getToColor(p), progress)`): then
    /// the frames are read as that one picture, and the effect samples it
    /// through `GLSampler.crossFade`, half the samples and the memory.
    static var samplesTheCrossFade: Bool { get }
    /// The pictures the effect reads only at the fragment's own pixel
    /// (`fromPixel(uv)`, `toPixel(uv)`): those are read band by band as the
    /// canvas paints (`GLBandRead`), not whole beforehand. A read elsewhere
    /// would see only the band's rows.
    static var readAtItsPixels: GLPictures { get }
    /// The pictures the effect reads at `progress` (both, unless it says):
    /// one it does not is not read, a blank row standing for it.
    static func pictures(at progress: Float) -> GLPictures
    /// The effect with what depends on `progress` alone worked out once a
    /// frame rather than once a pixel (the same arithmetic, so the same values).
    func prepared(for progress: Float) -> Self
    /// `prepared(for: progress)`, or for effects with tables by column (what
    /// depends on progress and `u` alone), those tables too.
    func prepared(for sampler: GLSampler) -> Self
    /// The effect's colour at texture coordinates `uv` (origin bottom left).
    /// Each effect's is `@inline(__always)`: left to itself, the compiler
    /// folds effects' paint loops into one that calls `colour` through a
    /// pointer each pixel.
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour
    /// Evaluates the effect at every pixel of `canvas` (a requirement, so
    /// each effect gets its own specialised loop).
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler)
}

extension GLShader {
    static var samplesTheCrossFade: Bool { false }
    static var readAtItsPixels: GLPictures { [] }
    static func pictures(at progress: Float) -> GLPictures { .both }
    func prepared(for progress: Float) -> Self { self }
    func prepared(for sampler: GLSampler) -> Self { prepared(for: sampler.progress) }

    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) { paintEachPixel(canvas, sampler) }

    /// `colour` at every pixel's centre, row by row a tile at a time.
    func paintEachPixel(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { sampler, us, v, columns, line in
            for col in columns { line[col] = colour(GLPoint(us[col], v), sampler) }
        }
    }
}

/// An effect drawn two pixels at a time: its chain of dependent arithmetic
/// (hexagonalize's rounding, swirl's turn) for both at once in one register's lanes.
protocol GLPairedShader: GLShader {
    /// `colour` at `first` and at `second`.
    func colours(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour)
}

extension GLPairedShader {
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) { paintPairs(canvas, sampler) }

    /// `colours` at every pixel's centre, two at a time, row by row a tile at a time.
    func paintPairs(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { sampler, us, v, columns, line in
            for col in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
                let next = min(col + 1, columns.upperBound - 1)
                (line[col], line[next]) = colours(GLPoint(us[col], v), GLPoint(us[next], v), sampler)
            }
        }
    }
}

/// A paired effect whose pixels take a long chain of arithmetic to find
/// where they sample: drawn in two passes along each tile's row, the places
/// (arithmetic alone) then the samples. Each pass's pixels stand apart, so
/// the processor works on several at once rather than waiting out one
/// pixel's chain before its samples. An effect whose samples land far from
/// its pixels starts loading them as it places them (`GLTexture.prefetch`).
protocol GLPlacingShader: GLPairedShader {
    /// Where the pixels at `first` and `second` sample, in a colour's lanes
    /// each (what `colours(at:_:_:_:)` reads back).
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour)
    /// The colours at `first` and `second`, sampled at their `places`.
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour)
}

extension GLPlacingShader {
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour { colours(p, p, s).0 }
    @inline(__always)
    func colours(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        colours(at: places(first, second, s), first, second, s)
    }

    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            place(s, us, v, columns, line)
            var col = columns.lowerBound
            while col < columns.upperBound {
                let next = min(col + 1, columns.upperBound - 1)
                (line[col], line[next]) = colours(at: (line[col], line[next]), GLPoint(us[col], v), GLPoint(us[next], v), s)
                col += 2
            }
        }
    }

    /// For an effect whose colours begin as the outgoing picture (or the
    /// cross-fade) sampled at its places: each row's places, then its samples
    /// in one go (`GLTexture.sample(places:count:)`), then `finish` on them.
    func paintSamplingPlaces(_ canvas: GLCanvas, _ sampler: GLSampler, finish: GLRowBody? = nil) {
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            place(s, us, v, columns, line)
            s.from.sample(places: line + columns.lowerBound, count: columns.count)
            finish?(s, us, v, columns, line)
        }
    }

    /// `paintSamplingPlaces`, then the incoming picture's own pixels mixed in by `weight`.
    func paintSamplingPlaces(_ canvas: GLCanvas, _ sampler: GLSampler, mixingIncomingBy weight: Float) {
        paintSamplingPlaces(canvas, sampler) { s, us, v, columns, line in
            let row = s.to.index(us[columns.lowerBound], v) - columns.lowerBound
            for col in columns { line[col] = GLSL.mix(line[col], s.to.pixel(at: row + col), weight) }
        }
    }

    /// For an effect whose colours begin as both pictures sampled, each at
    /// its own place (the outgoing picture's in a place's first two lanes,
    /// the incoming's in its last two): each row's places, then both
    /// pictures' samples in one go, then `finish` on them, the outgoing
    /// picture's in the row and the incoming's at the same columns of `incoming`.
    func paintSamplingPlacePairs(_ canvas: GLCanvas, _ sampler: GLSampler, finish: GLPairedRowBody) {
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            place(s, us, v, columns, line)
            withUnsafeTemporaryAllocation(of: GLColour.self, capacity: columns.count) { row in
                let incoming = row.baseAddress! - columns.lowerBound
                s.from.sample(placePairs: line + columns.lowerBound, s.to, into: row.baseAddress!, count: columns.count)
                finish(s, us, v, columns, line, incoming)
            }
        }
    }

    /// The places of a tile's row, kept in its own pixels until their colours replace them.
    /// (A while loop: a stride's iterator, once the loop outgrows the optimiser's budget, is a call a pair.)
    @inline(__always)
    private func place(_ s: GLSampler, _ us: UnsafeBufferPointer<Float>, _ v: Float, _ columns: Range<Int>, _ line: UnsafeMutablePointer<GLColour>) {
        var col = columns.lowerBound
        while col < columns.upperBound {
            let next = min(col + 1, columns.upperBound - 1)
            (line[col], line[next]) = places(GLPoint(us[col], v), GLPoint(us[next], v), s)
            col += 2
        }
    }
}

/// What a pixel of a `GLSamplingShader` draws: one picture sampled at a
/// place, both (each at its own) mixed, or a colour worked out apart.
struct GLPixelSampling {
    /// `.from` or `.to`: that picture at `place`'s first two lanes; `.both`:
    /// the outgoing picture there, the incoming at its last two, mixed by
    /// `mix`; neither: `place` is the pixel's colour.
    let reads: GLPictures, place: GLColour, mix: Float
    static func from(_ p: GLPoint) -> Self { Self(reads: .from, place: GLColour(lowHalf: p, highHalf: p), mix: 0) }
    static func to(_ p: GLPoint) -> Self { Self(reads: .to, place: GLColour(lowHalf: p, highHalf: p), mix: 1) }
    static func mixed(_ from: GLPoint, _ to: GLPoint, _ mix: Float) -> Self { Self(reads: .both, place: GLColour(lowHalf: from, highHalf: to), mix: mix) }
    static func colour(_ colour: GLColour) -> Self { Self(reads: [], place: colour, mix: 0) }

    /// The pixel's colour, its samples taken one by one.
    @inline(__always)
    func colour(_ s: GLSampler) -> GLColour {
        switch reads {
        case .from: return s.fromColor(place.lowHalf)
        case .to: return s.toColor(place.lowHalf)
        case .both:
            let (from, to) = s.colours(from: place.lowHalf, to: place.highHalf)
            return GLSL.mix(from, to, mix)
        default: return place
        }
    }
}

/// An effect whose every pixel samples one picture at a place, or both
/// mixed, or neither: its `colour` is its `sampling`'s. Painted a tile's row
/// at a time: every pixel's sampling first, then each run of pixels that
/// read the same pictures sampled in one go (`GLTexture.sample(places:count:)`).
protocol GLSamplingShader: GLShader {
    /// What the pixel at `uv` draws.
    func sampling(_ uv: GLPoint, _ s: GLSampler) -> GLPixelSampling
}

extension GLSamplingShader {
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { sampling(uv, s).colour(s) }

    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            withUnsafeTemporaryAllocation(of: GLPixelSampling.self, capacity: columns.count) { samplings in
                withUnsafeTemporaryAllocation(of: GLColour.self, capacity: columns.count) { incoming in
                    let samplings = samplings.baseAddress! - columns.lowerBound, incoming = incoming.baseAddress! - columns.lowerBound
                    for col in columns {
                        samplings[col] = sampling(GLPoint(us[col], v), s)
                        line[col] = samplings[col].place
                    }
                    var start = columns.lowerBound
                    while start < columns.upperBound {
                        let reads = samplings[start].reads
                        var end = start + 1
                        while end < columns.upperBound, samplings[end].reads == reads { end += 1 }
                        switch reads {
                        case .from: s.from.sample(places: line + start, count: end - start)
                        case .to: s.to.sample(places: line + start, count: end - start)
                        case .both:
                            s.from.sample(placePairs: line + start, s.to, into: incoming + start, count: end - start)
                            for col in start..<end { line[col] = GLSL.mix(line[col], incoming[col], samplings[col].mix) }
                        default: break
                        }
                        start = end
                    }
                }
            }
        }
    }
}

/// What a paint loop does along a tile's row: `(s, us, v, columns, line)` as `GLCanvas.inTilesAtCentres` hands them.
typealias GLRowBody = (GLSampler, UnsafeBufferPointer<Float>, Float, Range<Int>, UnsafeMutablePointer<GLColour>) -> Void
/// `GLRowBody` with a second row of colours at the same columns as `line` (the incoming picture's samples).
typealias GLPairedRowBody = (GLSampler, UnsafeBufferPointer<Float>, Float, Range<Int>, UnsafeMutablePointer<GLColour>, UnsafeMutablePointer<GLColour>) -> Void
