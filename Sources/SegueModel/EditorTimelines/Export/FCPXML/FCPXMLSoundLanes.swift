import Foundation
import SegueCore

/// The timeline's own sound tracks and the music bed, each a connected
/// storyline of `audio` clips, gaps and crossfades on a lane below the spine
/// (-1, -2 …), each clip at its level (`adjust-volume`), the bed faded in
/// and out (`fadeIn`/`fadeOut` of its level).
extension FCPXMLWriting {
    mutating func connectSound(to spine: inout FCPXMLStoryline) throws {
        var lane = -1
        for (index, track) in timeline.audioTracks.enumerated() {
            let label = "sound track " + (track.name.map { "'\($0.prefix(60))'" } ?? "A\(index + 1)")
            let line = try soundStoryline(track.items, label: label, role: "dialogue")
            if attach(line, lane: lane, to: &spine) { lane -= 1 }
        }
        guard let music = timeline.music else { return }
        var line = try soundStoryline(music.track.items, label: "music bed", role: "music")
        fadeMusic(&line, music)
        if music.duck != 0 {
            warnings.append("music bed: its ducking (\(FCPXMLNumber.text(music.duck)) dB under the clips' sound) is not written; "
                            + "it plays at its level throughout")
        }
        _ = attach(line, lane: lane, to: &spine)
    }

    /// A sound track's items as a storyline of `audio` elements, gaps and transitions.
    mutating func soundStoryline(_ items: [EditAudioItem], label: String, role: String) throws -> FCPXMLStoryline {
        let entries = items.enumerated().map { index, item -> FCPXMLLayout.Entry in
            let number = "\(label) item \(index + 1)"
            switch item {
            case .clip(let sound):
                return FCPXMLLayout.Entry(length: sound.clip.source.duration.frameCount(at: clock.rate), label: Self.soundLabel(sound, index, label))
            case .gap(let duration): return FCPXMLLayout.Entry(length: duration.frameCount(at: clock.rate), label: number + " (gap)")
            case .transition(let transition): return FCPXMLLayout.Entry(transition: transition, label: number + " (crossfade)")
            }
        }
        let (spans, frames) = try FCPXMLLayout.spans(entries, rate: clock.rate, warnings: &warnings)
        var line = FCPXMLStoryline(frames: frames)
        for span in spans {
            switch span {
            case .transition(let index, let record, let transition):
                line.elements.append(transitionElement(transition, record: record, label: entries[index].label, sound: true))
            case .item(let index, let record, let head, let tail):
                guard !record.isEmpty else { continue }
                guard case .clip(let sound) = items[index] else {
                    line.elements.append(gapElement(record))
                    continue
                }
                line.elements.append(audioElement(sound, record: record, handles: (head, tail), label: entries[index].label, role: role))
            }
        }
        return line
    }

    static func soundLabel(_ sound: EditAudioClip, _ index: Int, _ track: String) -> String {
        "\(track) item \(index + 1) (clip" + (sound.clip.name.map { " '\($0.prefix(60))'" } ?? "") + ")"
    }

    /// A sound clip: an `audio` of its medium from its source in (whole frames
    /// when it starts on one, else whole samples at 48 kHz), the channel it
    /// plays and where to (`srcCh`, `outCh`), at its level.
    mutating func audioElement(_ sound: EditAudioClip, record: Range<Int64>, handles: (head: Int64, tail: Int64), label: String,
                               role: String) -> FCPXMLStoryElement {
        let clip = sound.clip
        guard let location = clip.media.location, !location.isEmpty else {
            warnings.append("\(label): its media has no path; written as a gap")
            return gapElement(record)
        }
        let asset = resources.asset(clip.media, at: location, picture: false, fallback: (clock, sequenceFormat))
        let start = soundStart(clip.source.start, asset)
        let duration = clock.time(Int64(record.count))
        var attributes = [("name", clip.name.flatMap { $0.isEmpty ? nil : $0 } ?? FCPXMLResources.assetName(location, media: clip.media)),
                          ("start", start.text), ("duration", duration.text), ("role", role)]
        if let channel = sound.channel {
            attributes.append(("srcCh", "\(channel.source)"))
            attributes.append(("outCh", channel.side == .left ? "L" : channel.side == .right ? "R" : "L, R"))
        }
        var head = clip.speed.map { [timeMap($0, start: start, duration: duration, handles: handles)] } ?? []
        if sound.level != 0 { head.append(XMLNode("adjust-volume", [("amount", FCPXMLNumber.text(sound.level) + "dB")])) }
        return FCPXMLStoryElement(name: "audio", ref: asset.id, attributes: attributes, head: head, record: record, start: start)
    }

    /// A sound's source in, exact: whole frames of its medium's rate when it
    /// counts in them (or the sequence's), else the nearest sample at 48 kHz.
    func soundStart(_ time: EditTime, _ asset: FCPXMLAsset) -> FCPXMLTime {
        let mediaClock = asset.clock ?? clock
        if time.value == time.value.rounded(), mediaClock.counts(time) { return mediaClock.time(Int64(time.value)) }
        if time.value == time.value.rounded(), clock.counts(time) { return clock.time(Int64(time.value)) }
        return FCPXMLTime(value: Int64((time.seconds * 48000).rounded()), timebase: 48000)
    }

    /// The bed's fade in on its first clip and fade out on its last, in whole frames, linear (as `afade` draws them).
    func fadeMusic(_ line: inout FCPXMLStoryline, _ music: EditMusicBed) {
        let clips = line.elements.indices.filter { line.elements[$0].name == "audio" }
        guard let first = clips.first, let last = clips.last else { return }
        func fade(_ name: String, _ seconds: Double, at index: Int) {
            let frames = min(Int64((seconds * clock.rate.value).rounded()), Int64(line.elements[index].record.count))
            guard frames > 0 else { return }
            let fade = XMLNode(name, [("type", "linear"), ("duration", clock.time(frames).text)])
            if let volume = line.elements[index].head.lastIndex(where: { $0.name == "adjust-volume" }) {
                var adjusted = line.elements[index].head[volume]
                if adjusted.children.isEmpty { adjusted.children = [XMLNode("param", [("name", "amount")])] }
                adjusted.children[0].children.append(fade)
                line.elements[index].head[volume] = adjusted
            } else {
                line.elements[index].head.append(XMLNode("adjust-volume", children: [XMLNode("param", [("name", "amount")], children: [fade])]))
            }
        }
        fade("fadeIn", music.fadeIn, at: first)
        fade("fadeOut", music.fadeOut, at: last)
    }

    /// `line` as a storyline connected on `lane` from its first element (its
    /// leading gaps dropped, but the one a crossfade fades in from), its
    /// elements' offsets in the time of the spine element it hangs from;
    /// false when it holds no clip.
    mutating func attach(_ line: FCPXMLStoryline, lane: Int, to spine: inout FCPXMLStoryline) -> Bool {
        guard line.elements.contains(where: { $0.name == "audio" }) else { return false }
        let elements = line.elements
        let first = elements.indices.first { index in
            elements[index].name != "gap" || (index + 1 < elements.count && elements[index + 1].isTransition)
        } ?? 0
        var kept = line
        kept.elements.removeFirst(first)
        let origin = kept.elements[0].record.lowerBound
        let clock = self.clock
        return spine.connect(at: origin, clock: clock) { offset in
            XMLNode("spine", [("lane", "\(lane)"), ("offset", offset.text)], children: kept.nodes { offset + clock.time($0 - origin) })
        }
    }
}
