import XCTest
import SegueCore
@testable import SegueModel

/// gl_ names with parameters: `gl_cube(floating=5)` read, checked and spelt back.
final class GLTransitionParsingTests: XCTestCase {
    func parsed(_ text: String) throws -> GLTransition { try XCTUnwrap(GLTransition.parse(text), text).get() }

    func refusal(_ text: String) throws -> String {
        guard case .failure(let error) = try XCTUnwrap(GLTransition.parse(text), text) else {
            XCTFail("\(text) was accepted"); return ""
        }
        return error.description
    }

    func testNamesWithoutParametersTakeTheDefaults() throws {
        XCTAssertNil(GLTransition.parse("fade"), "not a gl_ name")
        XCTAssertNil(GLTransition.parse("gl_nosuch(x=1)"))
        let doorway = try parsed("gl_doorway")
        XCTAssertEqual(doorway.float("depth"), 3)
        XCTAssertEqual(doorway.spelling, "gl_doorway")
    }

    func testParametersAreReadAndSpeltBackInTheEffectsOrder() throws {
        let doorway = try parsed("gl_doorway( depth = 2.5 , reflection=0.25)")
        XCTAssertEqual(doorway.float("depth"), 2.5)
        XCTAssertEqual(doorway.float("reflection"), 0.25)
        XCTAssertEqual(doorway.float("perspective"), 0.4)
        XCTAssertEqual(doorway.spelling, "gl_doorway(reflection=0.25,depth=2.5)")
        XCTAssertEqual(try parsed("gl_doorway(depth=3)").spelling, "gl_doorway", "a default is not spelt")
        XCTAssertEqual(try parsed("gl_doorway( )").spelling, "gl_doorway", "empty parentheses are the defaults")
        XCTAssertEqual(try parsed("gl_fade()").spelling, "gl_fade")
        let direction = try parsed("gl_directional(direction=-1,0)")
        XCTAssertEqual(direction.value("direction"), [-1, 0])
        XCTAssertEqual(direction.spelling, "gl_directional(direction=-1,0)")
        let circle = try parsed("gl_circleopen(opening=false,smoothness=0.1)")
        XCTAssertFalse(circle.bool("opening"))
        XCTAssertEqual(circle.spelling, "gl_circleopen(smoothness=0.1,opening=false)")
        XCTAssertEqual(try parsed("gl_randomsquares(size=4,20)").value("size"), [4, 20])
    }

    func testBadParametersAreToldWhatThereIs() throws {
        let unknown = try refusal("gl_doorway(dept=2)")
        XCTAssertTrue(unknown.contains("no parameter 'dept'"), unknown)
        XCTAssertTrue(unknown.contains("reflection (float, default 0.4), perspective (float, default 0.4), depth (float, default 3)"), unknown)
        XCTAssertTrue(try refusal("gl_fade(x=1)").contains("gl_fade takes no parameters"))
        XCTAssertTrue(try refusal("gl_doorway(depth=-2)").contains("'depth' takes a number from 0.01 to 100, not '-2'"))
        XCTAssertTrue(try refusal("gl_doorway(depth=nan)").contains("not 'nan'"))
        XCTAssertTrue(try refusal("gl_doorway(depth=inf)").contains("not 'inf'"))
        XCTAssertTrue(try refusal("gl_doorway(depth=)").contains("not ''"))
        XCTAssertTrue(try refusal("gl_doorway(depth=2,depth=3)").contains("given twice"))
        XCTAssertTrue(try refusal("gl_doorway(depth=2").contains("end with ')'"))
        XCTAssertTrue(try refusal("gl_doorway(2)").contains("a parameter needs a name"))
        XCTAssertTrue(try refusal("gl_directional(direction=1)").contains("2 components"))
        XCTAssertTrue(try refusal("gl_randomsquares(size=2.5,3)").contains("whole number"))
        XCTAssertTrue(try refusal("gl_circleopen(opening=yes)").contains("true or false"))
    }

    func testTransitionKindsCarryTheirParameters() throws {
        let kind = try XCTUnwrap(TransitionKind(name: "gl_doorway(depth=2)"))
        XCTAssertEqual(kind.rawValue, "gl_doorway(depth=2)")
        XCTAssertEqual(kind.drawing, .gl(try parsed("gl_doorway(depth=2)")))
        XCTAssertEqual(kind.defaultDuration, 1)
        let decoded = try JSONDecoder().decode([TransitionKind].self, from: Data(#"["gl_doorway( depth=2.0 )"]"#.utf8))
        XCTAssertEqual(decoded, [kind], "decoded as spelt")
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(kind), as: UTF8.self), #""gl_doorway(depth=2)""#)
        XCTAssertNil(TransitionKind(name: "gl_doorway(dept=2)"))
        XCTAssertTrue(TransitionCatalogue.unknown("gl_doorway(dept=2)").contains("no parameter 'dept'"))
        XCTAssertTrue(TransitionCatalogue.unknown("gl_nosuch").contains("unknown transition 'gl_nosuch'"))
        XCTAssertFalse(TransitionCatalogue.pickable.contains(kind), "random picks effects at their defaults")
    }
}
