import Foundation
import SegueCore
import XCTest
@testable import SegueModel

/// The FCPXML reader on files in the shape Final Cut Pro writes (1.11 and
/// 1.8): exact tracks, stacked items, sound and notes. The files the
/// OpenTimelineIO adapter judges are in SegueKitTests' FCPXMLAdapterTests.
final class FCPXMLParseTests: XCTestCase {
    private let film = 24000.0 / 1001

    private func frames(_ time: EditTime, at rate: Double) -> Double { (time.seconds * rate * 1000).rounded() / 1000 }

    private func assertClip(_ item: EditItem, _ location: String, start: Double, length: Double, rate: Double,
                            file: StaticString = #filePath, line: UInt = #line) {
        guard case .clip(let clip) = item else { return XCTFail("not a clip: \(item)", file: file, line: line) }
        XCTAssertEqual(clip.media.location, location, file: file, line: line)
        XCTAssertEqual(frames(clip.source.start, at: rate), start, "\(location): source start", file: file, line: line)
        XCTAssertEqual(frames(clip.source.duration, at: rate), length, "\(location): length", file: file, line: line)
    }

    func testAnFCPXML111ProjectReadsLanesCompoundClipsAndTransitionsAsFinalCutPlaysThem() throws {
        let timeline = try EditTimeline.parseFCPXML(Data(FCPXMLSamples.v111.utf8))
        XCTAssertEqual(timeline.rate, Rational(24000, 1001))
        XCTAssertEqual(timeline.name, "Cut")
        XCTAssertEqual(timeline.start.map { frames($0, at: film) }, 86400)
        XCTAssertEqual(timeline.videoTracks.map(\.name), ["primary storyline", "lane 1"])
        let items = timeline.items
        XCTAssertEqual(items.count, 6, "\(items)")
        guard items.count == 6 else { return }
        assertClip(items[0], "file:///media/A.mov", start: 86424, length: 12, rate: film)
        // B, placed at half size, is drawn over A: A plays on under it, a piece of its own there.
        assertClip(items[1], "file:///media/A.mov", start: 86436, length: 24, rate: film)
        assertClip(items[2], "file:///media/A.mov", start: 86460, length: 60, rate: film)
        guard case .transition(let dissolve) = items[3] else { return XCTFail("\(items[3])") }
        XCTAssertEqual([frames(dissolve.before, at: film), frames(dissolve.after, at: film)], [6, 6])
        XCTAssertEqual(dissolve.name, "Cross Dissolve")
        assertClip(items[4], "file:///media/C.mov", start: 240, length: 48, rate: film)
        XCTAssertEqual(items[5].blank.map { frames($0, at: film) }, 24)
        XCTAssertEqual(timeline.overlays.map(\.recordStart), [12])
        guard let upper = timeline.overlays.first?.clip, let layout = upper.layout else { return XCTFail("B has no layout") }
        XCTAssertEqual(upper.media.location, "file:///media/B.mov")
        XCTAssertEqual(frames(upper.source.duration, at: film), 24)
        XCTAssertEqual(layout.scaleX, 0.5)
        XCTAssertEqual(layout.scaleY, 0.5)
        XCTAssertEqual(layout.centreX, 0.25, accuracy: 1e-5, "a quarter of the width right of the centre")
        XCTAssertEqual(layout.centreY, -0.25, accuracy: 1e-9, "a quarter of the height up")
        XCTAssertEqual(timeline.markers.map(\.name), ["Half"])
        XCTAssertEqual(timeline.markers.first.map { frames($0.time, at: film) }, 48)
        XCTAssertTrue(timeline.notes.contains { $0.contains("title 'Lower third' (lane 1): a title; its text isn't drawn") }, "\(timeline.notes)")
    }

