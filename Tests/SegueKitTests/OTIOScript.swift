import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel

/// A Python script of Tests/Support run with the interpreter Scripts/setup
/// gives opentimelineio and its adapters (.build/pyenv): what it prints, and
/// the folder its `make` command fills, made once per test run and removed
/// when its test class is done.
final class OTIOScript: @unchecked Sendable {
    static let python = SegueTool.repository.appendingPathComponent(".build/pyenv/bin/python3").path
    let name: String
    private let script: String
    private let folderName: String
    private let lock = NSLock()
    private var made: URL?

    init(_ name: String, folder: String) {
        self.name = name
        script = SegueTool.repository.appendingPathComponent("Tests/Support/\(name)").path
        folderName = folder
    }

    /// The folder `make` fills.
    func folder() throws -> URL {
        try lock.withLock {
            if let made { return made }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(folderName)-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try run(["make", folder.path])
            made = folder
            return folder
        }
    }

    /// What the script prints given `arguments`; its error when it fails.
    func run(_ arguments: [String]) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw unavailable("no \(Self.python): run Scripts/setup (it installs opentimelineio and its adapters)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [script] + arguments
        let result = try SegueTool.capture(process)
        guard result.status == 0 else { throw EditTimelineError("\(name) \(arguments.joined(separator: " ")): \(result.standardError)") }
        return Data(result.standardOutput.utf8)
    }

    /// Removes what `make` made.
    func remove() {
        lock.withLock {
            if let made { try? FileManager.default.removeItem(at: made) }
            made = nil
        }
    }
}
