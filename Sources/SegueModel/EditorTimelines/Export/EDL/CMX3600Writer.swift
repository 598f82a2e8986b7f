import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline's video track as a CMX 3600 EDL: `TITLE:`, `FCM:` (drop
    /// frame at 29.97 and 59.94, its labels with `;`), one event a clip with
    /// its reel, channels (`AA/V` or `B` when it plays its own sound, else
    /// `V`), source and record timecode from 01:00:00:00 (or the timeline's
    /// start); dissolves and wipes as `D nnn` / `Wccc nnn` events, speed
    /// changes as `M2` lines, black as `BL`, chapters as `LOC` comments, each
    /// clip's name and file as comments. Throws naming what an EDL can't
    /// count: a rate other than whole frames a second (or their NTSC 1000/1001),
    /// a timecode before 00:00:00:00 or past 23:59:59:29. What it can't hold
    /// (titles, placed clips, sound tracks, music) is left out with a warning each.
    func cmx3600Export() throws -> TimelineExport {
        try CMX3600Writer(timeline: self).export()
    }
}

/// Writes one timeline as an EDL's text.
struct CMX3600Writer {
    let timeline: EditTimeline
    /// Counts drop-frame labels at 29.97 and 59.94.
    let counter: Timecode
    /// The record timecode's frame the first event starts at.
    let start: Int64

    init(timeline: EditTimeline) throws {
        guard XMEMLRate(timeline.rate) != nil else {
            throw EditTimelineError("CMX 3600 can't count \(EditReading.number(timeline.rate.value)) fps (\(timeline.rate)): an EDL's "
                                    + "timecode counts whole frames a second, or NTSC's 1000/1001 of them (render at another --fps)")
        }
        self.timeline = timeline
        counter = Timecode(rate: timeline.rate, dropFrame: true)
        start = timeline.editorStart
    }

    private var tracks: [EditVideoTrack] {
        timeline.videoTracks.isEmpty ? [EditVideoTrack(name: "V1", items: timeline.items)] : timeline.videoTracks
    }

    func export() throws -> TimelineExport {
        var edits = CMX3600Edits(rate: timeline.rate, clipSound: timeline.clipSound)
        edits.add(tracks[0].items)
        let end = edits.edits.map(\.record.upperBound).max() ?? 0
        guard start >= 0, start + end < counter.framesPerDay else {
            throw EditTimelineError("the timeline lasts \(counter.label(max(end, 0))) from its start at \(counter.label(max(start, 0))), so its "
                                    + "record timecode would pass \(counter.label(counter.framesPerDay - 1)), "
                                    + "where an EDL's day ends (and wraps to 00:00:00:00)")
        }
        let title = (timeline.name ?? "Segue").oneLine.trimmingCharacters(in: .whitespaces)
        var lines = ["TITLE: " + String((title.isEmpty ? "Segue" : title).prefix(70)),
                     "FCM: " + (counter.dropFrame ? "DROP FRAME" : "NON-DROP FRAME"), ""]
        let locators = self.locators(for: edits.edits)
        for (index, edit) in edits.edits.enumerated() {
            lines += try event(edit, number: index + 1, locators: locators[index] ?? [])
        }
        var warnings = edits.warnings + leftOut
        for edit in edits.edits where edit.location.map({ $0.oneLine != $0 }) ?? false {
            warnings.append("CMX 3600 export: the path of '\(edit.name ?? "")' holds a line break, written as a space")
        }
        return TimelineExport(data: Data((lines.joined(separator: "\n") + "\n").utf8), warnings: warnings)
    }

