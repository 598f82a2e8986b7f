import SegueCore

// The gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT)
// drawn from tables a frame: where a pixel samples follows from its column
// and its row apart (or its tile), each its GLSL `transition(uv)` with the
// uniforms a `GLTransition` sets. Authors: ButterflyWaveScrawler: mandubian;
// flyeye: gre; GridFlip: TimDonselaar (ported by gre); Mosaic: Xaychru
// (ported by gre).

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
    /// The four samples' taps, across for the column at `u` (`tap`) or down
    /// for the row at `v` (`rows`): the incoming picture's, shifted by
    /// `toShift`, then the outgoing one's red, green and blue.
    struct Taps {
        let to: GLTap, red: GLTap, green: GLTap, blue: GLTap
        init(_ x: Float, toShift: Float, fromShift: Float, colorSeparation: Float, _ s: GLSampler, _ tap: (GLTexture, Float) -> GLTap) {
            to = tap(s.to, x + toShift)
            red = tap(s.from, x + fromShift * (1 - colorSeparation))
            green = tap(s.from, x + fromShift)
            blue = tap(s.from, x + fromShift * (1 + colorSeparation))
        }
    }

    /// The blend at the column of `across` and the row of `down`.
    @inline(__always)
    static func blend(_ across: Taps, _ down: Taps, progress: Float, _ s: GLSampler) -> GLColour {
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
            taps = Taps(u, toShift: toShift, fromShift: fromShift, colorSeparation: colorSeparation, s) { $0.tap($1) }
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
                let texTo = toSamples.sample(s.to, taps.to, row: row, to)
                let red = redSamples.sample(s.from, taps.red, row: row, red).x
                let green = greenSamples.sample(s.from, taps.green, row: row, green).y
                let blue = blueSamples.sample(s.from, taps.blue, row: row, blue).z
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
    private var taps: [GLFringe.Taps] = [], rows: [GLFringe.Taps] = []
    init(_ transition: GLTransition) {
        size = transition.float("size"); zoom = transition.float("zoom"); colorSeparation = transition.float("colorSeparation")
    }
    func prepared(for s: GLSampler) -> GLFlyEye {
        var prepared = self
        let progress = s.progress
        prepared.taps = s.columns { u in
            let disp = size * GLSL.cos(zoom * u)
            return GLFringe.Taps(u, toShift: (1 - progress) * disp, fromShift: progress * disp, colorSeparation: colorSeparation, s) { $0.tap($1) }
        }
        prepared.rows = s.rows { v in
            let disp = size * GLSL.sin(zoom * v)
            return GLFringe.Taps(v, toShift: (1 - progress) * disp, fromShift: progress * disp, colorSeparation: colorSeparation, s) { $0.rows($1) }
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
    /// `colour` at every pixel by column and row, each row's place looked up
    /// once, in two passes along a tile's row: where each pixel samples (kept
    /// in its own pixel, its lines set loading), then the samples. A turned
    /// tile's run down the picture's columns, a new line each, and one at a
    /// time would wait out every load.
    func paint(_ canvas: GLCanvas, _ sampler: GLSampler) {
        canvas.inTiles(sampler) { s, row, columns, line in
            let down = down[row]
            for col in columns {
                line[col] = place(across[col], down)
                (line[col].z != 0 ? s.to : s.from).prefetch(line[col].x, line[col].y)
            }
            for col in columns { line[col] = colour(at: line[col], s) }
        }
    }
    /// The GLSL's colour at the place of a column and a row on the mosaic.
    @inline(__always)
    private func colour(_ across: Place, _ down: Place, _ s: GLSampler) -> GLColour { colour(at: place(across, down), s) }
    /// Where the place of a column and a row samples (lanes x, y) and which picture (z: 1 the incoming one).
    @inline(__always)
    private func place(_ across: Place, _ down: Place) -> GLColour {
        var mrp = GLPoint(across.within, down.within)
        let corner = GLPoint(across.corner, down.corner)
        let tile = tiles[corner] ?? self.tile(corner)
        if tile.turned {
            let v = mrp - 0.5, c = tile.turn.x, sn = tile.turn.y
            mrp = 0.5 + GLPoint(c * v.x + sn * v.y, -sn * v.x + c * v.y)  // mat2(c, -s, s, c) * v
        }
        return GLColour(mrp.x, mrp.y, tile.incoming ? 1 : 0, 0)
    }
    @inline(__always)
    private func colour(at place: GLColour, _ s: GLSampler) -> GLColour {
        place.z != 0 ? s.toColor(place.lowHalf) : s.fromColor(place.lowHalf)
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
        let tileRows = Int(size.y), width = canvas.width
        canvas.inTilesAtCentres(sampler) { s, us, v, columns, line in
            let tileRow = GLSL.floor(size.y * v)
            guard tileRow >= 0, tileRow < Float(tileRows) else {
                for col in columns { line[col] = colour(GLPoint(us[col], v), s) }
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
