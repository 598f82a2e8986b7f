import Foundation
import SegueMedia
import SegueModel

// Photos and text cards as clips: how a still is recognised when probed, and
// what its ClipInfo says.

extension Prober {
    /// Whether a second picture follows the first one `decodesAPicture` found:
    /// an image file or a one-frame video has none, and is a still.
    static func decodesAnotherPicture(_ demuxer: Demuxer, _ decoder: Decoder) -> Bool {
        let packet = Packet()
        let frame = Frame()
        do {
            for _ in 0..<2_000 {
                if try decoder.receive(into: frame) == .ready { return true }
                guard try demuxer.read(into: packet) else { break }
                guard packet.streamIndex == decoder.streamIndex else { continue }
                try decoder.send(packet)
            }
            try decoder.sendEndOfStream()
            return try decoder.receive(into: frame) == .ready
        } catch {
            return true // damage after the first picture: a video, judged as one
        }
    }

    /// The facts of a still, lasting the default photo duration; its list entry or the settings may change it.
    static func stillInfo(path: String, readPath: String, demuxer: Demuxer, video: StreamInfo, picture: Frame) -> ClipInfo {
        // FFmpeg's JPEG decoder exports EXIF as picture metadata ("Orientation" = "    6").
        var orientation = picture.metadata("Orientation").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
        if !(1...8).contains(orientation) { orientation = 1 }
        if orientation == 1 { orientation = [90: 6, 180: 3, 270: 8][video.rotation] ?? 1 }
        var info = ClipInfo(
            path: path, container: demuxer.formatName, videoCodec: video.codecName,
            codedWidth: video.width, codedHeight: video.height, rotation: StillPicture.rotation(orientation: orientation),
            sampleAspectRatio: video.sampleAspectRatio, frameRate: Rational(30, 1), pixelFormat: video.pixelFormatName,
            duration: StitchSettings().stillDuration, audio: nil)
        info.readPath = readPath
        info.isStill = true
        info.orientation = orientation
        return info
    }

    /// A still lasts its entry's duration (ffconcat `duration`, manifest `"duration"`) or the default.
    static func still(_ info: ClipInfo, entry: ClipEntry, defaultDuration: Double) -> Result<ClipInfo, BadInput> {
        var info = info
        let duration = entry.duration ?? entry.outPoint.map { $0 - (entry.inPoint ?? 0) } ?? defaultDuration
        guard OptionLimits.stillSeconds.contains(duration) else {
            return .failure(BadInput(path: info.path, cause: .photoDuration))
        }
        info.duration = duration
        info.sourceDuration = duration
        info.inPoint = 0
        return .success(info)
    }

    /// A text card's facts: a still without a file (a 1920x1080 picture at
    /// 30 fps, made at the canvas's size when drawn), silent, named in messages
    /// as "text card 2 'Day one'".
    static func cardInfo(_ card: TextCard, entry: ClipEntry, number: Int?, defaultDuration: Double?) -> Result<ClipInfo, BadInput> {
        var info = ClipInfo(
            path: cardName(card, number: number), container: "text card", videoCodec: "text card", codedWidth: 1920,
            codedHeight: 1080, rotation: 0, sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p",
            duration: StitchSettings().stillDuration, audio: nil)
        info.isStill = true
        info.card = card
        info.title = entry.title
        info.caption = entry.caption
        return still(info, entry: entry, defaultDuration: defaultDuration ?? info.duration)
    }

    /// "text card 2 'Day one'": the text on one line, cut at 40 characters.
    static func cardName(_ card: TextCard, number: Int?) -> String {
        let line = card.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let shown = line.count > 40 ? line.prefix(39) + "…" : Substring(line)
        // A blank card is a timeline's gap.
        guard !line.isEmpty else { return "gap" + (number.map { " \($0)" } ?? "") }
        return "text card" + (number.map { " \($0)" } ?? "") + " '\(shown)'"
    }

    /// Why a local file is a photo this FFmpeg can't read, or nil, from its
    /// first bytes. FFmpeg 5.1 can't read HEIF containers (iPhone photos); it
    /// would only say "no video stream".
    static func unreadablePhoto(head: [UInt8]) -> BadInputReason? {
        guard head.count >= 12, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" else { return nil }
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        guard ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) else { return nil }
        return .unreadablePhoto("HEIC/HEIF photos can't be read by this FFmpeg (5.1); convert it to JPEG first "
            + "(e.g. heif-convert photo.heic photo.jpg, or set the phone's camera to \"Most Compatible\")")
    }
}
