internal import CFFmpeg

/// A `GLPicture` as an effect samples it, a GL texture with LINEAR
/// filtering and CLAMP_TO_EDGE wrapping: its pixels and sizes by value, so
/// that a paint loop keeps them in registers.
/// Its helpers are `@_transparent`: `@inline(__always)` gives way once a
/// paint loop has outgrown the optimiser's budget, and a sample then cost a
/// call (its taps and colours through memory) a pixel.
/// A band's texture holds only some rows of the picture (`GLBandRead`): it
/// is read at its own pixels, and any read beyond is held to its rows.
/// SAFETY: a texture lives within one `draw`, while its picture is neither
/// freed nor written; every read is held to its rows and columns.
struct GLTexture: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<GLColour>
    let width: Int, height: Int
    /// What `sample` works with: the size as floats, the first and last row held, the last column.
    private let widthF: Float, heightF: Float, lastColumn: Int, firstRow: Int, lastRow: Int
    private let lastColumnF: Float, firstRowF: Float, lastRowF: Float
    /// The first and last column and row held, in the lanes of `taps(p, q)` (across, down, across, down).
    private let firstHeld: SIMD4<Int32>, lastHeld: SIMD4<Int32>
    /// Where the first row held lies in `pixels`, less its offset in the whole picture.
    private let origin: Int

    init(pixels: UnsafeMutablePointer<GLColour>, width: Int, height: Int) {
        self.init(pixels: pixels, rows: 0..<height, width: width, height: height)
    }

    /// Rows `rows` of a picture `width` by `height`, held from the first at `pixels`.
    init(pixels: UnsafeMutablePointer<GLColour>, rows: Range<Int>, width: Int, height: Int) {
        precondition(!rows.isEmpty && rows.lowerBound >= 0 && rows.upperBound <= height, "GLTexture(pixels:rows:width:height:) holds rows of the picture")
        self.pixels = pixels; self.width = width; self.height = height
        widthF = Float(width); heightF = Float(height); lastColumn = width - 1; firstRow = rows.lowerBound; lastRow = rows.upperBound - 1
        lastColumnF = Float(lastColumn); firstRowF = Float(firstRow); lastRowF = Float(lastRow)
        firstHeld = SIMD4(0, Int32(firstRow), 0, Int32(firstRow)); lastHeld = SIMD4(Int32(lastColumn), Int32(lastRow), Int32(lastColumn), Int32(lastRow))
        origin = firstRow * width
    }

    /// Colour at texture coordinates `u`, `v` (origin at the bottom left),
    /// bilinear between the four nearest pixel centres, edges repeated.
    @_transparent
    func sample(_ u: Float, _ v: Float) -> GLColour {
        let (across, down) = taps(u, v)
        return sample(across, down)
    }

    /// `tap(u)` and `rows(v)` at once, the same sums in two lanes.
    @_transparent
    func taps(_ u: Float, _ v: Float) -> (across: GLTap, down: GLTap) {
        let size = SIMD2(widthF, heightF)
        let (floors, fractions) = floorsAndFractions(SIMD2(u, 1 - v) * size - 0.5, within: size, SIMD2<UInt32>.self)
        let (low, high) = held(unsafeBitCast(floors, to: SIMD2<Int32>.self), firstHeld.lowHalf, lastHeld.lowHalf)
        return (GLTap(left: Int(low[0]), right: Int(high[0]), fraction: fractions[0]), rowTap(low[1], high[1], fractions[1]))
    }


    /// `taps` at two points at once.
    @_transparent
    func taps(_ p: GLPoint, _ q: GLPoint) -> (GLTap, GLTap, GLTap, GLTap) {
        let size = SIMD4(widthF, heightF, widthF, heightF)
        let (floors, fractions) = floorsAndFractions(SIMD4(p.x, 1 - p.y, q.x, 1 - q.y) * size - 0.5, within: size, SIMD4<UInt32>.self)
        let (low, high) = held(unsafeBitCast(floors, to: SIMD4<Int32>.self), firstHeld, lastHeld)
        return (GLTap(left: Int(low[0]), right: Int(high[0]), fraction: fractions[0]), rowTap(low[1], high[1], fractions[1]),
                GLTap(left: Int(low[2]), right: Int(high[2]), fraction: fractions[2]), rowTap(low[3], high[3], fractions[3]))
    }

    /// `sample` at `p` and at `q` where both lie a pixel or more past the
    /// picture across and down (or at a NaN): each is then a corner pixel,
    /// the same colour `sample` blends from it alone (its taps' fractions
    /// are 0), read once, not four times; nil elsewhere. For an effect
    /// whose samples are mostly pulled far past the picture.
    @_transparent
    func corners(_ p: GLPoint, _ q: GLPoint) -> (GLColour, GLColour)? {
        let size = SIMD4(widthF, heightF, widthF, heightF)
        let x = SIMD4(p.x, 1 - p.y, q.x, 1 - q.y) * size - 0.5
        // As `floorsAndFractions` holds them: to the first at or below -1 (and a NaN), to the last at or past `size`.
        let first = .!(x .> -1)
        guard all(first .| .!(x .< size)) else { return nil }
        let held = lastHeld.replacing(with: firstHeld, where: first)
        return (pixels[Int(held[1]) &* width &- origin &+ Int(held[0])], pixels[Int(held[3]) &* width &- origin &+ Int(held[2])])
    }

    /// `sample` at each of `count` places (a colour's first two lanes), each
    /// written over its place: for an effect that works out a row's places
    /// first, its samples then taken in one go (in C on x86-64, where Swift's
    /// code for them was a third slower; the same sums, the same bytes).
    func sample(places: UnsafeMutablePointer<GLColour>, count: Int) {
        #if arch(x86_64)
        UnsafeMutableRawPointer(places).withMemoryRebound(to: Float.self, capacity: count * 4) {
            cffmpeg_gl_sample_places(floats, geometry, $0, count)
        }
        #else
        var index = 0
        while index < count {
            let next = min(index + 1, count - 1), (p, q) = (places[index].lowHalf, places[next].lowHalf)
            if let (first, second) = corners(p, q) {
                (places[index], places[next]) = (first, second)
            } else {
                let (across, down, otherAcross, otherDown) = taps(p, q)
                (places[index], places[next]) = (sample(across, down), sample(otherAcross, otherDown))
            }
            index += 2
        }
        #endif
    }

    /// `sample` of this texture at each of `count` places' first two lanes,
    /// written over the place, and of `other` (a picture of this one's size
    /// and rows) at its last two, written to `others`: `sample(places:count:)`
    /// for an effect that samples both pictures, each at its own place.
    func sample(placePairs places: UnsafeMutablePointer<GLColour>, _ other: GLTexture, into others: UnsafeMutablePointer<GLColour>, count: Int) {
        precondition(other.width == width && other.height == height && other.firstRow == firstRow && other.lastRow == lastRow,
                     "sample(placePairs:_:into:count:) samples two pictures of one size and rows")
        #if arch(x86_64)
        UnsafeMutableRawPointer(places).withMemoryRebound(to: Float.self, capacity: count * 4) { places in
            UnsafeMutableRawPointer(others).withMemoryRebound(to: Float.self, capacity: count * 4) {
                cffmpeg_gl_sample_place_pairs(floats, other.floats, geometry, places, $0, count)
            }
        }
        #else
        for index in 0..<count {
            let (across, down, otherAcross, otherDown) = taps(places[index].lowHalf, places[index].highHalf)
            (places[index], others[index]) = (sample(across, down), other.sample(otherAcross, otherDown))
        }
        #endif
    }

    #if arch(x86_64)
    /// The pixels and their geometry as the C sampling loops take them.
    private var floats: UnsafePointer<Float> { UnsafeRawPointer(pixels).assumingMemoryBound(to: Float.self) }
    private var geometry: cffmpeg_gl_geometry {
        cffmpeg_gl_geometry(width: width, origin: origin, width_f: widthF, height_f: heightF, first_row: Int32(firstRow), last_row: Int32(lastRow))
    }
    #endif

    /// Each lane's floor and the next, held to `first...last`: compared in
    /// lanes, not branched on (samples that wander to the edges make a
    /// branch per clamp a guess the processor often loses).
    @_transparent
    private func held<Lanes: SIMD>(_ floors: Lanes, _ first: Lanes, _ last: Lanes) -> (low: Lanes, high: Lanes) where Lanes.Scalar == Int32 {
        let next = floors &+ 1
        return (floors.replacing(with: first, where: floors .< first).replacing(with: last, where: floors .> last),
                next.replacing(with: first, where: next .< first).replacing(with: last, where: next .> last))
    }

    /// A row tap from its rows, held already, as where their first pixels lie in `pixels`.
    @_transparent
    private func rowTap(_ low: Int32, _ high: Int32, _ fraction: Float) -> GLTap {
        GLTap(left: Int(low) &* width &- origin, right: Int(high) &* width &- origin, fraction: fraction)
    }

    /// `floorAndFraction(_:within:)` of each lane, `size` its lane's size (across, down, across...).
    @_transparent
    private func floorsAndFractions<Vector: SIMD, Bits: SIMD>(_ x: Vector, within size: Vector, _ bits: Bits.Type) -> (Bits, Vector)
    where Vector.Scalar == Float, Bits.Scalar == UInt32 {
        let clamped = x.replacing(with: -1, where: .!(x .> -1)).replacing(with: size, where: .!(x .< size) .& (x .> -1))
        return GLSL.floorAndFraction(clamped, bits)
    }

    /// The tap at column `index`: the column there and the next, each held to 0...last.
    @_transparent
    private func tap(_ index: Int, _ fraction: Float, _ last: Int) -> GLTap {
        GLTap(left: min(max(index, 0), last), right: min(max(index &+ 1, 0), last), fraction: fraction)
    }

    /// The row tap at row `index`: the row there and the next, each held to
    /// the texture's rows, as where their first pixels lie in `pixels`.
    @_transparent
    private func rowTap(_ index: Int, _ fraction: Float) -> GLTap {
        GLTap(left: min(max(index, firstRow), lastRow) &* width &- origin,
              right: min(max(index &+ 1, firstRow), lastRow) &* width &- origin, fraction: fraction)
    }

    /// `x` (a position in pixels, less half a pixel) clamped to -1...size (a
    /// NaN, an effect's 0 / 0, to -1) and floored.
    @_transparent
    private static func floorAndFraction(_ x: Float, within size: Float) -> (Int, Float) {
        GLSL.floorAndFraction(x > -1 ? (x < size ? x : size) : -1)
    }
    /// `sample(u, v)` with `u`'s half worked out already: for an effect whose
    /// samples share a `u` down each column.
    @_transparent
    func sample(_ tap: GLTap, _ v: Float) -> GLColour { sample(tap, rows(v)) }

    /// `sample(u, v)` from `u`'s and `v`'s halves: `across` (columns) from
    /// `tap(u)`, `down` (offsets of rows) from `rows(v)`.
    @_transparent
    func sample(_ across: GLTap, _ down: GLTap) -> GLColour {
        let top = blend(across, row: down.left), bottom = blend(across, row: down.right)
        return top * (1 - down.fraction) + bottom * down.fraction
    }

    /// The blend `across` of the row whose first pixel lies at `row` in
    /// `pixels` (a `rows` tap's offset): half a bilinear sample.
    @_transparent
    func blend(_ across: GLTap, row: Int) -> GLColour {
        pixels[row &+ across.left] * (1 - across.fraction) + pixels[row &+ across.right] * across.fraction
    }

    /// The two rows a sample at `v` blends (as offsets of their first pixels), and how far it lies from the upper one;
    /// clamped as `tap` is.
    @_transparent
    func rows(_ v: Float) -> GLTap {
        let (row, fraction) = Self.floorAndFraction((1 - v) * heightF - 0.5, within: heightF)
        return rowTap(row, fraction)
    }

    /// A shift up by `dv` (texture coordinates) as whole rows and a fraction:
    /// a sample at `v + dv` at a pixel's row lies that far from the row.
    func shift(_ dv: Float) -> GLRowShift {
        let (rows, fraction) = GLSL.floorAndFraction(-dv * heightF)
        return GLRowShift(rows: rows, fraction: fraction)
    }

    /// `rows(v + dv)` at the pixel in row `row` (from the top), `shift` being `shift(dv)`: the same rows, clamped
    /// alike, and the same fraction but for rounding.
    @_transparent
    func rows(_ row: Int, _ shift: GLRowShift) -> GLTap { rowTap(row &+ shift.rows, shift.fraction) }

    /// The two columns a sample at `u` blends, and how far it lies from the left one.
    @_transparent
    func tap(_ u: Float) -> GLTap {
        let (column, fraction) = Self.floorAndFraction(u * widthF - 0.5, within: widthF)
        return tap(column, fraction, lastColumn)
    }

    /// The pixel whose centre is at `u`, `v`: what `sample` returns there (to
    /// a few units in the last place), without the bilinear arithmetic.
    @_transparent
    func pixel(_ u: Float, _ v: Float) -> GLColour { pixel(at: index(u, v)) }

    /// Where in the picture the pixel whose centre is at `u`, `v` lies: its row times the width, plus its column.
    @_transparent
    func index(_ u: Float, _ v: Float) -> Int { row(v) &* width &+ column(u) }

    /// The pixel at `index` (of a row this texture holds).
    @_transparent
    func pixel(at index: Int) -> GLColour { pixels[index &- origin] }

    /// Starts loading the lines of the pixel holding `u`, `v` and of the one
    /// below it, where a sample there blends, for that sample soon after.
    @_transparent
    func prefetch(_ u: Float, _ v: Float) {
        let at = pixels + (row(v) &* width &+ column(u) &- origin)
        cffmpeg_prefetch(at); cffmpeg_prefetch(at + width)
    }

    /// Starts loading the line of the lower row of `down` where a sample
    /// `across` blends.
    @_transparent
    func prefetch(_ across: GLTap, _ down: GLTap) { cffmpeg_prefetch(pixels + (down.right &+ across.left)) }

    /// The row holding `v` (edges repeated; a band's rows held).
    @_transparent
    func row(_ v: Float) -> Int { Self.truncated((1 - v) * heightF, first: firstRowF, last: lastRowF) }

    /// The column holding `u` (edges repeated).
    @_transparent
    func column(_ u: Float) -> Int { Self.truncated(u * widthF, first: 0, last: lastColumnF) }

    /// `floor(x)` held to first...last, whole numbers not below 0 (a NaN to
    /// first): clamped first, so the floor is its truncation, one instruction
    /// (Swift's `Int(_:)` checks the range again, three branches).
    @_transparent
    private static func truncated(_ x: Float, first: Float, last: Float) -> Int { Int(cffmpeg_truncate(x > first ? (x < last ? x : last) : first)) }
}

