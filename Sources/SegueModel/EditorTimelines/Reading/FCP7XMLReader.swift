import Foundation

extension EditTimeline {
    /// A Final Cut Pro 7 XML file (xmeml, as Premiere and Resolve export it),
    /// read as OTIO's fcp_xml adapter reads it: the first sequence's first
    /// video track; a clipitem's record `start`/`end` (-1: at the neighbouring
    /// transition's cut point, which its `alignment` places), its source
    /// `in` plus its file's timecode; holes become gaps; a transitionitem is a
    /// dissolve split at its cut point. The `<audio>` tracks are read by
    /// `XMLAudioReading`; other video tracks become notes.
    package static func parseFCP7XML(_ data: Data) throws -> EditTimeline {
        try FCP7XMLReader.checkItemCount(data)
        var xml = BoundedXMLReader(data, maxDepth: EditReading.maxDepth)
        let root: ParsedXMLElement
        do {
            root = try xml.read()
        } catch let failure as BoundedXMLReader.Failure {
            throw EditTimelineError(failure.description)
        }
        guard root.name == "xmeml" else { throw EditTimelineError("not an FCP 7 XML file (its root is <\(root.name)>, not <xmeml>)") }
        let timeline = try FCP7XMLReader(root: root).timeline()
        try EditReading.checkBounds(timeline)
        return timeline
    }
}

/// Reads an xmeml tree. Values a child doesn't state it inherits from its
/// ancestors (a clipitem's `rate` from its track or sequence): a context is
/// the chain of elements from the sequence down.
struct FCP7XMLReader {
    typealias Element = ParsedXMLElement

    /// What an element inherits: the nearest `rate/timebase` and, separately,
    /// the nearest `rate/ntsc` from the sequence down (the adapter's lookup).
    struct Context {
        var timebase: String?
        var ntsc: String?

        init(_ elements: [Element] = []) { self = Context.none + elements }
        private init(timebase: String?, ntsc: String?) { (self.timebase, self.ntsc) = (timebase, ntsc) }
        private static let none = Context(timebase: nil, ntsc: nil)

        static func + (context: Context, elements: [Element]) -> Context {
            var result = context
            for element in elements {
                let rates = element.children("rate")
                if let timebase = rates.lazy.compactMap({ $0.text("timebase") }).first { result.timebase = timebase }
                if let ntsc = rates.lazy.compactMap({ $0.text("ntsc") }).first { result.ntsc = ntsc }
            }
            return result
        }
    }

    let root: Element
    /// The first element with each tag and id, in document order: a later
    /// `<file id="file-1"/>` names the first one's contents.
    private let byID: [String: Element]

    init(root: Element) {
        self.root = root
        var found: [String: Element] = [:]
        var pending = [root]
        while let element = pending.popLast() {
            if let id = element.attributes["id"], found[element.name + "#" + id] == nil { found[element.name + "#" + id] = element }
            pending.append(contentsOf: element.children.reversed())
        }
        byID = found
    }

