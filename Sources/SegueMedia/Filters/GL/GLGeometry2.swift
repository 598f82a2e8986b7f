#if canImport(Glibc)
import Glibc
#endif
import SegueCore

// More gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT),
// each its GLSL `transition(uv)` with the uniforms a `GLTransition` sets:
// those that move or warp the pictures. Authors: CrazyParametricFun:
// mandubian; crosswarp: Eke Péter; directionalwarp: pschroen;
// directionalwipe, squareswire, squeeze: gre; Dreamy: mikolalysenko;
// DreamyZoom: Zeh Fernando; morph: paniq; Mosaic: Xaychru (ported by gre);
// GridFlip: TimDonselaar (ported by gre).

/// The outgoing picture pulled along a hypocycloid into a swirl.
struct GLCrazyParametricFun: GLPlacingShader {
    static var readAtItsPixels: GLPictures { .to }
    let a: Float, b: Float, amplitude: Float, smoothness: Float
    /// The curve's point at this frame's progress, and how far the incoming picture shows.
    private var x: Float = 0, y: Float = 0, incoming: Float = 0
    init(_ transition: GLTransition) {
        a = transition.float("a"); b = transition.float("b")
        amplitude = transition.float("amplitude"); smoothness = transition.float("smoothness")
    }
    func prepared(for progress: Float) -> GLCrazyParametricFun {
        var prepared = self
        prepared.x = (a - b) * GLSL.cos(progress) + b * GLSL.cos(progress * ((a / b) - 1))
        prepared.y = (a - b) * GLSL.sin(progress) - b * GLSL.sin(progress * ((a / b) - 1))
        prepared.incoming = GLSL.smoothstep(0.2, 1, progress)
        return prepared
    }
    /// Where the outgoing picture is sampled for the pixels at `first` and `second`, worked out side by side.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let progress = s.progress, points = SIMD4(lowHalf: first, highHalf: second), dir = points - 0.5
        let squares = dir * dir
        let dists = SIMD2(squares[0] + squares[1], squares[2] + squares[3]).squareRoot()
        let scaled = progress * dists * amplitude
        let sines = GLSL.sin(SIMD4(scaled[0] * x, scaled[0] * y, scaled[1] * x, scaled[1] * y))
        let pulled = points + dir * sines / smoothness
        return (GLColour(lowHalf: pulled.lowHalf, highHalf: .zero), GLColour(lowHalf: pulled.highHalf, highHalf: .zero))
    }
    /// The outgoing picture where it is pulled to, the samples' taps side by side, mixed with the incoming.
    @inline(__always)
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (firstFrom, secondFrom) = s.fromColours(places.0.lowHalf, places.1.lowHalf)
        return (GLSL.mix(firstFrom, s.toPixel(first), incoming), GLSL.mix(secondFrom, s.toPixel(second), incoming))
    }
}

/// The outgoing picture zooms in as the incoming one zooms out into place, right to left.
struct GLCrossWarp: GLShader {
    init(_ transition: GLTransition) {}
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let x = GLSL.smoothstep(0, 1, s.progress * 2 + p.x - 1)
        let (from, to) = s.colours(from: (p - 0.5) * (1 - x) + 0.5, to: (p - 0.5) * x + 0.5)
        return GLSL.mix(from, to, x)
    }
}

/// `direction` normalised so |x| + |y| = 1, and where the centre lies along it:
/// what the directional wipes sweep along.
struct GLSweep {
    let v: GLPoint, d: Float
    init(_ direction: [Float]) {
        var v = GLSL.normalize(GLPoint(direction[0], direction[1]))
        v /= Swift.abs(v.x) + Swift.abs(v.y)
        self.v = v; d = v.x * 0.5 + v.y * 0.5
    }
    /// The GLSL's `smoothstep(-smoothness, 0.0, v.x * uv.x + v.y * uv.y - (d - 0.5 + progress * (1.0 + smoothness)))`.
    @inline(__always)
    func edge(_ uv: GLPoint, _ progress: Float, _ smoothness: Float) -> Float {
        GLSL.smoothstep(-smoothness, 0, v.x * uv.x + v.y * uv.y - (d - 0.5 + progress * (1 + smoothness)))
    }
}

