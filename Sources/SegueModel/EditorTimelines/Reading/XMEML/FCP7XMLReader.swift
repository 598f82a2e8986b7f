import Foundation

extension EditTimeline {
    /// A Final Cut Pro 7 XML file (xmeml, as Premiere and Resolve export it),
    /// read as OTIO's fcp_xml adapter reads it: the first sequence's video
    /// tracks, V1 (bottom) first, each clipitem's record `start`/`end` (-1: at
    /// the neighbouring transition's cut point, which its `alignment` places),
    /// its source `in` plus its file's timecode; holes become gaps; a
    /// transitionitem is a dissolve split at its cut point; a clipitem holding
    /// a `<sequence>` is that sequence nested. The `<audio>` tracks are read
    /// by `XMLAudioReading`. The tracks are stacked (`EditReading.finished`).
    package static func parseFCP7XML(_ data: Data) throws -> EditTimeline {
        let root = try BoundedXMLReader.timelineRoot(data, root: "xmeml", format: "an FCP 7 XML file",
                                                     itemTags: ["clipitem", "transitionitem", "generatoritem"])
        return try FCP7XMLReader(root: root).timeline()
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
    /// The first element with each tag and id that has contents, in document
    /// order: a `<file id="file-1"/>` (or `<sequence id="sequence-2"/>`)
    /// names that one's contents, whether it comes before or after it.
    private let byID: [String: Element]
    /// Nested sequences read so far, each read once.
    let nested = XMLNestedSequences()

    init(root: Element) {
        self.root = root
        var found: [String: Element] = [:]
        var pending = [root]
        while let element = pending.popLast() {
            if let id = element.attributes["id"] {
                let key = element.name + "#" + id
                if found[key].map({ $0.children.isEmpty && !element.children.isEmpty }) ?? true { found[key] = element }
            }
            pending.append(contentsOf: element.children.reversed())
        }
        byID = found
    }

    func deref(_ element: Element) -> Element {
        guard let id = element.attributes["id"] else { return element }
        return byID[element.name + "#" + id] ?? element
    }

    func timeline() throws -> EditTimeline {
        let sequences = topSequences()
        guard let sequence = sequences.first else { throw EditTimelineError("no sequence") }
        let label = Self.label(sequence)
        let context = Context([sequence])
        guard let value = Self.rate(context) else { throw EditTimelineError("\(label): no rate") }
        guard let rate = EditReading.rational(value) else { throw EditTimelineError("\(label): rate \(EditReading.number(value)) is not a frame rate") }
        guard let media = sequence.child("media").map(deref), media.child("video") != nil else {
            throw EditTimelineError("\(label): no video")
        }
        let path = [sequence.attributes["id"] ?? ""]
        let video = try videoTracks(of: sequence, context: context, path: path)
        guard !video.tracks.isEmpty else { throw EditTimelineError("\(label): no video track") }
        var notes = sequences.count > 1 ? ["\(sequences.count - 1) more sequence(s) not used (only the first is rendered)"] : []
        notes += video.notes
        let audio = try media.child("audio").map {
            try XMLAudioReading(reader: self, audio: deref($0), context: Context([sequence, media]), rate: rate, path: path)
        }
        notes += audio?.notes ?? []
        var markers = try [sequence, media].flatMap { try Self.markers($0, context).map { ($0.name, $0.seconds) } }
        markers += video.clipMarkers
        let start = try sequence.child("timecode").map { try Self.timecode(deref($0), context, label) }
        var timeline = EditTimeline(name: sequence.text("name").flatMap { $0.isEmpty ? nil : $0 }, rate: rate,
                                    markers: markers.sorted { $0.1 < $1.1 }.map { EditMarker(name: $0.0, time: Self.time(seconds: $0.1, rate: rate.value)) },
                                    notes: notes, start: start.map { Self.time(seconds: $0, rate: rate.value) })
        timeline.videoTracks = video.tracks
        timeline.audioTracks = audio?.tracks ?? []
        let stacked = try EditReading.finished(timeline)
        guard !stacked.items.isEmpty else { throw EditTimelineError("\(label): its video tracks are empty") }
        return stacked
    }

    /// `sequence 'Name'`, or `sequence` when it has no name.
    static func label(_ sequence: Element) -> String {
        "sequence" + (sequence.text("name").flatMap { $0.isEmpty ? nil : " '\($0)'" } ?? "")
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