    /// Refuses a file with more than `maxItems` track items before building its tree.
    static func checkItemCount(_ data: Data) throws {
        let tags = ["clipitem", "transitionitem", "generatoritem"].map { Array($0.utf8) }
        let count = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
            guard var cursor = bytes.baseAddress else { return 0 }
            let end = cursor + bytes.count
            var count = 0
            // memchr finds each '<'; memcmp asks whether an item's tag follows.
            while count <= EditReading.maxItems, let found = memchr(cursor, Int32(UInt8(ascii: "<")), end - cursor) {
                let next = UnsafeRawPointer(found) + 1
                if tags.contains(where: { tag in end - next >= tag.count && memcmp(next, tag, tag.count) == 0 }) { count += 1 }
                cursor = next
            }
            return count
        }
        guard count <= EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) items") }
    }

    func deref(_ element: Element) -> Element {
        guard let id = element.attributes["id"] else { return element }
        return byID[element.name + "#" + id] ?? element
    }

    func timeline() throws -> EditTimeline {
        let sequences = topSequences()
        guard let sequence = sequences.first else { throw EditTimelineError("no sequence") }
        let label = "sequence" + (sequence.text("name").flatMap { $0.isEmpty ? nil : " '\($0)'" } ?? "")
        let context = Context([sequence])
        guard let value = Self.rate(context) else { throw EditTimelineError("\(label): no rate") }
        guard let rate = EditReading.rational(value) else { throw EditTimelineError("\(label): rate \(EditReading.number(value)) is not a frame rate") }
        guard let media = sequence.child("media").map(deref), let video = media.child("video").map(deref) else {
            throw EditTimelineError("\(label): no video")
        }
        let tracks = video.children("track").map(deref)
        guard let track = tracks.first else { throw EditTimelineError("\(label): no video track") }
        var notes = sequences.count > 1 ? ["\(sequences.count - 1) more sequence(s) not used (only the first is rendered)"] : []
        notes += tracks.indices.dropFirst().map { "video track \($0 + 1) not used (only the first video track is rendered)" }
        let audio = try media.child("audio").map { try XMLAudioReading(reader: self, audio: deref($0), context: Context([sequence, media])) }
        notes += audio?.notes ?? []
        var reading = XMLTrackReading(reader: self, track: deref(track), context: Context([sequence, media, deref(track)]))
        try reading.read()
        guard !reading.items.isEmpty else { throw EditTimelineError("\(label): its first video track is empty") }
        var markers = try [sequence, media].flatMap { try Self.markers($0, context).map { ($0.name, $0.seconds) } }
        markers += reading.clipMarkers
        let start = try sequence.child("timecode").map { try Self.timecode(deref($0), context, label) }
        var timeline = EditTimeline(name: sequence.text("name").flatMap { $0.isEmpty ? nil : $0 }, rate: rate, items: reading.items,
                                    markers: markers.sorted { $0.1 < $1.1 }.map { EditMarker(name: $0.0, time: Self.time(seconds: $0.1, rate: rate.value)) },
                                    notes: notes + reading.notes, start: start.map { Self.time(seconds: $0, rate: rate.value) })
        timeline.audioTracks = audio?.tracks ?? []
        if deref(track).text("enabled")?.uppercased() == "FALSE" {
            timeline.drawnBlack("video track 1 is disabled, so black and silent (no track below it is rendered)")
        }
        return timeline
    }

    /// `xmeml/sequence`, then every `children/sequence` of a project or bin.
    private func topSequences() -> [Element] {
        var found = root.children("sequence")
        var pending = [root]
        while let element = pending.popLast() {
            if element.name == "children" { found += element.children("sequence") }
            pending.append(contentsOf: element.children.reversed())
        }
        return found.map(deref)
    }

    /// The frame rate in effect: the nearest `rate/timebase`, made NTSC
    /// (× 1000/1001) by the nearest `rate/ntsc` TRUE.
    static func rate(_ context: Context) -> Double? {
        guard let timebase = context.timebase.flatMap(Double.init) else { return nil }
        return context.ntsc?.lowercased() == "true" ? timebase * 1000 / 1001 : timebase
    }

    static func checkedRate(_ context: Context, _ label: String) throws -> Double {
        guard let rate = rate(context), rate.isFinite, rate > 0, rate < 1000 else { throw EditTimelineError("\(label): no usable rate") }
        return EditReading.snapped(rate)
    }

    /// A whole number from a child element (frames), also as a decimal
    /// (Hiero writes `<in>0.0</in>`); a count between two frames is refused.
    static func integer(_ element: Element, _ tag: String, _ label: String) throws -> Int64 {
        guard let text = element.text(tag)?.trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw EditTimelineError("\(label): no <\(tag)>")
        }
        if let value = Int64(text), abs(value) < 1 << 40 { return value }
        guard text.count <= 40, text.allSatisfy({ $0.isASCIIDigit || "+-.".contains($0) }), let value = Double(text),
              value.isFinite, abs(value) < Double(1 << 40) else {
            throw EditTimelineError("\(label): bad <\(tag)> '\(text.prefix(40))'")
        }
        guard value == value.rounded() else {
            throw EditTimelineError("\(label): <\(tag)> \(text) is not a whole frame (a count between frames can't be rendered)")
        }
        return Int64(value)
    }

    /// A timecode element in seconds: its `frame`, else its `string` counted at its rate.
    static func timecode(_ element: Element, _ context: Context, _ label: String) throws -> Double {
        let rate = try checkedRate(context + [element], "\(label): timecode")
        if element.text("frame") != nil { return Double(try integer(element, "frame", "\(label): timecode")) / rate }
        guard let string = element.text("string"), let rational = EditReading.rational(rate) else {
            throw EditTimelineError("\(label): timecode without frame or string")
        }
        let dropFrame = element.text("displayformat")?.uppercased() == "DF"
        guard let frames = Timecode(rate: rational, dropFrame: dropFrame).frames(string[...]) else {
            throw EditTimelineError("\(label): bad timecode \(string.prefix(40))")
        }
        return Double(frames) / rate
    }

    /// An element's markers: names and `in` in seconds at the context's rate.
    static func markers(_ element: Element, _ context: Context) throws -> [(name: String, seconds: Double)] {
        let list = element.children("marker")
        guard !list.isEmpty else { return [] }
        let rate = try checkedRate(context + [element], "marker")
        return try list.map { (($0.text("name") ?? ""), Double(try integer($0, "in", "marker")) / rate) }
    }

    /// Seconds as a time at `rate`, rounded to a millionth of a frame (the sums of rescaled times aren't exact).
    static func time(seconds: Double, rate: Double) -> EditTime {
        EditTime(value: (seconds * rate * 1_000_000).rounded() / 1_000_000, rate: rate)
    }
}

