import Foundation
import SegueCore

extension EditTimeline {
    /// A CMX 3600 EDL, read as OTIO's cmx_3600 adapter reads it: events in
    /// record order, a gap where record time jumps ahead, a `D nnn` (or
    /// `Wnnn nnn`) event's second line is the incoming clip and its transition
    /// starts at the cut (before 0, after nnn frames, the outgoing side's handle
    /// filling it). `BL` is black. The events' sound channels make the sound
    /// tracks (`CMX3600AudioReading`).
    /// An EDL doesn't say its rate: `rate`, else 30000/1001 when its `FCM:`
    /// says DROP FRAME (or its first event's timecode has `;`), else 24.
    package static func parseCMX3600(_ text: String, rate: Rational? = nil) throws -> EditTimeline {
        let events = try CMX3600Reader.events(text)
        let rate = rate ?? CMX3600Reader.defaultRate(events)
        guard rate.isValid, rate.value < 1000 else { throw EditTimelineError("rate \(rate) is not a frame rate") }
        try CMX3600Reader.checkFrameFields(events.list, rate: rate)
        var reader = CMX3600Reader(rate: rate)
        for event in events.list { try reader.add(event) }
        guard !reader.items.isEmpty else { throw EditTimelineError("no video events") }
        var sound = CMX3600AudioReading(rate: rate, start: reader.start?.frames(at: rate) ?? 0)
        for event in events.list { try sound.add(event) }
        reader.markers = reader.markers.enumerated().sorted { ($0.element.time.seconds, $0.offset) < ($1.element.time.seconds, $1.offset) }.map(\.element)
        var timeline = EditTimeline(name: events.title, rate: rate, items: reader.items, markers: reader.markers,
                                    notes: reader.notes, start: reader.start)
        timeline.audioTracks = sound.audioTracks
        timeline.notes += sound.notes
        // An EDL has one video track: `items` as read, nothing to stack.
        return try EditReading.finished(timeline)
    }
}

extension EditTimeline {
    /// The rate an EDL is counted at when nothing else says: 29.97 when its
    /// `FCM:` says DROP FRAME (or its first event's timecode has `;`), else 24.
    package static func cmx3600GuessedRate(_ text: String) throws -> Rational {
        CMX3600Reader.defaultRate(try CMX3600Reader.events(text))
    }

    /// The media an EDL's video events name, with each clip's name, in
    /// record order, read without their timecodes (so before its rate is known).
    package static func cmx3600Media(_ text: String) throws -> [(name: String?, media: EditMedia)] {
        try CMX3600Reader.events(text).list.compactMap { event in
            let lines = try event.lines.map { try CMX3600Line($0, label: "event \(event.number)") }
            guard let line = lines.first(where: { $0.transitionType != nil }) ?? lines.first(where: \.isVideo),
                  line.isVideo, !line.isBlack else { return nil }
            let comments = CMX3600Comments(event.comments)
            let media = comments.media(incoming: line.transitionType != nil, reel: line.reel)
            return (comments.name(location: media.location), media)
        }
    }
}

/// One numbered event: its lines (a cut, or a cut and a transition), its
/// comments, and whether `FCM:` said drop frame when it was written.
struct CMX3600Event {
    var number: Substring
    var lines: [[Substring]] = []
    var comments: [Substring] = []
    var dropFrame: Bool
}

struct CMX3600Reader {
    let rate: Rational
    var items: [EditItem] = []
    var markers: [EditMarker] = []
    var notes: [String] = []
    var start: EditTime?
    /// The record frame the next event should start at.
    private var recordEnd: Int64 = 0

    init(rate: Rational) { self.rate = rate }

    /// The events and title, read line by line; too many events fail at once.
    static func events(_ text: String) throws -> (title: String?, list: [CMX3600Event], dropFrameSaid: Bool) {
        var title: String?, list: [CMX3600Event] = [], dropFrame = false, dropFrameSaid = false, lineCount = 0
        for raw in Lines(text) {
            let line = Lines.trimmed(raw)
            guard let first = line.first else { continue }
            if line.hasPrefix("TITLE:") {
                title = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("FCM:") {
                dropFrame = !line.uppercased().contains("NON-DROP") && line.uppercased().contains("DROP")
                dropFrameSaid = dropFrameSaid || (dropFrame && list.isEmpty)
            } else if first.isASCIIDigit {
                lineCount += 1
                guard lineCount <= EditReading.maxItems * 2 else { throw EditTimelineError("more than \(EditReading.maxItems) events") }
                let fields = line.split(whereSeparator: \.isWhitespace)
                if let last = list.last, last.number == fields[0] {
                    list[list.count - 1].lines.append(fields)
                } else {
                    guard list.count < EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) events") }
                    list.append(CMX3600Event(number: fields[0], lines: [fields], dropFrame: dropFrame))
                }
            } else if !list.isEmpty {
                list[list.count - 1].comments.append(line)
            }
        }
        return (title.flatMap { $0.isEmpty ? nil : $0 }, list, dropFrameSaid)
    }

