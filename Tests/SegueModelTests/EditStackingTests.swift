import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// `EditTimeline.stackTracks`: video tracks and nested sequences flattened
/// into the one track Segue renders, as OpenTimelineIO composites a Stack.
final class EditStackingTests: XCTestCase {
    private let rate = Rational(24, 1)

    private func time(_ frames: Double) -> EditTime { EditTime(value: frames, rate: 24) }

    private func clip(_ name: String, _ start: Double, _ length: Double, speed: PlaybackSpeed? = nil) -> EditItem {
        .clip(EditClip(name: name, media: EditMedia(location: "/m/\(name).mov"), source: EditRange(start: time(start), duration: time(length)),
                       speed: speed))
    }

    private func gap(_ length: Double) -> EditItem { .gap(time(length)) }

    private func dissolve(_ before: Double, _ after: Double) -> EditItem {
        .transition(EditTransition(kind: .dissolve, before: time(before), after: time(after)))
    }

    private func nested(_ name: String, _ tracks: [EditVideoTrack], start: Double, length: Double, speed: PlaybackSpeed? = nil) -> EditItem {
        .nested(EditNested(name: name, tracks: tracks, source: EditRange(start: time(start), duration: time(length)), speed: speed))
    }

    private func stacked(_ tracks: [EditVideoTrack]) throws -> [EditItem] {
        var timeline = EditTimeline(rate: rate)
        timeline.videoTracks = tracks
        try timeline.stackTracks()
        return timeline.items
    }

    /// Items as `name@sourceStart+length`, `gap+length`, `T before/after`, for short assertions.
    private func described(_ items: [EditItem]) -> [String] {
        items.map { item in
            switch item {
            case .clip(let clip):
                let speed = clip.speed.map { " \($0.rate.numerator)/\($0.rate.denominator)~\($0.phaseNumerator)" } ?? ""
                return "\(clip.name ?? "?")@\(EditReading.number(clip.source.start.value))+\(EditReading.number(clip.source.duration.value))\(speed)"
            case .gap(let duration): return "gap+\(EditReading.number(duration.value))"
            case .fill(let fill): return "fill+\(EditReading.number(fill.duration.value))"
            case .transition(let join): return "T\(EditReading.number(join.before.value))/\(EditReading.number(join.after.value))"
            case .nested(let nested): return "nested \(nested.name ?? "")"
            }
        }
    }

    func testOneTrackStacksToItselfTransitionsAndAll() throws {
        let items = [clip("A", 100, 48), dissolve(6, 6), clip("B", 200, 48), gap(12), dissolve(0, 4), clip("C", 300, 24)]
        XCTAssertEqual(try stacked([EditVideoTrack(name: "V1", items: items)]), items)
    }

    func testAnUpperClipCoversPartOfALowerOneWhichResumesAtTheRightSourceFrame() throws {
        let items = try stacked([EditVideoTrack(items: [clip("Long", 1000, 240)]),
                                 EditVideoTrack(items: [gap(24), clip("Over", 100, 48)])])
        XCTAssertEqual(described(items), ["Long@1000+24", "Over@100+48", "Long@1072+168"])
    }

    func testTheTopMostCoveringTrackWinsAmongThree() throws {
        let items = try stacked([EditVideoTrack(items: [clip("One", 0, 100)]),
                                 EditVideoTrack(items: [gap(10), clip("Two", 500, 60)]),
                                 EditVideoTrack(items: [gap(30), clip("Three", 900, 10), gap(30), clip("Late", 950, 40)])])
        XCTAssertEqual(described(items), ["One@0+10", "Two@500+20", "Three@900+10", "Two@530+30", "Late@950+40"],
                       "Two shows again from its own frame 30 when Three ends; Late runs past the others")
    }

    func testADisabledTrackLetsTheTracksBelowShowAndADisabledFirstTrackIsBlack() throws {
        let items = try stacked([EditVideoTrack(items: [clip("Under", 0, 60)]),
                                 EditVideoTrack(items: [gap(10), clip("Off", 0, 20)], enabled: false)])
        XCTAssertEqual(described(items), ["Under@0+60"])
        let black = try stacked([EditVideoTrack(items: [clip("Off", 0, 60)], enabled: false)])
        XCTAssertEqual(described(black), ["gap+60"])
    }

