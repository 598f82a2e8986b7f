import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
@testable import segue
import ArgumentParser

/// The option table is each output option's one definition: the command
/// line, manifests, plan.json and help all read it.
final class OptionTableTests: XCTestCase {
    /// A manifest key of two words names its
    /// option in the table's file, in the code that uses it, and nowhere else.
    func testAnOptionsKeyIsNamedInAtMostThreeSourceFiles() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let texts = try files.map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
        for option in OutputOption.all where option.key.contains(where: \.isUppercase) {
            let pattern = try NSRegularExpression(pattern: "\\b\(option.key)\\b")
            let naming = texts.filter { pattern.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            XCTAssertLessThanOrEqual(naming.count, 3, "\(option.key) is named in \(naming.map(\.name))")
            XCTAssertTrue(naming.contains { $0.name == "Settings.swift" }, "\(option.key): not in the table's file")
        }
    }

    /// The output flags reach the argument parser by reflection
    /// (`OutputArguments.customMirror`), leaning on how swift-argument-parser
    /// 1.8 finds a group's arguments (Package.swift pins it). Should an update
    /// stop honouring it, the flags stop parsing, and this fails naming each.
    func testEveryOptionOfTheTableParsesThroughTheArgumentParserIntoTheOptions() throws {
        XCTAssertEqual(try OutputArguments.parse([]).options(), OutputOptions(), "no flag, no choice")
        for option in OutputOption.all {
            // A value starting with a dash is taken as typed (--loudness -16).
            let arguments = option.valueName == nil ? [option.flag] : [option.flag, "-1"]
            let parsed: OutputArguments
            do {
                parsed = try OutputArguments.parse(arguments)
            } catch {
                XCTFail("\(arguments) does not parse: \(OutputArguments.message(for: error))")
                continue
            }
            do {
                let chosen = try parsed.options()
                XCTAssertTrue(chosen.chose(option), "\(arguments) parsed but was not chosen")
            } catch {
                // Refused by the table: it was read, and the refusal names the flag.
                XCTAssertTrue("\(error)".contains(option.flag), "\(arguments): \(error)")
            }
        }
        let crf = try OutputArguments.parse(["--crf", "20", "--smart", "--transition=fade"]).options()
        XCTAssertEqual(crf.crf, 20)
        XCTAssertEqual(crf.smart, true)
        XCTAssertEqual(crf.transition, .fade)
    }

    /// `--cache-max`: a whole number of bytes, or a number and a unit of 1024s
    /// (k, M, G, T; alone, or with B or iB), within 1 byte to 4 EiB; nothing else.
    func testAByteSizeIsANumberAndAUnitOf1024sAndNothingElse() {
        let accepted: [(String, Int)] = [
            ("1", 1), ("1500", 1500), ("100B", 100), ("100b", 100), ("1500k", 1_536_000), ("1500K", 1_536_000),
            ("500M", 500 << 20), ("500m", 500 << 20), ("500MB", 500 << 20), ("500MiB", 500 << 20), ("500mib", 500 << 20),
            ("2G", 2 << 30), ("2GB", 2 << 30), ("2GiB", 2 << 30), ("1.5G", 3 << 29), ("0.5k", 512), ("1T", 1 << 40),
            ("4096TiB", 1 << 52), ("4194304T", 1 << 62),
        ]
        for (text, bytes) in accepted {
            XCTAssertEqual(OutputValues.byteSize(text), bytes, text)
        }
        let refused = ["", "0", "0k", "0.0001k", "-1", "+5", "-5M", "5bbG", "5GG", "5Gb b", " 5M", "5M ", "5 M", "1.5", "1.5B",
                       "5.M", ".5M", "1.2.3M", "1e3", "1e3k", "infk", "nank", "inf", "0x10", "5iB", "5Bi", "5KIB!", "5P",
                       "M", "MiB", "B", "k", "4194305T", "99999999999999999999", "9223372036854775807"]
        for text in refused {
            XCTAssertNil(OutputValues.byteSize(text), "'\(text)' was read as \(OutputValues.byteSize(text) ?? 0) bytes")
        }
    }

    func testAFlagTakesItsValueAttachedOrNextAndTheTableChecksIt() {
        var next = OutputOptions(), attached = OutputOptions()
        let option = OutputOption.named("musicVolume")!
        XCTAssertNil(next.read(flag: option, value: "-20"))
        XCTAssertNil(attached.read(flag: option, value: "-20"))
        XCTAssertEqual(next, attached)
        XCTAssertEqual(StitchSettings(options: next).musicVolume, -20)
        XCTAssertEqual(next.read(flag: option, value: "13"), "--music-volume must be a number from -60 to 12 (dB)")
        XCTAssertEqual(next.read(flag: OutputOption.named("smart")!, value: "yes"), "--smart takes no value (got 'yes')")
        XCTAssertEqual(next.read(flag: option, value: nil), "--music-volume needs a value")
    }

    // MARK: plan.json

    func testSettingsRoundTripThroughJSONUnchanged() throws {
        var settings = StitchSettings()
        settings.size = Size(width: 640, height: 360)
        settings.frameRate = Rational(30000, 1001)
        settings.transition = .slideUp
        settings.loudness = -16
        settings.music = "/music/bed.m4a"
        settings.smart = true
        let data = try JSONEncoder().encode(settings)
        XCTAssertEqual(try JSONDecoder().decode(StitchSettings.self, from: data), settings)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Set(OutputOption.all.map(\.key) + ["sampleRate"]), "every option by its manifest key")
    }

    func testSettingsAreReadStrictlyNamingTheKey() throws {
        let original = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(StitchSettings())) as? [String: Any])
        func refusal(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var object = original
            edit(&object)
            let data = try JSONSerialization.data(withJSONObject: object)
            do {
                _ = try JSONDecoder().decode(StitchSettings.self, from: data)
                return "read"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(try refusal { $0["bogus"] = 1 }, "settings.bogus: unknown setting")
        XCTAssertEqual(try refusal { $0["crf"] = nil }, "settings.crf: missing")
        XCTAssertEqual(try refusal { $0["loudness"] = nil }, "settings.loudness: missing", "an unset option is null, not absent")
        XCTAssertEqual(try refusal { $0["crf"] = 99 }, "settings.crf: expected a whole number from 0 to 51")
        XCTAssertEqual(try refusal { $0["audioBitrate"] = -1 }, "settings.audioBitrate: expected like 128k or 128000, 8k to 512k bits a second")
        XCTAssertEqual(try refusal { $0["fps"] = ["numerator": 1, "denominator": 3_000_000_000] },
                       "settings.fps: expected a number or fraction from 0.001 to 240, e.g. 30 or 30000/1001 (terms up to 2147483647)")
        XCTAssertEqual(try refusal { $0["sampleRate"] = 8000 }, "settings.sampleRate: expected 44100 or 48000")
        XCTAssertEqual(try refusal { _ in }, "read")
    }
}
