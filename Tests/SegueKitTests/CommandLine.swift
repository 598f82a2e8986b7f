import Foundation
import XCTest

/// Runs the built `segue` tool as a user would, capturing its exit code and stderr.
enum SegueTool {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository's root, for its scripts.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        // swift test builds the tool beside the test bundle.
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle(for: FixtureStore.self).bundleURL.deletingLastPathComponent())
        for folder in candidates {
            let url = folder.appendingPathComponent("segue")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("segue")
    }

    /// Runs the tool; `whileRunning` is called once it has started.
    static func run(_ arguments: [String], whileRunning: ((Process) -> Void)? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        return try capture(process, whileRunning: whileRunning)
    }

    /// Runs `process` (any program) to its end, capturing its exit code, stdout and stderr.
    static func capture(_ process: Process, whileRunning: ((Process) -> Void)? = nil) throws -> Result {
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        whileRunning?(process)
        // Read before waiting so a full pipe can't block the tool.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }
}

/// ffprobe, an independent witness of what the output holds.
enum FFprobe {
    static let counted = "stream=codec_type,codec_name,codec_tag_string,width,height,pix_fmt,sample_rate,channels,duration,nb_read_frames,avg_frame_rate"

    /// Each stream's `entries` (frames counted by decoding, unless other entries are asked for).
    static func streams(_ path: String, entries: String = counted) throws -> [[String: Any]] {
        let json = try run((entries == counted ? ["-count_frames"] : []) + ["-show_entries", entries, path])
        return json["streams"] as? [[String: Any]] ?? []
    }

    /// ffprobe's JSON answer to `arguments`.
    static func run(_ arguments: [String]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-of", "json"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
