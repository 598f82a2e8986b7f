import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Marker clips, made at test time with Segue's own encoder: every frame shows
/// its clip number and frame number as large black/white blocks on a flat grey
/// of the clip's own, and the audio is a tone of the clip's own frequency, so
/// decoding an output tells exactly which clip and frame is on screen and which
/// clip is heard.
struct MarkerClip {
    var clip: Int
    var frames: Int
    var width = 320
    var height = 180
    var frameRate = Rational(30, 1)
    /// Nil for a clip without audio.
    var sampleRate: Int? = 48_000
    var channels = 2
    /// Clockwise display rotation written as metadata; the coded picture is drawn
    /// so that it stands upright once turned, with a white bar along its top.
    var rotation = 0
    /// Seconds of silence-without-samples before the audio starts (its first pts).
    var audioDelay = 0.0
    /// Seconds the audio runs past the last picture.
    var audioOverrun = 0.0
    /// Peak amplitude of the tone.
    var toneAmplitude = 0.5

    var grey: UInt8 { Marker.greys[clip % Marker.greys.count] }
    var toneHz: Double { Marker.tones[clip % Marker.tones.count] }

    /// Writes the clip to `path` (H.264 near-lossless so markers read back exactly).
    func write(to path: String) throws {
        let turned = rotation == 90 || rotation == 270
        let codedWidth = turned ? height : width, codedHeight = turned ? width : height
        var format = EncodingSink.Format(width: codedWidth, height: codedHeight, frameRate: frameRate,
                                         crf: 12, preset: "ultrafast")
        format.audio = sampleRate.map { .init(sampleRate: $0, channels: channels, bitRate: 96_000) }
        format.displayMatrix = rotation == 0 ? nil : Muxer.displayMatrix(clockwise: rotation)
        let sink = try EncodingSink(path: path, format: format)
        for index in 0..<frames {
            let picture = try Frame.video(width: codedWidth, height: codedHeight)
            var luma: PlaneImage
            if rotation == 0 {
                luma = Marker.draw(clip: clip, frame: index, width: width, height: height, grey: grey)
            } else {
                // Too narrow for the marker blocks: a white bar marks the top instead.
                luma = PlaneImage(width: width, height: height, filledWith: grey)
                luma.fill(x: 0, y: 0, width: width, height: height / 8, with: 235)
                luma = Marker.unrotate(luma, clockwise: rotation)
            }
            picture.setPlane(0, to: luma)
            let chroma = picture.planeSize(1)
            picture.setPlane(1, to: PlaneImage(width: chroma.width, height: chroma.height, filledWith: 128))
            picture.setPlane(2, to: PlaneImage(width: chroma.width, height: chroma.height, filledWith: 128))
            picture.pts = Int64(index)
            try sink.encode(picture: picture)
        }
        if let sampleRate {
            // The muxer interleaves; audio may be written after the pictures.
            let videoSeconds = Double(frames) * frameRate.inverted.value
            let start = Int((audioDelay * Double(sampleRate)).rounded())
            let end = Int(((videoSeconds + audioOverrun) * Double(sampleRate)).rounded())
            var position = start
            while position < end {
                let count = min(sink.audioFrameSize, end - position)
                let tone = (0..<count).map { Float(toneAmplitude * sin(2 * .pi * toneHz * Double(position + $0) / Double(sampleRate))) }
                let block = try Frame.audio(sampleCount: count, channels: channels, sampleRate: sampleRate)
                block.setSamples(from: Array(repeating: tone, count: channels), start: 0)
                block.pts = Int64(position)
                try sink.encode(sound: block)
                position += count
            }
        }
        try sink.finish()
    }
}

enum Marker {
    static let greys: [UInt8] = [60, 160, 100, 200]
    static let tones: [Double] = [400, 700, 1000, 1300]
    static let bits = 16
    static let block = 32
    static let pitch = 36
    static let origin = (x: 16, y: 12)

    /// Bits 0-3 clip number, 4-15 frame number; two rows of eight blocks.
    static func draw(clip: Int, frame: Int, width: Int, height: Int, grey: UInt8) -> PlaneImage {
        var image = PlaneImage(width: width, height: height, filledWith: grey)
        let value = (clip & 0xF) | (frame & 0xFFF) << 4
        for bit in 0..<bits {
            let (x, y) = position(bit)
            image.fill(x: x, y: y, width: block, height: block, with: (value >> bit) & 1 == 1 ? 235 : 16)
        }
        return image
    }

    static func position(_ bit: Int) -> (x: Int, y: Int) {
        (origin.x + (bit % 8) * pitch, origin.y + (bit / 8) * (block + 8))
    }

