import SegueMedia

/// Why a clip's encoded video (or part of it) is not copied by `--smart`:
/// a value to compare, whose `description` is what the report says.
enum NotCopied: Equatable, Sendable, CustomStringConvertible {
    case otherCodec(String, output: VideoCodecChoice)
    case remote
    /// A caption is drawn over its pictures.
    case caption
    /// Its subtitles are drawn into its pictures (`--subtitles burn`).
    case burnedSubtitles
    /// A text card: its pictures are made, there is nothing to copy.
    case textCard
    /// `--overlay` draws over every picture.
    case overlay
    case pictureSize(width: Int, height: Int, rotation: Int, canvasWidth: Int, canvasHeight: Int)
    case pixelsNotSquare
    case scaled
    case frameRate(Rational, variable: Bool, canvas: Rational)
    case pixelFormat(String, fullRange: Bool)
    case interlaced
    case colours
    case noWholeGOP
    /// Only the GOPs a join, trim or held frame touches (or off the frame grid) are re-encoded.
    case touchedGOPs(variableRate: Bool)
    case unreadablePackets(String)
    /// The samples carry start codes (an Annex B header), not lengths.
    case startCodes(hevc: Bool)
    case noLengthRecord(hevc: Bool)
    case not420Of8Bits
    case unreadableDescription
    case descriptionChangesToUncopyable
    case setsChangeMidway
    /// Its parameter set `set` differs from clip `clip`'s; `newIDs`: what it was renumbered to (nil: re-encoded).
    case setConflict(set: String, clip: Int, path: String, newIDs: String?)

    var description: String {
        switch self {
        case let .otherCodec(codec, output):
            let keep = codec == "hevc" ? " (--codec hevc would keep HEVC)" : codec == "h264" ? " (--codec h264 would keep H.264)" : ""
            return "its video is \(codec), the output is \(output == .hevc ? "HEVC" : "H.264")\(keep)"
        case .overlay: return "the overlay (--overlay) is drawn over every picture"
        case .remote: return "a remote clip is not copied (its packets would be read twice)"
        case .caption: return "a caption is drawn over its pictures"
        case .burnedSubtitles: return "its subtitles are burned into its pictures (--subtitles burn)"
        case .textCard: return "it is a text card: its pictures are made, not read from a file"
        case let .pictureSize(width, height, rotation, canvasWidth, canvasHeight):
            return "its picture is \(width)x\(height)" + (rotation != 0 ? " turned \(rotation)°" : "")
                + ", the canvas \(canvasWidth)x\(canvasHeight)"
        case .pixelsNotSquare: return "its pixels are not square"
        case .scaled: return "it is scaled to fit the canvas"
        case let .frameRate(rate, variable, canvas):
            return "its frame rate (\(rate)\(variable ? ", variable" : "")) is not the canvas's \(canvas)"
        case let .pixelFormat(format, fullRange):
            return "its pixel format is \(format)\(fullRange ? " full range" : ""), not 8-bit 4:2:0 limited range"
        case .interlaced: return "it is interlaced (it is deinterlaced)"
        case .colours: return "its colours are not SDR BT.709 (nor untagged HD): they are converted"
        case .noWholeGOP:
            return "no whole GOP (from a picture decoding can start at to the next) lies within the frames it shows unchanged"
        case let .touchedGOPs(variableRate):
            return "frames of GOPs that a transition, trim or held frame touches"
                + (variableRate ? ", or whose frames are off the frame grid," : "") + " are re-encoded"
        case let .unreadablePackets(detail): return "can't read its packets (\(detail))"
        case let .startCodes(hevc):
            return "its \(hevc ? "HEVC has no hvcC" : "H.264 has no avcC") record: its packets carry start codes "
                + "(as in MPEG-TS), not the lengths an MP4 track needs"
        case let .noLengthRecord(hevc):
            return hevc ? "its HEVC has no hvcC record with 4-byte lengths" : "its H.264 has no avcC record with 4-byte lengths"
        case .not420Of8Bits: return "it is not 8-bit 4:2:0"
        case .unreadableDescription: return "its sample description can't be read"
        case .descriptionChangesToUncopyable: return "its sample description changes midway to one that can't be copied"
        case .setsChangeMidway: return "its stream changes parameter sets midway"
        case let .setConflict(set, clip, path, newIDs):
            let conflict = "its \(set) differs from clip \(clip + 1)'s (\(path)) and an MP4 track holds one set per id"
            return conflict + (newIDs.map { ": its sets and slices take new ids (\($0))" } ?? ": re-encoded")
        }
    }
}