    func testAnUpperTransitionFromAndToItsGapBlendsWithTheTrackBelow() throws {
        let items = try stacked([EditVideoTrack(items: [clip("Base", 0, 100)]),
                                 EditVideoTrack(items: [gap(20), dissolve(0, 6), clip("Up", 50, 30), dissolve(4, 0), gap(10)])])
        XCTAssertEqual(described(items), ["Base@0+20", "T0/6", "Up@50+30", "T4/0", "Base@50+50"])
    }

    func testATransitionUnderACoveringItemIsHidden() throws {
        let items = try stacked([EditVideoTrack(items: [clip("A", 0, 50), dissolve(5, 5), clip("B", 100, 50)]),
                                 EditVideoTrack(items: [gap(40), clip("Cover", 300, 20)])])
        XCTAssertEqual(described(items), ["A@0+40", "Cover@300+20", "B@110+40"])
    }

    func testATransitionCutShortByAnUpperItemIsNoLongerThanThePieceItJoins() throws {
        let items = try stacked([EditVideoTrack(items: [clip("A", 0, 50), dissolve(8, 8), clip("B", 100, 50)]),
                                 EditVideoTrack(items: [gap(53), clip("Cover", 300, 20)])])
        XCTAssertEqual(described(items), ["A@0+50", "T8/3", "B@100+3", "Cover@300+20", "B@123+27"])
    }

    func testANestedSequencePlaysItsInToOutOverTheTracksBelow() throws {
        let inner = [EditVideoTrack(items: [clip("X", 0, 50), clip("Y", 200, 50)]), EditVideoTrack(items: [gap(30), clip("Z", 300, 30)])]
        let items = try stacked([EditVideoTrack(items: [clip("Base", 2000, 100)]),
                                 EditVideoTrack(items: [gap(20), nested("inner", inner, start: 10, length: 60)])])
        XCTAssertEqual(described(items), ["Base@2000+20", "X@10+20", "Z@300+30", "Y@210+10", "Base@2080+20"])
    }

    func testANestedSequenceAtTwiceTheSpeedPicksEverySecondFrameFromItsIn() throws {
        let inner = [EditVideoTrack(items: [clip("Quick", 600, 45), clip("Quicker", 700, 45)])]
        let items = try stacked([EditVideoTrack(items: [nested("fast", inner, start: 3, length: 31, speed: PlaybackSpeed(2))])])
        // Record frame k shows inner frame 3 + 2k: Quick's frames 3, 5 … 43 (21 frames), then Quicker's 0, 2 … 18.
        XCTAssertEqual(described(items), ["Quick@603+21 2/1~0", "Quicker@700+10 2/1~0"])
    }

    func testANestedSequenceAtOneAndAHalfStartsEachPieceOnTheFrameItsSpeedPicks() throws {
        let inner = [EditVideoTrack(items: [clip("P", 0, 1), clip("Q", 100, 10)])]
        let items = try stacked([EditVideoTrack(items: [nested("odd", inner, start: 0, length: 6, speed: PlaybackSpeed(1.5))])])
        // Record frames 0 … 5 show inner 0, 1, 3, 4, 6, 7: P for 1 frame, then Q for 5, phased half a frame on.
        XCTAssertEqual(described(items), ["P@0+1 3/2~0", "Q@100+5 3/2~1"])
        guard case .clip(let q) = items[1], let speed = q.speed else { return XCTFail("\(items)") }
        XCTAssertEqual((0..<5).map { speed.sourceFrame(at: $0) }, [0, 2, 3, 5, 6], "Q's frames 0, 2, 3, 5, 6: inner 1, 3, 4, 6, 7")
    }

    func testAFrozenNestedSequenceHoldsTheFrameAtItsIn() throws {
        let inner = [EditVideoTrack(items: [clip("Still", 800, 40)])]
        let items = try stacked([EditVideoTrack(items: [gap(10), nested("held", inner, start: 5, length: 20, speed: PlaybackSpeed(0))])])
        XCTAssertEqual(described(items), ["gap+10", "Still@805+20 0/1~0"])
    }

    func testANestedSequenceUsedEverywhereIsRefusedBeforeItMultipliesBeyondTheItemBound() {
        // Ten levels, each nesting the one below 20 times: 20^10 items unbounded.
        var tracks = [EditVideoTrack(items: [clip("Leaf", 0, 1)])]
        for level in 0..<10 {
            tracks = [EditVideoTrack(items: Array(repeating: nested("level \(level)", tracks, start: 0, length: 1), count: 20))]
        }
        let started = Date()
        XCTAssertThrowsError(try stacked(tracks)) { error in
            XCTAssertTrue((error as? EditTimelineError)?.message.contains("more than 100000 items") == true, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
