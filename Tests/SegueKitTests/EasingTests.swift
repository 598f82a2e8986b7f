import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// `--easing`: each curve judged against a reference made outside Segue: the
/// ffmpeg CLI's `xfade=transition=custom:expr=...` with the curve's formula
/// (easings.net's for Penner's, CSS's for the rest, a Bézier solved by
/// bisection in the expression) and the shape's (Segue's integer fade, 5.1's
/// wipeleft) written as an expression, frame by frame over the join.
extension TransitionCatalogueTests {
    /// Each curve as an ffmpeg expression of `ld(0)`, the linear progress t (xfade's 1 - P).
    static let easedExpressions: [(easing: String, expression: String)] = [
        ("quadratic-in", "ld(0)*ld(0)"),
        ("cubic-in-out", "if(lt(ld(0),0.5),4*pow(ld(0),3),1-pow(2-2*ld(0),3)*0.5)"),
        ("sinusoidal-out", "sin(ld(0)*PI*0.5)"),
        ("exponential-in", "if(eq(ld(0),0),0,pow(2,10*ld(0)-10))"),
        ("circular-in-out", "if(lt(ld(0),0.5),(1-sqrt(1-pow(2*ld(0),2)))*0.5,(sqrt(1-pow(2-2*ld(0),2))+1)*0.5)"),
        ("back-out", "1+2.70158*pow(ld(0)-1,3)+1.70158*pow(ld(0)-1,2)"),
        ("elastic-out", "if(eq(ld(0),0),0,if(eq(ld(0),1),1,pow(2,-10*ld(0))*sin((ld(0)*10-0.75)*2.0943951023931953)+1))"),
        ("bounce-out", "if(lt(ld(0),0.36363636363636365),7.5625*ld(0)*ld(0),if(lt(ld(0),0.7272727272727273),"
            + "7.5625*pow(ld(0)-0.5454545454545454,2)+0.75,if(lt(ld(0),0.9090909090909091),7.5625*pow(ld(0)-0.8181818181818182,2)+0.9375,"
            + "7.5625*pow(ld(0)-0.9545454545454546,2)+0.984375)))"),
        ("squareroot", "sqrt(ld(0))"),
        ("steps(4,jump-start)", "min(floor(ld(0)*4)+1,4)*0.25"),
        // CSS ease, cubic-bezier(0.25,0.1,0.25,1): s found by bisection where x(s) = t, then y(s).
        ("ease", "st(2,0);st(3,1);st(5,0);while(lt(ld(5),50),st(4,(ld(2)+ld(3))*0.5);"
            + "st(6,3*pow(1-ld(4),2)*ld(4)*0.25+3*(1-ld(4))*ld(4)*ld(4)*0.25+pow(ld(4),3));"
            + "if(lt(ld(6),ld(0)),st(2,ld(4)),st(3,ld(4)));st(5,ld(5)+1));"
            + "3*pow(1-ld(4),2)*ld(4)*0.1+3*(1-ld(4))*ld(4)*ld(4)+pow(ld(4),3)"),
    ]

    /// The ffmpeg CLI's xfade with `expression` as a custom transition, placed as `reference` places a named one
    /// (the next clip's first picture cloned once in front, the first clip's last held on).
    func customReference(_ expression: String, from: String, to: String, length: Int, frames: Int, size: Size) throws -> [[UInt8]] {
        let raw = store.folder.appendingPathComponent("eased-\(UUID().uuidString.prefix(8)).yuv").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let rate = Double(Self.frameRate)
        let graph = "[0:v]tpad=stop_mode=clone:stop=\(frames + 3)[a];[1:v]tpad=start=1:start_mode=clone[b];"
            + "[a][b]xfade=transition=custom:expr='\(expression)':duration=\(Double(frames + 1) / rate)"
            + ":offset=\(Double(length - frames - 1) / rate),format=yuv420p"
        // One filter thread: an expression's st/ld registers are shared by xfade's slice threads.
        try ffmpeg(["-i", from, "-i", to, "-filter_complex_threads", "1", "-filter_complex", graph, "-f", "rawvideo", raw])
        let all = split(try Data(contentsOf: URL(fileURLWithPath: raw)), size: size)
        return Array(all[(length - frames)..<length])
    }

    /// Mean absolute difference of the luma planes (Segue's fade blends 4:2:0 itself; xfade's custom runs on 4:4:4).
    static func lumaDifference(_ a: [UInt8], _ b: [UInt8], size: Size) -> Double {
        let count = size.width * size.height
        return difference(Array(a[..<count]), Array(b[..<count]))
    }

    func testEveryEasedFadeIsTheCurvesIntegerBlendFrameByFrame() throws {
        let tiny: Size = (96, 54)
        let a = try clip("testsrc", frames: 20, size: tiny), b = try clip("testsrc2", frames: 20, size: tiny)
        for (name, curve) in Self.easedExpressions {
            let easing = try XCTUnwrap(Easing(name: name), name)
            let (plan, output) = try stitch([a, b], "fade", frames: 8, size: tiny) { $0.easing = easing }
            XCTAssertEqual(plan.joins[0].easing, easing)
            // Segue's fade: weight w = round(eased * 256) out of 256, held within 0...256, rounded to nearest.
            let blend = "st(0,1-P);st(1,round(clip(\(curve),0,1)*256));(A*(256-ld(1))+B*ld(1)+128)*0.00390625"
            let expected = try customReference(blend, from: a, to: b, length: 20, frames: 8, size: tiny)
            let differences = expected.indices.map { Self.lumaDifference(output[12 + $0], expected[$0], size: tiny) }
            XCTAssertLessThanOrEqual(differences.max() ?? .infinity, 0.02, "\(name): \(differences)")
        }
    }

