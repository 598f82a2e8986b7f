import Foundation
import XCTest
@testable import SegueModel

/// The FCPXML reader judged by OpenTimelineIO's fcpx_xml adapter
/// (Tests/Support/fcpx_timelines.py in Scripts/setup's .build/pyenv): the
/// adapter writes each timeline (a long clip on V1, clips and a gap on V2),
/// and what it reads back, frame by frame (the top-most visible clip and its
/// source frame), is what Segue's stacked items show. The adapter writes
/// neither transitions nor speeds: the script writes them in after it (a
/// centred dissolve shows the same frames either side; a speed is played as
/// OTIO's LinearTimeWarp plays one).
final class FCPXMLAdapterTests: XCTestCase {
    static let fcpx = OTIOScript("fcpx_timelines.py", folder: "segue-fcpx")
    static let cases = ["lanes24", "transition25", "speed24"]

    /// What one frame shows: a medium and its source time in seconds, or nil for black.
    struct Shown: Equatable, CustomStringConvertible {
        var url: String
        var seconds: Double
        var description: String { "\(url)@\(seconds)" }
        static func == (a: Shown, b: Shown) -> Bool { a.url == b.url && abs(a.seconds - b.seconds) < 1e-3 }
    }

    static func folder() throws -> URL { try fcpx.folder() }

    override class func tearDown() {
        fcpx.remove()
        super.tearDown()
    }

    static func runPython(_ arguments: [String]) throws -> Data { try fcpx.run(arguments) }

    /// What the adapter reads from `path`, frame by frame.
    static func adapterFrames(_ path: String) throws -> [Shown?] {
        let rows = try JSONSerialization.jsonObject(with: runPython(["frames", path])) as? [Any] ?? []
        return rows.map { row in
            guard let pair = row as? [Any], let url = pair.first as? String, let seconds = pair.last as? Double else { return nil }
            return Shown(url: url, seconds: seconds)
        }
    }

    /// What Segue's stacked items show, frame by frame (a transition takes no frame of its own).
    static func segueFrames(_ timeline: EditTimeline) -> [Shown?] {
        var shown: [Shown?] = []
        for item in timeline.items {
            switch item {
            case .clip(let clip):
                let start = clip.source.start
                for k in 0..<clip.source.duration.frameCount(at: timeline.rate) {
                    let frame = clip.speed?.sourceFrame(at: k) ?? k
                    shown.append(Shown(url: clip.media.location ?? "", seconds: (start.value + Double(frame)) / start.rate))
                }
            case .gap, .fill: shown += Array(repeating: nil, count: Int(item.blank?.frameCount(at: timeline.rate) ?? 0))
            case .transition, .nested: continue
            }
        }
        return shown
    }

    private func parsed(_ name: String) throws -> (EditTimeline, String) {
        let path = try Self.folder().appendingPathComponent("\(name).fcpxml").path
        return (try EditTimeline.parseFCPXML(Data(contentsOf: URL(fileURLWithPath: path))), path)
    }

    func testFCPXMLWrittenByTheAdapterShowsFrameByFrameWhatTheAdapterReads() throws {
        for name in Self.cases {
            let (timeline, path) = try parsed(name)
            let mine = Self.segueFrames(timeline), theirs = try Self.adapterFrames(path)
            XCTAssertEqual(mine.count, theirs.count, "\(name): frames")
            for (frame, (a, b)) in zip(mine, theirs).enumerated() where a != b {
                XCTFail("\(name) frame \(frame): Segue shows \(a.map(\.description) ?? "black"), the adapter \(b.map(\.description) ?? "black")")
                break
            }
        }
    }

    func testTheAdaptersLanesAreTracksAboveThePrimaryStoryline() throws {
        let (timeline, _) = try parsed("lanes24")
        XCTAssertEqual(timeline.videoTracks.map(\.name), ["primary storyline", "lane 1"])
        XCTAssertEqual(timeline.rate.value, 24)
        XCTAssertEqual(timeline.audioTracks, [], "clips without sound on their lanes: no sound tracks")
    }

    func testADissolveWrittenInIsSplitAtItsCut() throws {
        let (timeline, _) = try parsed("transition25")
        let joins = timeline.items.compactMap { item -> EditTransition? in if case .transition(let join) = item { return join } else { return nil } }
        XCTAssertEqual(joins.map { [$0.before.value, $0.after.value] }, [[10, 10]])
    }

    func testATimeMapWrittenInIsTheClipsSpeed() throws {
        let (timeline, _) = try parsed("speed24")
        let fast = timeline.items.compactMap { item -> EditClip? in if case .clip(let clip) = item, clip.name == "Fast" { return clip } else { return nil } }
        XCTAssertEqual(fast.first?.speed?.rate.value, 2)
    }
}
