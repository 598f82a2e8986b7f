import SegueMedia
import SegueModel

/// Turns upright canvas pictures into the orientation a track stores them
/// in (`--smart` copying portrait phone clips: their pictures are stored
/// landscape and turned by the track's display matrix), so re-encoded and
/// copied pictures show alike.
final class PictureTurn {
    private let filters: String
    private let timeBase: Rational
    /// Made for the first picture's size and format.
    private var graph: FilterGraph?

    /// Nil when pictures are stored upright (nothing to turn).
    init?(_ orientation: DisplayOrientation, timeBase: Rational) {
        guard !orientation.storedFilters.isEmpty else { return nil }
        filters = orientation.storedFilters.joined(separator: ",")
        self.timeBase = timeBase
    }

    /// The picture as stored; `picture` is left blank (the graph takes its references).
    func turn(_ picture: Frame) throws -> Frame {
        if graph == nil { graph = try FilterGraph(videoLike: picture, timeBase: timeBase, description: filters) }
        try graph!.push(picture)
        let turned = Frame()
        guard try graph!.pull(into: turned) == .ready else {
            throw SegueError(.writeFailed, detail: "turning a picture into the track's orientation gave none")
        }
        return turned
    }
}
