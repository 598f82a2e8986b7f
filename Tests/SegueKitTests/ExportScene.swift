import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore
@testable import SegueMedia

/// The stitch every `--export-timeline` test exports, at one output rate:
/// A (marker clip 1, 48 frames at the output's rate, a start timecode of
/// 01:00:00:00), a fade, B (clip 2, 40 frames at another rate: 25 on a 29.97
/// or 23.976 output, 29.97 on a 25 one, no timecode), a cut, C (clip 3 at the
/// output's rate, trimmed to its frames 6..<30), a fade, a photo (clip 4's
/// first frame, 1 s), a cut, A again: its frames 12 to 24. A manifest
/// names them; fades are 0.4 s.
struct ExportScene {
    let folder: String
    let rate: Rational
    let a: String, b: String, c: String, photo: String
    let manifest: String

    static let fade = 0.4

    /// The rate B is at on an output of `rate`.
    static func otherRate(of rate: Rational) -> Rational {
        rate.value.rounded() == 25 ? Rational(30000, 1001) : Rational(25, 1)
    }

    /// Makes the media (once per run and rate) and a folder of this scene's own with its manifest.
    static func make(rate: Rational, store: FixtureStore = .shared) throws -> ExportScene {
        let tag = "\(rate.numerator)-\(rate.denominator)"
        let dropFrame = rate.denominator == 1001 && rate.value.rounded() == 30
        let plainA = try store.path("ex-a-\(tag)-plain.mp4", MarkerClip(clip: 1, frames: 48, frameRate: rate))
        let a = try store.path("ex-a-\(tag).mov") { path in
            try ffmpeg(["-i", plainA, "-c", "copy", "-timecode", dropFrame ? "01:00:00;00" : "01:00:00:00", path])
        }
        let b = try store.path("ex-b-\(tag).mp4", MarkerClip(clip: 2, frames: 40, frameRate: otherRate(of: rate)))
        let c = try store.path("ex-c-\(tag).mp4", MarkerClip(clip: 3, frames: 36, frameRate: rate))
        let four = try store.path("ex-photo-source.mp4", MarkerClip(clip: 4, frames: 2, sampleRate: nil))
        let photo = try store.path("ex-photo.png") { path in try ffmpeg(["-i", four, "-frames:v", "1", "-update", "1", path]) }
        let folder = store.folder.appendingPathComponent("ex-\(tag)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let seconds = { (frames: Int) in Double(frames) / rate.value }
        let clips: [[String: Any]] = [
            ["path": a, "title": "A & <first>", "join": ["transition": "fade", "duration": fade]],
            ["path": b, "join": ["transition": "none"]],
            ["path": c, "in": seconds(6), "out": seconds(30), "join": ["transition": "fade", "duration": fade]],
            ["path": photo, "duration": 1.0, "join": ["transition": "none"]],
            ["path": a, "title": "A again", "in": seconds(12), "out": seconds(25)],
        ]
        let manifest = folder + "/scene.json"
        let json: [String: Any] = ["clips": clips, "output": ["fps": "\(rate.numerator)/\(rate.denominator)"]]
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: manifest))
        return ExportScene(folder: folder, rate: rate, a: a, b: b, c: c, photo: photo, manifest: manifest)
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        XCTAssertEqual(made.status, 0, made.standardError)
    }

    /// Stitches the scene (ultrafast, near-lossless) with `configure`'s changes: the output and the warnings said.
    func stitch(_ configure: (inout StitchRequest) -> Void = { _ in }, store: FixtureStore = .shared) throws -> (output: String, warnings: [String]) {
        var request = StitchRequest(inputs: [manifest], output: store.outputPath())
        request.options.preset = "ultrafast"
        request.options.crf = 12
        configure(&request)
        var warnings: [String] = []
        _ = try StitchJob(request).run { if case .warning(let text) = $0 { warnings.append(text) } }
        return (request.output, warnings)
    }
}

extension ExportScene {
    /// Every marker block and the flat grey of picture `b` within `tolerance`
    /// of `a`'s (a dissolve's mix included); what differs, or nil when they agree.
    static func firstDifference(_ a: PlaneImage, _ b: PlaneImage, tolerance: Double = 14) -> String? {
        let worst = (0..<Marker.bits).map { bit -> Double in
            let (x, y) = Marker.position(bit), side = Marker.block - 16
            let mine: Double = a.mean(x: x + 8, y: y + 8, width: side, height: side)
            let theirs: Double = b.mean(x: x + 8, y: y + 8, width: side, height: side)
            return abs(mine - theirs)
        }.max() ?? 0
        let grey = abs(Marker.grey(a) - Marker.grey(b))
        guard worst >= tolerance || grey >= tolerance else { return nil }
        return "\(String(describing: Marker.read(a))) against \(String(describing: Marker.read(b))) "
            + "(a block off by \(Int(worst)), the grey by \(Int(grey)))"
    }

    /// `firstDifference` frame by frame over two outputs of the same length.
    static func firstDifference(_ mine: DecodedOutput, _ theirs: DecodedOutput, tolerance: Double = 14) -> String? {
        guard mine.pictures.count == theirs.pictures.count else {
            return "\(mine.pictures.count) frames against \(theirs.pictures.count)"
        }
        for (index, (a, b)) in zip(mine.pictures, theirs.pictures).enumerated() {
            if let difference = firstDifference(a, b, tolerance: tolerance) { return "frame \(index): " + difference }
        }
        return nil
    }
}
