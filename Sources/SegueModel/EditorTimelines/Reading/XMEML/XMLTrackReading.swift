import Foundation

/// One walk along an xmeml track, as the adapter's track reading goes: a
/// cursor at the last item's record end; a hole before the next item is a
/// gap; a clip item starting before the one before it ends (no transition
/// between them) is refused on a video track.
struct XMLTrackReading {
    typealias Element = ParsedXMLElement
    let reader: FCP7XMLReader
    let track: Element
    /// The track's, inherited from its sequence.
    let context: FCP7XMLReader.Context
    var items: [EditItem] = []
    var notes: [String] = []
    var clipMarkers: [(String, Double)] = []
    /// A sound track's: its clip items are sound, each with its level (dB) in `levels`,
    /// each nested sequence's sound in `nestedSounds`.
    let sound: Bool
    var levels: [Double] = []
    /// A sound track's: each clip item's channel and side, when it plays one channel of its file.
    var channels: [EditAudioChannel?] = []
    var nestedSounds: [EditNestedSound] = []
    /// The ids of the sequences being read, outermost first: a nested one among them is a loop.
    let path: [String]
    /// Whether the track lies above the sequence's first: its titles are transparent there.
    let upper: Bool
    /// Notes of filters not applied so far (at most `mostFilterNotes` are said).
    var filterNotes = 0
    static let mostFilterNotes = 20

    init(reader: FCP7XMLReader, track: Element, context: FCP7XMLReader.Context, sound: Bool = false, path: [String] = [],
         upper: Bool = false) {
        self.reader = reader
        self.track = track
        self.context = context
        self.sound = sound
        self.path = path
        self.upper = upper
    }

