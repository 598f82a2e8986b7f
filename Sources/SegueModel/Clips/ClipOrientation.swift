/// How a clip's stored pictures stand upright, as probing found it: one
/// value for a video track's display matrix and a photo's EXIF orientation.
/// The numbers other parts read (the rotation `probe` reports, whether the
/// sides swap, the EXIF value, the turn the filters make) derive from it.
package enum ClipOrientation: Sendable, Equatable, Codable {
    /// A video track whose display matrix turns (and may mirror) its
    /// pictures; upright when the track states no matrix.
    case track(DisplayOrientation)
    /// A photo's EXIF orientation: flipped left to right first when
    /// mirrored (by the still's own filter), then turned. Its file states no
    /// display matrix.
    case photo(DisplayOrientation)
    /// A display matrix that shears, scales or projects: the picture is
    /// turned by `rotation` alone (libavutil's reading of the matrix,
    /// clockwise degrees) when that is a quarter turn, and never copied.
    case skewed(rotation: Int)

    package static let upright = ClipOrientation.track(.upright)

    /// A video track's orientation: its display matrix as stored (nil
    /// without one) and libavutil's reading of its rotation (clockwise
    /// degrees, 0 without a matrix), used when the matrix is no clean turn.
    package init(matrix: [Int32]?, rotation: Int) {
        guard let matrix else {
            self = .upright
            return
        }
        self = DisplayOrientation(matrix: matrix).map { .track($0) } ?? .skewed(rotation: rotation)
    }

    /// A photo's EXIF orientation (1-8; 1 is upright as stored, any other value reads as 1).
    package init(exif: Int) {
        let turn = [3: 180, 4: 180, 5: 270, 6: 90, 7: 90, 8: 270][exif] ?? 0
        self = .photo(DisplayOrientation(rotation: turn, mirrored: [2, 4, 5, 7].contains(exif)))
    }

    /// A photo's orientation: its EXIF value, or when that is upright (or
    /// no value 1-8), the quarter turn its stream's display matrix reads as
    /// (libavutil's reading, clockwise degrees; a mirror is not kept).
    package init(exif: Int, streamRotation: Int) {
        let stated = (1...8).contains(exif) ? exif : 1
        self.init(exif: stated != 1 ? stated : [90: 6, 180: 3, 270: 8][streamRotation] ?? 1)
    }

    /// The EXIF orientation (1-8) of a photo; 1 for anything else.
    package var exif: Int {
        guard case .photo(let turn) = self else { return 1 }
        switch (turn.rotation, turn.mirrored) {
        case (0, true): return 2
        case (180, false): return 3
        case (180, true): return 4
        case (270, true): return 5
        case (90, false): return 6
        case (90, true): return 7
        case (270, false): return 8
        default: return 1
        }
    }

    /// Clockwise degrees as `probe` reports them: a photo's turn, or
    /// libavutil's reading of a display matrix (which reads a mirrored one
    /// half a turn off: a picture flipped left to right is one flipped
    /// upside down and turned 180°).
    package var rotation: Int {
        switch self {
        case .track(let turn): return turn.mirrored ? (turn.rotation + 180) % 360 : turn.rotation
        case .photo(let turn): return turn.rotation
        case .skewed(let rotation): return rotation
        }
    }

    /// Whether the shown picture's width is the stored picture's height.
    package var swapsSides: Bool { rotation == 90 || rotation == 270 }

    /// What the track's display matrix says, which `--smart` copies by:
    /// upright without one (a photo states none); nil for a skewed matrix.
    package var trackOrientation: DisplayOrientation? {
        switch self {
        case .track(let turn): return turn
        case .photo: return .upright
        case .skewed: return nil
        }
    }

    /// The turn the video filters make to stand a picture upright: a
    /// track's turn and mirror; a photo's turn (its mirror is the still's own
    /// filter, `mirrorsPhoto`); a skewed matrix's rotation when it is a quarter.
    package var filterTurn: DisplayOrientation {
        switch self {
        case .track(let turn): return turn
        case .photo(let turn): return DisplayOrientation(rotation: turn.rotation, mirrored: false)
        case .skewed(let rotation):
            return [0, 90, 180, 270].contains(rotation) ? DisplayOrientation(rotation: rotation, mirrored: false) : .upright
        }
    }

    /// Whether a photo is flipped left to right before it is turned.
    package var mirrorsPhoto: Bool {
        guard case .photo(let turn) = self else { return false }
        return turn.mirrored
    }
}
