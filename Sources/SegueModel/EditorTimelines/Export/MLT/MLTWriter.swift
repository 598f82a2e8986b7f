import Foundation
import SegueCore

extension EditTimeline {
    /// The timeline as MLT XML, as Shotcut writes a project (Kdenlive and
    /// `melt` open it too): a profile at the output's size and rate; one
    /// producer per medium; the picture track as a playlist whose dissolves
    /// are tractors over both clips' handles, as Shotcut nests them (a
    /// composite at Segue's weights, a sound mix); placed clips on tracks above (qtblend at their layout);
    /// titles as text on tracks above; a timeline's sound tracks and the
    /// music bed as audio tracks, all mixed. Every time is a frame of the profile.
    func mltExport() throws -> TimelineExport {
        var writer = MLTWriter(timeline: self)
        let root = try writer.document()
        return TimelineExport(data: root.document(), warnings: writer.warnings)
    }
}

/// Builds one MLT document: producers first (MLT resolves ids in order), then playlists, then the tractor.
struct MLTWriter {
    let timeline: EditTimeline
    var warnings: [String] = []
    /// The producers, chains and transition tractors, in the order written.
    var producers: [XMLNode] = []
    /// The id of each medium's producer, by its location and speed.
    private var producerIDs: [String: String] = [:]
    /// The playlists, bottom (the picture track) first, and whether each is sound only.
    var playlists: [(node: XMLNode, soundOnly: Bool)] = []

    init(timeline: EditTimeline) {
        self.timeline = timeline
    }

    var rate: Rational { timeline.rate }

    /// Frames at the profile's rate of `time`.
    func frames(_ time: EditTime) -> Int64 { time.frames(at: rate) }

    mutating func document() throws -> XMLNode {
        guard rate.isValid, rate.value > 0, rate.numerator <= Int(Int32.max), rate.denominator <= Int(Int32.max) else {
            throw EditTimelineError("MLT can't hold a frame rate of \(rate)")
        }
        let pictureTrack = timeline.videoTracks.first?.items ?? timeline.items
        try addPlaylist(pictureTrack, id: "playlist0", soundOnly: false)
        for (index, track) in timeline.videoTracks.dropFirst().enumerated() {
            try addPlaylist(track.items, id: "layer\(index)", soundOnly: false)
        }
        addTitles()
        for (index, track) in timeline.audioTracks.enumerated() { addSoundTrack(track, id: "sound\(index)") }
        if let music = timeline.music { addMusic(music) }
        if !timeline.markers.isEmpty {
            warnings.append("MLT export: \(timeline.markers.count) chapter marker(s) are not written (MLT XML has no markers melt reads)")
        }
        let length = playlists.first.map { Self.length(of: $0.node) } ?? 0
        return XMLNode("mlt", [("LC_NUMERIC", "C"), ("version", "7.12.0"), ("title", timeline.name ?? "Segue"), ("producer", "main")],
                       children: [profile()] + producers + playlists.map(\.node) + [tractor(length: length)])
    }

    private func profile() -> XMLNode {
        let width = timeline.format?.width ?? 1920, height = timeline.format?.height ?? 1080
        let aspect = Rational(width, height).reduced
        return XMLNode("profile", [
            ("description", "\(width)x\(height) \(Plan.decimal(rate.value)) fps"), ("width", "\(width)"), ("height", "\(height)"),
            ("progressive", "1"), ("sample_aspect_num", "1"), ("sample_aspect_den", "1"),
            ("display_aspect_num", "\(aspect.numerator)"), ("display_aspect_den", "\(aspect.denominator)"),
            ("frame_rate_num", "\(rate.numerator)"), ("frame_rate_den", "\(rate.denominator)"), ("colorspace", "709"),
        ])
    }

    /// The main tractor: every playlist a track; each upper picture track
    /// blended over the ones below, every track's sound mixed into the first.
    private func tractor(length: Int64) -> XMLNode {
        var children = [XMLNode("multitrack", children: playlists.map { playlist in
            let id = playlist.node.attributes.first { $0.0 == "id" }?.1 ?? ""
            return XMLNode("track", [("producer", id)] + (playlist.soundOnly ? [("hide", "video")] : []))
        })]
        for (index, playlist) in playlists.enumerated().dropFirst() {
            children.append(Self.transition("mix", a: 0, b: index, [("always_active", "1"), ("sum", "1")]))
            if !playlist.soundOnly { children.append(Self.transition("qtblend", a: 0, b: index, [("always_active", "1")])) }
        }
        return XMLNode("tractor", [("id", "main"), ("in", "0"), ("out", "\(max(length - 1, 0))")], children: children)
    }

    static func property(_ name: String, _ value: String) -> XMLNode {
        XMLNode("property", [("name", name)], text: value)
    }

    /// A transition of `service` mixing track `b` over track `a`, from frame 0 to `out` when given, else all along.
    static func transition(_ service: String, a: Int, b: Int, _ properties: [(String, String)], out: Int64? = nil) -> XMLNode {
        XMLNode("transition", out.map { [("in", "0"), ("out", "\($0)")] } ?? [], children: [property("a_track", "\(a)"), property("b_track", "\(b)"), property("mlt_service", service)]
                + properties.map { property($0.0, $0.1) })
    }

    /// The frames a playlist plays: its entries' and blanks' lengths.
    static func length(of playlist: XMLNode) -> Int64 {
        playlist.children.reduce(0) { sum, child in
            let attribute = { (name: String) in child.attributes.first { $0.0 == name }.flatMap { Int64($0.1) } }
            switch child.name {
            case "blank": return sum + (attribute("length") ?? 0)
            case "entry": return sum + (attribute("out") ?? -1) - (attribute("in") ?? 0) + 1
            default: return sum
            }
        }
    }

    /// The id of the producer of `media` at `speed` (made on first use).
    mutating func producer(for media: EditMedia, speed: PlaybackSpeed?, sound: Bool) throws -> String {
        guard let location = media.location else { throw EditTimelineError("MLT export: a clip has no media file") }
        let key = "\(location)|\(speed?.rate.value ?? 1)|\(sound)"
        if let id = producerIDs[key] { return id }
        let id = "producer\(producerIDs.count)"
        producerIDs[key] = id
        var properties: [(String, String)]
        if media.facts?.still == true {
            properties = [("resource", location), ("mlt_service", "qimage"), ("ttl", "1")]
        } else if let speed, !speed.isFreeze, speed.rate.value != 1 {
            properties = [("resource", "\(Plan.decimal(speed.rate.value)):\(location)"), ("mlt_service", "timewarp"),
                          ("warp_speed", Plan.decimal(speed.rate.value))]
        } else {
            // Not avformat-novalidate, as Shotcut writes: opened late, its first frame after a seek is the file's first.
            properties = [("resource", location), ("mlt_service", "avformat")]
        }
        if !sound { properties.append(("audio_index", "-1")) }
        properties.append(("shotcut:caption", media.clipName ?? (location as NSString).lastPathComponent))
        // Long enough for any entry: MLT refuses an out past the producer's length.
        let length = media.facts.map { Int64(($0.seconds * rate.value).rounded(.up)) + 1 } ?? 0
        let lengthProperty = media.facts?.still == true || length == 0 ? [("length", "\(Int64(Int32.max))")] : [("length", "\(length)")]
        producers.append(XMLNode("producer", [("id", id)], children: (lengthProperty + properties).map { Self.property($0.0, $0.1) }))
        return id
    }
}
