internal import SegueMedia
import SegueModel
import SegueCore

/// Makes upright, limited-range canvas pictures into what a `--smart` track
/// stores: turned as the copied clips are stored (a portrait phone clip is a
/// landscape picture that the track's display matrix turns), and in full
/// range when theirs are, so re-encoded and copied pictures show alike.
final class StoredPictures {
    private let filters: String
    private let timeBase: Rational
    /// Made for the first picture's size and format.
    private var graph: FilterGraph?

    /// Nil when pictures are stored as they are composed (upright, limited range).
    init?(_ orientation: DisplayOrientation, fullRange: Bool, timeBase: Rational) {
        let range = fullRange ? ["scale=in_range=limited:out_range=full"] : []
        guard !(orientation.storedFilters + range).isEmpty else { return nil }
        filters = (orientation.storedFilters + range).joined(separator: ",")
        self.timeBase = timeBase
    }

    /// The picture as stored; `picture` is left blank (the graph takes its references).
    func store(_ picture: Frame) throws -> Frame {
        let graph = try self.graph.madeOnFirstUse { try FilterGraph(videoLike: picture, timeBase: timeBase, description: filters) }
        try graph.push(picture)
        let stored = Frame()
        guard try graph.pull(into: stored) == .ready else {
            throw SegueError(.writeFailed, detail: "making a picture into the track's stored form gave none")
        }
        return stored
    }
}
