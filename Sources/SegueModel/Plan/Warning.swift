import Foundation
import SegueCore

/// Something the user should know about a stitch that goes on: a value to
/// compare, whose `description` is the line the user reads.
package enum Warning: Equatable, Sendable, CustomStringConvertible {
    /// A transition longer than a clip next to it allows, shortened.
    case transitionShortened(join: Int, from: String, to: String, asked: Double, given: Double)
    /// A clip whose container's stated length and packets disagree, or whose clock jumps: planned by its packets.
    case lengthFromPackets(path: String, stated: Double?, measured: Double, jumps: Int)
    /// A clip whose pictures stopped before its planned length (damaged or truncated): its last picture was held.
    case videoEndedEarly(path: String, seconds: Double)
    case damageConcealed(path: String, packets: Int)
    /// A clip whose sound stopped before its picture: silence fills the rest.
    case audioEndedEarly(path: String, seconds: Double)
    /// An unusable input left out (`--skip-bad`).
    case skipped(BadInput)
    /// A clip whose only subtitles are pictures (DVD, DVB, PGS): they can't become text, and are left out.
    case bitmapSubtitles(path: String, codecs: [String])
    /// A clip's subtitles that could not be read, left out.
    case subtitlesLeftOut(path: String, source: String, detail: String)
    /// An HDR clip whose primaries contradict its transfer: read by its transfer (as BT.2020).
    case hdrTagsContradict(path: String, transfer: DynamicRange, primaries: String)
    /// An HDR clip deeper than 10 bits or not 4:2:0, brought to the output's 10-bit 4:2:0.
    case hdrPictureReduced(path: String, pixelFormat: String)
    /// A clip's HDR10 metadata that no display could have (a luminance of 0 or over 10,000 cd/m²): not passed on.
    case hdrMetadataIgnored(path: String, reason: String)
    /// A photo whose ICC profile can't be applied: its colours are taken as sRGB.
    case colourProfileIgnored(path: String, reason: String)
    /// The report could not be written; the output was.
    case reportNotWritten(path: String, detail: String, output: String)
    /// What an editor's timeline holds that isn't rendered, as its reader says it.
    case timelineNote(path: String, note: String)
    /// `--loudness` or `--music` needed a sound's loudness and it couldn't be measured.
    case loudnessNotMeasured(path: String, detail: String)
    /// An editor's timeline's clip asking for frames its media lacks: its edge pictures held in silence.
    case edgeFramesHeld(path: String, held: EditedClip)
    /// What the output's kind (an HLS ladder) doesn't carry of what was asked for.
    case outputNote(path: String, note: String)
    /// `--smart` asked for a WebM output, where nothing can be copied: every frame is encoded.
    case smartOffInWebM(output: String)

    package var description: String {
        switch self {
        case let .transitionShortened(join, from, to, asked, given):
            return "join \(join) (\(from) → \(to)): clip too short for a \(Plan.seconds(asked)) transition, shortened to "
                + Plan.seconds(given)
        case let .lengthFromPackets(path, stated, measured, jumps):
            var notes: [String] = []
            if let stated { notes.append("the container says it lasts \(Plan.seconds(stated)), its packets hold \(Plan.seconds(measured))") }
            if jumps > 0 { notes.append("its clock jumps \(jumps == 1 ? "once" : "\(jumps) times") (closed up)") }
            return "\(path): " + notes.joined(separator: "; ") + "; planned as \(Plan.seconds(measured))"
        case let .videoEndedEarly(path, seconds):
            return "\(path): video ended \(Plan.seconds(seconds)) early (damaged or truncated); its last frame was held"
        case let .damageConcealed(path, packets):
            return "\(path): \(packets) damaged packet\(packets == 1 ? "" : "s") concealed"
        case let .audioEndedEarly(path, seconds):
            return "\(path): audio ended \(Plan.seconds(seconds)) early; filled with silence"
        case let .skipped(input):
            return "skipping \(input.path): \(input.reason)"
        case let .bitmapSubtitles(path, codecs):
            return "\(path): its subtitles are bitmap pictures (\(codecs.joined(separator: ", "))), which can't become text "
                + "or be burned in; left out"
        case let .subtitlesLeftOut(path, source, detail):
            return "\(path): its subtitles (\(source)) can't be read (\(detail)); left out"
        case let .hdrTagsContradict(path, transfer, primaries):
            return "\(path): its \(transfer.rawValue) transfer contradicts its \(primaries) primaries; read as \(transfer.rawValue) on BT.2020"
        case let .hdrPictureReduced(path, pixelFormat):
            return "\(path): \(pixelFormat) HDR pictures brought to the output's 10-bit 4:2:0"
        case let .hdrMetadataIgnored(path, reason):
            return "\(path): its HDR10 metadata states \(reason); ignored"
        case let .colourProfileIgnored(path, reason):
            return "\(path): \(reason); ignored, its colours taken as sRGB"
        case let .reportNotWritten(path, detail, output):
            return "\(path): can't write the report (\(detail)); \(output) was written"
        case let .loudnessNotMeasured(path, detail):
            return "\(path): its sound's loudness can't be measured (\(detail)); it plays at its own level"
        case let .timelineNote(path, note), let .outputNote(path, note):
            return "\(path): \(note)"
        case let .smartOffInWebM(output):
            return "\(output): --smart is off: it copies H.264, HEVC and AAC, and WebM holds VP9 or AV1 with Opus; every frame is encoded"
        case let .edgeFramesHeld(path, held):
            func frames(_ count: Int64) -> String { count == 1 ? "1 frame" : "\(count) frames" }
            let sides = (held.heldBefore > 0 ? ["\(frames(held.heldBefore)) before its first frame (first frame held)"] : [])
                + (held.heldAfter > 0 ? ["\(frames(held.heldAfter)) after its last frame (last frame held)"] : [])
            return "clip '\(held.name)' (\(path)): the timeline needs \(sides.joined(separator: " and ")), "
                + "which the media lacks; silent while held"
        }
    }
}
