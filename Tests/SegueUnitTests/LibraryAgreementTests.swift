import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueRuntime
@testable import SegueModel
@testable import SegueMedia
import SegueCore

/// The model's lists, kept without FFmpeg, agree with the linked library's:
/// input protocols and xfade's transitions.
final class LibraryAgreementTests: XCTestCase {
    /// The model refuses a name that starts with a protocol libavformat knows
    /// without libavformat: its list is the linked library's.
    func testTheModelsKnownProtocolsAreTheLibrarys() {
        XCTAssertEqual(Network.knownProtocols, LibAV.inputProtocols)
    }

    /// The model lists xfade's transitions without libavfilter: its list is the linked library's, name and help alike.
    func testTheModelsXfadeTransitionsAreTheLibrarys() {
        XCTAssertEqual(XfadeTransitions.names.map(\.name), XfadeGraph.transitionNames.map(\.name))
        XCTAssertEqual(XfadeTransitions.names.map(\.help), XfadeGraph.transitionNames.map(\.help))
    }

    func testEveryXfadeTransitionOfTheLibraryIsAcceptedUnderItsOwnName() throws {
        let library = XfadeGraph.transitionNames.map(\.name)
        XCTAssertGreaterThanOrEqual(library.count, 44, "FFmpeg 5.1's xfade has 44 transitions and fadefast/fadeslow")
        XCTAssertFalse(library.contains("custom"))
        for name in library where name != "fade" {
            let kind = try XCTUnwrap(TransitionKind(name: name), name)
            XCTAssertEqual(kind.rawValue, name)
            XCTAssertEqual(kind.drawing, .xfade(name))
            XCTAssertEqual(kind.defaultDuration, 1.0, "\(name) lasts 1 s like fade")
        }
        // Today's names keep their meaning and their own drawing.
        XCTAssertEqual(TransitionKind(name: "fade")?.drawing, .blend)
        XCTAssertEqual(TransitionKind(name: "slide"), .slideLeft)
        XCTAssertEqual(TransitionKind(name: "slide-up")?.drawing, .slide(.up))
        XCTAssertEqual(TransitionKind(name: "slide-up")?.defaultDuration, 0.3)
        XCTAssertNil(TransitionKind(name: "wipe"))
        XCTAssertNil(TransitionKind(name: "custom"))
        // A plan or manifest holds the name as a plain string.
        let encoded = try JSONEncoder().encode([TransitionKind(name: "circleopen")!, .slideUp])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["circleopen","slide-up"]"#)
        XCTAssertEqual(try JSONDecoder().decode([TransitionKind].self, from: Data(#"["zoomin","slide"]"#.utf8)),
                       [TransitionKind(name: "zoomin")!, .slideLeft])
        XCTAssertThrowsError(try JSONDecoder().decode([TransitionKind].self, from: Data(#"["wipe"]"#.utf8)))
    }
}
