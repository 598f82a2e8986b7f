import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as Final Cut Pro 7 / Premiere Pro XML (xmeml version 5):
    /// one sequence at the timeline's rate and size, starting at its start
    /// timecode (01:00:00:00 when it has none); its video tracks with their
    /// clips, Cross Dissolves and generators; each clip's own sound linked to
    /// its picture, the timeline's sound tracks and the music bed on audio
    /// tracks; titles as Text generators on a track above; chapters as
    /// sequence markers. Read back by `parseFCP7XML` (and OTIO's fcp_xml
    /// adapter), it is the same cut. Throws naming a rate xmeml can't say.
    func xmemlExport() throws -> TimelineExport {
        var writer = try XMEMLWriter(timeline: self)
        let data = writer.document()
        return TimelineExport(data: data, warnings: writer.warnings)
    }
}

/// Writes one timeline as an xmeml document: lays its tracks out
/// (`XMEMLLayout`), links pictures with their sound, then writes the elements (`XMEMLItems`).
struct XMEMLWriter {
    let timeline: EditTimeline
    let rate: XMEMLRate
    var layout: XMEMLLayout

    init(timeline: EditTimeline) throws {
        self.timeline = timeline
        rate = try XMEMLRate.sequence(timeline.rate)
        layout = XMEMLLayout(rate: timeline.rate, cards: timeline.titles)
    }

    /// What the document could not say, each naming the item.
    var warnings: [String] {
        get { layout.warnings }
        set { layout.warnings = newValue }
    }

    /// The video tracks as the timeline stacks them (its one track when it has no others).
    private var videoSource: [EditVideoTrack] {
        timeline.videoTracks.isEmpty ? [EditVideoTrack(name: "V1", items: timeline.items)] : timeline.videoTracks
    }

    mutating func document() -> Data {
        let source = videoSource
        var video = source.enumerated().map { index, track in
            var laid = XMEMLTrack(entries: layout.videoTrack(track.items, bottom: index == 0, label: "V\(index + 1)"))
            laid.enabled = track.enabled
            return laid
        }
        var sound = timeline.clipSound ? clipSoundTracks(of: source[0].items) : []
        Self.link(&video[0], &sound)
        sound += timelineSoundTracks() + musicTrack()
        video += titleTracks()
        noteUnsaid(source)
        var items = XMEMLItems(rate: rate, files: XMEMLFiles(sequence: rate, tracks: video + sound))
        let duration = (video + sound).map(\.end).max() ?? 0
        let media = XMLNode("media", children: [videoNode(video, items: &items), audioNode(sound, items: &items)])
        let markers = timeline.markers.map { marker in
            XMLNode("marker", children: [.leaf("name", marker.name), .leaf("comment", ""),
                                         .leaf("in", String(marker.time.frameCount(at: timeline.rate))), .leaf("out", "-1")])
        }
        let sequence = XMLNode("sequence", [("id", "sequence-1")], children: [
            .leaf("name", timeline.name ?? "Segue"), .leaf("duration", String(duration)), rate.node,
            rate.timecode(timeline.editorStart, dropFrame: true), media,
        ] + markers)
        return XMLNode("xmeml", [("version", "5")], children: [sequence]).document(doctype: "<!DOCTYPE xmeml>")
    }

    private func videoNode(_ tracks: [XMEMLTrack], items: inout XMEMLItems) -> XMLNode {
        var characteristics = [rate.node]
        if let format = timeline.format {
            characteristics += [.leaf("width", String(format.width)), .leaf("height", String(format.height))]
        }
        characteristics += [.leaf("anamorphic", "FALSE"), .leaf("pixelaspectratio", "square"), .leaf("fielddominance", "none")]
        let format = XMLNode("format", children: [XMLNode("samplecharacteristics", children: characteristics)])
        return XMLNode("video", children: [format] + tracks.map { items.track($0, sound: false) })
    }

    private func audioNode(_ tracks: [XMEMLTrack], items: inout XMEMLItems) -> XMLNode {
        let format = XMLNode("format", children: [XMLNode("samplecharacteristics", children: [
            .leaf("depth", "16"), .leaf("samplerate", String(timeline.format?.sampleRate ?? 48_000)),
        ])])
        return XMLNode("audio", children: [.leaf("numOutputChannels", String(timeline.format?.channels ?? 2)), format]
                       + tracks.map { items.track($0, sound: true) })
    }

    /// The titles as Text generators on tracks above the video (a title over another on a track of its own).
    private mutating func titleTracks() -> [XMEMLTrack] {
        var lanes: [XMEMLTrack] = []
        for title in timeline.titles.sorted(by: { $0.start < $1.start }) where title.frames > 0 {
            let generator = XMEMLGenerator(id: layout.id("generatoritem"), look: .text(title.text), start: title.start,
                                           end: title.start + title.frames)
            if let lane = lanes.firstIndex(where: { $0.end <= title.start }) {
                lanes[lane].entries.append(.generator(generator))
            } else {
                lanes.append(XMEMLTrack(entries: [.generator(generator)]))
            }
        }
        return lanes
    }

    /// Warnings for what the video tracks hold that xmeml can't say: a transition other than a
    /// dissolve (written as a Cross Dissolve), a layout its filters can't hold.
    private mutating func noteUnsaid(_ tracks: [EditVideoTrack]) {
        for (number, track) in tracks.enumerated() {
            for (index, item) in track.items.enumerated() {
                let label = "V\(number + 1) item \(index + 1)"
                switch item {
                case .transition(let transition):
                    var kind = transition.name.flatMap { ["fade", "dissolve"].contains($0.lowercased()) ? nil : "'\($0)'" }
                    if case .wipe(let code) = transition.kind { kind = "SMPTE wipe \(code)" }
                    if let kind { warnings.append("xmeml export: \(label): transition \(kind) is written as a Cross Dissolve") }
                case .clip(let clip):
                    if let layout = clip.layout, let unsaid = XMEMLFilters.unsaid(layout) {
                        warnings.append("xmeml export: \(label) '\(clip.name ?? "")': \(unsaid)")
                    }
                case .gap, .fill, .nested: continue
                }
            }
        }
    }
}

extension EditTimeline {
    /// The record timecode's frame an editor's timeline starts at: its own
    /// `start`, else 01:00:00:00 (01:00:00;00 at 29.97 and 59.94), as editors start a programme.
    var editorStart: Int64 {
        if let start { return start.frameCount(at: rate) }
        let counter = Timecode(rate: rate, dropFrame: true)
        return Int64(counter.nominal) * 3600 - (counter.dropFrame ? Int64(counter.nominal / 15) * 54 : 0)
    }
}
