// libFuzzer entry point over the text Segue reads from strangers: clip lists
// and ffconcat scripts, JSON manifests, option values, plan.json, WebVTT
// files and ASS cue text (SubRip's arrives as ASS), and editors' timelines
// (OTIO, CMX 3600 EDL, FCP 7 XML; what parses is written as OTIO and must
// parse back the same; FCPXML, whose stacked tracks are written as OTIO and
// must read back; every --export-timeline format writes what parsed, and
// easing curves are read among the option values). The first
// byte picks the parser, the rest is its input. Built by Scripts/fuzz parse
// with the tiers' modules; not part of the package.
import Foundation
@testable import SegueModel
@testable import SegueInput
@testable import SegueRender
@testable import SegueKit

@_cdecl("LLVMFuzzerTestOneInput")
public func segueFuzzParse(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let body = Data(bytes: data + 1, count: size - 1)
    let text = String(decoding: body, as: UTF8.self)
    switch data[0] % 9 {
    case 0:
        _ = try? ClipList.parse(text, relativeTo: "/clips")
    case 1:
        _ = try? Manifest.parse(body, relativeTo: "/clips")
    case 2:
        for line in text.split(separator: "\n").map(String.init) {
            _ = OutputValues.frameRate(line)
            _ = OutputValues.bitRate(line)
            _ = OutputValues.byteSize(line)
            _ = OutputValues.size(line)
            _ = TimeValue.seconds(line)
            _ = TransitionKind(name: line)
            if let easing = Easing(name: line) { _ = (0...20).map { easing(Double($0) / 20) } }
        }
    case 4:
        // A WebVTT file as a sidecar is read; its cues' burn-in events; the same text as ASS cue text.
        for cue in (try? WebVTT.cues(body)) ?? [] {
            _ = StyledText.assText(cue.text, styles: cue.styles)
        }
        _ = CueText.styled(text, base: .italic, named: CueText.styles(inHeader: text))
    case 5:
        roundTrip(try? EditTimeline.parseOTIO(body))
    case 6:
        roundTrip(try? EditTimeline.parseCMX3600(text))
    case 7:
        roundTrip(try? EditTimeline.parseFCP7XML(body))
    case 8:
        // Its lanes stacked into the one track rendered, its sound placed; written as OTIO, read back.
        guard let timeline = try? EditTimeline.parseFCPXML(body) else { return 0 }
        for track in timeline.audioTracks { _ = try? track.placed(at: timeline.rate) }
        guard let json = try? timeline.otioJSON(), (try? EditTimeline.parseOTIO(json)) != nil else { fatalError("otioJSON doesn't read back") }
    default:
        // A plan as render and join read it: decoded, checked, then its timeline made.
        guard let plan = try? SegmentPlan.read(body, from: "plan.json") else { return 0 }
        guard let made = try? plan.timeline() else { return 0 }
        // A timeline's sound: where each of its clips plays in each stretch, and whose sound each clip hears.
        for track in made.soundTracks {
            for stretch in track.stretches {
                for piece in track.sound.tracks.flatMap(\.pieces) {
                    _ = track.sound.sample(atRecordFrame: piece.recordStart + piece.recordFrames, origin: stretch.origin, sampleRate: 48_000)
                }
            }
        }
        for clip in made.clips { _ = made.soundIsTimelines(clipIndex: clip.index) }
    }
    return 0
}

/// A timeline that parsed (its sound tracks too) is written as OTIO, which must read back as the same
/// timeline (but its rate: OTIO has none, so it comes back as the first clip's;
/// and its notes when it has generators: OTIO's reading notes them again).
private func roundTrip(_ timeline: EditTimeline?) {
    guard var timeline else { return }
    // Every editor's format writes it, or refuses naming why: never a crash.
    for format in TimelineExportFormat.allCases { _ = try? timeline.exported(as: format) }
    // Its sound tracks placed on the record timeline, as the resolver places them.
    for track in timeline.audioTracks { _ = try? track.placed(at: timeline.rate) }
    guard let again = try? EditTimeline.parseOTIO(timeline.otioJSON()) else {
        fatalError("otioJSON doesn't read back")
    }
    timeline.rate = again.rate
    // OTIO holds a timeline read without tracks (an EDL) as its one video track: read back, it has it as its tracks.
    if timeline.videoTracks.isEmpty, again.videoTracks.map(\.items) == [timeline.items] { timeline.videoTracks = again.videoTracks }
    if timeline.items.contains(where: { if case .fill = $0 { true } else { false } }) { timeline.notes = again.notes }
    guard again == timeline else {
        fatalError("otioJSON doesn't read back as the timeline it was written from")
    }
}