    static func defaultRate(_ events: (title: String?, list: [CMX3600Event], dropFrameSaid: Bool)) -> Rational {
        let firstHasSemicolon = events.list.first?.lines.first?.contains { $0.contains(";") } ?? false
        return events.dropFrameSaid || firstHasSemicolon ? Rational(30000, 1001) : Rational(24, 1)
    }

    /// Refuses the first timecode whose frame field reaches the rate (an EDL
    /// counted at the wrong rate: a PAL EDL's frame 24 at 24), before an
    /// event's lengths could disagree for the same reason.
    static func checkFrameFields(_ events: [CMX3600Event], rate: Rational) throws {
        let timecode = Timecode(rate: rate, dropFrame: false)
        for event in events {
            for fields in event.lines where fields.count >= 8 {
                for label in fields.suffix(4) { _ = try CMX3600Line.frameField(label, timecode, "event \(event.number)") }
            }
        }
    }

    /// One event: skipped when audio only, else its transition (if any) and its clip or black, after any gap.
    mutating func add(_ event: CMX3600Event) throws {
        let label = "event \(event.number)"
        let lines = try event.lines.map { try CMX3600Line($0, label: label) }
        let transitions = lines.filter { $0.transitionType != nil }
        guard transitions.count <= 1 else { throw EditTimelineError("\(label): more than one transition") }
        // A transition's line is the incoming clip; else the event's first video line (an event may list its sound apart).
        guard let line = transitions.first ?? lines.first(where: \.isVideo), line.isVideo else { return }
        let comments = CMX3600Comments(event.comments)
        let incoming = line.transitionType != nil
        let speed = try comments.playbackSpeed(rate: rate, clip: [incoming ? comments.toName : comments.fromName, String(line.reel)], label)
        let timecode = Timecode(rate: rate, dropFrame: event.dropFrame)
        let source = try (line.frames(line.sourceIn, timecode, label), line.frames(line.sourceOut, timecode, label))
        let record = try (line.frames(line.recordIn, timecode, label), line.frames(line.recordOut, timecode, label))
        guard source.1 >= source.0 else { throw EditTimelineError("\(label): source out \(line.sourceOut) before source in \(line.sourceIn)") }
        guard record.1 >= record.0 else { throw EditTimelineError("\(label): record out \(line.recordOut) before record in \(line.recordIn)") }
        // A speed change's source out doesn't count: it plays from source in for the record's length, as the adapter reads it.
        guard speed != nil || source.1 - source.0 == record.1 - record.0 else {
            throw EditTimelineError("\(label): source lasts \(source.1 - source.0) frames but record \(record.1 - record.0) (a speed change can't be rendered)")
        }
        try place(recordIn: record.0, label: label, line: line)
        if let transition = try line.transition(label: label, rate: rate) {
            if items.isEmpty { items.append(.gap(time(0))) }
            items.append(.transition(transition))
        }
        let duration = time(record.1 - record.0)
        if line.isBlack {
            items.append(.gap(duration))
        } else if line.reel.uppercased() == "BARS" {
            notes.append("\(label): BARS drawn as colour bars, in silence (its tone isn't played)")
            items.append(.fill(EditFill(look: .bars, duration: duration)))
        } else {
            let media = comments.media(incoming: incoming, reel: line.reel)
            // A freeze frame's clip name carries " FF", which isn't its name (the adapter drops it too).
            var name = comments.name(location: media.location)
            if speed?.isFreeze == true, name?.hasSuffix(" FF") == true { name?.removeLast(3) }
            items.append(.clip(EditClip(name: name, media: media, source: EditRange(start: time(source.0), duration: duration), speed: speed)))
        }
        for locator in comments.locators {
            guard let frame = timecode.frames(locator.timecode) else { throw EditTimelineError("\(label): bad locator timecode \(locator.timecode)") }
            markers.append(EditMarker(name: locator.name, time: time(recordEnd + frame - source.0)))
        }
        recordEnd += record.1 - record.0
    }