    /// Reads (clip, frame) back from a canvas-sized luma plane, or nil when a
    /// block is neither clearly black nor clearly white (a blended frame).
    static func read(_ image: PlaneImage) -> (clip: Int, frame: Int)? {
        var value = 0
        for bit in 0..<bits {
            let (x, y) = position(bit)
            let mean = image.mean(x: x + 8, y: y + 8, width: block - 16, height: block - 16)
            if mean > 190 { value |= 1 << bit } else if mean > 60 { return nil }
        }
        return (value & 0xF, value >> 4)
    }

    /// Reads the marker of the picture that dominates a blend of two (weight
    /// above one half): each block is thresholded half-way between black and white.
    static func readDominant(_ image: PlaneImage) -> (clip: Int, frame: Int) {
        var value = 0
        for bit in 0..<bits {
            let (x, y) = position(bit)
            if image.mean(x: x + 8, y: y + 8, width: block - 16, height: block - 16) > 125.5 { value |= 1 << bit }
        }
        return (value & 0xF, value >> 4)
    }

    /// The flat grey below the marker blocks.
    static func grey(_ image: PlaneImage) -> Double {
        image.mean(x: 20, y: 110, width: image.width - 40, height: image.height - 120)
    }

    /// Turns an upright picture counter-clockwise so a player turning it
    /// `clockwise` degrees shows it upright again.
    static func unrotate(_ image: PlaneImage, clockwise: Int) -> PlaneImage {
        guard clockwise == 90 else { fatalError("fixtures only rotate by 90") }
        var turned = PlaneImage(width: image.height, height: image.width, filledWith: 0)
        for y in 0..<image.height {
            for x in 0..<image.width {
                // Upright (x, y) lands at coded (y, width - 1 - x).
                turned[y, image.width - 1 - x] = image[x, y]
            }
        }
        return turned
    }
}

/// A temporary folder per test run, holding fixtures made once.
final class FixtureStore: @unchecked Sendable {
    // SAFETY: every access goes through `lock`.
    static let shared = FixtureStore()
    let folder: URL
    private let lock = NSLock()
    private var made: Set<String> = []

    private init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The path of a marker clip, written the first time it is asked for.
    func path(_ name: String, _ clip: MarkerClip) throws -> String {
        try path(name) { try clip.write(to: $0) }
    }

    /// The path of a fixture file that `make` writes the first time it is asked for.
    func path(_ name: String, make: (String) throws -> Void) throws -> String {
        try lock.withLock {
            let path = folder.appendingPathComponent(name).path
            if !made.contains(name) {
                try make(path)
                made.insert(name)
            }
            return path
        }
    }

    /// A fresh path for an output, nothing there yet.
    func outputPath(_ name: String = UUID().uuidString) -> String {
        let path = folder.appendingPathComponent("out-\(name).mp4").path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }
}

extension FixtureStore {
    /// Probes, plans and stitches `entries` into a fresh output (no bad input, no temporary file left).
    func stitch(_ entries: [ClipEntry], settings: StitchSettings) throws -> (plan: Plan, report: StitchReport, path: String) {
        let results = Prober.probeEach(entries)
        let clips = results.compactMap { try? $0.get() }
        XCTAssertEqual(results.compactMap { result -> BadInput? in
            if case .failure(let bad) = result { return bad }
            return nil
        }, [])
        let plan = try Plan(clips: clips, settings: settings)
        let path = outputPath()
        let report = try Stitcher(planned: PlannedStitch(plan: plan.aimed(at: path, settings: settings), settings: settings)).run()
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: path)), "temporary file left behind")
        return (plan, report, path)
    }
}

extension FixtureStore {
    /// A manifest of `clips` (JSON values) and `output`, written under `name`.
    func manifest(_ name: String, clips: [Any], output: [String: Any] = [:]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let data = try JSONSerialization.data(withJSONObject: ["clips": clips, "output": output], options: [.prettyPrinted])
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What tesseract reads in output frame `frame` of `path`, cropped to `crop`
    /// (ffmpeg's `w:h:x:y`) and enlarged three times; skips the test without tesseract.
    func ocr(_ path: String, frame: Int, crop: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tesseract") else {
            throw unavailable("tesseract is not installed (Scripts/setup installs tesseract-ocr)")
        }
        let png = folder.appendingPathComponent("ocr-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let extract = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", path, "-vf",
                                              "select=eq(n\\,\(frame)),crop=\(crop),scale=iw*3:ih*3:flags=bicubic,format=gray",
                                              "-frames:v", "1", "-update", "1", png])
        XCTAssertEqual(extract.status, 0, extract.standardError)
        let read = try Tool.run("tesseract", [png, "-", "--psm", "6"])
        XCTAssertEqual(read.status, 0, read.standardError)
        return read.standardOutput
    }
}