/// Samples taken down a column a row a pixel, one texture's at one tap
/// across: the lower row's blend across of one pixel's sample is the upper
/// row's of the next, worked out once (the same sums as `sample`).
struct GLColumnSampler {
    private var row = Int.min, blended = GLColour()
    /// How many rows down a column's walk starts loading lines: each row's
    /// lie a picture's row further on (30 KB at 1080p), a stride the
    /// processor's prefetcher doesn't follow.
    private static let rowsAhead = 4

    /// `sample` at the pixel in row `row` (from the top) of a column walked
    /// down, `shift` being the sample's `shift(dv)`; the line `rowsAhead`
    /// rows down started loading.
    @_transparent
    mutating func sample(_ texture: GLTexture, _ across: GLTap, row: Int, _ shift: GLRowShift) -> GLColour {
        texture.prefetch(across, texture.rows(row &+ Self.rowsAhead, shift))
        return sample(texture, across, texture.rows(row, shift))
    }

    /// `texture.sample(across, down)`, the upper row's blend kept from the sample before where it is that row.
    @_transparent
    mutating func sample(_ texture: GLTexture, _ across: GLTap, _ down: GLTap) -> GLColour {
        let top = down.left == row ? blended : texture.blend(across, row: down.left)
        let bottom = texture.blend(across, row: down.right)
        row = down.right; blended = bottom
        return top * (1 - down.fraction) + bottom * down.fraction
    }
}
