import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel

/// WebVTT read as the W3C specification's parser reads it: each
/// file below is one of its edge cases, and each cue is checked to the
/// millisecond against the text a browser shows for it, written from the
/// specification's rules (WebVTT parser algorithm, cue text parsing rules,
/// CSS `white-space: pre-line`), not from what the parser does.
final class WebVTTTests: XCTestCase {
    /// A cue as a text track shows it: milliseconds, its text, its styled runs.
    struct Shown: Equatable, CustomStringConvertible {
        var start: Int
        var end: Int
        var text: String
        var styles: [StyleRun] = []

        var description: String { "\(start)-\(end) \(text.debugDescription) \(styles.map { "\($0.start)..<\($0.end):\($0.style.rawValue)" })" }
    }

    func shown(_ vtt: String) throws -> [Shown] {
        try WebVTT.cues(Data(vtt.utf8)).map {
            Shown(start: Int(($0.start * 1000).rounded()), end: Int(($0.end * 1000).rounded()), text: $0.text, styles: $0.styles)
        }
    }

    func parsed(_ vtt: String) throws -> [WebVTT.ParsedCue] {
        try WebVTT.parse(Data(vtt.utf8))
    }

    func assertShown(_ vtt: String, _ expected: [Shown], file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try shown(vtt)
        XCTAssertEqual(got.count, expected.count, "cue count; got \(got)", file: file, line: line)
        for (index, (cue, want)) in zip(got, expected).enumerated() where cue != want {
            XCTFail("cue \(index): got \(cue), expected \(want)", file: file, line: line)
        }
    }

