import XCTest
@testable import SegueModel

/// The curves' arithmetic at points worked by hand (easings.net's and CSS's definitions), and their names.
final class EasingCurveTests: XCTestCase {
    func value(_ name: String, _ t: Double) throws -> Double { try XCTUnwrap(Easing(name: name), name)(t) }

    func testPennersCurvesAtWorkedPoints() throws {
        XCTAssertEqual(try value("quadratic-in", 0.5), 0.25, accuracy: 1e-12)
        XCTAssertEqual(try value("quadratic-out", 0.5), 0.75, accuracy: 1e-12)
        XCTAssertEqual(try value("cubic-in-out", 0.25), 0.0625, accuracy: 1e-12)
        XCTAssertEqual(try value("quintic-in-out", 0.75), 1 - pow(0.5, 5) / 2, accuracy: 1e-12)
        XCTAssertEqual(try value("sinusoidal-in-out", 0.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(try value("exponential-out", 0.1), 1 - pow(2, -1), accuracy: 1e-12)
        XCTAssertEqual(try value("circular-in", 0.6), 0.2, accuracy: 1e-12)
        let bounce: Double = 7.5625 * pow(0.5 - 1.5 / 2.75, 2) + 0.75
        XCTAssertEqual(try value("bounce-out", 0.5), bounce, accuracy: 1e-12)
        let c: Double = 1.70158 * 1.525
        let back: Double = pow(0.5, 2) * ((c + 1) * 0.5 - c) / 2
        XCTAssertEqual(try value("back-in-out", 0.25), back, accuracy: 1e-12)
        let wave: Double = sin((5 - 11.125) * 2 * Double.pi / 4.5)
        XCTAssertEqual(try value("elastic-in-out", 0.25), -pow(2, -5) * wave / 2, accuracy: 1e-12)
        for name in ["quadratic", "cubic", "quartic", "quintic", "sinusoidal", "exponential", "circular", "elastic", "back", "bounce"] {
            for ends in ["in", "out", "in-out"] {
                XCTAssertEqual(try value("\(name)-\(ends)", 0), 0, accuracy: 1e-9, "\(name)-\(ends) at 0")
                XCTAssertEqual(try value("\(name)-\(ends)", 1), 1, accuracy: 1e-9, "\(name)-\(ends) at 1")
            }
        }
        // Overshoot is kept: the transition draws what it draws there.
        XCTAssertLessThan(try value("back-in", 0.2), 0)
        XCTAssertGreaterThan(try (1...99).map { try value("elastic-out", Double($0) / 100) }.max() ?? 0, 1)
    }

    func testCSSCurvesAndSteps() throws {
        // CSS ease at x = 0.5: the Bézier (0.25, 0.1, 0.25, 1) solved for x, as browsers give it.
        XCTAssertEqual(try value("ease", 0.5), 0.8024033877399112, accuracy: 1e-6)
        XCTAssertEqual(try value("ease-in-out", 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(try value("cubic-bezier(0, 0, 1, 1)", 0.3), 0.3, accuracy: 1e-9)
        XCTAssertEqual(try value("steps(4)", 0.5), 0.5)
        XCTAssertEqual(try value("steps(4)", 0.2), 0)
        XCTAssertEqual(try value("steps(4, jump-start)", 0.1), 0.25)
        XCTAssertEqual(try value("steps(3, jump-none)", 0.5), 0.5)
        XCTAssertEqual(try value("steps(3, jump-both)", 0.1), 0.25)
        XCTAssertEqual(try value("steps(2,start)", 0.1), 0.5)
        XCTAssertEqual(try value("squareroot", 0.25), 0.5, accuracy: 1e-12)
        XCTAssertEqual(try value("cuberoot", 0.125), 0.5, accuracy: 1e-12)
    }

    func testBadCurvesAreRefusedNamingThem() {
        for (text, message) in [("cubic-bezier(1.2,0,0.5,1)", "x1 and x2 must be from 0 to 1"), ("steps(0)", "from 1 to 10000"),
                                ("cubic-bezier(nan,0,0.5,1)", "four finite numbers"), ("cubic-bezier(0.1,0.2,0.3)", "four finite numbers"),
                                ("steps(1,jump-none)", "needs n of 2"), ("steps(3,sideways)", "jump-start, jump-end"),
                                ("cubic-inn", "unknown easing 'cubic-inn'")] {
            guard case .failure(let error) = Easing.parse(text) else { XCTFail("\(text) accepted"); continue }
            XCTAssertTrue(error.message.contains(message), "\(text): \(error.message)")
        }
        XCTAssertEqual(Easing(name: " Ease-In "), Easing(name: "ease-in"))
        XCTAssertEqual(Easing(name: "ease-in"), Easing(name: "cubic-bezier(0.42, 0, 1, 1)"), "the same curve by either name")
    }
}