    /// Starts the timeline at the first event's record in; fills a jump ahead with a gap; refuses going back.
    private mutating func place(recordIn: Int64, label: String, line: CMX3600Line) throws {
        guard let start else {
            start = time(recordIn)
            recordEnd = 0
            return
        }
        let offset = recordIn - start.frames(at: rate)
        if offset < recordEnd {
            throw EditTimelineError("\(label): record in \(line.recordIn) overlaps the event before it")
        }
        if offset > recordEnd {
            items.append(.gap(time(offset - recordEnd)))
            recordEnd = offset
        }
        guard items.count < EditReading.maxItems * 3 else { throw EditTimelineError("more than \(EditReading.maxItems) events") }
    }

    private func time(_ frames: Int64) -> EditTime { EditTime(value: Double(frames), rate: rate.value) }
}

/// An event line: `NNN REEL CHANNELS TYPE [DURATION] SRC_IN SRC_OUT REC_IN REC_OUT`.
struct CMX3600Line {
    let reel: Substring, channels: Substring, type: Substring, duration: Substring?
    let sourceIn: Substring, sourceOut: Substring, recordIn: Substring, recordOut: Substring

    init(_ fields: [Substring], label: String) throws {
        guard fields.count == 8 || fields.count == 9 else {
            throw EditTimelineError("\(label): \(fields.count) fields (an event has 8, or 9 with a transition's length)")
        }
        reel = fields[1]
        channels = fields[2]
        type = fields[3]
        duration = fields.count == 9 ? fields[4] : nil
        let times = fields.suffix(4).map { $0 }
        (sourceIn, sourceOut, recordIn, recordOut) = (times[0], times[1], times[2], times[3])
        if duration == nil, type != "C" { throw EditTimelineError("\(label): edit type \(type) without its length") }
    }

    /// Video, or video with sound (`V`, `B`, `AA/V`); not `A`, `A2`, `AA`.
    var isVideo: Bool { channels == "B" || channels.uppercased().contains("V") }
    var isBlack: Bool { ["BL", "BLACK"].contains(reel.uppercased()) }
    var transitionType: Substring? { type == "C" ? nil : type }

    /// A timecode's frame field, refused when it reaches the rate in use.
    @discardableResult
    static func frameField(_ label: Substring, _ timecode: Timecode, _ event: String) throws -> Int? {
        guard let frame = timecode.frameField(label) else { return nil }
        guard frame < timecode.nominal else {
            throw EditTimelineError("\(event): timecode \(label) counts frame \(frame), but at \(timecode.nominal) fps frames run 0 to "
                                    + "\(timecode.nominal - 1) (give the EDL's rate with --fps, e.g. --fps 25 for PAL)")
        }
        return frame
    }

    func frames(_ label: Substring, _ timecode: Timecode, _ event: String) throws -> Int64 {
        try Self.frameField(label, timecode, event)
        guard let frames = timecode.frames(label) else { throw EditTimelineError("\(event): bad timecode \(label)") }
        return frames
    }

    /// `D nnn` a dissolve, `Wccc nnn` a wipe with SMPTE code ccc, over nnn frames from the cut on.
    func transition(label: String, rate: Rational) throws -> EditTransition? {
        guard let type = transitionType else { return nil }
        guard let duration, duration.count <= 6, let frames = Int(duration) else {
            throw EditTimelineError("\(label): bad transition length '\(duration ?? "")'")
        }
        let kind: EditTransition.Kind
        if type == "D" {
            kind = .dissolve
        } else if type.first == "W", let code = Int(type.dropFirst()), type.count <= 4 {
            kind = .wipe(code)
        } else {
            throw EditTimelineError("\(label): edit type \(type) can't be drawn (cuts, D dissolves and W wipes only)")
        }
        return EditTransition(kind: kind, before: EditTime(value: 0, rate: rate.value),
                              after: EditTime(value: Double(frames), rate: rate.value))
    }
}

/// What an event's comment lines say, as `* KEY: value` (the asterisk optional);
/// a later line of a kind wins, as in the adapter.
struct CMX3600Comments {
    var fromName: String?, toName: String?
    var fromLocation: String?, toLocation: String?, sourceFile: String?
    /// Each `M2` line's name (a reel or clip) and speed, in order.
    var motions: [(name: String, speed: String)] = []
    var freezeFrame = false
    var locators: [(timecode: Substring, name: String)] = []

    /// Longer keys first, so `FROM CLIP NAME` isn't read as `FROM CLIP`.
    private static let keys = ["FROM CLIP NAME", "TO CLIP NAME", "FROM CLIP", "FROM FILE", "TO CLIP", "TO FILE",
                               "SOURCE FILE", "LOC", "M2"]