/// A soft edge sweeps along `direction`, each picture zooming across it.
struct GLDirectionalWarp: GLShader {
    let smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness"); sweep = GLSweep(transition.value("direction")) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let m = 1 - sweep.edge(uv, s.progress, smoothness)
        let (from, to) = s.colours(from: (uv - 0.5) * (1 - m) + 0.5, to: (uv - 0.5) * m + 0.5)
        return GLSL.mix(from, to, m)
    }
}

/// A soft-edged wipe along `direction`.
struct GLDirectionalWipe: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) { smoothness = transition.float("smoothness"); sweep = GLSweep(transition.value("direction")) }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let m = (1 - GLSL.step(s.progress, 0)) * (1 - sweep.edge(uv, s.progress, smoothness))
        return GLSL.mix(s.fromPixel(uv), s.toPixel(uv), m)
    }
}

/// Squares along a sweep in `direction` grow to the incoming picture.
struct GLSquaresWire: GLShader {
    static var readAtItsPixels: GLPictures { .both }
    let squares: GLPoint, smoothness: Float, sweep: GLSweep
    init(_ transition: GLTransition) {
        squares = transition.point("squares"); smoothness = transition.float("smoothness")
        sweep = GLSweep(transition.value("direction"))
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let pr = sweep.edge(p, s.progress, smoothness)
        let squarep = GLSL.fract(p * squares)
        let squaremin = pr / 2, squaremax = 1 - pr / 2
        let started: Float = 1 - GLSL.step(s.progress, 0)
        let above: Float = GLSL.step(squaremin, squarep.x) * GLSL.step(squaremin, squarep.y)
        let a: Float = started * above * GLSL.step(squarep.x, squaremax) * GLSL.step(squarep.y, squaremax)
        return GLSL.mix(s.fromPixel(p), s.toPixel(p), a)
    }
}

