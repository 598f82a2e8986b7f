import Foundation
import SegueCore

/// The `<file>` elements of an xmeml document: one id per medium (by its
/// location), defined in full where it is first used, referenced by id after.
/// A medium's timecode is written so that both readers (Segue's and the
/// fcp_xml adapter, which add it to a clip item's `in`) find the clip's
/// frames where `EditClip.source` counts them.
struct XMEMLFiles {
    private struct Known {
        var id: String
        var media: EditMedia
        /// The last source frame any clip item uses, at the sequence rate (a still's file lasts at least that long).
        var reach: Int64
    }

    let sequence: XMEMLRate
    private var known: [String: Known] = [:]
    private var defined: Set<String> = []

    /// Every medium the tracks use, numbered in order of first use; a medium's facts are taken where any use has them.
    init(sequence: XMEMLRate, tracks: [XMEMLTrack]) {
        self.sequence = sequence
        for case .clip(let clip) in tracks.flatMap(\.entries) {
            guard let location = clip.media.location else { continue }
            let reach = clip.source + (clip.speed.map { $0.sourceFrames(for: clip.end - clip.start) } ?? clip.end - clip.start)
            if var found = known[location] {
                if found.media.facts == nil { found.media.facts = clip.media.facts }
                found.reach = max(found.reach, reach)
                known[location] = found
            } else {
                known[location] = Known(id: "file-\(known.count + 1)", media: clip.media, reach: reach)
            }
        }
    }

    /// The frame at the sequence rate a medium's source frames count from: its start
    /// timecode, counted as the rendered timeline counts it (frame for frame at the
    /// same nominal rate, else by seconds); 0 without facts.
    func origin(of media: EditMedia) -> Int64 {
        guard let facts = facts(of: media), facts.timecodeFrames != 0 else { return 0 }
        if Int(facts.rate.value.rounded()) == sequence.timebase { return facts.timecodeFrames }
        return Int64((Double(facts.timecodeFrames) / facts.rate.value * sequence.rational.value).rounded())
    }

    /// The medium's length in sequence frames, when its facts say.
    func frames(of media: EditMedia) -> Int64? {
        facts(of: media).map { Int64(($0.seconds * sequence.rational.value).rounded()) }
    }

    private func facts(of media: EditMedia) -> EditMediaFacts? {
        media.location.flatMap { known[$0]?.media.facts } ?? media.facts
    }

    /// The `<file>` a clip item holds: in full the first time, `<file id="…"/>` after.
    mutating func node(for media: EditMedia) -> XMLNode {
        guard let location = media.location, let file = known[location] else { return XMLNode("file") }
        guard defined.insert(file.id).inserted else { return XMLNode("file", [("id", file.id)]) }
        let name = (EditTimeline.decodedLocation(location) as NSString).lastPathComponent
        var children: [XMLNode] = [.leaf("name", name), .leaf("pathurl", EditTimeline.fileURL(location))]
        guard let facts = file.media.facts else {
            return XMLNode("file", [("id", file.id)], children: children + [XMLNode("media", children: [XMLNode("audio")])])
        }
        let rate = XMEMLRate(facts.rate) ?? sequence
        var length = Int64((facts.seconds * rate.rational.value).rounded())
        if facts.still { length = max(length, Int64((Double(file.reach) / sequence.rational.value * rate.rational.value).rounded(.up))) }
        children += [rate.node, .leaf("duration", String(length)), timecode(facts)]
        var media = [XMLNode("video", children: [XMLNode("samplecharacteristics", children: [
            rate.node, .leaf("width", String(facts.width)), .leaf("height", String(facts.height)), .leaf("anamorphic", "FALSE"),
            .leaf("pixelaspectratio", "square"), .leaf("fielddominance", "none"),
        ])])]
        if let channels = facts.soundChannels {
            media.append(XMLNode("audio", children: [
                XMLNode("samplecharacteristics", children: [.leaf("depth", "16"), .leaf("samplerate", String(facts.sampleRate ?? 48_000))]),
                .leaf("channelcount", String(channels)),
            ]))
        }
        return XMLNode("file", [("id", file.id)], children: children + [XMLNode("media", children: media)])
    }

    /// The medium's start timecode: at the sequence's rate when its frames
    /// count at the same nominal rate (as Segue counts timecode), else at its
    /// own rate when xmeml can say it, else converted to the sequence's.
    private func timecode(_ facts: EditMediaFacts) -> XMLNode {
        if Int(facts.rate.value.rounded()) == sequence.timebase {
            return sequence.timecode(facts.timecodeFrames, dropFrame: facts.dropFrame)
        }
        if let own = XMEMLRate(facts.rate) { return own.timecode(facts.timecodeFrames, dropFrame: facts.dropFrame) }
        let frames = Int64((Double(facts.timecodeFrames) / facts.rate.value * sequence.rational.value).rounded())
        return sequence.timecode(frames, dropFrame: facts.dropFrame)
    }
}

extension EditTimeline {
    /// A location as a file name reads: a URL's percent-escapes decoded, a path as it is.
    static func decodedLocation(_ location: String) -> String {
        location.contains("://") ? location.removingPercentEncoding ?? location : location
    }
}