    init(_ lines: [Substring]) {
        for line in lines {
            var body = line.drop { $0 == "*" }.drop(while: \.isWhitespace)
            if body.hasPrefix("FREEZE FRAME") || body.hasPrefix("* FREEZE FRAME") { freezeFrame = true; continue }
            guard let key = Self.keys.first(where: { body.hasPrefix($0) }) else { continue }
            body = body.dropFirst(key.count)
            if body.first == ":" { body = body.dropFirst() }
            let value = body.trimmingCharacters(in: .whitespaces)
            switch key {
            case "FROM CLIP NAME": fromName = value
            case "TO CLIP NAME": toName = value
            case "FROM CLIP", "FROM FILE": fromLocation = value
            case "TO CLIP", "TO FILE": toLocation = value
            case "SOURCE FILE": sourceFile = value
            case "LOC": locator(value)
            default: motions.append(Self.motion(value))
            }
        }
    }

    /// `M2   REEL   048.0   01:00:00:00`: the name (which may hold spaces), then the speed in frames a second, before the timecode.
    private static func motion(_ value: String) -> (name: String, speed: String) {
        var words = value.split(whereSeparator: \.isWhitespace)
        if let last = words.last, last.count == 11, last.contains(":"), words.count >= 2 { words.removeLast() }
        guard let speed = words.popLast() else { return ("", value) }
        return (words.joined(separator: " "), String(speed))
    }

    /// The event's speed change: `* FREEZE FRAME`, or `M2` frames a second over the EDL's rate (0 holds
    /// the first frame); nil without one. A dissolve's event may list the outgoing clip's M2 too: the
    /// one naming `clip` (its clip name or reel) wins, else the last. Reverse motion and speeds that aren't numbers are refused.
    func playbackSpeed(rate: Rational, clip names: [String?], _ label: String) throws -> PlaybackSpeed? {
        if freezeFrame { return PlaybackSpeed(rate: Rational(0, 1)) }
        let known = Set(names.compactMap { $0?.uppercased() })
        guard let speed = (motions.last { known.contains($0.name.uppercased()) } ?? motions.last)?.speed else { return nil }
        guard let fps = Double(speed), fps.isFinite else { throw EditTimelineError("\(label): M2 speed '\(speed)' isn't a number") }
        guard fps >= 0 else { throw EditTimelineError("\(label): reverse motion (M2 \(speed)) can't be rendered") }
        guard let playback = PlaybackSpeed(fps / rate.value) else {
            throw EditTimelineError("\(label): M2 \(speed) at \(rate) fps is beyond \(Int(PlaybackSpeed.fastest))x")
        }
        return playback
    }

    /// `LOC: 01:00:01:14 RED  name`: the timecode, a colour, the name.
    private mutating func locator(_ value: String) {
        let words = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard let timecode = words.first, timecode.count == 11 else { return }
        let name = words.count > 2 ? words[2].trimmingCharacters(in: .whitespaces) : ""
        locators.append((timecode, name))
    }

    /// The incoming (second line's) clip takes the `TO` comments; a plain event the `FROM` ones.
    func media(incoming: Bool, reel: Substring) -> EditMedia {
        let location = incoming ? (toLocation ?? sourceFile) : (fromLocation ?? sourceFile)
        let reelName = ["AX", "BL", "BLACK", "BARS"].contains(reel.uppercased()) ? nil : String(reel)
        return EditMedia(location: location.flatMap { $0.isEmpty ? nil : $0 },
                         clipName: (incoming ? toName : fromName).flatMap { $0.isEmpty ? nil : $0 }, reel: reelName)
    }

    /// `TO CLIP NAME`, else `FROM CLIP NAME`, else the file's name without its extension (the adapter's order).
    func name(location: String?) -> String? {
        if let name = [toName, fromName].compactMap({ $0 }).first(where: { !$0.isEmpty }) { return name }
        // A Windows tool's path (`S:\media\a.mov`) ends at its last backslash.
        guard let file = location?.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last else { return nil }
        return (String(file) as NSString).deletingPathExtension
    }
}

/// A text's lines, one at a time (an EDL too long to hold split is refused before its end is read).
struct Lines: Sequence, IteratorProtocol {
    private let text: Substring
    private var position: Substring.Index

    init(_ text: String) {
        self.text = text[...]
        position = self.text.startIndex
    }

    /// Without the spaces and tabs around it.
    static func trimmed(_ line: Substring) -> Substring {
        var line = line
        while let first = line.first, first.isWhitespace { line.removeFirst() }
        while let last = line.last, last.isWhitespace { line.removeLast() }
        return line
    }

    mutating func next() -> Substring? {
        guard position < text.endIndex else { return nil }
        let end = text.utf8[position...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? text.endIndex
        defer { position = end < text.endIndex ? text.index(after: end) : end }
        return text[position..<end]
    }
}