/// A cross-fade with a gentle vertical wave on each picture.
struct GLDreamy: GLShader {
    /// Each column's samples at this frame's progress: the pictures move up
    /// or down by the column's own offsets, so a column's taps across and
    /// its samples' fractions down are the same all the way down.
    private var columns: [Column] = []
    private struct Column {
        let across: GLTap, outgoing: GLRowShift, incoming: GLRowShift
    }
    init(_ transition: GLTransition) {}
    func prepared(for s: GLSampler) -> GLDreamy {
        var prepared = self
        prepared.columns = s.columns { u in
            Column(across: s.from.tap(u), outgoing: s.from.shift(Self.offset(s.progress, u).y), incoming: s.to.shift(Self.offset(1 - s.progress, u).y))
        }
        return prepared
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour { colour(row: s.row(p.y), columns[s.column(p.x)], s) }
    /// `colour` at every pixel, a column at a time: its samples move down the pictures a row a pixel.
    func paint(_ canvas: GLCanvas, _ s: GLSampler) {
        let width = canvas.width
        canvas.inColumns(s) { s, col, rows, band in
            let column = columns[col]
            // Each sample's blend across a row worked out once, not once for each of two pixels.
            var outgoing = GLColumnSampler(), incoming = GLColumnSampler()
            var pixel = band + col
            for row in rows {
                pixel.pointee = GLSL.mix(outgoing.sample(s.from, column.across, s.from.rows(row, column.outgoing)),
                                         incoming.sample(s.to, column.across, s.to.rows(row, column.incoming)), s.progress)
                pixel += width
            }
        }
    }
    /// The GLSL's `mix(getFromColor(p + offset(progress, p.x, 0.0)), getToColor(p + offset(1.0 - progress, p.x, 3.14)), progress)`
    /// at the pixel in row `row` (from the top) of `column`.
    @inline(__always)
    private func colour(row: Int, _ column: Column, _ s: GLSampler) -> GLColour {
        GLSL.mix(s.from.sample(column.across, s.from.rows(row, column.outgoing)),
                 s.to.sample(column.across, s.to.rows(row, column.incoming)), s.progress)
    }
    private static func offset(_ progress: Float, _ x: Float) -> GLPoint {
        GLPoint(0, 0.03 * progress * GLSL.cos(10 * (progress + x)))
    }
}

/// Zooms and turns into a white flash, then out of it onto the incoming picture.
struct GLDreamyZoom: GLShader {
    let rotation: Float, scale: Float
    /// This frame's half (the first zooms into the outgoing picture), phase,
    /// scale, flash, and the turn's cosine and sine.
    private var early = true, newScale: Float = 1, flash: Float = 0, c: Float = 1, sn: Float = 0
    init(_ transition: GLTransition) { rotation = transition.float("rotation"); scale = transition.float("scale") }
    func prepared(for progress: Float) -> GLDreamyZoom {
        var prepared = self
        let deg2rad: Float = 0.03926990816987241548078304229099  // as the GLSL has it (π/80)
        let early = progress < 0.5
        let phase = early ? progress * 2 : (progress - 0.5) * 2
        let angleOffset = early ? GLSL.mix(0, rotation * deg2rad, phase) : GLSL.mix(-rotation * deg2rad, 0, phase)
        prepared.early = early
        prepared.newScale = early ? GLSL.mix(1, scale, phase) : GLSL.mix(scale, 1, phase)
        prepared.flash = early ? GLSL.mix(0, 1, phase) : GLSL.mix(1, 0, phase)
        prepared.c = GLSL.cos(angleOffset); prepared.sn = GLSL.sin(angleOffset)
        return prepared
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let ratio = s.ratio
        let p = (uv - GLPoint(0.5, 0.5)) / newScale * GLPoint(ratio, 1)
        // The GLSL turns p by angleOffset as cos(atan(p.y, p.x) + angleOffset) * length(p) (and sin):
        // the same rotation as a matrix, to a few units in the last place, without three calls into libm.
        let turned = GLPoint((p.x * c - p.y * sn) / ratio + 0.5, (p.x * sn + p.y * c) + 0.5)
        let colour = early ? s.fromColor(turned) : s.toColor(turned)
        return colour + flash
    }
}

/// A cross-fade with each picture pushed by both pictures' colours: drawn
/// two pixels at a time, their pushes side by side in one register, then
/// their taps.
struct GLMorph: GLPlacingShader {
    let strength: Float
    init(_ transition: GLTransition) { strength = transition.float("strength") }
    /// Where the pixels at `first` and `second` sample the outgoing picture
    /// (lanes x, y) and the incoming (z, w), each moved by both pictures' colours there.
    @inline(__always)
    func places(_ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let ca = s.fromPixel(first), cb = s.toPixel(first), cc = s.fromPixel(second), cd = s.toPixel(second)
        // ((c.xy + c.z) * 0.5) * 2.0 - 1.0 of each picture's colour, at both points.
        let oa = ((SIMD4(ca.x, ca.y, cc.x, cc.y) + SIMD4(ca.z, ca.z, cc.z, cc.z)) * 0.5) * 2 - 1
        let ob = ((SIMD4(cb.x, cb.y, cd.x, cd.y) + SIMD4(cb.z, cb.z, cd.z, cd.z)) * 0.5) * 2 - 1
        let oc = (oa * (1 - 0.5) + ob * 0.5) * strength  // mix(oa, ob, 0.5) * strength
        let w0 = s.progress, w1 = 1 - w0
        let points = SIMD4(lowHalf: first, highHalf: second)
        let fromPoints = points + oc * w0, toPoints = points - oc * w1
        return (GLColour(lowHalf: fromPoints.lowHalf, highHalf: toPoints.lowHalf), GLColour(lowHalf: fromPoints.highHalf, highHalf: toPoints.highHalf))
    }
    @inline(__always)
    func colours(at places: (GLColour, GLColour), _ first: GLPoint, _ second: GLPoint, _ s: GLSampler) -> (GLColour, GLColour) {
        let (firstFrom, firstTo) = s.colours(from: places.0.lowHalf, to: places.0.highHalf)
        let (secondFrom, secondTo) = s.colours(from: places.1.lowHalf, to: places.1.highHalf)
        return (GLSL.mix(firstFrom, firstTo, s.progress), GLSL.mix(secondFrom, secondTo, s.progress))
    }
}

/// The view pans over a mosaic of turned tiles of both pictures and settles on
/// the tile (`endx`, `endy`), the incoming picture.
struct GLMosaic: GLShader {
    let endx: Int, endy: Int
    /// `-cos(progress * pi) / 2 + 0.5` at this frame's progress.
    private var easing: Float = 0
    /// What each tile in view this frame shows (the view spans at most three
    /// tiles each way), so that the hash's `sin` is taken once a tile.
    private var tiles = GLMosaicTiles()
    /// Where each column's centre lies on the mosaic across and each row's
    /// down: the view takes `u` to `x` alone and `v` to `y`.
    private var across: [Place] = [], down: [Place] = []
    private struct Place {
        /// The tile's corner (`floor`) and the place within it (`mod(_, 1)`).
        let corner: Float, within: Float
        init(_ x: Float) { corner = GLSL.floor(x); within = GLSL.mod(x, 1) }
    }
    init(_ transition: GLTransition) { endx = transition.int("endx"); endy = transition.int("endy") }
    func prepared(for s: GLSampler) -> GLMosaic {
        var prepared = prepared(for: s.progress)
        prepared.across = s.columns { Place(prepared.viewed(GLPoint($0, 0.5), s.progress).x) }
        prepared.down = s.rows { Place(prepared.viewed(GLPoint(0.5, $0), s.progress).y) }
        return prepared
    }
    func prepared(for progress: Float) -> GLMosaic {
        var prepared = self
        prepared.easing = -GLSL.cos(progress * 3.14159265358979323) / 2 + 0.5
        let low = prepared.viewed(GLPoint(0, 0), progress), high = prepared.viewed(GLPoint(1, 1), progress)
        prepared.tiles = GLMosaicTiles(from: GLSL.floor(low), to: GLSL.floor(high)) { prepared.tile($0) }
        return prepared
    }
    /// Where the view puts `uv` on the mosaic: tile (i, j) spans i...i+1, j...j+1.
    @inline(__always)
    private func viewed(_ uv: GLPoint, _ progress: Float) -> GLPoint {
        var rp = uv - 0.5
        let rpr = progress * 2 - 1
        let z = -(rpr * rpr * 2) + 3
        rp *= Swift.abs(z)
        let ci = easing
        return rp + GLSL.mix(GLPoint(0.5, 0.5), GLPoint(Float(endx) + 0.5, Float(endy) + 0.5), ci * ci)
    }
    /// What tile `tile` (its corner) shows: the incoming picture or not, and its quarter turn's cos and sin.
    private func tile(_ tile: GLPoint) -> GLMosaicTiles.Tile {
        if Int(tile.x) == endx && Int(tile.y) == endy { return GLMosaicTiles.Tile(incoming: true, turn: GLPoint(1, 0), turned: false) }
        let random = GLSL.rand(tile)
        let angle = Float(Int(random * 4)) * 0.5 * 3.14159265358979323
        return GLMosaicTiles.Tile(incoming: random > 0.5, turn: GLPoint(GLSL.cos(angle), GLSL.sin(angle)), turned: true)
    }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour { colour(across[s.column(uv.x)], down[s.row(uv.y)], s) }
    /// `colour` at every pixel by column and row, each row's place looked up once.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTiles(sampler) { s, row, columns, line in
            let down = down[row]
            for col in columns { line[col] = colour(across[col], down, s) }
        }
    }
    /// The GLSL's colour at the place of a column and a row on the mosaic.
    @inline(__always)
    private func colour(_ across: Place, _ down: Place, _ s: GLSampler) -> GLColour {
        var mrp = GLPoint(across.within, down.within)
        let corner = GLPoint(across.corner, down.corner)
        let tile = tiles[corner] ?? self.tile(corner)
        if tile.turned {
            let v = mrp - 0.5, c = tile.turn.x, sn = tile.turn.y
            mrp = 0.5 + GLPoint(c * v.x + sn * v.y, -sn * v.x + c * v.y)  // mat2(c, -s, s, c) * v
        }
        return tile.incoming ? s.toColor(mrp) : s.fromColor(mrp)
    }
}

