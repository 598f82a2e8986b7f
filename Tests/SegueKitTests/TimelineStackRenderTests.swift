import Foundation
import XCTest
@testable import SegueKit
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// An editor's timeline of several video tracks rendered and judged frame by
/// frame: the top-most enabled clip covers what is below, gaps and disabled
/// tracks let the lower tracks show, a lower clip resumes at the source frame
/// the timeline has under it, a nested sequence plays its own range, and a
/// placed clip (half size, in the bottom-right quarter) shows its own frames
/// there over the picture below it.
extension TimelineRenderTests {
    func track(_ items: [EditItem], enabled: Bool = true) -> EditVideoTrack { EditVideoTrack(items: items, enabled: enabled) }
    func gap(_ frames: Double) -> EditItem { .gap(EditTime(value: frames, rate: Self.film.value)) }

    /// Half size, its centre a quarter of the frame right and down of the frame's: the bottom-right quarter.
    static var corner: EditLayout {
        var layout = EditLayout()
        (layout.scaleX, layout.scaleY, layout.centreX, layout.centreY) = (0.5, 0.5, 0.25, 0.25)
        return layout
    }

    /// The marker of the picture drawn at half size in the bottom-right quarter, read as `Marker.read` reads a whole one.
    func cornerMarker(_ picture: PlaneImage) -> (clip: Int, frame: Int)? {
        var value = 0
        for bit in 0..<Marker.bits {
            let (x, y) = Marker.position(bit)
            let mean = picture.mean(x: picture.width / 2 + x / 2 + 4, y: picture.height / 2 + y / 2 + 4,
                                    width: Marker.block / 2 - 8, height: Marker.block / 2 - 8)
            if mean > 180 { value |= 1 << bit } else if mean > 70 { return nil }
        }
        return (value & 0xF, value >> 4)
    }

    func testUpperTracksCoverTheFirstAndAPlacedClipLandsWhereItIsPlaced() throws {
        let (a, b, c) = try filmMedia()
        var placed = EditClip(name: "C corner", media: EditMedia(location: c),
                              source: EditRange(start: EditTime(value: 5, rate: Self.film.value), duration: EditTime(value: 6, rate: Self.film.value)))
        placed.layout = Self.corner
        var timeline = EditTimeline(rate: Self.film)
        timeline.videoTracks = [
            track([clip("A", a, origin: Self.aStart, offset: 0, frames: 40)]),
            track([gap(8), clip("B", b, origin: Self.bStart, offset: 10, frames: 8), gap(24)]),
            track([clip("C hidden", c, origin: 0, offset: 20, frames: 40)], enabled: false),
            track([gap(30), .clip(placed), gap(4)]),
        ]
        try timeline.stackTracks()
        let (_, output, _) = try render(timeline)
        // Frames 0-7 A, 8-15 B from its frame 10, then A again from frame 16: as if B weren't there.
        assertFrames(output, frames(1, 0...7) + frames(2, 10...17) + frames(1, 16...39))
        for (index, picture) in output.pictures.enumerated() {
            let corner = cornerMarker(picture)
            if (30..<36).contains(index) {
                XCTAssertEqual(corner?.clip, 3, "frame \(index): C in the corner")
                XCTAssertEqual(corner?.frame, 5 + index - 30, "frame \(index): C's own frame, from its in point")
                // The placed picture's edge: C's grey just inside the quarter, A's just outside it.
                XCTAssertEqual(picture.mean(x: 164, y: 170, width: 8, height: 6), Double(Marker.greys[3]), accuracy: 8, "frame \(index)")
                XCTAssertEqual(picture.mean(x: 148, y: 170, width: 8, height: 6), Double(Marker.greys[1]), accuracy: 8, "frame \(index)")
            } else {
                XCTAssertNil(corner.map { _ in index }, "frame \(index): nothing placed")
            }
        }
    }

    func testANestedSequencePlaysItsOwnRangeAtItsSpeedAmongTheTracks() throws {
        let (a, b, c) = try filmMedia()
        // Its own tracks: C for 24 frames, B over C's frames 6 to 11.
        let inner = [track([clip("C", c, origin: 0, offset: 0, frames: 24)]),
                     track([gap(6), clip("B", b, origin: Self.bStart, offset: 30, frames: 6), gap(12)])]
        let nested = EditNested(name: "sub", tracks: inner, source: EditRange(start: EditTime(value: 4, rate: Self.film.value),
                                                                             duration: EditTime(value: 10, rate: Self.film.value)))
        let doubled = EditNested(name: "sub 2x", tracks: inner, source: EditRange(start: EditTime(value: 0, rate: Self.film.value),
                                                                                  duration: EditTime(value: 6, rate: Self.film.value)),
                                 speed: PlaybackSpeed(2))
        var timeline = EditTimeline(rate: Self.film)
        timeline.videoTracks = [
            track([clip("A", a, origin: Self.aStart, offset: 0, frames: 30)]),
            track([gap(4), .nested(nested), gap(2), .nested(doubled), gap(8)]),
        ]
        try timeline.stackTracks()
        let (_, output, _) = try render(timeline)
        // The nested range: C 4-5, B 30-35, C 12-13; A 14-15; at 2x: C 0, 2, 4, B 30, 32, 34; A 22-29.
        let nestedFrames = frames(3, 4...5) + frames(2, 30...35) + frames(3, 12...13)
        let fast: [Shown] = [0, 2, 4].map { .frame(clip: 3, frame: $0) } + [30, 32, 34].map { .frame(clip: 2, frame: $0) }
        assertFrames(output, frames(1, 0...3) + nestedFrames + frames(1, 14...15) + fast + frames(1, 22...29))
    }

    func testAnUpperTracksDissolveFromAGapBlendsWithTheTrackBelow() throws {
        let (a, b, _) = try filmMedia()
        var timeline = EditTimeline(rate: Self.film)
        timeline.videoTracks = [
            track([clip("A", a, origin: Self.aStart, offset: 0, frames: 24)]),
            track([gap(8), dissolve(2, 2), clip("B", b, origin: Self.bStart, offset: 10, frames: 8), gap(8)]),
        ]
        try timeline.stackTracks()
        let (_, output, _) = try render(timeline)
        // A to 5, then A 6-9 dissolving into B 8-11 (B's handles before its cut at frame 8), B to 17, A from 16.
        let blend = dissolveFrames(frames(1, 6...9), frames(2, 8...11))
        assertFrames(output, frames(1, 0...5) + blend + frames(2, 12...17) + frames(1, 16...23))
    }
}
