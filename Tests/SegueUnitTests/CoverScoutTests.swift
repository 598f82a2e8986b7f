import XCTest
@testable import SegueRender
@testable import SegueMedia

/// Where a cover is taken from: the scout of a segmented render, put
/// together by the join from each segment's notes, is the one process's.
final class CoverScoutTests: XCTestCase {
    /// 40 pictures whose grey box moves on a frame at a time, faster from frame 25.
    func pictures() throws -> [Frame] {
        try (0..<40).map { index in
            let picture = try Frame.video(width: 64, height: 36)
            picture.fill(plane: 0, x: 0, y: 0, width: 64, height: 36, with: 16)
            picture.fill(plane: 0, x: (index < 25 ? index : 25 + 3 * (index - 25)) % 52, y: 4, width: 12, height: 20, with: 200)
            return picture
        }
    }

    func testTheSegmentsNotesMakeTheWholeOutputsScout() throws {
        let pictures = try pictures()
        let whole = CoverScout()
        for (index, picture) in pictures.enumerated() {
            picture.pts = Int64(index)
            whole.observe(picture)
        }
        // Three renders of frames 0..<13, 13..<26, 26..<40, each counting its own frames from 0.
        var notes: [(CoverNotes, Int)] = []
        for range in [0..<13, 13..<26, 26..<40] {
            let scout = CoverScout()
            for index in range {
                pictures[index].pts = Int64(index - range.lowerBound)
                scout.observe(pictures[index])
            }
            XCTAssertEqual(scout.change.first, 0, "a render sees no picture before its first")
            notes.append((scout.notes, range.count))
        }
        let joined = CoverScout(segments: notes)
        XCTAssertEqual(joined.change, whole.change, "the boundaries' changes are scored from the grids either side")
        XCTAssertGreaterThan(whole.change[13], 0)
        XCTAssertEqual(joined.busiestStart(length: 10, total: 40), whole.busiestStart(length: 10, total: 40))
        // A render without notes (none kept) counts as still, its frames kept in place.
        let gap = CoverScout(segments: [notes[0], (CoverNotes(change: [], firstGrid: [], lastGrid: []), 13), notes[2]])
        XCTAssertEqual(gap.change.count, 40)
        XCTAssertEqual(Array(gap.change[26...]).dropFirst(), Array(whole.change[26...]).dropFirst())
    }
}