/// A frame's tiles of `GLMosaic` from one corner to another, each worked out once.
struct GLMosaicTiles: Sendable {
    struct Tile: Sendable {
        /// The incoming picture's (else the outgoing one's).
        let incoming: Bool
        /// The quarter turn's cos and sin, and whether the tile is turned at all.
        let turn: GLPoint, turned: Bool
    }
    private var left = 0, bottom = 0, columns = 0, rows = 0
    private var tiles: [Tile] = []
    init() {}
    init(from low: GLPoint, to high: GLPoint, _ tile: (GLPoint) -> Tile) {
        guard Self.isSmall(low), Self.isSmall(high) else { return }
        left = Int(low.x); bottom = Int(low.y)
        columns = Int(high.x) - left + 1; rows = Int(high.y) - bottom + 1
        guard columns > 0, rows > 0, columns * rows <= 64 else { columns = 0; rows = 0; return }
        tiles = (0..<(columns * rows)).map { tile(GLPoint(Float(left + $0 % columns), Float(bottom + $0 / columns))) }
    }
    /// Whether `Int(_:)` takes both coordinates.
    @inline(__always)
    private static func isSmall(_ p: GLPoint) -> Bool { p.x.magnitude < 1_048_576 && p.y.magnitude < 1_048_576 }
    /// The tile whose corner is `corner`, if this frame worked it out.
    @inline(__always)
    subscript(_ corner: GLPoint) -> Tile? {
        guard Self.isSmall(corner) else { return nil }
        let column = Int(corner.x) - left, row = Int(corner.y) - bottom
        guard column >= 0, column < columns, row >= 0, row < rows else { return nil }
        return tiles[row * columns + column]
    }
}

