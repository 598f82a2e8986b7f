import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Damaged and hostile inputs, --strict and --skip-bad, and output safety.
final class ReliabilityTests: XCTestCase {
    let store = FixtureStore.shared

    func marker(_ clip: Int, _ frames: Int) throws -> String {
        try store.path("marker-\(clip)-\(frames).mp4", MarkerClip(clip: clip, frames: frames))
    }

    /// A copy of `source` changed by `damage`, under a new name.
    func damaged(_ source: String, _ name: String, _ damage: (inout [UInt8]) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        damage(&bytes)
        let path = store.folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func mdatOffset(_ bytes: [UInt8]) -> Int {
        let tag = Array("mdat".utf8)
        return (0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag } ?? 0
    }

    /// Overwrites `runs` runs of 40 bytes inside the media data with seeded noise.
    func scramble(_ bytes: inout [UInt8], runs: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let start = mdatOffset(bytes) + 2000
        for _ in 0..<runs {
            let offset = Int.random(in: start..<(bytes.count - 100), using: &generator)
            for index in offset..<(offset + 40) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
    }

    func run(_ arguments: [String]) throws -> SegueTool.Result {
        try SegueTool.run(["stitch"] + arguments + ["--preset", "ultrafast"])
    }

    // MARK: Damaged inputs

    func testTruncatedClipKeepsItsDurationAndSyncWithAWarning() throws {
        let truncated = try damaged(try marker(0, 45), "truncated-60.mp4") { $0.removeLast($0.count * 2 / 5) }
        let output = store.outputPath("truncated")
        let result = try run([truncated, try marker(1, 30), "-o", output])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("warning: \(truncated): video ended"), result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 75, "the truncated clip keeps its 45 frames")
        // The next clip starts on time, picture and sound together.
        for index in 0..<30 {
            XCTAssertTrue(Marker.read(decoded.pictures[45 + index]).map { $0 == (1, index) } ?? false, "frame \(45 + index)")
        }
        XCTAssertEqual(Tone.dominantClip(decoded.audioChunk(frame: 50, frameRate: 30), sampleRate: 48_000), 1)
    }

    func testClipWithNothingDecodableIsABadInput() throws {
        let headerOnly = try damaged(try marker(0, 45), "header-only.mp4") { bytes in
            bytes.removeLast(bytes.count - self.mdatOffset(bytes) - 8)
        }
        let output = store.outputPath("header-only")
        let result = try run([headerOnly, "-o", output])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(headerOnly): no picture could be decoded"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testCorruptedPacketsAreConcealedAndCountedAndTheClipKeepsItsLength() throws {
        let corrupt = try damaged(try marker(0, 45), "corrupt.mp4") { self.scramble(&$0, runs: 6, seed: 7) }
        let output = store.outputPath("corrupt")
        let result = try run([corrupt, try marker(1, 30), "-o", output])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertNotNil(result.standardError.range(of: #"warning: .*corrupt\.mp4: \d+ damaged packets? concealed"#, options: .regularExpression),
                        result.standardError)
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 75)
        XCTAssertTrue(Marker.read(decoded.pictures[45]).map { $0 == (1, 0) } ?? false)
    }

    func testStrictMakesADecodeErrorFatalWithNothingWritten() throws {
        let corrupt = try damaged(try marker(0, 45), "corrupt.mp4") { self.scramble(&$0, runs: 6, seed: 7) }
        let output = store.outputPath("strict")
        let result = try run([corrupt, try marker(1, 30), "-o", output, "--strict"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains(corrupt) && result.standardError.contains("--strict"), result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
    }

    func testSkipBadDropsUnusableInputsNamingEachAndStitchesTheRest() throws {
        let missing = store.folder.appendingPathComponent("gone.mp4").path
        let empty = store.folder.appendingPathComponent("zero.mp4").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        let output = store.outputPath("skip-bad")
        let result = try run([try marker(0, 30), missing, empty, try marker(1, 30), "-o", output, "--skip-bad"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("skipping \(missing): no such file"), result.standardError)
        XCTAssertTrue(result.standardError.contains("skipping \(empty): file is empty"), result.standardError)
        XCTAssertEqual(try DecodedOutput(path: output).pictures.count, 60)

        let nothingLeft = try run([missing, empty, "-o", output + ".none.mp4", "--skip-bad"])
        XCTAssertEqual(nothingLeft.status, 2, "with no usable input left it is still exit 2")
    }

    /// Every damaged or hostile variant ends in 0, 1 or 2 with a message naming
    /// the file, within a time bound: never a crash or a hang.
    func testHostileInputBatteryNeverCrashesOrHangs() throws {
        let source = try marker(0, 45)
        var variants: [String] = []
        let size = try Data(contentsOf: URL(fileURLWithPath: source)).count
        for fraction in stride(from: 0.05, through: 0.95, by: 0.15) {
            variants.append(try damaged(source, "cut-\(Int(fraction * 100)).mp4") { $0.removeLast($0.count - Int(Double(size) * fraction)) })
        }
        for seed in 1...6 {
            variants.append(try damaged(source, "noise-\(seed).mp4") { self.scramble(&$0, runs: 3 * seed, seed: UInt64(seed)) })
        }
        variants.append(try damaged(source, "header-noise.mp4") { bytes in
            var generator = SeededGenerator(seed: 99)
            for index in 40..<min(400, bytes.count) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        })
        variants.append(try damaged(source, "zeros.mp4") { $0 = [UInt8](repeating: 0, count: $0.count) })
        for ext in ["mp4", "mov", "mkv", "webm"] {
            variants.append(try damaged(source, "random.\(ext)") { bytes in
                var generator = SeededGenerator(seed: 5)
                bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            })
        }
        // Absurd declared picture size: the sample entry claims 65535x65535.
        variants.append(try damaged(source, "absurd-size.mp4") { bytes in
            let tag = Array("avc1".utf8)
            if let at = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }) {
                for index in (at + 28)..<(at + 32) { bytes[index] = 0xFF }
            }
        })
        variants += try ffmpegVariants(source)

        for variant in variants {
            let output = store.outputPath("hostile-\((variant as NSString).lastPathComponent)")
            let started = Date()
            let result = try run([variant, try marker(1, 30), "-o", output])
            let seconds = Date().timeIntervalSince(started)
            XCTAssertTrue([0, 1, 2].contains(result.status), "\(variant): exit \(result.status)\n\(result.standardError)")
            XCTAssertLessThan(seconds, 30, "\(variant) took \(seconds) s")
            if result.status != 0 {
                XCTAssertTrue(result.standardError.contains(variant), "\(variant): the message must name the file: \(result.standardError)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: output))
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: OutputFile.temporaryPath(for: output)))
        }
    }

    /// Variants only a muxer can make: timestamps that jump backwards or wrap,
    /// audio only, a still image.
    func ffmpegVariants(_ source: String) throws -> [String] {
        func make(_ name: String, _ arguments: [String]) throws -> String {
            let path = store.folder.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: path) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["ffmpeg", "-v", "error", "-y"] + arguments + [path]
                try process.run()
                process.waitUntilExit()
                XCTAssertEqual(process.terminationStatus, 0, name)
            }
            return path
        }
        return [
            try make("backwards.ts", ["-i", source, "-c", "copy", "-bsf:v", "setts=ts=if(gte(N\\,20)\\,TS-90000\\,TS)"]),
            try make("wrapping.ts", ["-i", source, "-c", "copy", "-output_ts_offset", "95443.2"]),
            try make("audio-only.m4a", ["-f", "lavfi", "-i", "sine=frequency=300:duration=1", "-c:a", "aac"]),
            try make("still.png", ["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1"]),
        ]
    }

