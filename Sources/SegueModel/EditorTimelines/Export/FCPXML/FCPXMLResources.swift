import Foundation
import SegueCore

/// A medium as the document names it: its `asset` id, its format, the clock
/// its source times count at (nil: unknown, the sequence's), where its time
/// starts (its start timecode), and what it holds.
struct FCPXMLAsset {
    let id: String
    let format: String?
    let clock: FCPXMLClock?
    let start: FCPXMLTime
    let hasVideo: Bool
    let hasAudio: Bool
    let still: Bool
    let dropFrame: Bool
}

/// The document's resources, each given an id (`r1`, `r2` …) when first
/// used: one `format` per rate and size, one `asset` per medium, one
/// `media` per nested sequence, the effects titles and transitions name.
struct FCPXMLResources {
    private var formats: [XMLNode] = []
    private var assets: [XMLNode] = []
    private var effects: [XMLNode] = []
    private var formatIDs: [String: String] = [:]
    private var assetsByLocation: [String: FCPXMLAsset] = [:]
    private var effectIDs: [String: String] = [:]
    private var next = 1

    /// Formats first, then assets and media, then effects, as Final Cut Pro lists them.
    var node: XMLNode { XMLNode("resources", children: formats + assets + effects) }

    mutating func newID() -> String {
        defer { next += 1 }
        return "r\(next)"
    }

    /// The format of pictures `width`x`height` at `clock` (nil: a still, which has no frame duration).
    mutating func format(_ clock: FCPXMLClock?, width: Int, height: Int) -> String {
        let key = "\(clock.map { "\($0.rate)" } ?? "still") \(width)x\(height)"
        if let id = formatIDs[key] { return id }
        let id = newID()
        var attributes = [("id", id)]
        if let clock {
            if let name = Self.formatName(clock.rate, width: width, height: height) { attributes.append(("name", name)) }
            attributes.append(("frameDuration", clock.frameDuration.text))
        } else {
            attributes.append(("name", "FFVideoFormatRateUndefined"))
        }
        attributes += [("width", "\(width)"), ("height", "\(height)")]
        formats.append(XMLNode("format", attributes))
        formatIDs[key] = id
        return id
    }

    /// Final Cut Pro's name for a standard format (`FFVideoFormat1080p2997`); nil for any other size or rate.
    static func formatName(_ rate: Rational, width: Int, height: Int) -> String? {
        let rates: [Rational: String] = [
            Rational(24000, 1001): "2398", Rational(24, 1): "24", Rational(25, 1): "25", Rational(30000, 1001): "2997",
            Rational(30, 1): "30", Rational(50, 1): "50", Rational(60000, 1001): "5994", Rational(60, 1): "60",
        ]
        let sizes = ["1920x1080": "1080p", "1280x720": "720p", "3840x2160": "3840x2160p", "4096x2160": "4096x2160p"]
        guard let code = rates[rate], let size = sizes["\(width)x\(height)"] else { return nil }
        return "FFVideoFormat" + size + code
    }

    /// The asset of `media` at `location`, made the first time it is named: its
    /// facts (rate, size, timecode, sound) when known, else a picture at
    /// `fallback`'s format (`picture`) or sound alone.
    mutating func asset(_ media: EditMedia, at location: String, picture: Bool, fallback: (clock: FCPXMLClock, format: String)) -> FCPXMLAsset {
        if let known = assetsByLocation[location] { return known }
        let id = newID()
        let made: FCPXMLAsset
        var attributes: [(String, String)] = [("id", id), ("name", Self.assetName(location, media: media))]
        if let facts = media.facts {
            made = factsAsset(id, facts, fallback: fallback.clock, attributes: &attributes)
        } else {
            made = FCPXMLAsset(id: id, format: picture ? fallback.format : nil, clock: picture ? fallback.clock : nil, start: .zero,
                               hasVideo: picture, hasAudio: true, still: false, dropFrame: false)
            attributes.append(("hasVideo", picture ? "1" : "0"))
            if let format = made.format { attributes.append(("format", format)) }
            attributes.append(("hasAudio", "1"))
        }
        let rep = XMLNode("media-rep", [("kind", "original-media"), ("src", EditTimeline.fileURL(location))])
        assets.append(XMLNode("asset", attributes, children: [rep]))
        assetsByLocation[location] = made
        return made
    }

    /// An asset's attributes from its medium's facts: its start timecode and
    /// length at its own rate (a still's `0s`, as Final Cut Pro has them), its format, its sound.
    private mutating func factsAsset(_ id: String, _ facts: EditMediaFacts, fallback: FCPXMLClock,
                                     attributes: inout [(String, String)]) -> FCPXMLAsset {
        let clock = facts.still ? nil : FCPXMLClock(rate: facts.rate.snappedToStandard) ?? fallback
        let format = format(clock, width: facts.width, height: facts.height)
        let start = clock.map { $0.time(facts.timecodeFrames) } ?? .zero
        let length = clock.map { $0.time(Int64((facts.seconds * $0.rate.value).rounded())) } ?? .zero
        attributes += [("start", start.text), ("duration", length.text), ("hasVideo", "1"), ("format", format)]
        let channels = facts.soundChannels ?? 0
        attributes.append(("hasAudio", channels > 0 ? "1" : "0"))
        attributes.append(("videoSources", "1"))
        if channels > 0 {
            attributes.append(("audioSources", "1"))
            attributes.append(("audioChannels", "\(channels)"))
            if let sampleRate = facts.sampleRate { attributes.append(("audioRate", "\(sampleRate)")) }
        }
        return FCPXMLAsset(id: id, format: format, clock: clock, start: start, hasVideo: true, hasAudio: channels > 0,
                           still: facts.still, dropFrame: facts.dropFrame)
    }

    /// The medium's name in the browser: its clip name, else its file's name without the extension.
    static func assetName(_ location: String, media: EditMedia) -> String {
        if let name = media.clipName, !name.isEmpty { return name }
        let file = ((location.removingPercentEncoding ?? location) as NSString).lastPathComponent
        let stem = (file as NSString).deletingPathExtension
        return stem.isEmpty ? file : stem
    }

    /// A nested sequence's `media` (its `sequence` made by the caller); its id.
    mutating func media(name: String?, sequence: XMLNode) -> String {
        let id = newID()
        var attributes = [("id", id)]
        if let name { attributes.append(("name", name)) }
        assets.append(XMLNode("media", attributes, children: [sequence]))
        return id
    }

    /// One of Final Cut Pro's built-in effects, by name and uid.
    mutating func effect(_ name: String, uid: String) -> String {
        if let id = effectIDs[uid] { return id }
        let id = newID()
        effects.append(XMLNode("effect", [("id", id), ("name", name), ("uid", uid)]))
        effectIDs[uid] = id
        return id
    }

    static let crossDissolve = (name: "Cross Dissolve", uid: "FxPlug:4731E73A-8DAC-4113-9A30-AE85B1761265")
    static let audioCrossfade = (name: "Audio Crossfade", uid: "FFAudioTransition")
    static let basicTitle = (name: "Basic Title", uid: ".../Titles.localized/Bumper:Opener.localized/Basic Title.localized/Basic Title.moti")
}
