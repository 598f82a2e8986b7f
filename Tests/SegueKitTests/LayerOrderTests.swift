import Foundation
import XCTest

/// The tiers are SwiftPM targets, so the compiler refuses a type named from a
/// tier above (docs/architecture.md, Layout). These tests hold the shape the
/// compiler is given: each target depends only on the tiers below it, and no
/// source file imports a module its target doesn't depend on.
final class LayerOrderTests: XCTestCase {
    /// The targets from the bottom up: each may depend on those before it.
    static let tiers = ["CFFmpeg", "CHeif", "CLCMS", "SegueBitstream", "SegueCore", "SegueMedia", "SegueModel", "SegueRuntime", "SegueInput",
                        "SegueRender", "SegueKit", "segue"]
    /// The tiers that must build without FFmpeg's headers: nothing they reach is a wrapper or a C module.
    static let withoutFFmpeg = ["SegueBitstream", "SegueCore", "SegueModel"]
    /// The C modules (FFmpeg, libheif, LittleCMS): SegueMedia alone imports them.
    static let cModules: Set<String> = ["CFFmpeg", "CHeif", "CLCMS"]

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
        for module in LayerOrderTests.cModules {
            XCTAssertEqual(dependencies["SegueMedia"]?.contains(module), true, "SegueMedia does not depend on \(module)")
        }
        for (target, uses) in dependencies where target != "SegueMedia" {
            for module in LayerOrderTests.cModules {
                XCTAssertFalse(uses.contains(module), "\(target) reaches \(module) directly: only SegueMedia may")
            }
        }
    }

    /// One `import` line of a source file, read as text: the module, its
    /// access level ("" when unsaid), attributes (`@_exported`,
    /// `@preconcurrency`) and whether it sits inside an `#if` block.
    struct Import: Equatable {
        var module: String
        var access = ""
        var attributes: [String] = []
        var conditional = false
    }

    /// Every import in `text`, those inside `#if … #endif` blocks too:
    /// `import X`, `internal import X`, `@_exported import struct X.Y`, `@preconcurrency import X`.
    static func imports(in text: String) -> [Import] {
        let levels: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
        var found: [Import] = []
        var depth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first else { continue }
            if first == "#if" { depth += 1; continue }
            if first == "#endif" { depth = max(depth - 1, 0); continue }
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                  words[..<at].allSatisfy({ $0.hasPrefix("@") || levels.contains($0) }) else { continue }
            // `import struct SegueCore.Rational` names the module after the kind.
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let named = words[(at + 1)...].first { !kinds.contains($0) } ?? ""
            found.append(Import(module: String(named.split(separator: ".").first ?? ""),
                                access: words[..<at].first { levels.contains($0) } ?? "",
                                attributes: words[..<at].filter { $0.hasPrefix("@") }, conditional: depth > 0))
        }
        return found
    }

    /// Each Swift file of `target` under Sources, with its text.
    static func files(of target: String) throws -> [(name: String, text: String)] {
        let folder = sources.appendingPathComponent(target)
        let urls = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        return try urls.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
    }

    func testImportsAreReadInConditionalBlocksAndWithAccessLevels() {
        let text = """
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            import SegueInput // a comment
            #endif
            internal import CFFmpeg
            @preconcurrency import Dispatch
            @_exported import struct SegueCore.Rational
            package import SegueMedia
            let text = "import SegueKit"
            """
        XCTAssertEqual(LayerOrderTests.imports(in: text), [
            Import(module: "Foundation"), Import(module: "FoundationNetworking", conditional: true),
            Import(module: "SegueInput", conditional: true), Import(module: "CFFmpeg", access: "internal"),
            Import(module: "Dispatch", attributes: ["@preconcurrency"]), Import(module: "SegueCore", attributes: ["@_exported"]),
            Import(module: "SegueMedia", access: "package"),
        ])
    }

    /// A file may import only what its target depends on (SwiftPM would let it
    /// import any module built before it), and never one of ours under `#if`:
    /// a tier that builds on one platform only by accident.
    func testNoSourceImportsAModuleItsTargetDoesNotDependOn() throws {
        let dependencies = try LayerOrderTests.dependencies()
        let ours = Set(LayerOrderTests.tiers)
        for (target, uses) in dependencies where !LayerOrderTests.cModules.contains(target) {
            let files = try LayerOrderTests.files(of: target)
            XCTAssertFalse(files.isEmpty, "no sources under Sources/\(target)")
            for (name, text) in files {
                for used in LayerOrderTests.imports(in: text) where ours.contains(used.module) {
                    XCTAssertTrue(uses.contains(used.module), "\(name) in \(target) imports \(used.module)")
                    XCTAssertFalse(used.conditional, "\(name) in \(target) imports \(used.module) inside #if")
                }
            }
        }
    }

    /// The model and what it stands on build without FFmpeg: nothing they
    /// depend on, directly or through another target, is a wrapper or a C module.
    func testTheModelReachesNoFFmpeg() throws {
        let dependencies = try LayerOrderTests.dependencies()
        for target in LayerOrderTests.withoutFFmpeg {
            var reached: Set<String> = [], next = dependencies[target] ?? []
            while let used = next.popLast() {
                if reached.insert(used).inserted { next += dependencies[used] ?? [] }
            }
            XCTAssertTrue(reached.isDisjoint(with: LayerOrderTests.cModules.union(["SegueMedia"])), "\(target) reaches \(reached.sorted())")
        }
    }

    /// A user of SegueKit sees no C module and no wrapper: CFFmpeg, CHeif and
    /// CLCMS are imported `internal`ly (only in SegueMedia), and the tiers above
    /// import SegueMedia at most as `package`, so the compiler refuses a public
    /// declaration that shows a wrapper's type and never re-exports one.
    func testTheCModulesAndTheWrappersAreImportedBelowPublic() throws {
        let hidden: Set<String> = ["internal", "fileprivate", "private"]
        for target in LayerOrderTests.tiers where !LayerOrderTests.cModules.contains(target) {
            for (name, text) in try LayerOrderTests.files(of: target) {
                for used in LayerOrderTests.imports(in: text) {
                    if LayerOrderTests.cModules.contains(used.module) {
                        XCTAssertEqual(target, "SegueMedia", "\(name) in \(target) imports \(used.module)")
                        XCTAssertTrue(hidden.contains(used.access), "\(name) imports \(used.module) as '\(used.access)'")
                    }
                    if used.module == "SegueMedia" || used.module == "SegueBitstream" {
                        XCTAssertTrue(hidden.union(["package"]).contains(used.access),
                                      "\(name) in \(target) imports \(used.module) as '\(used.access)'")
                    }
                    XCTAssertFalse(used.attributes.contains("@_exported") && target != "SegueKit",
                                   "\(name) in \(target) re-exports \(used.module)")
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
        let guide = try String(contentsOf: LayerOrderTests.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let fence = try XCTUnwrap(guide.range(of: "## Use from Swift").flatMap { guide.range(of: "```swift\n", range: $0.upperBound..<guide.endIndex) })
        let end = try XCTUnwrap(guide.range(of: "```", range: fence.upperBound..<guide.endIndex))
        let example = guide[fence.upperBound..<end.lowerBound].replacingOccurrences(of: "import SegueKit\n", with: "")
        let commandLine = try FileManager.default.contentsOfDirectory(atPath: LayerOrderTests.sources.appendingPathComponent("segue").path)
            .filter { $0.hasSuffix(".swift") }.map { LayerOrderTests.sources.appendingPathComponent("segue/\($0)").path }
        let result = try LayerOrderTests.typecheckOutside("import Foundation\nimport SegueKit\nfunc example() throws {\n\(example)}\n",
                                                          with: commandLine)
        XCTAssertEqual(result.status, 0, "names the command line or the example use are not public:\n\(result.standardError.prefix(3000))")
    }

    /// A user of SegueKit can name none of libav's, libheif's or LittleCMS's symbols, nor a
    /// wrapper, though the compiler finds the C modules (it loads them for the
    /// layout of the package's types, built without library evolution).
    func testAUserOfSegueKitCannotNameTheCModulesOrTheWrappers() throws {
        let names = ["AVRational", "av_q2d", "heif_context_alloc", "cmsCreateTransform", "Frame", "Demuxer", "FFmpegError", "AVCRecord"]
        let source = "import SegueKit\nfunc example() {\n" + names.map { "    _ = \($0).self\n" }.joined() + "    _ = Rational.self\n}\n"
        let result = try LayerOrderTests.typecheckOutside(source)
        XCTAssertNotEqual(result.status, 0)
        for name in names {
            XCTAssertTrue(result.standardError.contains("cannot find '\(name)' in scope"), "\(name) is visible to a user of SegueKit")
        }
        XCTAssertFalse(result.standardError.contains("'Rational'"), "Rational, which is public, is not:\n\(result.standardError.prefix(2000))")
    }

    /// `swiftc -typecheck` of `source` (and `files`) as a module outside the
    /// package, against the modules this build made.
    static func typecheckOutside(_ source: String, with files: [String] = []) throws -> SegueTool.Result {
        let bundle = Bundle(for: LayerOrderTests.self).bundleURL
        let modules = try XCTUnwrap([bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("Modules") }
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("SegueKit.swiftmodule").path) })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-api-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Example.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try Tool.run("swiftc", ["-typecheck", "-parse-as-library", "-module-name", "Outside", "-I", modules.path,
                                       "-I", sources.appendingPathComponent("CFFmpeg").path,
                                       "-I", sources.appendingPathComponent("CHeif").path,
                                       "-I", sources.appendingPathComponent("CLCMS").path] + files + [file.path])
    }
}
