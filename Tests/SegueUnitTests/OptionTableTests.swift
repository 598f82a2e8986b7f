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
    /// option in the table's file, in the code that uses it, and nowhere else
    /// (but for the command line's declarations, which name each row once to
    /// take its flag and help from it: OutputArguments.swift, tested below).
    func testAnOptionsKeyIsNamedInAtMostThreeSourceFiles() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "OutputArguments.swift" }
        let texts = try files.map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
        for option in OutputOption.all where option.key.contains(where: \.isUppercase) {
            let pattern = try NSRegularExpression(pattern: "\\b\(option.key)\\b")
            let naming = texts.filter { pattern.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            XCTAssertLessThanOrEqual(naming.count, 3, "\(option.key) is named in \(naming.map(\.name))")
            XCTAssertTrue(naming.contains { $0.name == "Settings.swift" }, "\(option.key): not in the table's file")
        }
    }

    /// Each row of the table is one argument of `OutputArguments` (declared
    /// with its flag and help from the row): its flag parses into that row and
    /// no other. A value starting with a dash is taken as typed (--loudness -16);
    /// one the table refuses is refused by `options()` in the table's words.
    func testEveryOptionOfTheTableParsesThroughTheArgumentParserIntoItsRowAlone() throws {
        XCTAssertEqual(try OutputArguments.parse([]).options(), OutputOptions(), "no flag, no choice")
        for option in OutputOption.all {
            let arguments = option.valueName == nil ? [option.flag] : [option.flag, "-1"]
            do {
                let chosen = try OutputArguments.parse(arguments).options()
                XCTAssertEqual(OutputOption.all.filter(chosen.chose).map(\.key), [option.key], "\(arguments)")
            } catch {
                var table = OutputOptions()
                XCTAssertEqual(OutputArguments.message(for: error), table.read(flag: option, value: "-1"), "\(arguments)")
            }
        }
        let crf = try OutputArguments.parse(["--crf", "20", "--smart", "--transition=fade", "--no-audio", "--loudness", "-16"]).options()
        XCTAssertEqual(crf.crf, 20)
        XCTAssertEqual(crf.smart, true)
        XCTAssertEqual(crf.transition, .fade)
        XCTAssertEqual(crf.includeAudio, false)
        XCTAssertEqual(crf.loudness, -16)
    }

    /// `segue stitch`'s validate() refuses a value in the table's words (exit 2),
    /// whether it was read as its type and is out of range or never read as
    /// one; the first refused in the table's order is the one reported, after
    /// stitch's own flags. Nothing here reaches a file.
    func testValidateRefusesAValueInTheTablesWords() {
        let refusals: [([String], String)] = [
            (["--crf", "52"], "--crf must be a whole number from 0 to 51"),
            (["--crf", "abc"], "--crf must be a whole number from 0 to 51"),
            (["--crf=-1"], "--crf must be a whole number from 0 to 51"),
            (["--loudness", "-50"], "--loudness must be a number from -40 to -5 (LUFS)"),
            (["--transition-duration", "nan"], "--transition-duration must be a number more than 0 and at most 60 (seconds)"),
            (["--mode", "sideways"], "--mode: 'sideways' is not one of overlap, freeze"),
            (["--transition", "bogus"], "--transition: unknown transition 'bogus' (run `segue transitions` for the list)"),
            (["--size", "3x3"], "--size must be WxH with even numbers from 2 to 8192, e.g. 1280x720"),
            (["--preset", "quick"], "--preset: unknown preset 'quick' (ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo)"),
            (["--overlay-width", "0"], "--overlay-width must be a number more than 0 and at most 1"),
            (["--duck", "61", "--crf", "99"], "--crf must be a whole number from 0 to 51"),
            (["--crf", "99", "--cache-max", "5bbG"], "--cache-max must be a size such as 500M or 2G (k, M, G, T), from 1 byte to 4 EiB"),
            (["--crf", "99", "--jobs", "0"], "--jobs must be from 1 to 256"),
        ]
        for (arguments, says) in refusals {
            XCTAssertThrowsError(try Stitch.parse(["a.mp4", "-o", "out.mp4"] + arguments), "\(arguments)") { error in
                XCTAssertEqual(Stitch.exitCode(for: error), .validationFailure, "\(arguments)")
                XCTAssertEqual(Stitch.message(for: error), says, "\(arguments)")
            }
        }
    }

    /// A value the command line read as its type is taken or refused by the
    /// table as the same value's text would be.
    func testATypedValueIsTakenOrRefusedAsItsText() {
        let values: [(key: String, value: Any, text: String)] = [
            ("crf", 20, "20"), ("crf", 52, "52"), ("crf", -1, "-1"), ("loudness", -16.0, "-16"), ("loudness", -50.0, "-50"),
            ("transitionDuration", Double.nan, "nan"), ("transitionDuration", 0.5, "0.5"), ("musicVolume", 13.0, "13"),
            ("overlayWidth", 0.0, "0"), ("coverAt", -1.0, "-1"), ("mode", TransitionMode.freeze, "freeze"),
            ("transition", TransitionKind.slideLeft, "slide"), ("codec", VideoCodecChoice.av1, "av1"), ("fit", Fit.blur, "blur"),
        ]
        for (key, value, text) in values {
            let option = OutputOption.named(key)!
            var typed = OutputOptions(), read = OutputOptions()
            XCTAssertEqual(typed.read(option, typed: value), read.read(flag: option, value: text), "\(key) \(text)")
            XCTAssertEqual(typed, read, "\(key) \(text)")
        }
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
