internal import SegueMedia
import SegueInput
import SegueCore

/// The codecs a written file holds as RFC 6381 names them (`avc1.64001E`,
/// `vp09.00.21.08`, `opus`): what a web page's `<source type=...>` or
/// `MediaSource.isTypeSupported` is given. Read back from the file itself,
/// from its streams' configuration records, so they say what was written.
package struct CodecStrings: Sendable, Equatable {
    package var video: String?
    package var audio: String?

    /// The MIME type with its `codecs` parameter, e.g. `video/webm; codecs="vp09.00.21.08, opus"`.
    package func mimeType(_ container: OutputContainer) -> String {
        "video/\(container == .webm ? "webm" : "mp4"); codecs=\"\([video, audio].compactMap { $0 }.joined(separator: ", "))\""
    }

    /// The strings of the file at `path`; nil when it can't be read. A codec
    /// whose record is missing or unknown has no string.
    package static func read(_ path: String) -> CodecStrings? {
        guard let demuxer = try? InputAccess().openDemuxer(path) else { return nil }
        let video = demuxer.bestStream(.video).flatMap { videoString(demuxer.streams[$0]) }
        let audio = demuxer.bestStream(.audio).flatMap { index -> String? in
            switch demuxer.streams[index].codecName {
            case "aac": return "mp4a.40.2"
            case "opus": return "opus"
            default: return nil
            }
        }
        return CodecStrings(video: video, audio: audio)
    }

    static func videoString(_ stream: StreamInfo) -> String? {
        let record = stream.extradata
        switch stream.codecName {
        case "h264":
            // avcC: version 1, then profile, its compatibility flags and the level.
            guard record.count >= 4, record[0] == 1 else { return nil }
            return "avc1." + hex(record[1]) + hex(record[2]) + hex(record[3])
        case "hevc":
            return hevcString(record, sampleEntry: stream.codecTag.isEmpty ? "hvc1" : stream.codecTag)
        case "av1":
            // av1C: marker and version (0x81), seq_profile and seq_level_idx_0, then tier and depth flags.
            guard record.count >= 4, record[0] == 0x81 else { return nil }
            let depth = record[2] & 0x40 == 0 ? 8 : record[2] & 0x20 == 0 ? 10 : 12
            return "av01.\(record[1] >> 5).\(twoDigits(Int(record[1] & 0x1F)))\(record[2] & 0x80 == 0 ? "M" : "H").\(twoDigits(depth))"
        case "vp9":
            // 4:2:0 only here: Profile 0 at 8 bits, Profile 2 above.
            let depth = stream.colour.bitDepth
            let level = vp9Level(width: stream.width, height: stream.height, frameRate: stream.averageFrameRate.value)
            return "vp09.\(depth > 8 ? "02" : "00").\(twoDigits(level)).\(twoDigits(depth))"
        default:
            return nil
        }
    }

    /// hvcC's general profile, compatibility flags (written bit-reversed), tier,
    /// level and constraint bytes (trailing zero bytes left out), ISO/IEC 14496-15 annex E.
    static func hevcString(_ record: [UInt8], sampleEntry: String) -> String? {
        guard record.count >= 13, record[0] == 1 else { return nil }
        let space = ["", "A", "B", "C"][Int(record[1] >> 6)]
        let compatibility = record[2...5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var reversed: UInt32 = 0
        for bit in 0..<32 where compatibility & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        var constraints = Array(record[6...11])
        while constraints.last == 0 { constraints.removeLast() }
        return "\(sampleEntry).\(space)\(record[1] & 0x1F).\(String(reversed, radix: 16, uppercase: true))."
            + "\(record[1] & 0x20 == 0 ? "L" : "H")\(record[12])" + constraints.map { "." + hex($0) }.joined()
    }

    /// The lowest VP9 level (10 for 1, 11 for 1.1 ...) whose picture size and
    /// luma sample rate hold the stream's (the WebM project's level table).
    static func vp9Level(width: Int, height: Int, frameRate: Double) -> Int {
        let levels: [(level: Int, samplesPerSecond: Double, pictureSize: Int)] = [
            (10, 829_440, 36_864), (11, 2_764_800, 73_728), (20, 4_608_000, 122_880), (21, 9_216_000, 245_760),
            (30, 20_736_000, 552_960), (31, 36_864_000, 983_040), (40, 83_558_400, 2_228_224), (41, 160_432_128, 2_228_224),
            (50, 311_951_360, 8_912_896), (51, 588_251_136, 8_912_896), (52, 1_176_502_272, 8_912_896),
            (60, 1_176_502_272, 35_651_584), (61, 2_353_004_544, 35_651_584), (62, 4_706_009_088, 35_651_584),
        ]
        let size = width * height, rate = Double(size) * frameRate
        return levels.first { size <= $0.pictureSize && rate <= $0.samplesPerSecond }?.level ?? 62
    }

    private static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
