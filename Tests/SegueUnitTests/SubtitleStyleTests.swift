import XCTest
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// Bold, italic and underline carried into the soft track: read
/// from ASS overrides and styles (SubRip's tags arrive as ASS overrides), and
/// written as 3GPP timed-text style records (TS 26.245: a 'styl' box after
/// the sample's text; startChar and endChar count characters; face-style
/// flags bold 1, italic 2, underline 4). Pure: no files.
final class SubtitleStyleTests: XCTestCase {
    func runs(_ ass: String, base: TextStyle = [], named: [String: TextStyle] = [:]) -> [StyleRun] {
        CueText.styled(ass, base: base, named: named).styles
    }

    func testASSOverridesBecomeRunsAndTheirZeroesEndThem() {
        XCTAssertEqual(CueText.styled(#"{\b1}Bold{\b0} {\i1}it{\i0} {\u1}un{\u0}"#).text, "Bold it un")
        XCTAssertEqual(runs(#"{\b1}Bold{\b0} {\i1}it{\i0} {\u1}un{\u0}"#),
                       [StyleRun(start: 0, end: 4, style: .bold), StyleRun(start: 5, end: 7, style: .italic),
                        StyleRun(start: 8, end: 10, style: .underline)])
        XCTAssertEqual(runs(#"{\i1\b1}both{\b0} italic"#),
                       [StyleRun(start: 0, end: 4, style: [.bold, .italic]), StyleRun(start: 4, end: 11, style: .italic)])
        XCTAssertEqual(runs(#"{\b700}heavy{\b400}normal"#), [StyleRun(start: 0, end: 5, style: .bold)], "a weight of 700 or more is bold")
        XCTAssertEqual(runs(#"{\bord3\be1\blur2\iclip(0,0,9,9)\pos(1,2)}none of these"#), [], "tags that only begin with b, i or u")
        XCTAssertEqual(runs(#"{\b1}line one\Nline two"#),
                       [StyleRun(start: 0, end: 8, style: .bold), StyleRun(start: 9, end: 17, style: .bold)])
        XCTAssertEqual(runs(#"{comment, no tags}plain"#), [])
    }

    func testTheEventsStyleIsTheBaseThatResetsReturnTo() {
        XCTAssertEqual(runs(#"sung {\i0}spoken{\i} sung"#, base: .italic),
                       [StyleRun(start: 0, end: 5, style: .italic), StyleRun(start: 11, end: 16, style: .italic)])
        XCTAssertEqual(runs(#"{\b1\u1}loud{\r}base"#, base: .italic),
                       [StyleRun(start: 0, end: 4, style: [.bold, .italic, .underline]), StyleRun(start: 4, end: 8, style: .italic)])
        XCTAssertEqual(runs(#"{\rShout}shout"#, named: ["Shout": .bold]), [StyleRun(start: 0, end: 5, style: .bold)])
    }

    func testAnASSHeadersStylesGiveTheirBoldItalicAndUnderline() {
        let header = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0
            Style: Lyrics,Arial,16,&Hffffff,&Hffffff,&H0,&H0,-1,-1,0,0,100,100,0,0,1,1,0,2,10,10,10,0
            Style: Note,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,1,0,100,100,0,0,1,1,0,2,10,10,10,0

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            """
        let named = CueText.styles(inHeader: header)
        XCTAssertEqual(named, ["Default": [], "Lyrics": [.bold, .italic], "Note": .underline])
        XCTAssertEqual(CueText.style(ofEvent: "0,Lyrics,,0,0,0,,text", named: named), [.bold, .italic])
        XCTAssertEqual(CueText.style(ofEvent: "0,*Note,,0,0,0,,text", named: named), .underline, "SSA's * before a style name")
        XCTAssertEqual(CueText.style(ofEvent: "0,Missing,,0,0,0,,text", named: named), [], "an unknown style is Default")
    }

    func testAVTTCuesBurnEventCarriesItsStylesAndNoMarkup() {
        let text = "a {b} c\\N\nnext"
        let styles = [StyleRun(start: 0, end: 1, style: .bold), StyleRun(start: 2, end: 5, style: [.italic, .underline])]
        XCTAssertEqual(StyledText.assText(text, styles: styles), "{\\b1}a{\\b0} {\\i1\\u1}\\{b\\}{\\i0\\u0} c\\\u{2060}N\\Nnext")
    }

    // MARK: Samples

    func testASampleIsTheTextsLengthItsUTF8AndOneStyleRecordPerRun() {
        let text = "Café noir, gras"
        let sample = Muxer.textSample(text, styles: [TimedTextStyle(start: 5, end: 9, flags: 2), TimedTextStyle(start: 11, end: 15, flags: 5)])
        let utf8 = Array(text.utf8)
        XCTAssertEqual(utf8.count, 16, "é is two bytes")
        XCTAssertEqual(sample, [0x00, 0x10] + utf8
                       + [0x00, 0x00, 0x00, 0x22] + Array("styl".utf8) + [0x00, 0x02] // size 8 + 2 + 2 × 12, two records
                       + [0x00, 0x05, 0x00, 0x09, 0x00, 0x01, 0x02, 0x10, 0xFF, 0xFF, 0xFF, 0xFF] // chars 5-9, font 1, italic, 16, white
                       + [0x00, 0x0B, 0x00, 0x0F, 0x00, 0x01, 0x05, 0x10, 0xFF, 0xFF, 0xFF, 0xFF]) // chars 11-15, bold underline
        XCTAssertEqual(Muxer.textSample("plain", styles: []), [0x00, 0x05] + Array("plain".utf8), "no styles, no box")
        XCTAssertEqual(Muxer.textSample("ab", styles: [TimedTextStyle(start: 0, end: 2, flags: 0)]), [0x00, 0x02, 0x61, 0x62], "a plain run, no record")
    }

    func testALongTextIsCutAtACharactersEdgeAndItsRunsWithIt() {
        let sample = Muxer.textSample(String(repeating: "é", count: 40_000), styles: [TimedTextStyle(start: 0, end: 40_000, flags: 1)])
        XCTAssertEqual(Array(sample.prefix(2)), [0xFF, 0xFE], "65534 bytes: 32767 whole characters")
        let record = Array(sample[(2 + 65534 + 10)...])
        XCTAssertEqual(Array(record.prefix(4)), [0x00, 0x00, 0x7F, 0xFF], "the run ends with the text, at character 32767")
    }

    func testRunsMoveWithTheirTextWhenCuesShowTogether() {
        let first = TrackCue(start: 0, end: 1000, text: "é <i>", styles: [StyleRun(start: 0, end: 1, style: .bold)])
        let second = TrackCue(start: 500, end: 1500, text: "two", styles: [StyleRun(start: 0, end: 3, style: .italic)])
        XCTAssertEqual(Plan.flattened([first, second]), [
            TrackCue(start: 0, end: 500, text: "é <i>", styles: [StyleRun(start: 0, end: 1, style: .bold)]),
            TrackCue(start: 500, end: 1000, text: "é <i>\ntwo",
                     styles: [StyleRun(start: 0, end: 1, style: .bold), StyleRun(start: 6, end: 9, style: .italic)]),
            TrackCue(start: 1000, end: 1500, text: "two", styles: [StyleRun(start: 0, end: 3, style: .italic)])])
    }

    func testAPileUpOfCuesIsBoundedInLinesSampleTextAndTrackText() {
        let pile = (0..<20).map { TrackCue(start: 0, end: 1000 + $0, text: "line \($0)") }
        let flat = Plan.flattened(pile)
        XCTAssertEqual(flat.first?.text.split(separator: "\n").count, Plan.maxCuesShowing, "at most 16 cues show at once")
        XCTAssertEqual(flat.map(\.end).last, 1015, "the cues left out never show")
        let long = TrackCue(start: 0, end: 10, text: String(repeating: "é", count: 40_000), styles: [StyleRun(start: 0, end: 40_000, style: .bold)])
        let cut = Plan.flattened([TrackCue(start: 0, end: 10, text: "first"), long])
        XCTAssertEqual(cut.first?.text.utf8.count, 65_534, "within the sample's 65535 bytes, at a character's edge: 5 + 1 + 2 × 32764")
        XCTAssertEqual(cut.first?.styles, [StyleRun(start: 6, end: 6 + 32_764, style: .bold)])
        // One long cue under a thousand short ones: the track stops at its text budget.
        let hostile = [TrackCue(start: 0, end: 1_000_000, text: String(repeating: "x", count: 60_000))]
            + (0..<2000).map { TrackCue(start: $0 * 10, end: $0 * 10 + 5, text: "y") }
        let bounded = Plan.flattened(hostile)
        XCTAssertLessThanOrEqual(bounded.reduce(0) { $0 + $1.text.utf8.count }, Plan.maxTrackTextBytes)
        XCTAssertLessThan(bounded.count, 4000, "stretches past the budget are left out")
    }

    func testAPlanWrittenBeforeStylesReadsWithNone() throws {
        let old = #"{"start":1,"end":2,"text":"t","event":"0,Default,,0,0,0,,t"}"#
        let cue = try JSONDecoder().decode(SegueKit.Cue.self, from: Data(old.utf8))
        XCTAssertEqual(cue.styles, [])
        let styled = SegueKit.Cue(start: 1, end: 2, text: "t", event: "e", styles: [StyleRun(start: 0, end: 1, style: .italic)])
        XCTAssertEqual(try JSONDecoder().decode(SegueKit.Cue.self, from: JSONEncoder().encode(styled)), styled)
    }
}
