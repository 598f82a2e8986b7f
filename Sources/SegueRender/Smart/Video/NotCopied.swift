internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Why a clip's encoded video (or part of it) is not copied by `--smart`:
/// a value to compare, whose `description` is what the report says.
enum NotCopied: Equatable, Sendable, CustomStringConvertible {
    case otherCodec(String, output: VideoCodecChoice)
    /// The output's codec is one `--smart` doesn't copy into (AV1, VP9).
    case outputNotCopied(VideoCodecChoice)
    case remote
    /// A caption is drawn over its pictures.
    case caption
    /// An editor's timeline places other clips over its pictures.
    case layers
    /// Its subtitles are drawn into its pictures (`--subtitles burn`).
    case burnedSubtitles
    /// A text card: its pictures are made, there is nothing to copy.
    case textCard
    /// An editor's speed change or freeze frame picks its pictures anew.
    case speedChange(String)
    /// `--overlay` draws over every picture.
    case overlay
    /// Its stored picture is not the size the track stores (the canvas, turned as the track stores it).
    case pictureSize(width: Int, height: Int, storedWidth: Int, storedHeight: Int, orientation: DisplayOrientation)
    /// Its display matrix turns or mirrors otherwise than the track's.
    case orientation(DisplayOrientation, track: DisplayOrientation)
    /// Its display matrix shears or scales: its picture is drawn turned.
    case displayMatrixNotATurn
    case pixelsNotSquare
    case scaled
    case frameRate(Rational, variable: Bool, canvas: Rational)
    case pixelFormat(String, fullRange: Bool, output: OutputColour, outputFullRange: Bool)
    /// Its samples have another depth than the output's (8-bit into 10-bit HDR, or back).
    case bitDepth(Int, output: OutputColour)
    case interlaced
    /// SDR output: its colours are not BT.709 SDR.
    case colours
    /// HDR output: its transfer (nil: unsaid) is not the output's.
    case transfer(String?, output: OutputColour)
    /// HDR output: its primaries or matrix (nil: unsaid) are not BT.2020's.
    case primaries(String?)
    case matrix(String?)
    /// HDR output: the HDR10 metadata its pictures carry is not what the output's re-encoded pictures carry.
    case hdrMetadata(HDRMetadata?, output: HDRMetadata?)
    /// HDR output: its pictures carry other kinds of HDR10 SEI than the output's re-encoded ones.
    case hdrSEI(carried: [HDRSEI], output: [HDRSEI])
    /// HDR output: its chroma samples sit elsewhere (a VUI chroma_sample_loc_type) than clip `clip`'s, which the re-encoded pictures follow.
    case chromaSite(Int?, clip: Int, clipSite: Int?)
    /// A Dolby Vision profile without a base layer the output can carry (profile 8 plays as its base layer).
    case dolbyVision(profile: Int)
    case noWholeGOP
    /// Only the GOPs a join, trim or held frame touches are re-encoded.
    case touchedGOPs
    /// Open GOPs: pictures shown before a CRA that a copy starts at, which refer to the GOP before it.
    case leadingPictures(Int)
    /// H.264 open GOPs: I pictures no copy starts at, since a picture left out after them is a reference (B-pyramid).
    case leadingReferenced(Int)
    /// A variable-rate clip's GOPs whose pictures' times go backwards, repeat or jump by more than a second.
    case irregularTimes(Int)
    case unreadablePackets(String)
    /// The samples carry start codes (an Annex B header), not lengths.
    case startCodes(hevc: Bool)
    case noLengthRecord(hevc: Bool)
    /// Its sample description is not 4:2:0 at the output's depth.
    case notOutputSamples(bitDepth: Int)
    case unreadableDescription
    case descriptionChangesToUncopyable
    case setsChangeMidway
    /// Its parameter set `set` differs from clip `clip`'s; `newIDs`: what it was renumbered to (nil: re-encoded).
    case setConflict(set: String, clip: Int, path: String, newIDs: String?)

