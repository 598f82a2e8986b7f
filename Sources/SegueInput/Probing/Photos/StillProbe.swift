import Foundation
package import SegueMedia
import SegueModel
import SegueCore

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
        let exif = picture.metadata("Orientation").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
        var info = ClipInfo(
            path: path, container: demuxer.formatName, videoCodec: video.codecName,
            codedWidth: video.width, codedHeight: video.height, orientation: ClipOrientation(exif: exif, streamRotation: video.rotation),
            sampleAspectRatio: video.sampleAspectRatio, frameRate: Rational(30, 1), pixelFormat: video.pixelFormatName,
            duration: StitchSettings().stillDuration, audio: nil)
        info.readPath = readPath
        info.facts.isStill = true
        info.unusedColourProfile = PhotoProfile.problem(of: picture)
        return info
    }

    /// A still lasts its entry's duration (ffconcat `duration`, manifest `"duration"`) or the default.
    static func still(_ info: ClipInfo, entry: ClipEntry, defaultDuration: Double) -> Result<ClipInfo, BadInput> {
        var info = info
        let duration = entry.duration ?? entry.outPoint.map { $0 - (entry.inPoint ?? 0) } ?? defaultDuration
        guard OptionLimits.stillSeconds.contains(duration) else {
            return .failure(BadInput(path: info.path, cause: .photoDuration))
        }
        info.use.duration = duration
        info.facts.timing.sourceDuration = duration
        info.use.inPoint = 0
        return .success(info)
    }

    /// A text card's facts: a still without a file (a 1920x1080 picture at
    /// 30 fps, made at the canvas's size when drawn), silent, named in messages
    /// as "text card 2 'Day one'".
    static func cardInfo(_ card: TextCard, entry: ClipEntry, number: Int?, defaultDuration: Double?) -> Result<ClipInfo, BadInput> {
        var info = ClipInfo(
            path: cardName(card, number: number), container: "text card", videoCodec: "text card", codedWidth: 1920,
            codedHeight: 1080, sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "yuv420p",
            duration: StitchSettings().stillDuration, audio: nil)
        info.facts.isStill = true
        info.use.card = card
        info.use.title = entry.title
        info.use.caption = entry.caption
        return still(info, entry: entry, defaultDuration: defaultDuration ?? info.use.duration)
    }

    /// "text card 2 'Day one'": the text on one line, cut at 40 characters.
    static func cardName(_ card: TextCard, number: Int?) -> String {
        let line = card.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let shown = line.count > 40 ? line.prefix(39) + "…" : Substring(line)
        // A blank card is a timeline's gap.
        guard !line.isEmpty else { return "gap" + (number.map { " \($0)" } ?? "") }
        return "text card" + (number.map { " \($0)" } ?? "") + " '\(shown)'"
    }

    /// The facts of a HEIC/HEIF photo, read by libheif (not libavformat):
    /// a still of its primary image as shown (its rotation and mirror
    /// applied by libheif, so it carries no orientation of its own).
    static func heifInfo(path: String, file: LocalFile, policy: InputPolicy) throws -> ClipInfo {
        let picture = try heifPicture(file, policy: policy)
        var info = ClipInfo(
            path: path, container: heifContainer, videoCodec: "heic", codedWidth: picture.width, codedHeight: picture.height,
            sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: picture.pixelFormat.name,
            duration: StitchSettings().stillDuration, audio: nil)
        info.readPath = path
        info.facts.isStill = true
        info.facts.colour = picture.colour
        info.unusedColourProfile = PhotoProfile.problem(of: picture)
        return info
    }

    /// `ClipInfo.container` of a HEIF photo: its picture comes from libheif, not a demuxer.
    package static let heifContainer = "heif"

    /// A HEIF file's primary picture, decoded within `policy`'s picture area;
    /// a file libheif or the bounds refuse is an unreadable photo, saying why.
    package static func heifPicture(_ file: LocalFile, policy: InputPolicy) throws -> Frame {
        do {
            return try HEIFFile(file: file).primary().decode(maxPictureArea: policy.maxPictureArea)
        } catch let large as PictureTooLarge {
            throw BadInputReason.pictureTooLarge(width: large.width, height: large.height, limit: policy.maxPictureArea)
        } catch let error as HEIFError {
            throw BadInputReason.unreadablePhoto("HEIC/HEIF photo can't be read: \(error) (a damaged or hostile file?)")
        }
    }

    /// Whether a picture libavformat reads as frames of a video is a photo of
    /// its first: a JPEG (`jpeg_pipe`), or an MJPEG read of a JPEG whose header
    /// says more pictures or a video follow it (Ultra HDR, MPO, Motion Photo).
    static func isPhotoOfFirstPicture(_ demuxer: Demuxer, multiPicture: MultiPictureJPEG?) -> Bool {
        demuxer.formatName == "jpeg_pipe" || (demuxer.formatName == "mjpeg" && multiPicture != nil)
    }
}
