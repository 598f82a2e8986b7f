internal import SegueMedia
import SegueModel
import SegueRuntime

/// Watches the output's pictures as they are encoded and scores how much
/// each one changes from the last (the mean luma difference on a coarse
/// grid): where the cover (`--cover`) and poster are taken from when
/// `--cover-at` doesn't say, the stretch that changes most.
final class CoverScout {
    private var previous: [UInt8] = []
    private var first: [UInt8]?
    /// Each output frame's change from the one before, by frame number (0 where none was seen: a copied frame).
    private(set) var change: [Float] = []

    init() {}

    var notes: CoverNotes { CoverNotes(change: change, firstGrid: first ?? [], lastGrid: previous) }

    /// The whole output's scout from its segments' notes in order (`frames`: each segment's length),
    /// scoring each segment's first frame against the last of the one before, as one process does.
    init(segments: [(notes: CoverNotes, frames: Int)]) {
        for (notes, frames) in segments {
            var change = Array(notes.change.prefix(frames)) + Array(repeating: 0, count: max(0, frames - notes.change.count))
            if !change.isEmpty, !previous.isEmpty, let score = Self.score(notes.firstGrid, previous) { change[0] = score }
            self.change += change
            previous = notes.lastGrid
        }
    }

    /// Scores `picture`, whose pts is its output frame number (in a segment's render, from its first).
    func observe(_ picture: Frame) {
        let grid = picture.lumaGrid(columns: 32, rows: 18)
        let index = Int(picture.pts ?? Int64(change.count))
        if change.count <= index { change += Array(repeating: 0, count: index + 1 - change.count) }
        if let score = Self.score(grid, previous) { change[index] = score }
        if first == nil { first = grid }
        previous = grid
    }

    /// The mean difference of two grids; nil when one is missing.
    private static func score(_ grid: [UInt8], _ before: [UInt8]) -> Float? {
        guard grid.count == before.count, !grid.isEmpty else { return nil }
        return Float(zip(grid, before).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Float(grid.count)
    }

    /// The first frame of the `length` frames that change most (the earliest of equals), of `total`.
    func busiestStart(length: Int, total: Int) -> Int {
        guard total > length else { return 0 }
        var sums = [Float](repeating: 0, count: total + 1)
        for frame in 0..<total { sums[frame + 1] = sums[frame] + (frame < change.count ? change[frame] : 0) }
        // A window's own changes: those after its first frame.
        return (0...(total - length)).max { a, b in
            let first = sums[a + length] - sums[a + 1], second = sums[b + length] - sums[b + 1]
            return first < second || (first == second && a > b)
        } ?? 0
    }
}

/// What one segment's render saw, kept in its receipt: its frames' changes, and the grids of its
/// first and last pictures, from which the join scores the change across each boundary.
package struct CoverNotes: Codable, Sendable, Equatable {
    var change: [Float]
    var firstGrid: [UInt8]
    var lastGrid: [UInt8]
}