    mutating func read() throws {
        let children = track.children
        let trackRate = try FCP7XMLReader.checkedRate(context, "track")
        var cursor = 0.0, head: Element?, number = 0, previous: String?
        for (index, raw) in children.enumerated() where ["clipitem", "generatoritem", "transitionitem"].contains(raw.name) {
            number += 1
            guard number <= EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) items") }
            let item = reader.deref(raw)
            let label = "\(item.name) \(number)" + (item.text("name").flatMap { $0.isEmpty ? nil : " '\($0)'" } ?? "")
            let next = children.indices.contains(index + 1) && children[index + 1].name == "transitionitem" ? reader.deref(children[index + 1]) : nil
            let timing = try recordRange(item, head: head, tail: next, label)
            if let previous, !sound, item.name != "transitionitem", timing.start < cursor - 1e-9 {
                throw EditTimelineError("\(label) starts at frame \(Int64((timing.start * trackRate).rounded())), before \(previous) ends "
                                        + "(frame \(Int64((cursor * trackRate).rounded()))): items on one track can't overlap")
            }
            if cursor < timing.start - 1e-9 {
                items.append(.gap(FCP7XMLReader.time(seconds: timing.start - cursor, rate: trackRate)))
            }
            previous = item.name == "transitionitem" ? nil : label
            if item.name == "transitionitem" {
                items.append(.transition(try transition(item, label)))
                head = item
            } else {
                try readItem(item, timing: timing, rate: trackRate, label)
            }
            cursor = timing.end
        }
    }

    /// A clip item or generator: disabled, a generator (silent on a sound track, a title transparent
    /// above the first track), a nested sequence or a clip.
    private mutating func readItem(_ item: Element, timing: (start: Double, end: Double, offset: Double), rate: Double,
                                   _ label: String) throws {
        let length = FCP7XMLReader.time(seconds: timing.end - timing.start, rate: rate)
        if item.text("enabled")?.uppercased() == "FALSE" {
            notes.append(sound ? "\(label): disabled, so silent" : EditReading.disabledNote(label))
            items.append(.gap(length))
        } else if sound, item.name == "generatoritem" || generator(item, label) != nil {
            notes.append("\(label): a generator on a sound track, silent")
            items.append(.gap(length))
        } else if upper, generator(item, label) != nil, isTitle(item) {
            notes.append("\(label): a title or graphic isn't drawn: it is transparent, the tracks below show through it")
            items.append(.gap(length))
        } else if let generated = generator(item, label) {
            notes.append(generated.note)
            items.append(.fill(EditFill(look: generated.look, duration: length)))
        } else if let sequence = item.child("sequence") {
            try readNested(item, sequence: sequence, duration: timing.end - timing.start, offset: timing.offset, label)
        } else {
            try readClip(item, recordStart: timing.start, duration: timing.end - timing.start, offset: timing.offset, label)
        }
    }

    /// Where the item sits on the record timeline (seconds), and how far past
    /// its `in` the picture starts when a transition before it sets its start.
    private func recordRange(_ item: Element, head: Element?, tail: Element?, _ label: String) throws -> (start: Double, end: Double, offset: Double) {
        let rate = try FCP7XMLReader.checkedRate(context, label)
        let startValue = try FCP7XMLReader.integer(item, "start", label), endValue = try FCP7XMLReader.integer(item, "end", label)
        var start = Double(startValue) / rate, end = Double(endValue) / rate, offset = 0.0
        if startValue == -1 {
            guard let head else { throw EditTimelineError("\(label): start -1 without a transition before it") }
            start = try cutPoint(head, label)
            let headRate = try FCP7XMLReader.checkedRate(context + [head], label)
            offset = start - Double(try FCP7XMLReader.integer(head, "start", label)) / headRate
        }
        if endValue == -1 {
            guard let tail else { throw EditTimelineError("\(label): end -1 without a transition after it") }
            end = try cutPoint(tail, label)
        }
        guard end >= start else { throw EditTimelineError("\(label): ends before it starts") }
        return (start, end, offset)
    }

    /// A transition's cut point: its end, its start, or (centre) the frame halfway, truncated.
    private func cutPoint(_ transition: Element, _ label: String) throws -> Double {
        let start = try FCP7XMLReader.integer(transition, "start", label), end = try FCP7XMLReader.integer(transition, "end", label)
        let rate = try FCP7XMLReader.checkedRate(context + [transition], label)
        switch transition.text("alignment") ?? "" {
        case "end", "end-black": return Double(end) / rate
        case "start", "start-black": return Double(start) / rate
        default: return Double((start + end) / 2) / rate
        }
    }

    private func transition(_ item: Element, _ label: String) throws -> EditTransition {
        let rate = try FCP7XMLReader.checkedRate(context, label)
        let cut = try cutPoint(item, label)
        let start = Double(try FCP7XMLReader.integer(item, "start", label)) / rate
        let end = Double(try FCP7XMLReader.integer(item, "end", label)) / rate
        guard start <= cut, cut <= end else { throw EditTimelineError("\(label): its cut point is outside it") }
        let name = item.text("effect/name").flatMap { $0.isEmpty ? nil : $0 }
        return EditTransition(kind: .dissolve, name: name, before: FCP7XMLReader.time(seconds: cut - start, rate: rate),
                              after: FCP7XMLReader.time(seconds: end - cut, rate: rate))
    }

    private mutating func readClip(_ item: Element, recordStart: Double, duration: Double, offset: Double, _ label: String) throws {
        let clipContext = context + [item]
        let effects = try self.effects(of: item, label)
        guard let file = item.child("file").map(reader.deref) else { throw EditTimelineError("\(label): no file") }
        let mediaStart = try file.child("timecode").map { try FCP7XMLReader.timecode($0, clipContext, label) } ?? 0
        let rate = try FCP7XMLReader.checkedRate(clipContext, label)
        let sourceStart = Double(try FCP7XMLReader.integer(item, "in", label)) / rate + mediaStart + offset
        let source = EditRange(start: FCP7XMLReader.time(seconds: sourceStart, rate: rate), duration: FCP7XMLReader.time(seconds: duration, rate: rate))
        guard abs(sourceStart) + duration <= EditReading.maxSeconds else { throw EditTimelineError("\(label): source range beyond \(Int(EditReading.maxSeconds)) s") }
        let fileContext = clipContext + [file]
        let fileRate = try FCP7XMLReader.checkedRate(fileContext, "\(label): file")
        let fileStart = try file.child("timecode").map { try FCP7XMLReader.timecode($0, fileContext, label) } ?? 0
        let available = try file.text("duration").map { _ in
            EditRange(start: FCP7XMLReader.time(seconds: fileStart, rate: fileRate),
                      duration: EditTime(value: Double(try FCP7XMLReader.integer(file, "duration", label)), rate: fileRate))
        }
        let media = EditMedia(location: file.text("pathurl").flatMap { $0.isEmpty ? nil : $0 },
                              clipName: file.text("name").flatMap { $0.isEmpty ? nil : $0 })
        items.append(.clip(EditClip(name: item.text("name").flatMap { $0.isEmpty ? nil : $0 }, media: media, source: source,
                                    available: available, speed: effects.speed, layout: effects.layout)))
        if sound {
            levels.append(try AudioLevel.xmeml(item.children("filter").map(reader.deref), label, notes: &notes))
            channels.append(try routedChannel(item, file: file, label))
        }
        for marker in try FCP7XMLReader.markers(item, clipContext) {
            clipMarkers.append((marker.name, recordStart + marker.seconds - sourceStart))
        }
    }

    /// A Time Remap filter's constant speed.
    static func timeRemap(_ filter: Element, _ label: String) throws -> PlaybackSpeed? {
        func parameter(_ id: String) -> String? {
            filter.child("effect")?.children("parameter").first { ($0.text("parameterid") ?? $0.text("name")) == id }?.text("value")
        }
        if parameter("reverse")?.uppercased() == "TRUE" { throw EditTimelineError("\(label): reverse speed (Time Remap) can't be rendered") }
        if let variable = parameter("variablespeed"), Double(variable) ?? 0 != 0 {
            throw EditTimelineError("\(label): variable speed (a Time Remap ramp) can't be rendered")
        }
        guard let text = parameter("speed") else { return nil }
        guard let percent = Double(text), percent.isFinite else { throw EditTimelineError("\(label): Time Remap speed '\(text)' isn't a number") }
        guard percent >= 0 else { throw EditTimelineError("\(label): reverse speed (Time Remap \(text) %) can't be rendered") }
        guard let speed = PlaybackSpeed(percent / 100) else {
            throw EditTimelineError("\(label): Time Remap speed \(text) % is beyond \(Int(PlaybackSpeed.fastest))x")
        }
        return speed.rate.numerator == speed.rate.denominator ? nil : speed
    }
}