    func testAnFCPXML111ProjectsSoundIsEachLanesClips() throws {
        let timeline = try EditTimeline.parseFCPXML(Data(FCPXMLSamples.v111.utf8))
        XCTAssertEqual(timeline.audioTracks.map(\.name), ["lane -1", "primary storyline"])
        guard timeline.audioTracks.count == 2, case .clip(let music) = timeline.audioTracks[0].items.first else {
            return XCTFail("\(timeline.audioTracks)")
        }
        XCTAssertEqual(music.level, -6)
        XCTAssertEqual(music.clip.media.location, "file:///media/music.wav")
        XCTAssertEqual(frames(music.clip.source.duration, at: film), 96)
        let primary = timeline.audioTracks[1].items
        guard primary.count == 4, case .clip(let own) = primary[0], case .transition = primary[1] else { return XCTFail("\(primary)") }
        XCTAssertEqual(own.clip.media.location, "file:///media/A.mov")
        XCTAssertTrue(own.withPicture)
        XCTAssertEqual(frames(own.clip.source.start, at: film), 86424)
    }

    func testAnFCPXML18ProjectReadsWrappedSynchronisedAndRetimedClips() throws {
        let timeline = try EditTimeline.parseFCPXML(Data(FCPXMLSamples.v18.utf8))
        XCTAssertEqual(timeline.rate, Rational(25, 1))
        XCTAssertNil(timeline.start)
        XCTAssertEqual(timeline.videoTracks.map(\.name), ["lane -1", "primary storyline"])
        let items = timeline.items
        XCTAssertEqual(items.count, 4, "\(items)")
        guard items.count == 4 else { return }
        assertClip(items[0], "file:///media/wrapped.mov", start: 500, length: 50, rate: 25)
        assertClip(items[1], "file:///media/cam.mov", start: 2500, length: 40, rate: 25)
        assertClip(items[2], "file:///media/slow.mov", start: 1250, length: 50, rate: 25)
        assertClip(items[3], "file:///media/conformed.mov", start: 0, length: 25, rate: 25)
        guard case .clip(let slow) = items[2] else { return }
        XCTAssertEqual(slow.speed?.rate, Rational(1, 2))
        guard case .clip(let under) = timeline.videoTracks[0].items.last else { return XCTFail("\(timeline.videoTracks[0])") }
        XCTAssertEqual(under.media.location, "file:///media/under.mov")
        XCTAssertEqual(timeline.audioTracks.count, 1, "\(timeline.audioTracks)")
        guard case .clip(let recorder) = timeline.audioTracks.first?.items.last else { return XCTFail("\(timeline.audioTracks)") }
        XCTAssertEqual(recorder.clip.media.location, "file:///media/rec.wav")
        XCTAssertFalse(recorder.withPicture)
        XCTAssertEqual(timeline.audioTracks.first?.items.dropLast().compactMap { if case .gap(let time) = $0 { return time.value } else { return nil } },
                       [25, 25], "silent until the synchronised clip")
        XCTAssertTrue(timeline.notes.contains { $0.contains("'Conformed': conform-rate asks for its 29.97 fps media to be conformed to 25 fps") },
                      "\(timeline.notes)")
        XCTAssertTrue(timeline.notes.contains { $0.contains("asset-clip 'Slow': played at 0.5x; its sound isn't (silent)") }, "\(timeline.notes)")
    }