    /// An event's lines: a cut, or the outgoing clip's zero-length cut then
    /// the transition into this one; `M2` and its comments.
    private func event(_ edit: CMX3600Edit, number: Int, locators: [EditMarker]) throws -> [String] {
        let tag = String(number).leftPadded(to: 3)
        let named = "event \(tag)" + (edit.name.map { " (clip '\($0.oneLine)')" } ?? "")
        let source = [try label(edit.source.lowerBound, "\(named): its source in"), try label(edit.source.upperBound, "\(named): its source out")]
        let record = [try label(start + edit.record.lowerBound, "\(named): its record in"),
                      try label(start + edit.record.upperBound, "\(named): its record out")]
        var lines: [String] = []
        if let incoming = edit.incoming {
            let out = try label(incoming.sourceOut, "\(named): the outgoing clip's source out")
            lines.append(Self.line(tag, incoming.reel, incoming.channels, "C", nil, [out, out, record[0], record[0]]))
            lines.append(Self.line(tag, edit.reel, edit.channels, incoming.code, incoming.frames, source + record))
        } else {
            lines.append(Self.line(tag, edit.reel, edit.channels, "C", nil, source + record))
        }
        if let speed = edit.speed {
            let fps = speed.rate.value * timeline.rate.value
            var text = String(format: "%.3f", fps)
            while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
            lines.append("M2   \(edit.reel.padding(toLength: 8, withPad: " ", startingAt: 0))       \(text.leftPadded(to: 5))    "
                         + source[0].replacingOccurrences(of: ";", with: ":"))
            if speed.isFreeze { lines.append("* FREEZE FRAME") }
        }
        if let incoming = edit.incoming {
            if let name = incoming.name { lines.append("* FROM CLIP NAME: " + name.oneLine) }
            if let name = edit.name { lines.append("* TO CLIP NAME: " + name.oneLine) }
        } else if let name = edit.name {
            lines.append("* FROM CLIP NAME: " + name.oneLine)
        }
        if let location = edit.location { lines.append("* SOURCE FILE: " + location.oneLine) }
        for marker in locators {
            let frame = edit.source.lowerBound + marker.time.frameCount(at: timeline.rate) - edit.record.lowerBound
            let at = try label(frame, "chapter '\(marker.name.oneLine)'").replacingOccurrences(of: ";", with: ":")
            lines.append("* LOC: \(at) RED     \(marker.name.oneLine)")
        }
        return lines
    }

    /// `NNN  REEL     CHANS TYPE LEN SRC-IN SRC-OUT REC-IN REC-OUT`, in CMX's columns.
    private static func line(_ number: String, _ reel: String, _ channels: String, _ type: String, _ frames: Int64?, _ times: [String]) -> String {
        let length = frames.map { String($0).leftPadded(to: 3) } ?? "   "
        return "\(number)  \(reel.padding(toLength: 8, withPad: " ", startingAt: 0)) \(channels.padding(toLength: 5, withPad: " ", startingAt: 0)) "
            + "\(type.padding(toLength: 4, withPad: " ", startingAt: 0)) \(length) " + times.joined(separator: " ")
    }

    /// Frame `frames`'s label; refused, naming `what`, before 00:00:00:00 or past 23:59:59:29 (or its rate's last frame).
    private func label(_ frames: Int64, _ what: @autoclosure () -> String) throws -> String {
        guard frames >= 0 else { throw EditTimelineError("\(what()) falls \(-frames) frame(s) before 00:00:00:00, which an EDL can't say") }
        guard frames < counter.framesPerDay else {
            throw EditTimelineError("\(what()) would be \(counter.label(frames)), past \(counter.label(counter.framesPerDay - 1)), "
                                    + "where an EDL's day ends")
        }
        return counter.label(frames)
    }

    /// Each chapter under the event it falls in (the last to start at or before it), by the event's index.
    private func locators(for edits: [CMX3600Edit]) -> [Int: [EditMarker]] {
        var found: [Int: [EditMarker]] = [:]
        for marker in timeline.markers where !edits.isEmpty {
            let frame = marker.time.frameCount(at: timeline.rate)
            let index = edits.lastIndex { $0.record.lowerBound <= frame } ?? 0
            found[index, default: []].append(marker)
        }
        return found
    }

    /// A warning for each thing the timeline holds beyond its video track's events.
    private var leftOut: [String] {
        var notes: [String] = []
        if !timeline.titles.isEmpty {
            notes.append("CMX 3600 export: \(timeline.titles.count) title(s) and caption(s) are not written (an EDL holds no text)")
        }
        let upper = tracks.dropFirst()
        if !upper.isEmpty {
            let clips = upper.flatMap(\.items).filter { if case .clip = $0 { return true } else { return false } }.count
            notes.append("CMX 3600 export: \(upper.count) video track(s) above V1 (\(clips) placed clip(s)) are not written (an EDL lists one track)")
        }
        if !timeline.audioTracks.isEmpty {
            notes.append("CMX 3600 export: the timeline's \(timeline.audioTracks.count) sound track(s) are not written "
                         + "(an EDL lists the picture's events)")
        }
        if timeline.music != nil { notes.append("CMX 3600 export: the music bed is not written") }
        return notes
    }
}