    func assertNotWebVTT(_ vtt: Data, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try WebVTT.parse(vtt), String(decoding: vtt, as: UTF8.self).debugDescription, file: file, line: line) {
            XCTAssertEqual($0 as? BadInputReason, .notWebVTT, file: file, line: line)
        }
    }

    // MARK: The file

    func testTheSignatureMayHaveTextAfterASpaceOrTabAndABOMBeforeIt() throws {
        let cue = "\n\n00:01.000 --> 00:02.000\nHi"
        for header in ["WEBVTT", "WEBVTT - Title of the file", "WEBVTT\tTabbed", "\u{FEFF}WEBVTT"] {
            try assertShown(header + cue, [Shown(start: 1000, end: 2000, text: "Hi")])
        }
        XCTAssertEqual(try parsed("WEBVTT"), [], "a signature alone is a file without cues")
        XCTAssertEqual(try parsed("WEBVTT\n"), [])
        XCTAssertEqual(try parsed("WEBVTT\n\n"), [])
        for bad in ["", "WEBVT", "WEBVTTX\n\n00:01.000 --> 00:02.000\nHi", "WEBVTT-\n", "webvtt\n", " WEBVTT\n", "\nWEBVTT\n",
                    "1\n00:00:01,000 --> 00:00:02,000\nSubRip"] {
            assertNotWebVTT(Data(bad.utf8))
        }
    }

    func testTextIsUTF8WithBadBytesAndNULAsReplacementCharacters() throws {
        var bytes = Array("WEBVTT\n\n00:01.000 --> 00:02.000\nbad ".utf8) + [0xE9] + Array(" nul ".utf8) + [0x00] + Array(" end".utf8)
        XCTAssertEqual(try WebVTT.cues(Data(bytes)).map(\.text), ["bad \u{FFFD} nul \u{FFFD} end"])
        // UTF-16 with its byte-order mark is not WebVTT's encoding, but is read.
        bytes = [0xFF, 0xFE] + Array("WEBVTT\n\n00:01.000 --> 00:02.000\nwide café".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertEqual(try WebVTT.cues(Data(bytes)).map(\.text), ["wide café"])
    }

    func testStyleRegionAndNoteBlocksGiveNoCueAndCostNone() throws {
        let vtt = """
            WEBVTT Kind: captions
            Language: en

            STYLE
            ::cue { color: yellow; }
            ::cue(b) { color: peachpuff; }

            REGION
            id:fred
            width:40%
            regionanchor:0%,100%

            NOTE This is a comment
            over two lines

            1
            00:00:00.500 --> 00:00:01.500 region:fred align:left
            <v Fred>Hi, my name is Fred

            NOTE a note between cues

            intro-2
            00:01.600 --> 00:02.400
            Nice to meet you

            STYLE
            ::cue { color: red }

            00:02.500 --> 00:03.000
            After a late STYLE block
            """
        try assertShown(vtt, [Shown(start: 500, end: 1500, text: "Hi, my name is Fred"),
                              Shown(start: 1600, end: 2400, text: "Nice to meet you"),
                              Shown(start: 2500, end: 3000, text: "After a late STYLE block")])
        XCTAssertEqual(try parsed(vtt).map(\.identifier), ["1", "intro-2", ""])
    }

    func testIdentifiersEvenThoseThatLookNumericOrLikeTimesAreNotText() throws {
        let vtt = "WEBVTT\n\n1\n00:01.000 --> 00:02.000\nOne\n\n00:00:05.000\n00:03.000 --> 00:04.000\nTime-like id\n\n"
            + "42 is the answer\n00:05.000 --> 00:06.000\nSentence id\n"
        try assertShown(vtt, [Shown(start: 1000, end: 2000, text: "One"), Shown(start: 3000, end: 4000, text: "Time-like id"),
                              Shown(start: 5000, end: 6000, text: "Sentence id")])
        XCTAssertEqual(try parsed(vtt).map(\.identifier), ["1", "00:00:05.000", "42 is the answer"])
    }

    func testCueSettingsAreReadPastAndTheCueKept() throws {
        let vtt = """
            WEBVTT

            00:01.000 --> 00:02.000 align:start line:0% position:10%,line-left size:50% vertical:rl region:fred
            Settings

            00:03.000 --> 00:04.000align:end
            Glued to the time

            00:05.000 --> 00:06.000 nonsense foo:bar :
            Unknown settings
            """
        try assertShown(vtt, [Shown(start: 1000, end: 2000, text: "Settings"), Shown(start: 3000, end: 4000, text: "Glued to the time"),
                              Shown(start: 5000, end: 6000, text: "Unknown settings")])
        XCTAssertEqual(try parsed(vtt).map(\.settings), [" align:start line:0% position:10%,line-left size:50% vertical:rl region:fred",
                                                         "align:end", " nonsense foo:bar :"])
    }

    func testTimestampsWithAndWithoutHours() {
        func time(_ text: String) -> Int? {
            let bytes = Array(text.utf8)
            var cursor = 0
            let value = WebVTT.timestamp(bytes, at: &cursor)
            return value != nil && cursor == bytes.count ? value : nil
        }
        XCTAssertEqual(time("01:02.003"), 62_003, "minutes and seconds")
        XCTAssertEqual(time("59:59.999"), 3_599_999)
        XCTAssertEqual(time("00:00:00.000"), 0)
        XCTAssertEqual(time("1:00:00.000"), 3_600_000, "hours of one digit")
        XCTAssertEqual(time("100:00:00.001"), 360_000_001, "hours of three digits")
        XCTAssertEqual(time("01:02:03.004"), 3_723_004)
        for bad in ["60:00.000", "00:60.000", "00:00:60.000", "00:60:00.000", "0:00.000", "00:0.000", "00:00.00", "00:00.0000",
                    "00:00:00,000", "00:00", "00.000", ":00.000", "00:00.", "-00:01.000", "１0:00.000"] {
            XCTAssertNil(time(bad), bad)
        }
        let timings = WebVTT.timings(ArraySlice(Array(" \t00:01.000   -->\t00:02.000".utf8)))
        XCTAssertEqual(timings?.start, 1000, "blanks around the times")
        XCTAssertEqual(timings?.end, 2000)
        XCTAssertNil(WebVTT.timings(ArraySlice(Array("00:01.000 -> 00:02.000".utf8))))
        XCTAssertNil(WebVTT.timings(ArraySlice(Array("00:01.000 - -> 00:02.000".utf8))))
    }

    func testCRLFAndCRLineEndingsReadAsLF() throws {
        let lines = ["WEBVTT", "", "00:01.000 --> 00:02.000", "Two", "lines", "", "00:03.000 --> 00:04.000", "Next"]
        let expected = [Shown(start: 1000, end: 2000, text: "Two\nlines"), Shown(start: 3000, end: 4000, text: "Next")]
        for ending in ["\n", "\r\n", "\r"] {
            try assertShown(lines.joined(separator: ending), expected)
        }
        // Mixed, and a blank line made of a CR LF pair between cues.
        try assertShown("WEBVTT\r\n\r00:01.000 --> 00:02.000\rTwo\r\nlines\n\r\n00:03.000 --> 00:04.000\r\nNext\r\n", expected)
    }

    func testAnArrowInATextLineEndsTheCueAndStartsABlockOfItsOwn() throws {
        // "second --> line" starts a block whose timings don't parse: it and the lines after it, to the blank line, show nothing.
        let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nfirst line\nsecond --> line\nthird line\n\n00:03.000 --> 00:04.000\nnext\n"
        try assertShown(vtt, [Shown(start: 1000, end: 2000, text: "first line"), Shown(start: 3000, end: 4000, text: "next")])
        // A timings line right after a cue's text, no blank line between: a second cue.
        let joined = "WEBVTT\n\n00:01.000 --> 00:02.000\ntext\n00:03.000 --> 00:04.000\nno blank line before me\n"
        try assertShown(joined, [Shown(start: 1000, end: 2000, text: "text"), Shown(start: 3000, end: 4000, text: "no blank line before me")])
        // Straight after the signature line, with no blank line: the header block gives it back, and it is a cue.
        try assertShown("WEBVTT\n00:01.000 --> 00:02.000\nfirst", [Shown(start: 1000, end: 2000, text: "first")])
    }

    func testMalformedBlocksAreSkippedWithTheirTextAndTheNextCueRead() throws {
        let vtt = """
            WEBVTT

            00:00:01,000 --> 00:00:02,000
            SubRip's comma

            00:03.000 --> 00:04
            no thousandths
            and a second line

            a line
            another line
            00:05.000 --> 00:06.000
            timings third in a block start a cue of their own

            00:07.000 --> 00:08.000
            good
            """
        try assertShown(vtt, [Shown(start: 5000, end: 6000, text: "timings third in a block start a cue of their own"),
                              Shown(start: 7000, end: 8000, text: "good")])
        // A block whose second line holds timings is a cue, whatever its first line says (NOTE included).
        try assertShown("WEBVTT\n\nNOTE\n00:01.000 --> 00:02.000\nnot a note\n", [Shown(start: 1000, end: 2000, text: "not a note")])
        XCTAssertEqual(try parsed("WEBVTT\n\nNOTE\n00:01.000 --> 00:02.000\nnot a note\n").map(\.identifier), ["NOTE"])
    }

    /// Behaviours the web-platform-tests' WebVTT file-parsing suite checks browsers for.
    func testWhatBrowsersAreTestedFor() throws {
        // An arrow alone or glued to words is a failed timings line; the real timings after it start the cue.
        let arrows = "WEBVTT\n\n-->\n00:00.000 --> 00:01.000\none\nfoo-->\n00:00.000 --> 00:01.000\ntwo\n-->-->\n"
            + "00:00.000 --> 00:01.000\nthree\n\n00:00.000 -a -->\n\n00:00.000 -- -->\n"
        XCTAssertEqual(try parsed(arrows).map(\.text), ["one", "two", "three"])
        // Identifiers are kept as written, spaces and near-arrows included.
        let ids = "WEBVTT\n\n lead\n00:00.000 --> 00:01.000\na\n\ntrail \n00:00.000 --> 00:01.000\nb\n\n-- >\n00:00.000 --> 00:01.000\nc\n"
        XCTAssertEqual(try parsed(ids).map(\.identifier), [" lead", "trail ", "-- >"])
        // Form feed is whitespace around the times; a vertical tab is not.
        let blanks = "WEBVTT\n\n\u{0C}00:00.000\u{0C}-->\u{0C}00:01.000\u{0C}\nform feed\n\n\u{0B}00:00.000 --> 00:01.000\nvertical tab\n"
        XCTAssertEqual(try parsed(blanks).map(\.text), ["form feed"])
        // A NUL is U+FFFD: a header line of it keeps the next line in the header; inside a time it breaks the time.
        let nulls = "WEBVTT\n\u{0}\nstill header\n00:00.000 --> 00:01.000\none\n\nid\u{0}\n00:00.000 --> 00:01.000\nt\u{0}wo\n\n"
            + "00:00\u{0}.000 --> 00:01.000\nnever\n"
        XCTAssertEqual(try parsed(nulls).map(\.text), ["one", "t\u{FFFD}wo"])
        XCTAssertEqual(try parsed(nulls).map(\.identifier), ["", "id\u{FFFD}"])
        // Hours of three digits are hours; minutes or seconds of three digits are no time.
        let long = "WEBVTT\n\n000:00:00.000 --> 00:00:01.000\nhours\n\n00:000:00.000 --> 00:00:01.000\nno\n\n000:00.000 --> 00:01.000\nno\n"
        XCTAssertEqual(try parsed(long).map(\.text), ["hours"])
    }

    func testEmptyCuesAndCuesEndingAtOrBeforeTheirStartAreCuesThatShowNothing() throws {
        let vtt = """
            WEBVTT

            00:01.000 --> 00:02.000

            00:03.000 --> 00:02.000
            ends before it starts

            00:04.000 --> 00:04.000
            lasts nothing

            00:05.000 --> 00:06.000
            <i></i> <v Speaker></v>

            00:07.000 --> 00:08.000
            shown
            """
        XCTAssertEqual(try parsed(vtt).map(\.text), ["", "ends before it starts", "lasts nothing", "<i></i> <v Speaker></v>", "shown"])
        try assertShown(vtt, [Shown(start: 7000, end: 8000, text: "shown")])
    }

    func testOverlappingAndUnorderedCuesAreAllKeptByStart() throws {
        let vtt = "WEBVTT\n\n00:02.000 --> 00:05.000\nlater\n\n00:01.000 --> 00:04.000\nearlier\n\n00:03.000 --> 00:03.500\ninside\n"
        try assertShown(vtt, [Shown(start: 1000, end: 4000, text: "earlier"), Shown(start: 2000, end: 5000, text: "later"),
                              Shown(start: 3000, end: 3500, text: "inside")])
    }

    // MARK: Cue text

    func cue(_ text: String) throws -> Shown? {
        try shown("WEBVTT\n\n00:01.000 --> 00:02.000\n" + text).first
    }

    func text(_ text: String) throws -> String? {
        try cue(text)?.text
    }

    func testVoiceLanguageAndClassTagsKeepTheirTextAndShowNoName() throws {
        XCTAssertEqual(try text("<v Roger Bingham>We are in New York City</v>"), "We are in New York City")
        XCTAssertEqual(try text("<v.loud Esme>It's a blue apple tree!"), "It's a blue apple tree!")
        XCTAssertEqual(try text("<lang en-GB>colour</lang> <c.yellow.bg_blue>class</c> <c>plain</c>"), "colour class plain")
        XCTAssertEqual(try text("<v Joe>Line one\n<v Ann>Line two"), "Line one\nLine two")
        XCTAssertEqual(try text("<unknown attribute>text</unknown>"), "text", "an unknown tag is dropped, its text kept")
        XCTAssertEqual(try text("<I>upper</I>"), "upper", "tag names are lowercase: an uppercase one is unknown")
    }

    func testBoldItalicUnderlineBecomeStyleRuns() throws {
        XCTAssertEqual(try cue("We are in <i>New York City</i>"),
                       Shown(start: 1000, end: 2000, text: "We are in New York City", styles: [StyleRun(start: 10, end: 23, style: .italic)]))
        XCTAssertEqual(try cue("It's <b>bold</b> and <u>under</u>")?.styles,
                       [StyleRun(start: 5, end: 9, style: .bold), StyleRun(start: 14, end: 19, style: .underline)])
        XCTAssertEqual(try cue("<b><i>both</i> bold</b>")?.styles,
                       [StyleRun(start: 0, end: 4, style: [.bold, .italic]), StyleRun(start: 4, end: 9, style: .bold)])
        XCTAssertEqual(try cue("<i>never closed")?.styles, [StyleRun(start: 0, end: 12, style: .italic)])
        // An end tag closes only the element open innermost: `</i>` inside `<b>` is ignored.
        XCTAssertEqual(try cue("a <b>b</i> c</b> d"), Shown(start: 1000, end: 2000, text: "a b c d", styles: [StyleRun(start: 2, end: 5, style: .bold)]))
        // Characters count as Unicode scalars: é is one.
        XCTAssertEqual(try cue("Café <i>noir</i>")?.styles, [StyleRun(start: 5, end: 9, style: .italic)])
        XCTAssertEqual(try cue("<i>one\ntwo</i>")?.styles, [StyleRun(start: 0, end: 3, style: .italic), StyleRun(start: 4, end: 7, style: .italic)],
                       "the line break between is not styled")
    }

    func testRubyTextFollowsItsBaseInParentheses() throws {
        XCTAssertEqual(try text("<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>"), "漢(kan)字(ji)")
        XCTAssertEqual(try text("<ruby>東京<rt>とうきょう</ruby> end"), "東京(とうきょう) end", "</ruby> closes an open <rt> too")
        XCTAssertEqual(try text("<rt>outside ruby</rt>"), "outside ruby", "<rt> means nothing outside <ruby>")
        XCTAssertEqual(try cue("<ruby><i>base</i><rt>note</rt></ruby>")?.styles, [StyleRun(start: 0, end: 4, style: .italic)])
    }

    func testTimestampTagsAreDropped() throws {
        XCTAssertEqual(try text("Never <00:00:01.500>drink <00:01.700>liquid nitrogen."), "Never drink liquid nitrogen.")
        XCTAssertEqual(try text("<00:00:99.000>bad timestamp, still a tag"), "bad timestamp, still a tag")
    }

    func testCharacterReferencesAreHTMLs() throws {
        XCTAssertEqual(try text("&amp; &lt; &gt; &quot;&apos;"), "& < > \"'")
        XCTAssertEqual(try text("a&lrm;b&rlm;c&nbsp;d"), "a\u{200E}b\u{200F}c\u{00A0}d")
        XCTAssertEqual(try text("&#65;&#x42;&#X43;&#68"), "ABCD", "decimal, hex, and without the semicolon")
        XCTAssertEqual(try text("&#128; &#x92;"), "€ ’", "0x80 to 0x9F are Windows-1252's, as HTML reads them")
        XCTAssertEqual(try text("[&#0;] [&#xD800;] [&#x110000;]"), "[\u{FFFD}] [\u{FFFD}] [\u{FFFD}]")
        XCTAssertEqual(try text("&copy; &eacute;t&eacute; &hellip;"), "© été …")
        XCTAssertEqual(try text("&amp &copy"), "& ©", "legacy names without a semicolon")
        XCTAssertEqual(try text("&notit; &notin;"), "¬it; ∉", "the longest name that matches")
        XCTAssertEqual(try text("&unknown; &#; &#x; & alone &"), "&unknown; &#; &#x; & alone &", "no reference: the text as written")
        XCTAssertEqual(try text("&lt;i&gt;not a tag&lt;/i&gt;"), "<i>not a tag</i>")
        XCTAssertEqual(try cue("&lt;i&gt;")?.styles, [])
    }

    func testALiteralLessThanSignOpensATagAsBrowsersRead() throws {
        // "< 2 and 3 >" is a tag with an empty name and an annotation: not shown.
        XCTAssertEqual(try text("1 < 2 and 3 > 2"), "1 2")
        XCTAssertEqual(try text("to the end < of the cue"), "to the end")
    }

    func testBlanksAreSetAsPreLine() throws {
        XCTAssertEqual(try text("  spaced   out\t words  \n  second  "), "spaced out words\nsecond")
        XCTAssertEqual(try text("<v Bob>\nafter an empty line"), "after an empty line", "a line left empty is dropped")
        XCTAssertEqual(try text("a&nbsp;&nbsp;b&nbsp;"), "a\u{00A0}\u{00A0}b\u{00A0}", "no-break spaces are not blanks")
    }

    // MARK: Bounds

    func testAFileOfTooManyCuesIsRefusedAndHostileTextIsQuick() throws {
        let many = "WEBVTT\n\n" + String(repeating: "00:01.000 --> 00:02.000\nx\n\n", count: WebVTT.maxCues + 1)
        XCTAssertThrowsError(try WebVTT.parse(Data(many.utf8))) {
            XCTAssertEqual($0 as? BadInputReason, .tooManyCues(limit: WebVTT.maxCues))
        }
        let started = Date()
        let nested = "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "<b><ruby><rt>", count: 20_000) + "deep"
        XCTAssertEqual(try shown(nested).first?.text.contains("deep"), true)
        let references = "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "&notanameatallbutlongerthanthelongestname", count: 5_000)
        XCTAssertEqual(try shown(references).count, 1)
        let arrows = "WEBVTT\n\n" + String(repeating: "--> --> -->\n", count: 50_000)
        XCTAssertEqual(try parsed(arrows), [])
        let oneLine = "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "a", count: 1 << 20)
        XCTAssertEqual(try shown(oneLine).first?.text.count, 1 << 20)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "hostile files are read in linear time")
    }
}