    // MARK: Output safety

    func testDiskFullIsExit1SayingSoWithTheTemporaryFileRemoved() throws {
        let mount = store.folder.appendingPathComponent("tiny-disk").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        guard shell("mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", mount) == 0 else {
            throw unavailable("can't mount a small tmpfs here (needs root)")
        }
        defer { _ = shell("umount", mount) }
        let output = mount + "/out.mp4"
        let result = try run([try marker(0, 45), try marker(1, 45), try marker(2, 45), "-o", output, "--crf", "0", "--size", "640x360"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("no space left on device"), result.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mount), [], "nothing left behind")
    }

    func testAKilledRunLeavesOnlyAHiddenPartialThatTheNextRunCleansUp() throws {
        let list = store.folder.appendingPathComponent("killed.txt").path
        try String(repeating: try marker(0, 45) + "\n", count: 40).write(toFile: list, atomically: true, encoding: .utf8)
        let output = store.outputPath("killed")
        let partial = OutputFile.temporaryPath(for: output)
        XCTAssertTrue((partial as NSString).lastPathComponent.hasPrefix(".") && partial.hasSuffix(".partial"))
        _ = try SegueTool.run(["stitch", list, "-o", output, "--preset", "veryslow"]) { process in
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: partial) && Date() < deadline { usleep(10_000) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial), "SIGKILL can't clean up: the partial file stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let rerun = try run([try marker(0, 45), "-o", output])
        XCTAssertEqual(rerun.status, 0, rerun.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial), "the next run removed it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    func shell(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A small deterministic generator (SplitMix64), so damaged fixtures are the same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