    /// An xfade shape eased: 5.1's wipeleft (B where x > ⌊W × P⌋) at P = 1 - eased; an eased graph's ticks are 65536ths.
    func testAnEasedXfadeShapeDrawsAtTheCurvesProgress() throws {
        let tiny: Size = (96, 54)
        let a = try clip("testsrc", frames: 20, size: tiny), b = try clip("testsrc2", frames: 20, size: tiny)
        for (name, curve) in Self.easedExpressions where ["cubic-in-out", "sinusoidal-out", "bounce-out", "ease"].contains(name) {
            let (_, output) = try stitch([a, b], "wipeleft", frames: 8, size: tiny) { $0.easing = Easing(name: name)! }
            let wipe = "st(0,1-P);st(1,round(clip(\(curve),0,1)*65536)*0.0000152587890625);if(gt(X,trunc(W*(1-ld(1)))),B,A)"
            let expected = try customReference(wipe, from: a, to: b, length: 20, frames: 8, size: tiny)
            let differences = Self.joinDifferences(output, start: 12, expected)
            XCTAssertLessThanOrEqual(differences.max() ?? .infinity, 0.5, "\(name): \(differences)")
        }
    }

    /// A curve that turns back (elastic, back) draws an xfade shape where it turns: a graph made anew, not an error.
    func testACurveThatTurnsBackDrawsEveryStep() throws {
        let tiny: Size = (96, 54)
        let a = try clip("testsrc", frames: 20, size: tiny), b = try clip("testsrc2", frames: 20, size: tiny)
        let (_, output) = try stitch([a, b], "wipeleft", frames: 8, size: tiny) { $0.easing = Easing(name: "elastic-out")! }
        XCTAssertEqual(output.count, 32)
        let (_, linear) = try stitch([a, b], "wipeleft", frames: 8, size: tiny)
        XCTAssertGreaterThan(Self.joinDifferences(output, start: 12, Array(linear[12..<20])).max() ?? 0, 1, "elastic-out draws another wipe")
    }
}

// MARK: The command line
extension TransitionCatalogueTests {
    /// Bad curves are exit 2 naming them, from a flag or a manifest's join; --jobs draws a curve as one process does.
    func testEasingFromTheCommandLineAManifestAndSegments() throws {
        let tiny: Size = (96, 54)
        let a = try clip("testsrc", frames: 20, size: tiny), b = try clip("testsrc2", frames: 20, size: tiny)
        let folder = store.folder.appendingPathComponent("easing-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let refusedFlag = try Tools.segue(["stitch", a, b, "-o", folder + "/x.mp4", "--transition", "wipeleft",
                                           "--easing", "cubic-bezier(1.5,0,0.5,1)"])
        XCTAssertEqual(refusedFlag.status, 2, refusedFlag.standardError)
        XCTAssertTrue(refusedFlag.standardError.contains("x1 and x2 must be from 0 to 1"), refusedFlag.standardError)
        let manifest = folder + "/joins.json"
        let clips: [[String: Any]] = [["path": a, "join": ["transition": "fade", "duration": 0.32, "easing": "steps(0)"]], ["path": b]]
        try JSONSerialization.data(withJSONObject: ["clips": clips]).write(to: URL(fileURLWithPath: manifest))
        let refusedJoin = try Tools.segue(["stitch", manifest, "-o", folder + "/x.mp4"])
        XCTAssertEqual(refusedJoin.status, 2, refusedJoin.standardError)
        XCTAssertTrue(refusedJoin.standardError.contains("clips[0].join.easing"), refusedJoin.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x.mp4"))

        // An xfade graph's eased ticks, a CPU-drawn shape and a gl_ effect with a parameter (its name carried
        // through the plan the segments read), each through segments and --smart.
        for transition in ["circleopen", "coverleft", "gl_doorway(depth=2)"] {
            let flags = ["--transition", transition, "--transition-duration", "0.32", "--easing", "bounce-out", "--crf", "0",
                         "--preset", "ultrafast", "--no-audio", "--quiet"]
            let outputs = ["plain", "jobs", "smart"].map { folder + "/\(transition)-\($0).mp4" }
            for (output, extra) in zip(outputs, [[], ["--jobs", "2", "--segment-duration", "0.6"], ["--smart"]]) {
                let result = try Tools.segue(["stitch", a, b, "-o", output] + flags + extra)
                XCTAssertEqual(result.status, 0, "\(transition) \(extra): \(result.standardError)")
            }
            let one = try pictures(outputs[0], size: tiny)
            XCTAssertEqual(one.count, 32)
            for other in outputs.dropFirst() {
                XCTAssertEqual(Self.joinDifferences(try pictures(other, size: tiny), start: 0, one).max() ?? .infinity, 0,
                               "\(other): the eased join as one process draws it")
            }
            let (_, linear) = try stitch([a, b], transition, frames: 8, size: tiny)
            XCTAssertGreaterThan(Self.joinDifferences(one, start: 12, Array(linear[12..<20])).max() ?? 0, 1, "\(transition): bounce-out is not linear")
        }

        let listed = try Tools.segue(["transitions", "--easings"])
        XCTAssertEqual(listed.status, 0)
        for name in ["linear", "elastic-in-out", "bounce-out", "ease-in-out", "cubic-bezier(x1,y1,x2,y2)", "steps(n[,position])"] {
            XCTAssertTrue(listed.standardOutput.split(separator: "\n").contains { $0.hasPrefix(name + " ") }, name)
        }
    }
}