    func testAPrimaryStorylineAloneKeepsTheClipsOwnSound() throws {
        let timeline = try EditTimeline.parseFCPXML(fcpxml(#"<asset-clip ref="a" offset="0s" duration="2s"/><asset-clip ref="a" offset="2s" start="5s" duration="1s"/>"#))
        XCTAssertEqual(timeline.audioTracks, [], "no sound tracks: each clip's own sound plays")
        XCTAssertEqual(timeline.items.count, 2)
    }

    func testAClipDrawnOverTheStorylineLeavesItsSoundPlaying() throws {
        let timeline = try EditTimeline.parseFCPXML(fcpxml(
            #"<asset-clip ref="a" offset="0s" duration="2s"><asset-clip ref="v" lane="1" offset="1/2s" duration="1s"/></asset-clip>"#,
            resources: #"<asset id="v" name="V" start="0s" duration="10s" hasVideo="1" hasAudio="0" format="f"><media-rep src="file:///m/v.mov"/></asset>"#))
        XCTAssertEqual(timeline.audioTracks.map(\.name), ["primary storyline"], "A's sound under V, as Final Cut plays it")
        guard case .clip(let sound) = timeline.audioTracks.first?.items.first else { return XCTFail("\(timeline.audioTracks)") }
        XCTAssertEqual(sound.clip.media.location, "file:///m/a.mov")
        XCTAssertEqual(sound.clip.source.duration.value, 48)
    }

    /// Two angles of 20 s: Wide (asset a, from 10 s, with sound) and Close (asset v, from 30 s, no sound).
    private let multicam = #"""
        <asset id="v" name="V" start="0s" duration="100s" hasVideo="1" hasAudio="0" format="f"><media-rep src="file:///m/v.mov"/></asset>
        <media id="mc" name="Shoot"><multicam format="f" tcStart="0s">
        <mc-angle name="Wide" angleID="w"><asset-clip ref="a" offset="0s" start="10s" duration="20s"/></mc-angle>
        <mc-angle name="Close" angleID="c"><asset-clip ref="v" offset="0s" start="30s" duration="20s"/></mc-angle>
        </multicam></media>
        """#

    func testAMulticamClipShowsItsVideoAngleAndHearsItsAudioAngle() throws {
        let timeline = try EditTimeline.parseFCPXML(fcpxml(#"""
            <mc-clip ref="mc" offset="0s" name="Shoot" start="2s" duration="3s">
            <mc-source angleID="c" srcEnable="video"/><mc-source angleID="w" srcEnable="audio"/></mc-clip>
            """#, resources: multicam))
        XCTAssertEqual(timeline.items.count, 1, "\(timeline.items)")
        assertClip(timeline.items[0], "file:///m/v.mov", start: 768, length: 72, rate: 24)
        guard case .clip(let sound) = timeline.audioTracks.first?.items.first else { return XCTFail("\(timeline.audioTracks)") }
        XCTAssertEqual(sound.clip.media.location, "file:///m/a.mov")
        XCTAssertEqual([sound.clip.source.start.value, sound.clip.source.duration.value], [288, 72])
    }

    func testATransitionWithoutAnOffsetIsCentredOnItsCut() throws {
        let timeline = try EditTimeline.parseFCPXML(fcpxml(
            #"<asset-clip ref="a" offset="0s" duration="2s"/><transition duration="10/24s"/><asset-clip ref="a" offset="2s" start="5s" duration="1s"/>"#))
        guard case .transition(let join) = timeline.items[1] else { return XCTFail("\(timeline.items)") }
        XCTAssertEqual([join.before.value, join.after.value], [5, 5])
    }

    func testAGeneratorIsAFillAndAnEffectIsNoted() throws {
        let timeline = try EditTimeline.parseFCPXML(fcpxml(
            #"<video ref="g" offset="0s" name="Bars" duration="1s"/><asset-clip ref="a" offset="1s" name="Blurred" duration="1s"><filter-video ref="blur" name="Gaussian Blur"/></asset-clip>"#,
            resources: #"<effect id="g" name="Bars and Tone" uid="x"/><effect id="blur" name="Gaussian" uid="y"/>"#))
        guard case .fill(let fill) = timeline.items.first else { return XCTFail("\(timeline.items)") }
        XCTAssertEqual(fill.look, .bars)
        XCTAssertTrue(timeline.notes.contains("asset-clip 'Blurred': effect 'Gaussian Blur' isn't applied (drawn without it)"), "\(timeline.notes)")
    }

    func testFCPXMLFilesAndBundlesAreTimelinesReadThroughTheirDocument() {
        XCTAssertEqual(EditTimelineFormat("/p/cut.fcpxml"), .fcpxml)
        XCTAssertTrue(ClipList.isClipList("/p/cut.FCPXML"))
        XCTAssertTrue(ClipList.isClipList("/p/cut.fcpxmld/"))
        XCTAssertEqual(EditTimelineFormat.document("/p/cut.fcpxmld/"), "/p/cut.fcpxmld/Info.fcpxml")
        XCTAssertEqual(EditTimelineFormat.document("file:///p/cut.fcpxmld"), "file:///p/cut.fcpxmld/Info.fcpxml")
        XCTAssertEqual(EditTimelineFormat.document("/p/cut.fcpxml"), "/p/cut.fcpxml")
    }

    /// Versions compare part by part: 1.10 and 1.11 are read without a note, 1.7 and 1.12 with one.
    func testVersionsCompareAsNumbersPartByPart() throws {
        let spine = #"<asset-clip ref="a" name="A" offset="0s" start="0s" duration="1s"/>"#
        for (version, noted) in [("1.8", false), ("1.10", false), ("1.11", false), ("1.7", true), ("1.12", true)] {
            let text = String(decoding: fcpxml(spine), as: UTF8.self).replacingOccurrences(of: #"version="1.10""#, with: "version=\"\(version)\"")
            let notes = try EditTimeline.parseFCPXML(Data(text.utf8)).notes
            XCTAssertEqual(notes.contains { $0.contains("FCPXML version \(version):") }, noted, "\(version): \(notes)")
        }
    }

    // MARK: refused

    /// A 24 fps project whose primary storyline holds `spine`; asset `a` is 100 s of video.
    private func fcpxml(_ spine: String, resources: String = "") -> Data {
        Data("""
            <fcpxml version="1.10"><resources><format id="f" frameDuration="100/2400s" width="1920" height="1080"/>
            <asset id="a" name="A" start="0s" duration="100s" hasVideo="1" hasAudio="1" format="f"><media-rep kind="original-media" src="file:///m/a.mov"/></asset>
            \(resources)</resources><library><event name="E"><project name="P"><sequence format="f"><spine>\(spine)</spine></sequence></project></event></library></fcpxml>
            """.utf8)
    }

    private func assertRefused(_ expected: String, within: TimeInterval = 3, file: StaticString = #filePath, line: UInt = #line,
                               _ data: () -> Data) {
        let input = data()
        let started = Date()
        XCTAssertThrowsError(try EditTimeline.parseFCPXML(input), file: file, line: line) { error in
            let message = (error as? EditTimelineError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(expected), "'\(message)' doesn't say '\(expected)'", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), within, "refused too slowly", file: file, line: line)
    }

    private func compound(_ id: String, _ spine: String) -> String {
        #"<media id="\#(id)" name="\#(id)"><sequence format="f"><spine>\#(spine)</spine></sequence></media>"#
    }

    func testDanglingRefsAndLoopsAreRefusedNamingTheElement() {
        assertRefused("asset-clip 'X': ref 'r9' names no resource") { self.fcpxml(#"<asset-clip ref="r9" name="X" offset="0s" duration="1s"/>"#) }
        assertRefused("asset-clip 'X': ref 'f' names a <format>, not <asset>") { self.fcpxml(#"<asset-clip ref="f" name="X" offset="0s" duration="1s"/>"#) }
        assertRefused("ref-clip: compound clip 'm1' contains itself (m1 → m2 → m1)") {
            self.fcpxml(#"<ref-clip ref="m1" name="Outer" offset="0s" duration="1s"/>"#,
                        resources: self.compound("m1", #"<ref-clip ref="m2" offset="0s" duration="1s"/>"#)
                            + self.compound("m2", #"<ref-clip ref="m1" offset="0s" duration="1s"/>"#))
        }
        assertRefused("mc-clip: compound clip 'Shoot' has no angle 'zz'") {
            self.fcpxml(#"<mc-clip ref="mc" offset="0s" duration="1s"><mc-source angleID="zz"/></mc-clip>"#, resources: self.multicam)
        }
        assertRefused("not an FCPXML file") { Data("<xmeml version='4'/>".utf8) }
        assertRefused("no project") { Data("<fcpxml version='1.9'><resources/><event name='E'/></fcpxml>".utf8) }
    }

    func testBadTimesAndLanesAreRefusedNamingTheElement() {
        assertRefused("asset-clip: duration 'abc/24s' is not a time") { self.fcpxml(#"<asset-clip ref="a" offset="0s" duration="abc/24s"/>"#) }
        assertRefused("asset-clip: duration '1/0s' is not a time") { self.fcpxml(#"<asset-clip ref="a" offset="0s" duration="1/0s"/>"#) }
        assertRefused("asset-clip: duration -1/24s is negative") { self.fcpxml(#"<asset-clip ref="a" offset="0s" duration="-1/24s"/>"#) }
        assertRefused("asset-clip: start '1e400s' is not a time") { self.fcpxml(#"<asset-clip ref="a" start="1e400s" duration="1s"/>"#) }
        assertRefused("asset-clip: start 99999999999s is beyond 864000 s") { self.fcpxml(#"<asset-clip ref="a" start="99999999999s" duration="1s"/>"#) }
        assertRefused("gap: no duration") { self.fcpxml(#"<gap offset="0s"/>"#) }
        assertRefused("asset-clip 'Up': lane 100 is beyond 99 lanes") {
            self.fcpxml(#"<gap duration="1s"><asset-clip ref="a" name="Up" lane="100" offset="0s" duration="1s"/></gap>"#)
        }
        assertRefused("asset-clip 'Up': lane 'top' is not a lane number") {
            self.fcpxml(#"<gap duration="1s"><asset-clip ref="a" name="Up" lane="top" offset="0s" duration="1s"/></gap>"#)
        }
        assertRefused("format: frameDuration '0/24s' is not a frame's duration") {
            Data(String(decoding: self.fcpxml(#"<gap duration="1s"/>"#), as: UTF8.self).replacingOccurrences(of: "100/2400s", with: "0/24s").utf8)
        }
    }

    func testSpeedRampsAndReverseTimeMapsAreRefused() {
        func mapped(_ points: [(String, String)]) -> Data {
            fcpxml(#"<asset-clip ref="a" name="R" offset="0s" duration="2s"><timeMap>"#
                   + points.map { #"<timept time="\#($0.0)" value="\#($0.1)"/>"# }.joined() + "</timeMap></asset-clip>")
        }
        assertRefused("asset-clip 'R': its timeMap changes speed (a speed ramp)") { mapped([("0s", "0s"), ("1s", "1s"), ("2s", "4s")]) }
        assertRefused("asset-clip 'R': reverse speed (its timeMap runs backwards)") { mapped([("0s", "10s"), ("2s", "8s")]) }
        assertRefused("asset-clip 'R': its timeMap's speed 200x is beyond 100x") { mapped([("0s", "0s"), ("1s", "200s")]) }
    }

    func testHugeAndDeepFilesAreRefusedQuickly() {
        assertRefused("more than 100000 items", within: 10) { self.fcpxml(String(repeating: #"<gap duration="1/24s"/>"#, count: 100_001)) }
        assertRefused("nested more than 64 deep") { self.fcpxml(String(repeating: "<gap duration='1s'>", count: 70) + String(repeating: "</gap>", count: 70)) }
        let chain = (0..<70).map { self.compound("m\($0)", #"<ref-clip ref="m\#($0 + 1)" offset="0s" duration="1s"/>"#) }.joined()
            + compound("m70", #"<asset-clip ref="a" offset="0s" duration="1s"/>"#)
        assertRefused("nested more than 64 deep") { self.fcpxml(#"<ref-clip ref="m0" offset="0s" duration="1s"/>"#, resources: chain) }
        // Each compound clip uses the next twenty times over: 20^8 clips' sound if it were all expanded.
        let sound = #"<asset-clip ref="a" offset="0s" duration="1s"/>"#
        let fanned = (0..<8).map { self.compound("n\($0)", String(repeating: #"<ref-clip ref="n\#($0 + 1)" duration="1s"/>"#, count: 20)) }.joined()
            + compound("n8", String(repeating: sound, count: 20))
        assertRefused("more than 100000 items", within: 10) { self.fcpxml(#"<ref-clip ref="n0" offset="0s" duration="1s"/><asset-clip ref="a" lane="-1" duration="1s"/>"#, resources: fanned) }
    }
}