/// One walk along the rendered xmeml track, as the adapter's track reading goes:
/// a cursor at the last item's record end; a hole before the next item is a gap.
struct XMLTrackReading {
    typealias Element = ParsedXMLElement
    let reader: FCP7XMLReader
    let track: Element
    /// The track's, inherited from its sequence.
    let context: FCP7XMLReader.Context
    var items: [EditItem] = []
    var notes: [String] = []
    var clipMarkers: [(String, Double)] = []
    private var filtersIgnored: [String] = []
    /// A sound track's: its clip items are sound, each with its level (dB) in `levels`.
    let sound: Bool
    var levels: [Double] = []
    /// A sound track's: each clip item's channel and side, when it plays one channel of its file.
    var channels: [EditAudioChannel?] = []

    init(reader: FCP7XMLReader, track: Element, context: FCP7XMLReader.Context, sound: Bool = false) {
        self.reader = reader
        self.track = track
        self.context = context
        self.sound = sound
    }

    mutating func read() throws {
        let children = track.children
        let trackRate = try FCP7XMLReader.checkedRate(context, "track 1")
        var cursor = 0.0, head: Element?, number = 0
        for (index, raw) in children.enumerated() where ["clipitem", "generatoritem", "transitionitem"].contains(raw.name) {
            number += 1
            guard number <= EditReading.maxItems else { throw EditTimelineError("more than \(EditReading.maxItems) items") }
            let item = reader.deref(raw)
            let label = "\(item.name) \(number)" + (item.text("name").flatMap { $0.isEmpty ? nil : " '\($0)'" } ?? "")
            let next = children.indices.contains(index + 1) && children[index + 1].name == "transitionitem" ? reader.deref(children[index + 1]) : nil
            let timing = try recordRange(item, head: head, tail: next, label)
            if cursor < timing.start - 1e-9 {
                items.append(.gap(FCP7XMLReader.time(seconds: timing.start - cursor, rate: trackRate)))
            }
            switch item.name {
            case "transitionitem":
                items.append(.transition(try transition(item, label)))
                head = item
            default:
                let length = FCP7XMLReader.time(seconds: timing.end - timing.start, rate: trackRate)
                if item.text("enabled")?.uppercased() == "FALSE" {
                    notes.append("\(label): disabled, so " + (sound ? "silent" : "black and silent (no track below it is rendered)"))
                    items.append(.gap(length))
                } else if sound, item.name == "generatoritem" || generator(item, label) != nil {
                    notes.append("\(label): a generator on a sound track, silent")
                    items.append(.gap(length))
                } else if let generated = generator(item, label) {
                    notes.append(generated.note)
                    items.append(.fill(EditFill(look: generated.look, duration: length)))
                } else {
                    try readClip(item, recordStart: timing.start, duration: timing.end - timing.start, offset: timing.offset, label)
                }
            }
            cursor = timing.end
        }
        if !filtersIgnored.isEmpty { notes.append("filters not applied: \(filtersIgnored.joined(separator: ", "))") }
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
        if item.child("sequence") != nil { throw EditTimelineError("\(label): a nested sequence (flatten it first)") }
        let speed = try speedFromFilters(item, label)
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
                                    available: available, speed: speed)))
        if sound {
            levels.append(try AudioLevel.xmeml(item.children("filter").map(reader.deref), label, notes: &notes))
            channels.append(try routedChannel(item, file: file, label))
        }
        for marker in try FCP7XMLReader.markers(item, clipContext) {
            clipMarkers.append((marker.name, recordStart + marker.seconds - sourceStart))
        }
    }

    /// The clip's speed from a Time Remap filter (its `speed` parameter, in
    /// percent; 0 holds a frame), nil without one; reverse and variable speed
    /// (a ramp) are refused. Other filters (motion, opacity, levels) are noted, not applied.
    private mutating func speedFromFilters(_ item: Element, _ label: String) throws -> PlaybackSpeed? {
        var speed: PlaybackSpeed?
        for filter in item.children("filter").map(reader.deref) {
            let id = filter.text("effect/effectid") ?? "", name = filter.text("effect/name") ?? id
            guard id.lowercased() == "timeremap" || name.lowercased() == "time remap" else {
                if sound, AudioLevel.isLevels(id: id, name: name) { continue } // applied: `AudioLevel.xmeml`
                if !filtersIgnored.contains(name), filtersIgnored.count < 20 { filtersIgnored.append(name) }
                continue
            }
            if filter.text("enabled")?.uppercased() == "FALSE" { continue }
            speed = try Self.timeRemap(filter, label)
        }
        return speed
    }

    /// A Time Remap filter's constant speed.
    private static func timeRemap(_ filter: Element, _ label: String) throws -> PlaybackSpeed? {
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
