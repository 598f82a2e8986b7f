import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// A feed cell's cover (`--cover`): `seconds` of the output at 360 px on the
/// short side, H.264, no sound, looping without a jump: its last `loopSeconds`
/// dissolve into the frames that lead into its first, so its end runs on into
/// its start. And a poster (`--poster`): a JPEG of the cover's first frame at
/// the output's size. Both are taken from the finished output's own
/// pictures, decoded again for those few seconds only, where the scout found
/// the most change (or `--cover-at` says), tone-mapped to SDR from an HDR
/// output, and written atomically.
struct CoverMaker {
    let settings: StitchSettings
    let canvas: Canvas

    static let seconds = 3.0
    static let loopSeconds = 0.5
    static let shortSide = 360

    /// Frames of the cover, and of the lead-in dissolved into its end.
    private var lengths: (cover: Int, lead: Int) {
        let rate = canvas.frameRate.value
        return (max(1, Int((Self.seconds * rate).rounded())), max(1, Int((Self.loopSeconds * rate).rounded())))
    }

    /// Where the output's pictures are read back from: the output file (frames numbered by their
    /// times), or an excerpt of an HLS rendition whose first picture is output frame `firstFrame`
    /// (frames numbered in order: its segments start on the keyframe grid).
    struct Source {
        var path: String
        var firstFrame: Int?
    }

    /// Makes them from the output's `total` frames, read back from `source(frames)`.
    func make(total: Int, scout: CoverScout, source: (Range<Int>) throws -> Source) throws -> StitchReport.Cover {
        var (length, lead) = lengths
        if length + lead > total { (length, lead) = (max(1, total - total / 4), total / 4) }
        let start: Int
        if let seconds = settings.coverAt {
            start = min(max(0, Int((seconds * canvas.frameRate.value).rounded()) - lead), max(0, total - length - lead))
        } else {
            start = scout.busiestStart(length: length + lead, total: total)
        }
        let frames = start..<min(total, start + length + lead)
        let read = try source(frames)
        let window = try inStandardRange(decode(read, frames: frames))
        guard window.count > lead else { throw SegueError(.writeFailed, subject: read.path, detail: "the cover's pictures can't be read back") }
        var made = StitchReport.Cover(path: settings.cover, poster: settings.poster, firstFrame: start + lead,
                                      frames: min(length, window.count - lead))
        if let poster = settings.poster {
            try OutputFile.writeAtomically(try window[lead].jpegData(), to: poster)
        }
        if let cover = settings.cover {
            try writeCover(window, length: made.frames, lead: lead, to: cover)
            made.bytes = FileSize.bytes(atPath: cover) ?? 0
        }
        return made
    }

    /// The output's pictures `frames` (by output frame number), at its own size.
    private func decode(_ source: Source, frames: Range<Int>) throws -> [Frame] {
        let demuxer = try InputAccess().openDemuxer(source.path)
        guard let index = demuxer.bestStream(.video) else {
            throw SegueError(.writeFailed, subject: source.path, detail: "no video to take a cover from")
        }
        let stream = demuxer.streams[index]
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 0)
        let origin = stream.startTime ?? 0
        if source.firstFrame == nil {
            try demuxer.seek(toSeconds: max(0, Double(frames.lowerBound) / canvas.frameRate.value - 1) + Double(origin) * stream.timeBase.value)
        }
        var pictures: [Frame] = []
        let packet = Packet(), picture = Frame()
        var shown = source.firstFrame ?? 0
        func take() throws -> Bool {
            while try decoder.receive(into: picture) == .ready {
                let number = source.firstFrame != nil ? shown : Int(stream.timeBase.rescale((picture.pts ?? 0) - origin, to: canvas.frameRate.inverted))
                shown += 1
                if frames.contains(number) { pictures.append(picture.clone()) }
                if number >= frames.upperBound - 1 { return true }
            }
            return false
        }
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try decoder.send(packet)
            if try take() { return pictures }
        }
        try decoder.sendEndOfStream()
        _ = try take()
        return pictures
    }

    /// An HDR output's pictures tone-mapped to SDR, as its SDR rungs are: a cover and a poster are 8-bit BT.709.
    private func inStandardRange(_ pictures: [Frame]) throws -> [Frame] {
        guard let table = ColourConversion.sdrTable(from: canvas.colour) else { return pictures }
        return try pictures.map { picture in
            let converted = try Frame.video(width: picture.width, height: picture.height)
            Frame.convert(picture, through: table, into: converted, threads: 2)
            return converted
        }
    }

    /// Encodes the loop: frame k is window frame lead + k, the last `lead` ones dissolving into the lead-in.
    private func writeCover(_ window: [Frame], length: Int, lead: Int, to path: String) throws {
        // 360 px on the short side, or the canvas's own when smaller.
        let scale = min(1, Double(Self.shortSide) / Double(min(canvas.width, canvas.height)))
        func even(_ side: Int) -> Int { max(2, Int((Double(side) * scale / 2).rounded()) * 2) }
        let (width, height) = (even(canvas.width), even(canvas.height))
        let graph = try FilterGraph(videoLike: window[0], timeBase: canvas.frameRate.inverted,
                                    description: "scale=\(width):\(height):flags=bicubic,format=yuv420p,setsar=1")
        var small: [Frame] = []
        for (index, picture) in window.enumerated() {
            let input = picture.clone()
            input.pts = Int64(index)
            try graph.push(input)
            let scaled = Frame()
            while try graph.pull(into: scaled) == .ready { small.append(scaled.clone()) }
        }
        try OutputFile.write(path, stop: StopRequest()) { temporary in
            var format = EncodingSink.Format(width: width, height: height, frameRate: canvas.frameRate, crf: settings.crf,
                                             preset: settings.preset)
            format.audio = nil
            let sink = try EncodingSink(path: temporary, format: format)
            for frame in 0..<min(length, small.count - lead) {
                var picture = small[frame + lead]
                let tail = frame - (length - lead)
                if tail >= 0, tail < lead {
                    let mixed = try Frame.video(width: width, height: height)
                    Frame.blend(small[frame + lead], small[tail], weight: 256 * (tail + 1) / (lead + 1), into: mixed)
                    picture = mixed
                }
                let encoded = picture.clone()
                encoded.pts = Int64(frame)
                encoded.forcesKeyframe = false
                try sink.encode(picture: encoded)
            }
            try sink.finish()
        }
    }
}
