import Foundation

/// Something the user should know about a stitch that goes on: a value to
/// compare, whose `description` is the line the user reads.
public enum Warning: Equatable, Sendable, CustomStringConvertible {
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
    /// The report could not be written; the output was.
    case reportNotWritten(path: String, detail: String, output: String)

    public var description: String {
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
        case let .reportNotWritten(path, detail, output):
            return "\(path): can't write the report (\(detail)); \(output) was written"
        }
    }
}
