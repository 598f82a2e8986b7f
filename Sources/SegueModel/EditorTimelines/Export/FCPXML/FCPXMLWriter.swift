import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as FCPXML 1.10 (Final Cut Pro 10.6+, DaVinci Resolve 18+),
    /// valid against Apple's DTD: one `format` per rate and size, one `asset`
    /// per medium (its file in `media-rep`), and a project whose sequence's
    /// spine holds the first video track (asset clips, stills as `video`,
    /// gaps, Cross Dissolves overlapping the clips either side, compound clips
    /// for nested sequences), with the upper tracks' clips, the titles, the
    /// sound tracks and the music bed connected to it on lanes, and the
    /// markers as chapter markers in the clips under them. Every time is
    /// whole frames times a frame duration (`1001/30000s`), record times at
    /// the sequence's rate, source times at their medium's. Throws naming
    /// what FCPXML can't hold; what it holds only in part is a warning.
    func fcpxmlExport() throws -> TimelineExport {
        var writing = try FCPXMLWriting(self)
        let document = try writing.document()
        return TimelineExport(data: document.document(doctype: "<!DOCTYPE fcpxml>"), warnings: writing.warnings)
    }
}

/// One FCPXML document being written: the timeline, the sequence's clock
/// and frame, the resources named so far and the warnings said.
struct FCPXMLWriting {
    let timeline: EditTimeline
    let clock: FCPXMLClock
    /// The sequence's frame: adjustments count in percent of its height.
    let frame: (width: Int, height: Int)
    let sequenceFormat: String
    var resources = FCPXMLResources()
    var warnings: [String] = []
    /// Text styles defined so far (`ts1`, `ts2` …: ids are the document's, not a title's).
    var textStyles = 0

    init(_ timeline: EditTimeline) throws {
        guard let clock = FCPXMLClock(rate: timeline.rate) else {
            throw EditTimelineError("the timeline's rate \(timeline.rate) can't be written as an FCPXML frame duration")
        }
        self.timeline = timeline
        self.clock = clock
        frame = (timeline.format?.width ?? 1920, timeline.format?.height ?? 1080)
        guard frame.width > 0, frame.height > 0 else { throw EditTimelineError("the output's size \(frame.width)x\(frame.height) is not a picture") }
        sequenceFormat = resources.format(clock, width: frame.width, height: frame.height)
    }

    /// The whole `fcpxml` element.
    mutating func document() throws -> XMLNode {
        let tracks = timeline.videoTracks.isEmpty ? [EditVideoTrack(name: "V1", items: timeline.items)] : timeline.videoTracks
        var spine = try storyline(tracks[0].items, label: "V1", enabled: tracks[0].enabled, sound: timeline.clipSound)
        guard spine.anchorIndex(at: 0) != nil else { throw EditTimelineError("the first video track is empty: FCPXML's spine needs an item") }
        var lanes = try connectTracks(Array(tracks.dropFirst()), to: &spine, label: "")
        if timeline.videoTracks.isEmpty { lanes = max(lanes, connectOverlays(timeline.overlays, to: &spine)) }
        connectTitles(timeline.titles, lane: lanes + 1, to: &spine)
        try connectSound(to: &spine)
        placeMarkers(timeline.markers, in: &spine)
        let startFrames = timeline.start?.frameCount(at: clock.rate) ?? 0
        let clock = self.clock
        let spineNode = XMLNode("spine", children: spine.nodes { clock.time(startFrames + $0) })
        let sequence = XMLNode("sequence", sequenceAttributes(frames: spine.frames, startFrames: startFrames), children: [spineNode])
        let name = timeline.name.flatMap { $0.isEmpty ? nil : $0 } ?? "Segue"
        let project = XMLNode("project", [("name", name)], children: [sequence])
        let library = XMLNode("library", children: [XMLNode("event", [("name", "Segue")], children: [project])])
        return XMLNode("fcpxml", [("version", "1.10")], children: [resources.node, library])
    }

    /// The sequence's format, length, start timecode and sound.
    private mutating func sequenceAttributes(frames: Int64, startFrames: Int64) -> [(String, String)] {
        var attributes = [("format", sequenceFormat), ("duration", clock.time(frames).text), ("tcStart", clock.time(startFrames).text),
                          ("tcFormat", timecodeFormat)]
        guard let format = timeline.format else { return attributes }
        switch format.channels {
        case 1: attributes.append(("audioLayout", "mono"))
        case 2: attributes.append(("audioLayout", "stereo"))
        case 3...: attributes.append(("audioLayout", "surround"))
        default: break
        }
        let rates = [32000: "32k", 44100: "44.1k", 48000: "48k", 88200: "88.2k", 96000: "96k", 176400: "176.4k", 192000: "192k"]
        if let rate = rates[format.sampleRate] {
            attributes.append(("audioRate", rate))
        } else {
            warnings.append("FCPXML export: the sequence's sound rate (\(format.sampleRate) Hz) is none FCPXML names; not written")
        }
        return attributes
    }

    /// Drop-frame timecode for 29.97 and 59.94, as Final Cut Pro counts them; else non-drop.
    var timecodeFormat: String {
        clock.rate == Rational(30000, 1001) || clock.rate == Rational(60000, 1001) ? "DF" : "NDF"
    }

    /// Each marker as a chapter marker in the element under it, at that element's own time, a frame long.
    mutating func placeMarkers(_ markers: [EditMarker], in spine: inout FCPXMLStoryline) {
        for marker in markers {
            let frame = marker.time.frameCount(at: clock.rate)
            guard frame >= 0, frame <= spine.frames, let index = spine.anchorIndex(at: frame) else {
                warnings.append("marker '\(marker.name.prefix(60))': at record frame \(frame), outside the timeline; not written")
                continue
            }
            let start = spine.elements[index].localTime(at: frame, clock: clock)
            spine.elements[index].markers.append(XMLNode("chapter-marker", [
                ("start", start.text), ("duration", clock.frameDuration.text), ("value", marker.name),
            ]))
        }
    }
}
