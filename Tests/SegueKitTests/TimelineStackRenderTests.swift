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

/// The stacked timeline through the command line in every mode: each agrees with the plain render frame by frame.
extension TimelineRenderTests {
    /// An OTIO file of video tracks (bottom first): each item a clip (media, first source frame, frames, layout) or a gap.
    func stackedOTIO(_ tracks: [(enabled: Bool, items: [(path: String?, start: Int, frames: Int, layout: [String: Double]?)])],
                     rate: Double = 24000.0 / 1001) throws -> String {
        func time(_ value: Int) -> [String: Any] { ["OTIO_SCHEMA": "RationalTime.1", "value": value, "rate": rate] }
        func item(_ spec: (path: String?, start: Int, frames: Int, layout: [String: Double]?)) -> [String: Any] {
            let range: [String: Any] = ["OTIO_SCHEMA": "TimeRange.1", "start_time": time(spec.start), "duration": time(spec.frames)]
            guard let path = spec.path else { return ["OTIO_SCHEMA": "Gap.1", "source_range": range] }
            return ["OTIO_SCHEMA": "Clip.1", "name": (path as NSString).lastPathComponent, "source_range": range,
                    "metadata": spec.layout.map { ["segue": ["layout": $0]] } ?? [:],
                    "media_reference": ["OTIO_SCHEMA": "ExternalReference.1", "target_url": path]]
        }
        let children = tracks.enumerated().map { number, track -> [String: Any] in
            ["OTIO_SCHEMA": "Track.1", "name": "V\(number + 1)", "kind": "Video", "enabled": track.enabled, "children": track.items.map(item)]
        }
        let timeline: [String: Any] = ["OTIO_SCHEMA": "Timeline.1", "name": "stacked",
                                       "tracks": ["OTIO_SCHEMA": "Stack.1", "children": children]]
        let path = store.folder.appendingPathComponent("stacked-\(UUID().uuidString.prefix(8)).otio").path
        try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testEveryModeShowsWhatThePlainRenderOfAStackedTimelineShows() throws {
        let (a, b, c) = try filmMedia()
        let corner = ["scale_x": 0.5, "scale_y": 0.5, "centre_x": 0.25, "centre_y": 0.25]
        // A for 48 frames (from its timecode 01:00:00:00 = frame 86400); B over frames 10-19 and 30-37; C placed over 20-27.
        let otio = try stackedOTIO([
            (true, [(a, 86_400, 48, nil)]),
            (true, [(nil, 0, 10, nil), (b, 84_960 + 4, 10, nil), (nil, 0, 10, nil), (b, 84_960 + 20, 8, nil), (nil, 0, 10, nil)]),
            (false, [(c, 0, 48, nil)]),
            (true, [(nil, 0, 20, nil), (c, 3, 8, corner), (nil, 0, 20, nil)]),
        ])
        let expected = frames(1, 0...9) + frames(2, 4...13) + frames(1, 20...29) + frames(2, 20...27) + frames(1, 38...47)
        let folder = store.folder.appendingPathComponent("stacked-modes-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let runs: [(String, [String], String)] = [
            ("plain", [], "plain.mp4"), ("--smart", ["--smart"], "smart.mp4"),
            ("--jobs 2 in segments", ["--jobs", "2", "--segment-duration", "0.5"], "jobs.mp4"),
            ("a ladder", ["--hls-time", "1", "--ladder", "180"], "hls/master.m3u8"),
        ]
        for (mode, flags, name) in runs {
            let run = try SegueTool.run(["stitch", otio, "-o", folder + "/" + name, "--preset", "ultrafast", "--crf", "12", "--quiet"] + flags)
            XCTAssertEqual(run.status, 0, "\(mode): \(run.standardError)")
            var path = folder + "/" + name
            if name.hasSuffix(".m3u8") {
                // The rung's segments joined into one file by the ffmpeg CLI (playlists aren't opened as media).
                path = folder + "/rung.mp4"
                let joined = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", folder + "/hls/video_180p.m3u8", "-c", "copy", path])
                XCTAssertEqual(joined.status, 0, joined.standardError)
            }
            let output = try DecodedOutput(path: path)
            assertFrames(output, expected)
            let corners = output.pictures.enumerated().map { index, picture in cornerMarker(picture).map { "\(index):\($0.clip)/\($0.frame)" } }
            XCTAssertEqual(corners.compactMap { $0 }, (20..<28).map { "\($0):3/\(3 + $0 - 20)" }, "\(mode): C in the corner")
        }
    }
}