/// The outgoing picture is squeezed to a line, its colours apart, over the incoming one.
struct GLSqueeze: GLShader {
    static var readAtItsPixels: GLPictures { .to }
    let colorSeparation: Float
    init(_ transition: GLTransition) { colorSeparation = transition.float("colorSeparation") }
    @inline(__always)
    func colour(_ uv: GLPoint, _ s: GLSampler) -> GLColour {
        let y = 0.5 + (uv.y - 0.5) / (1 - s.progress)
        if y < 0 || y > 1 { return s.toPixel(uv) }
        let fp = GLPoint(uv.x, y)
        let off = s.progress * GLPoint(0, colorSeparation)
        let c = s.fromColor(fp), cn = s.fromColor(fp - off), cp = s.fromColor(fp + off)
        return GLColour(cn.x, c.y, cp.z, c.w)
    }
}

/// The picture splits into tiles that flip one by one to the incoming picture,
/// dividers of `bgcolor` between them.
struct GLGridFlip: GLShader {
    let size: GLPoint, pause: Float, dividerWidth: Float, bgcolor: GLColour, randomness: Float
    /// `rand` of each tile's corner, the tiles in rows from the bottom (a
    /// sine a tile rather than a pixel), when there are at most 4096 tiles.
    private let randoms: [Float]
    /// While the tiles flip, each column's distance to its tile's nearer side,
    /// and what each row of tiles shows at each column (rows of tiles from
    /// the bottom): worked out once a frame, not once a pixel.
    private var sides: [Float] = [], flips: [Flip] = []
    private struct Flip {
        /// The columns the flipped tile is sampled between, and which picture shows (neither: the background).
        let across: GLTap, shows: GLPictures
    }
    init(_ transition: GLTransition) {
        size = transition.point("size"); pause = transition.float("pause"); dividerWidth = transition.float("dividerWidth")
        bgcolor = transition.colour("bgcolor"); randomness = transition.float("randomness")
        let columns = Int(size.x), rows = Int(size.y)
        randoms = columns * rows <= 4096 ? (0..<(columns * rows)).map { GLSL.rand(GLPoint(Float($0 % columns), Float($0 / columns))) } : []
    }
    func prepared(for s: GLSampler) -> GLGridFlip {
        guard flipping(s.progress) else { return self }
        var prepared = self
        prepared.sides = s.columns { side(across: $0) }
        prepared.flips = (0..<Int(size.y)).flatMap { row in
            s.columns { u in
                let (x, shows) = flip(u, rectanglePos: GLPoint(GLSL.floor(size.x * u), Float(row)), s.progress)
                return Flip(across: s.from.tap(x), shows: shows)
            }
        }
        return prepared
    }
    /// `colour` at every pixel; while the tiles flip, from the frame's tables.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        guard flipping(sampler.progress) else { return paintEachPixel(canvas, sampler) }
        let height = Float(canvas.height), tileRows = Int(size.y), width = canvas.width
        canvas.inTiles(sampler) { s, row, columns, line in
            let v = 1 - (Float(row) + 0.5) / height, tileRow = GLSL.floor(size.y * v)
            guard tileRow >= 0, tileRow < Float(tileRows) else {
                for col in columns { line[col] = colour(GLPoint((Float(col) + 0.5) / Float(width), v), s) }
                return
            }
            let sideDown = side(down: v), down = s.from.rows(v), rowOfTiles = Int(tileRow) * width
            for col in columns {
                let flip = flips[rowOfTiles + col]
                // mix(bgcolor, mix(b, a, step(cp, 0.5)), s) with s and the step each 0 or 1: one of the three.
                line[col] = min(sides[col], sideDown) < dividerSize || flip.shows.isEmpty ? bgcolor
                    : flip.shows == .from ? s.from.sample(flip.across, down) : s.to.sample(flip.across, down)
            }
        }
    }
    @inline(__always)
    func colour(_ p: GLPoint, _ s: GLSampler) -> GLColour {
        let progress = s.progress
        let onDivider = min(side(across: p.x), side(down: p.y)) < dividerSize
        if progress < pause {
            return GLSL.mix(bgcolor, s.fromPixel(p), onDivider ? 1 - progress / pause : 1)
        } else if progress < 1 - pause {
            if onDivider { return bgcolor }
            let (x, shows) = flip(p.x, rectanglePos: GLSL.floor(size * p), progress)
            let (a, b) = s.colours(GLPoint(x, p.y))
            return GLSL.mix(bgcolor, GLSL.mix(b, a, shows == .from ? 1 : 0), shows.isEmpty ? 0 : 1)
        }
        return GLSL.mix(bgcolor, s.toPixel(p), onDivider ? (progress - 1 + pause) / pause : 1)
    }
    /// Whether the tiles are flipping at `progress` (rather than the dividers fading in or out).
    private func flipping(_ progress: Float) -> Bool { progress >= pause && progress < 1 - pause }
    /// The flipped tile at `rectanglePos` (its column and row of tiles) at
    /// `u`: where its picture is sampled across, and which picture shows
    /// there (`step(cp, 0.5)`: the outgoing; neither where the flip leaves the background).
    @inline(__always)
    private func flip(_ u: Float, rectanglePos: GLPoint, _ progress: Float) -> (x: Float, shows: GLPictures) {
        let currentProg = (progress - pause) / (1 - pause * 2)
        let r = random(rectanglePos) - randomness
        let cp = GLSL.smoothstep(0, 1 - r, currentProg)
        let rectangleSize = 1 / size.x
        let left = rectanglePos.x * rectangleSize
        let offset = rectangleSize / 2 + left
        let x = (u - offset) / Swift.abs(cp - 0.5) * 0.5 + offset
        let shown = GLSL.step(Swift.abs(size.x * (u - left) - 0.5), Swift.abs(cp - 0.5)) == 1
        return (x, !shown ? [] : GLSL.step(cp, 0.5) == 1 ? .from : .to)
    }
    /// `rand(rectanglePos)`, from the table where the tile is in it.
    @inline(__always)
    private func random(_ rectanglePos: GLPoint) -> Float {
        let column = Int(rectanglePos.x), row = Int(rectanglePos.y), columns = Int(size.x)
        guard column >= 0, column < columns, row >= 0, row * columns + column < randoms.count else { return GLSL.rand(rectanglePos) }
        return randoms[row * columns + column]
    }
    /// How far `x` is from its tile's nearer side across, and `y` down: the
    /// GLSL's `getDelta(p)` is the lesser of the two.
    @inline(__always)
    private func side(across x: Float) -> Float {
        let pos = GLSL.floor(size.x * x), rectangleSize = 1 / size.x
        return min(Swift.abs(x - rectangleSize * pos), Swift.abs(x - rectangleSize * (pos + 1)))
    }
    @inline(__always)
    private func side(down y: Float) -> Float {
        let pos = GLSL.floor(size.y * y), rectangleSize = 1 / size.y
        return min(Swift.abs(y - rectangleSize * (pos + 1)), Swift.abs(y - rectangleSize * pos))
    }
    /// The GLSL's `getDividerSize()`.
    private var dividerSize: Float { min(1 / size.x, 1 / size.y) * dividerWidth }
}
