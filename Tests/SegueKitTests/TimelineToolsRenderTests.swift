import Foundation
import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Timelines written by hand exactly as other tools write them (issue 46):
/// a Premiere xmeml with a disabled clip item and generators, a Hiero xmeml
/// with decimal frame counts, an Avid/Nucoda-style EDL at 25 fps naming its
/// media by Windows paths. Each is judged against OpenTimelineIO's own
/// adapters' reading of the same file, and rendered on marker media frame by frame.
extension TimelineRenderTests {
    static let pal = Rational(25, 1)
    static let filmWhole = Rational(24, 1)

    /// A Premiere xmeml at 24 fps: A (frames 2-7), B disabled, then Black
    /// Video, a red Color Matte, Bars and Tone, a Universal Counting Leader
    /// (Premiere's Slug clip items), an FCP 7 Slug generatoritem, A again
    /// (10-15) and an unknown generator; 3 frames each unless said.
    static func premiereXML(a: String, b: String) -> String {
        func slug(_ number: Int, _ name: String, _ start: Int) -> String {
            """
            <clipitem id="clipitem-\(number)"><name>\(name)</name><enabled>TRUE</enabled><duration>1294705</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>\(start)</start><end>\(start + 3)</end><in>0</in><out>3</out>
            <file id="file-\(number)"><name>\(name)</name><mediaSource>Slug</mediaSource><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate>
            <media><video><samplecharacteristics><width>320</width><height>180</height></samplecharacteristics></video></media></file></clipitem>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xmeml>
            <xmeml version="4">
            <sequence id="sequence-1"><uuid>5c3e2b1a</uuid><duration>36</duration><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate>
            <name>premiere tools</name>
            <media><video><format><samplecharacteristics><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><width>320</width><height>180</height></samplecharacteristics></format>
            <track>
            <clipitem id="clipitem-1"><masterclipid>masterclip-1</masterclipid><name>A</name><enabled>TRUE</enabled><duration>48</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>0</start><end>6</end><in>2</in><out>8</out>
            <file id="file-a"><name>\((a as NSString).lastPathComponent)</name><pathurl>file://localhost\(a)</pathurl>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><duration>48</duration></file></clipitem>
            <clipitem id="clipitem-2"><name>B</name><enabled>FALSE</enabled><duration>48</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>6</start><end>12</end><in>0</in><out>6</out>
            <file id="file-b"><name>\((b as NSString).lastPathComponent)</name><pathurl>file://localhost\(b)</pathurl>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><duration>48</duration></file></clipitem>
            \(slug(3, "Black Video", 12))
            <clipitem id="clipitem-4"><name>Color Matte</name><enabled>TRUE</enabled><duration>1294705</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>15</start><end>18</end><in>0</in><out>3</out>
            <file id="file-4"><name>Color Matte</name><rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate></file>
            <filter><effect><name>Color Matte</name><effectid>PR.ADBE Color</effectid><effectcategory>Video</effectcategory><effecttype>generator</effecttype>
            <parameter authoringApp="PremierePro"><parameterid>fillcolor</parameterid><name>Color</name>
            <value><alpha>255</alpha><red>255</red><green>0</green><blue>0</blue></value></parameter></effect></filter></clipitem>
            \(slug(5, "Bars and Tone", 18))
            \(slug(6, "Universal Counting Leader", 21))
            <generatoritem id="generatoritem-1"><name>Slug</name><enabled>TRUE</enabled><duration>3</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>24</start><end>27</end><in>0</in><out>3</out>
            <effect><name>Slug</name><effectid>Slug</effectid><effectcategory>Matte</effectcategory><effecttype>generator</effecttype><mediatype>video</mediatype></effect></generatoritem>
            <clipitem id="clipitem-8"><name>A again</name><enabled>TRUE</enabled><duration>48</duration>
            <rate><timebase>24</timebase><ntsc>FALSE</ntsc></rate><start>27</start><end>33</end><in>10</in><out>16</out><file id="file-a"/></clipitem>
            \(slug(9, "Swirl", 33))
            <enabled>TRUE</enabled><locked>FALSE</locked></track></video></media></sequence></xmeml>
            """
    }

    /// The 24 fps marker media A (clip 1) and B (clip 2), no start timecode.
    func wholeFilmMedia() throws -> (a: String, b: String) {
        (try media("w24a", clip: 1, rate: Self.filmWhole), try media("w24b", clip: 2, rate: Self.filmWhole))
    }

    func folder(_ prefix: String) throws -> String {
        let folder = store.folder.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What the fcp_xml / cmx_3600 adapter reads from `path`, by edit_timelines.py.
    func adapterReading(_ path: String, rate: Rational? = nil) throws -> Reading {
        guard FileManager.default.isExecutableFile(atPath: EditTimelineParseTests.python) else {
            throw unavailable("no \(EditTimelineParseTests.python): run Scripts/setup (it installs opentimelineio and its adapters)")
        }
        return try EditTimelineParseTests.packageReading(path, rate: rate)
    }

    /// Same kinds, names, media and ranges (seconds, within a fifth of a frame).
    func assertSameReading(_ mine: Reading, _ theirs: Reading, rate: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(mine.items.map(\.kind), theirs.items.map(\.kind), "kinds", file: file, line: line)
        for (index, (a, b)) in zip(mine.items, theirs.items).enumerated() {
            XCTAssertEqual(a.url, b.url, "item \(index + 1): url", file: file, line: line)
            for (x, y, field) in [(a.start, b.start, "start"), (a.duration, b.duration, "duration")] {
                XCTAssertEqual(x ?? -1, y ?? -1, accuracy: 0.2 / rate, "item \(index + 1): \(field)", file: file, line: line)
            }
        }
    }

    func testAPremiereXMLWithADisabledClipAndGeneratorsReadsAsTheFCPAdapterReadsIt() throws {
        let folder = try folder("tl-premiere")
        let path = folder + "/premiere.xml"
        try Self.premiereXML(a: "/media/a.mov", b: "/media/b.mov").write(toFile: path, atomically: true, encoding: .utf8)
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
        var expected = try adapterReading(path)
        // The adapter doesn't read <enabled> (B is a clip to it), and reads the Color Matte,
        // whose file has neither path nor mediaSource, as a clip with a MissingReference.
        XCTAssertEqual(expected.items[1].url, "file://localhost/media/b.mov")
        XCTAssertEqual(expected.items[3].url, nil)
        for index in [1, 3] { expected.items[index] = Reading.Item(kind: "gap", duration: expected.items[index].duration) }
        assertSameReading(Reading(parsed), expected, rate: 24)
        XCTAssertEqual(parsed.items.count, 9)
    }

    func testAPremiereXMLRendersDisabledClipsBlackAndGeneratorsAsTheyLook() throws {
        let (a, b) = try wholeFilmMedia()
        let folder = try folder("tl-premiere-render")
        try Self.premiereXML(a: a, b: b).write(toFile: folder + "/premiere.xml", atomically: true, encoding: .utf8)
        let (output, warnings) = try stitch([folder + "/premiere.xml"]) { $0.exportOTIO = folder + "/rendered.otio" }
        let decoded = try DecodedOutput(path: output)
        XCTAssertEqual(decoded.pictures.count, 36)
        let exported = try EditTimeline.parseOTIO(Data(contentsOf: URL(fileURLWithPath: folder + "/rendered.otio")))
        let looks = exported.items.compactMap { item -> EditFill.Look? in
            if case .fill(let fill) = item { return fill.look }
            return nil
        }
        XCTAssertEqual(looks, [.colour("#FF0000"), .bars], "the matte and the bars exported as generators, black as gaps")
        let black = Array(repeating: Shown.black, count: 3)
        // The colour and bars frames are judged apart (assertFrames reads marker blocks).
        let marked = Array(decoded.pictures[0..<15]) + Array(decoded.pictures[21..<36])
        var sparse = decoded
        sparse.pictures = marked
        assertFrames(sparse, frames(1, 2...7) + black + black + black + black + black + frames(1, 10...15) + black)
        let width = decoded.width, height = decoded.height
        for picture in decoded.pictures[15..<18] {
            XCTAssertEqual(picture.mean(x: 8, y: 8, width: width - 16, height: height - 16), 63, accuracy: 6, "red matte: BT.709 limited luma of red")
        }
        for picture in decoded.pictures[18..<21] {
            let bar = { (index: Int) in picture.mean(x: index * width / 7 + 6, y: 8, width: width / 7 - 12, height: height - 16) }
            XCTAssertEqual(bar(0), 180, accuracy: 8, "75 % white")
            XCTAssertEqual(bar(1), 168, accuracy: 8, "yellow")
            XCTAssertEqual(bar(6), 28, accuracy: 8, "blue")
        }
        let quiet = decoded.audio.dropFirst(decoded.sampleRate * 3 / 10).prefix(decoded.sampleRate / 4)
        XCTAssertTrue(quiet.allSatisfy { abs($0) < 1e-3 }, "silent from B (disabled) through the generators")
        XCTAssertGreaterThan(decoded.audio.prefix(decoded.sampleRate / 5).map(abs).max() ?? 0, 0.01, "A's tone is heard before them")
        for name in ["'B'", "Black Video", "Color Matte", "Bars and Tone", "Universal Counting Leader", "generatoritem 7 'Slug'", "unknown generator 'Swirl'"] {
            XCTAssertTrue(warnings.contains { $0.contains(name) }, "no warning names \(name): \(warnings)")
        }
    }

    func testAHieroXMLWithDecimalFramesReadsAsTheFCPAdapterReadsIt() throws {
        let folder = try folder("tl-hiero")
        let path = folder + "/hiero.xml"
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xmeml>
            <xmeml version="5"><sequence id="sequence-1"><name>hiero</name><duration>36</duration>
            <rate><ntsc>FALSE</ntsc><timebase>24</timebase></rate>
            <media><video><track>
            <clipitem id="A001_C002"><name>A001_C002</name><duration>48.0</duration><rate><ntsc>FALSE</ntsc><timebase>24</timebase></rate>
            <start>0</start><end>24</end><in>0.0</in><out>24.0</out>
            <file id="file-1"><name>A001_C002.mov</name><pathurl>file://localhost/media/A001_C002.mov</pathurl><duration>48.0</duration>
            <rate><ntsc>FALSE</ntsc><timebase>24</timebase></rate>
            <timecode><rate><ntsc>FALSE</ntsc><timebase>24</timebase></rate><string>01:00:00:00</string><frame>86400</frame><displayformat>NDF</displayformat></timecode></file>
            </clipitem>
            <clipitem id="A001_C003"><name>A001_C003</name><duration>48.0</duration><rate><ntsc>FALSE</ntsc><timebase>24</timebase></rate>
            <start>24</start><end>36</end><in>12.0</in><out>24.0</out><file id="file-1"/></clipitem>
            </track></video></media></sequence></xmeml>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let parsed = try EditTimeline.parseFCP7XML(Data(contentsOf: URL(fileURLWithPath: path)))
        assertSameReading(Reading(parsed), try adapterReading(path), rate: 24)
        guard case .clip(let second) = parsed.items[1] else { return XCTFail("\(parsed.items)") }
        XCTAssertEqual(second.source.start.value, 86_412)
    }

    /// An Avid/Nucoda-style EDL at 25 fps naming its media by Windows paths: `name1` exactly, `name2` in another case.
    static func palEDL(_ name1: String, _ name2: String) -> String {
        """
        TITLE: PAL REEL
        FCM: NON-DROP FRAME

        001  A001C002 V     C        01:00:00:05 01:00:01:02 10:00:00:00 10:00:00:22
        * FROM CLIP NAME: \((name1 as NSString).deletingPathExtension)
        * SOURCE FILE: S:\\PROJECT\\MEDIA\\\(name1)

        002  A001C002 V     C        01:00:00:24 01:00:01:10 10:00:00:22 10:00:01:08
        * SOURCE FILE: \\\\server\\share\\\(name2)

        """
    }

    func testAPALEDLReadsAsTheCMX3600AdapterReadsItAt25() throws {
        let path = try folder("tl-pal-read") + "/pal.edl"
        try Self.palEDL("A001_C002.mov", "a001_c002.MOV").write(toFile: path, atomically: true, encoding: .utf8)
        let parsed = try EditTimeline.parseCMX3600(String(contentsOfFile: path, encoding: .utf8), rate: Self.pal)
        var expected = try adapterReading(path, rate: Self.pal)
        // The adapter takes a clip's media from `FROM CLIP`/`FROM FILE` only; Segue also from `SOURCE FILE`.
        XCTAssertEqual(expected.items.map(\.url), [nil, nil])
        expected.items[0].url = "S:\\PROJECT\\MEDIA\\A001_C002.mov"
        expected.items[1].url = "\\\\server\\share\\a001_c002.MOV"
        assertSameReading(Reading(parsed), expected, rate: 25)
    }

    func testAPALEDLOfWindowsPathsRendersAt25FromItsMedia() throws {
        let source = try media("pal", clip: 1, frames: 50, rate: Self.pal, timecode: "01:00:00:00")
        let root = try folder("tl-pal-root")
        try FileManager.default.createDirectory(atPath: root + "/Shots", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: root + "/Shots/A001_C002.mov")
        let folder = try folder("tl-pal")
        try Self.palEDL("A001_C002.mov", "a001_c002.MOV").write(toFile: folder + "/pal.edl", atomically: true, encoding: .utf8)
        let (output, warnings) = try stitch([folder + "/pal.edl"]) { $0.mediaRoots = [root] }
        assertFrames(try DecodedOutput(path: output), frames(1, 5...26) + frames(1, 24...34))
        XCTAssertEqual(try Prober.probe(output).get().facts.frameRate, Self.pal, "a PAL EDL renders at its media's 25")
        XCTAssertTrue(warnings.contains { $0.contains("a001_c002.MOV") && $0.contains("case") }, "\(warnings)")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        // Told by --fps: the same frames.
        let (told, _) = try stitch([folder + "/pal.edl"]) { $0.mediaRoots = [root]; $0.options.frameRate = Self.pal }
        assertFrames(try DecodedOutput(path: told), frames(1, 5...26) + frames(1, 24...34))
    }

    func testTheCommandLineRefusesAPALEDLAt24AndMissingWindowsMediaWithExit2() throws {
        let folder = try folder("tl-pal-cli")
        try Self.palEDL("A001_C002.mov", "a001_c002.MOV").write(toFile: folder + "/pal.edl", atomically: true, encoding: .utf8)
        let output = store.outputPath()
        let at24 = try Tools.segue(["stitch", folder + "/pal.edl", "-o", output, "--quiet"])
        XCTAssertEqual(at24.status, 2, at24.standardError)
        XCTAssertTrue(at24.standardError.contains("event 002") && at24.standardError.contains("24 fps"), at24.standardError)
        let missing = try Tools.segue(["stitch", folder + "/pal.edl", "-o", output, "--fps", "25", "--media-root", folder, "--quiet"])
        XCTAssertEqual(missing.status, 2, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("clip 'A001_C002'") && missing.standardError.contains("S:\\PROJECT\\MEDIA\\A001_C002.mov")
                      && missing.standardError.contains(folder + "/…/A001_C002.mov"), missing.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testMediaNamedByWindowsPathsAndURLsIsFoundByItsLastComponent() throws {
        let (a, _) = try wholeFilmMedia()
        let name = (a as NSString).lastPathComponent
        let finder = MediaFinder(folder: "/nonexistent", roots: [store.folder.path], access: InputAccess())
        for location in ["S:\\path\\to\\\(name)", "\\\\server\\share\\\(name)", "file://localhost/C:/media/\(name)", "file:///D:/x/\(name)",
                         "C:/media/" + name.replacingOccurrences(of: "-", with: "%2D")] {
            XCTAssertEqual(try finder.locate(EditMedia(location: location), clipName: "A"), a, location)
        }
        XCTAssertEqual(finder.notes, [])
        XCTAssertEqual(try finder.locate(EditMedia(location: "S:\\path\\" + name.uppercased()), clipName: "A"), a)
        XCTAssertEqual(finder.notes.count, 1)
        XCTAssertTrue(finder.notes[0].contains("clip 'A'") && finder.notes[0].contains(name.uppercased()), "\(finder.notes)")
        XCTAssertThrowsError(try finder.locate(EditMedia(location: "S:\\path\\absent.mov"), clipName: "B")) { error in
            guard case .mediaNotFound(let clip, let named, let looked) = error as? BadInputReason else { return XCTFail("\(error)") }
            XCTAssertEqual(clip, "B")
            XCTAssertEqual(named, "S:\\path\\absent.mov")
            XCTAssertEqual(looked, ["S:\\path\\absent.mov", store.folder.path + "/…/absent.mov (in any case)"])
        }
    }
}