    var description: String {
        switch self {
        case let .otherCodec(codec, output):
            let keep = codec == "hevc" ? " (--codec hevc would keep HEVC)" : codec == "h264" ? " (--codec h264 would keep H.264)" : ""
            return "its video is \(codec), the output is \(output.displayName)\(keep)"
        case let .outputNotCopied(output):
            return "--smart copies into H.264 and HEVC output; \(output.rawValue) output is encoded whole"
        case .overlay: return "the overlay (--overlay) is drawn over every picture"
        case .remote: return "a remote clip is not copied (its packets would be read twice)"
        case .caption: return "a caption is drawn over its pictures"
        case .layers: return "the timeline places clips over its pictures"
        case .burnedSubtitles: return "its subtitles are burned into its pictures (--subtitles burn)"
        case .textCard: return "it is a text card: its pictures are made, not read from a file"
        case let .speedChange(speed): return "it plays at \(speed == "freeze frame" ? "a freeze frame" : speed): its pictures are picked anew"
        case let .pictureSize(width, height, storedWidth, storedHeight, orientation):
            return "its picture is stored \(width)x\(height), the output's \(storedWidth)x\(storedHeight)"
                + (orientation == .upright ? "" : " (the canvas \(orientation))")
        case let .orientation(own, track):
            let mirror = own.mirrored && !track.mirrored ? " (a mirrored clip is copied only when every clip is mirrored alike)" : ""
            return "its picture is stored \(own), the output's \(track)\(mirror)"
        case .displayMatrixNotATurn:
            return "its display matrix scales or shears the picture, not only turns or mirrors it"
        case .pixelsNotSquare: return "its pixels are not square"
        case .scaled: return "it is scaled to fit the canvas"
        case let .frameRate(rate, variable, canvas):
            return "its frame rate (\(rate)\(variable ? ", variable" : "")) is not the canvas's \(canvas)"
        case let .pixelFormat(format, fullRange, output, outputFullRange):
            return "its pixel format is \(format)\(fullRange ? " full range" : ""), not \(output.bitDepth)-bit 4:2:0 "
                + (outputFullRange ? "full range" : "limited range")
        case let .bitDepth(depth, output):
            return "its pictures are \(depth)-bit, the output's \(output.bitDepth)-bit (\(output)): they are converted"
        case .interlaced: return "it is interlaced (it is deinterlaced)"
        case .colours: return "its colours are not SDR BT.709 (nor untagged HD): they are converted"
        case let .transfer(transfer, output):
            return "its transfer is \(NotCopied.named(transfer)), the output's \(output.transferName) (\(output)): it is converted"
        case let .primaries(primaries):
            return "its primaries are \(NotCopied.named(primaries)), not the HDR output's BT.2020: they are converted"
        case let .matrix(matrix):
            return "its matrix is \(NotCopied.named(matrix)), not the HDR output's bt2020nc: it is converted"
        case let .hdrMetadata(metadata, output):
            return "its HDR10 metadata (\(NotCopied.summary(metadata))) is not the output's (\(NotCopied.summary(output))): "
                + "a player would switch at its joins"
        case let .hdrSEI(carried, output):
            func list(_ kinds: [HDRSEI]) -> String { kinds.isEmpty ? "none" : kinds.map(\.description).joined(separator: " and ") }
            return "its pictures carry HDR10 SEI of \(list(carried)), the output's re-encoded ones \(list(output)): "
                + "a player would switch at its joins"
        case let .chromaSite(site, clip, clipSite):
            func name(_ type: Int?) -> String {
                type.map { ["left", "centre", "top left", "top", "bottom left", "bottom"][min(5, max(0, $0))] } ?? "unsaid"
            }
            return "its chroma sits \(name(site)), clip \(clip + 1)'s \(name(clipSite)), which the re-encoded pictures follow"
        case let .dolbyVision(profile):
            return "it is Dolby Vision profile \(profile), whose base layer the output can't carry (profile 8 can be copied)"
        case .noWholeGOP:
            return "no whole GOP (from a picture decoding can start at to the next) lies within the frames it shows unchanged"
        case .touchedGOPs:
            return "frames of GOPs that a transition, trim or held frame touches are re-encoded"
        case let .leadingPictures(count):
            return "\(count) leading pictures (shown before a keyframe a copy starts at, they refer to the GOP before it) are re-encoded"
        case let .leadingReferenced(count):
            return "\(count) open-GOP keyframes are no place to start a copy: a picture shown before one and left out of the copy "
                + "is a reference picture (B-pyramid)"
        case let .irregularTimes(count):
            return "\(count) GOPs whose pictures' times go backwards, repeat or jump by more than a second are re-encoded"
        case let .unreadablePackets(detail): return "can't read its packets (\(detail))"
        case let .startCodes(hevc):
            return "its \(hevc ? "HEVC has no hvcC" : "H.264 has no avcC") record: its packets carry start codes "
                + "(as in MPEG-TS), not the lengths an MP4 track needs"
        case let .noLengthRecord(hevc):
            return hevc ? "its HEVC has no hvcC record with 4-byte lengths" : "its H.264 has no avcC record with 4-byte lengths"
        case let .notOutputSamples(bitDepth): return "its sample description is not \(bitDepth)-bit 4:2:0 as the output's"
        case .unreadableDescription: return "its sample description can't be read"
        case .descriptionChangesToUncopyable: return "its sample description changes midway to one that can't be copied"
        case .setsChangeMidway: return "its stream changes parameter sets midway"
        case let .setConflict(set, clip, path, newIDs):
            let conflict = "its \(set) differs from clip \(clip + 1)'s (\(path)) and an MP4 track holds one set per id"
            return conflict + (newIDs.map { ": its sets and slices take new ids (\($0))" } ?? ": re-encoded")
        }
    }

    private static func named(_ tag: String?) -> String { tag ?? "unsaid" }

    /// HDR10 metadata in a few words: the mastering display's range and the light levels.
    private static func summary(_ metadata: HDRMetadata?) -> String {
        guard let metadata else { return "none" }
        func number(_ value: Double) -> String { String(format: "%g", value) }
        return "display \(number(metadata.minLuminance))-\(number(metadata.maxLuminance)) cd/m², white (\(metadata.whitePoint.map(number).joined(separator: ", "))), "
            + "MaxCLL \(metadata.maxCLL.map(String.init) ?? "unsaid"), MaxFALL \(metadata.maxFALL.map(String.init) ?? "unsaid")"
    }
}

/// The HEVC SEI messages that carry HDR10 static metadata, by payload type.
enum HDRSEI: Int, Comparable, Sendable, CustomStringConvertible {
    case masteringDisplay = 137
    case contentLightLevel = 144

    static func < (a: HDRSEI, b: HDRSEI) -> Bool { a.rawValue < b.rawValue }

    var description: String { self == .masteringDisplay ? "the mastering display" : "the content light level" }

    /// What x265 writes for `metadata` (`Encoder.video` passes both `master-display` and `max-cll`).
    static func written(for metadata: HDRMetadata?) -> Set<HDRSEI> { metadata == nil ? [] : [.masteringDisplay, .contentLightLevel] }

    /// The kinds a prefix SEI unit carries.
    static func carried(by unit: [UInt8]) -> Set<HDRSEI> { Set(HEVC.seiPayloadTypes(unit).compactMap(HDRSEI.init(rawValue:))) }
}
