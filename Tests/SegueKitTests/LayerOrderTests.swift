import Foundation
import XCTest

/// The tiers are SwiftPM targets, so the compiler refuses a type named from a
/// tier above (docs/architecture.md, Layout). These tests hold the shape the
/// compiler is given: each target depends only on the tiers below it, and no
/// source file imports a module its target doesn't depend on.
final class LayerOrderTests: XCTestCase {
    /// The targets from the bottom up: each may depend on those before it.
    static let tiers = ["CFFmpeg", "CHeif", "SegueBitstream", "SegueMedia", "SegueModel", "SegueInput", "SegueRender", "SegueKit", "segue"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")

    /// Each target's dependencies on other targets, as Package.swift states
    /// them (read as text: `swift package dump-package` would wait for the
    /// build folder that `swift test` holds).
    static func dependencies() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        var found: [String: [String]] = [:]
        for match in target.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = String(manifest[Range(match.range(at: 1), in: manifest)!])
            let list = Range(match.range(at: 2), in: manifest).map { String(manifest[$0]) } ?? ""
            // Targets by name ("SegueMedia"); products of other packages (.product(...)) are not tiers.
            let quoted = try NSRegularExpression(pattern: #"(?<!name: )"(\w+)""#)
            found[name] = quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)).compactMap { item in
                let word = String(list[Range(item.range(at: 1), in: list)!])
                return list.contains("package: \"\(word)\"") ? nil : word
            }
        }
        return found
    }

    func testEachTargetDependsOnlyOnTiersBelowIt() throws {
        let rank = Dictionary(uniqueKeysWithValues: LayerOrderTests.tiers.enumerated().map { ($1, $0) })
        let dependencies = try LayerOrderTests.dependencies()
        XCTAssertEqual(Set(dependencies.keys), Set(LayerOrderTests.tiers), "a target with no place in the tiers")
        for (target, uses) in dependencies {
            for used in uses {
                let above = try XCTUnwrap(rank[target]), below = try XCTUnwrap(rank[used], "\(target) uses \(used)")
                XCTAssertLessThan(below, above, "\(target) depends on \(used), a tier above it")
            }
        }
        XCTAssertEqual(dependencies["SegueMedia"]?.contains("CFFmpeg"), true)
        XCTAssertEqual(dependencies["SegueMedia"]?.contains("CHeif"), true)
        for (target, uses) in dependencies where target != "SegueMedia" {
            XCTAssertFalse(uses.contains("CFFmpeg"), "\(target) reaches libav directly: only SegueMedia may")
            XCTAssertFalse(uses.contains("CHeif"), "\(target) reaches libheif directly: only SegueMedia may")
        }
    }

    /// A file may import only what its target depends on (SwiftPM would let it
    /// import any module built before it).
    func testNoSourceImportsAModuleItsTargetDoesNotDependOn() throws {
        let dependencies = try LayerOrderTests.dependencies()
        let ours = Set(LayerOrderTests.tiers)
        for (target, uses) in dependencies where target != "CFFmpeg" && target != "CHeif" {
            let folder = LayerOrderTests.sources.appendingPathComponent(target)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            XCTAssertFalse(files.isEmpty, "no sources under \(folder.path)")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains("import ") {
                    let words = line.split(separator: " ").map(String.init)
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
                    // `import struct SegueMedia.Rational` names the module after the kind.
                    let named = words[(at + 1)...].first { $0.first?.isUppercase == true } ?? ""
                    let module = String(named.split(separator: ".").first ?? "")
                    guard ours.contains(module) else { continue }
                    XCTAssertTrue(uses.contains(module), "\(file.lastPathComponent) in \(target) imports \(module)")
                }
            }
        }
    }

    func testNoFolderInSourcesHoldsMoreThanTwelveFiles() throws {
        let folders = FileManager.default.enumerator(at: LayerOrderTests.sources, includingPropertiesForKeys: [.isDirectoryKey])!
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        for folder in folders + [LayerOrderTests.sources] {
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            XCTAssertLessThanOrEqual(files.count, 12, "\(folder.path) holds \(files.count) files")
        }
    }

    /// `public` is what the command line and docs/architecture.md's "Use from
    /// Swift" example use, and no less: both type-check as a module outside
    /// the package (no `-package-name`), against the modules this build made.
    func testTheCommandLineAndTheDocumentedExampleNeedOnlyPublicNames() throws {
        let bundle = Bundle(for: LayerOrderTests.self).bundleURL
        let modules = try XCTUnwrap([bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("Modules") }
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("SegueKit.swiftmodule").path) })
        let guide = try String(contentsOf: LayerOrderTests.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let fence = try XCTUnwrap(guide.range(of: "## Use from Swift").flatMap { guide.range(of: "```swift\n", range: $0.upperBound..<guide.endIndex) })
        let end = try XCTUnwrap(guide.range(of: "```", range: fence.upperBound..<guide.endIndex))
        let example = guide[fence.upperBound..<end.lowerBound].replacingOccurrences(of: "import SegueKit\n", with: "")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-api-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let exampleFile = folder.appendingPathComponent("Example.swift")
        try "import Foundation\nimport SegueKit\nfunc example() throws {\n\(example)}\n".write(to: exampleFile, atomically: true, encoding: .utf8)
        let commandLine = try FileManager.default.contentsOfDirectory(atPath: LayerOrderTests.sources.appendingPathComponent("segue").path)
            .filter { $0.hasSuffix(".swift") }.map { LayerOrderTests.sources.appendingPathComponent("segue/\($0)").path }
        let result = try Tool.run("swiftc", ["-typecheck", "-parse-as-library", "-module-name", "Outside", "-I", modules.path,
                                             "-I", LayerOrderTests.sources.appendingPathComponent("CFFmpeg").path,
                                             "-I", LayerOrderTests.sources.appendingPathComponent("CHeif").path]
                                            + commandLine + [exampleFile.path])
        XCTAssertEqual(result.status, 0, "names the command line or the example use are not public:\n\(result.standardError.prefix(3000))")
    }
}
