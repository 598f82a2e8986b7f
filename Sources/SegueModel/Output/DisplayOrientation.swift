/// How a stored picture stands upright, as a track's display matrix says:
/// flipped left to right first when `mirrored`, then turned `rotation`
/// degrees clockwise. The eight values are every turn and mirror a matrix of
/// 0 and ±1 can make (a phone's portrait recording is turned 90 or 270, a
/// front camera's may be mirrored too).
package struct DisplayOrientation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Clockwise degrees: 0, 90, 180 or 270.
    package var rotation: Int
    package var mirrored: Bool

    package static let upright = DisplayOrientation(rotation: 0, mirrored: false)

    package init(rotation: Int, mirrored: Bool) {
        precondition([0, 90, 180, 270].contains(rotation), "a display orientation turns by a quarter")
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// The orientation of a display matrix (nine values, as MP4's `tkhd`
    /// and FFmpeg's side data hold them: 16.16 fixed point, the third column
    /// 2.30); nil for one that shears, scales or projects, which no turn and mirror make.
    package init?(matrix: [Int32]) {
        guard matrix.count == 9, matrix[2] == 0, matrix[5] == 0, matrix[8] == 1 << 30 else { return nil }
        let one: Int32 = 1 << 16
        let (a, b, c, d) = (matrix[0], matrix[1], matrix[3], matrix[4])
        guard [a, b, c, d].allSatisfy({ $0 == 0 || abs($0) == one }) else { return nil }
        // A point (x, y) shows at (a x + c y, b x + d y): one of the two diagonals is zero.
        switch (a, b, c, d) {
        case (one, 0, 0, one): self.init(rotation: 0, mirrored: false)
        case (0, one, -one, 0): self.init(rotation: 90, mirrored: false)
        case (-one, 0, 0, -one): self.init(rotation: 180, mirrored: false)
        case (0, -one, one, 0): self.init(rotation: 270, mirrored: false)
        case (-one, 0, 0, one): self.init(rotation: 0, mirrored: true)
        case (0, -one, -one, 0): self.init(rotation: 90, mirrored: true)
        case (one, 0, 0, -one): self.init(rotation: 180, mirrored: true)
        case (0, one, one, 0): self.init(rotation: 270, mirrored: true)
        default: return nil
        }
    }

    /// Whether the displayed picture's width is the stored picture's height.
    package var swapsSides: Bool { rotation == 90 || rotation == 270 }

    /// libavfilter filters that stand a stored picture upright (none when it is).
    package var uprightFilters: [String] {
        switch (rotation, mirrored) {
        case (90, false): return ["transpose=clock"]
        case (180, false): return ["hflip", "vflip"]
        case (270, false): return ["transpose=cclock"]
        case (0, true): return ["hflip"]
        case (90, true): return ["transpose=clock_flip"]
        case (180, true): return ["vflip"]
        case (270, true): return ["transpose=cclock_flip"]
        default: return []
        }
    }

    /// Filters that turn an upright picture back into this orientation, as
    /// it is stored: the turn undone (a mirrored orientation undoes itself).
    package var storedFilters: [String] {
        switch (rotation, mirrored) {
        case (90, false): return ["transpose=cclock"]
        case (270, false): return ["transpose=clock"]
        default: return uprightFilters
        }
    }

    /// The stored size of a picture shown `width` x `height`.
    package func storedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// The display matrix that says this orientation for a picture stored
    /// `width` x `height`, with the translation QuickTime writers put in it
    /// (players take the turn from the first two columns).
    package func matrix(storedWidth width: Int, storedHeight height: Int) -> [Int32] {
        let one: Int32 = 1 << 16
        let w = Int32(width) << 16, h = Int32(height) << 16
        let (a, b, c, d, x, y): (Int32, Int32, Int32, Int32, Int32, Int32)
        switch (rotation, mirrored) {
        case (90, false): (a, b, c, d, x, y) = (0, one, -one, 0, h, 0)
        case (180, false): (a, b, c, d, x, y) = (-one, 0, 0, -one, w, h)
        case (270, false): (a, b, c, d, x, y) = (0, -one, one, 0, 0, w)
        case (0, true): (a, b, c, d, x, y) = (-one, 0, 0, one, w, 0)
        case (90, true): (a, b, c, d, x, y) = (0, -one, -one, 0, h, w)
        case (180, true): (a, b, c, d, x, y) = (one, 0, 0, -one, 0, h)
        case (270, true): (a, b, c, d, x, y) = (0, one, one, 0, 0, 0)
        default: (a, b, c, d, x, y) = (one, 0, 0, one, 0, 0)
        }
        return [a, b, 0, c, d, 0, x, y, 1 << 30]
    }

    package var description: String {
        (rotation == 0 && !mirrored ? "upright" : rotation == 0 ? "" : "turned \(rotation)°")
            + (mirrored ? (rotation == 0 ? "mirrored" : ", mirrored") : "")
    }
}
