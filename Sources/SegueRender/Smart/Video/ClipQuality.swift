internal import SegueMedia
import SegueInput
import SegueModel

/// The quality a copied clip's neighbours are re-encoded at, read from its
/// first pictures in a pass of their own (only for clips that need it).
enum ClipQuality {
    /// Pictures decoded to read the quantisers from (a GOP's I, P and B pictures).
    private static let quantiserSample = 12

    /// The x264 CRF that re-encodes `clip`'s pictures at its own quality: a
    /// step finer than the mean quantiser of its first pictures. Nil when they
    /// can't be read (the chosen CRF is used).
    static func quantiserCRF(of clip: PlannedClip, access: InputAccess) -> Int? {
        var quantisers: [Double] = []
        do {
            try firstPictures(of: clip, count: quantiserSample, exportQuantisers: true, access: access) { picture in
                picture.meanQuantiser.map { quantisers.append($0) }
            }
        } catch {
            return nil
        }
        guard !quantisers.isEmpty else { return nil }
        let mean = quantisers.reduce(0, +) / Double(quantisers.count)
        return min(51, max(0, Int(mean.rounded()) - 1))
    }

    /// The x265 CRF for `clip`, whose decoder gives no quantisers (HEVC): the
    /// coarsest whose re-encode of its first pictures (an IDR, P and B
    /// pictures) stays at `targetPSNR` against them; four trials, bisecting,
    /// give it to within one step. Nil when they can't be read.
    static func measuredCRF(of clip: PlannedClip, canvas: Canvas, settings: StitchSettings, access: InputAccess) -> Int? {
        var pictures: [Frame] = []
        do {
            try firstPictures(of: clip, count: 6, exportQuantisers: false, access: access) { pictures.append($0.clone()) }
            guard !pictures.isEmpty else { return nil }
            var low = 12, high = 35 // the answer lies in low...high
            while high - low > 1 {
                let middle = (low + high + 1) / 2
                if try reencodedPSNR(pictures, crf: middle, canvas: canvas, preset: settings.preset) >= targetPSNR {
                    low = middle
                } else {
                    high = middle - 1
                }
            }
            return low
        } catch {
            return nil
        }
    }

    /// Decodes `clip`'s first `count` packets, giving each picture to `body`.
    private static func firstPictures(of clip: PlannedClip, count: Int, exportQuantisers: Bool, access: InputAccess,
                                      _ body: (Frame) -> Void) throws {
        let demuxer = try access.openDemuxer(clip.info.readPath)
        guard let index = demuxer.bestStream(.video) else { return }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1, exportQuantisers: exportQuantisers)
        let packet = Packet(), picture = Frame()
        func collect() throws { while try decoder.receive(into: picture) == .ready { body(picture) } }
        var sent = 0
        while sent < count, try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try decoder.send(packet)
            try collect()
            sent += 1
        }
        try decoder.sendEndOfStream()
        try collect()
    }

    /// Re-encoded pictures this close to the source's own decode look the same;
    /// the frames that close a GOP, further from its IDR, stay above 40 dB.
    static let targetPSNR = 45.0

    /// The worst luma PSNR of `pictures` (8-bit, or 10-bit for HDR) encoded by x265 at `crf` and decoded again.
    private static func reencodedPSNR(_ pictures: [Frame], crf: Int, canvas: Canvas, preset: String) throws -> Double {
        // The pictures as stored: a copied clip is the canvas turned into the track's orientation.
        let size = pictures.first.map { ($0.width, $0.height) } ?? (canvas.width, canvas.height)
        let encoder = try Encoder.video(codec: .hevc, width: size.0, height: size.1, frameRate: canvas.frameRate,
                                        crf: crf, preset: preset, colour: canvas.colour, metadata: canvas.hdrMetadata,
                                        codecParams: "info=0", threads: 1, globalHeader: true)
        let decoder = try Decoder(decoding: encoder)
        let packet = Packet(), decoded = Frame()
        var worst = Double.infinity
        func compareDecoded() throws {
            while try decoder.receive(into: decoded) == .ready {
                guard let pts = decoded.pts, pts >= 0, Int(pts) < pictures.count else { continue }
                worst = min(worst, decoded.lumaPSNR(against: pictures[Int(pts)]) ?? 0)
            }
        }
        func decodeWhatIsReady() throws {
            while try encoder.receive(into: packet) == .ready {
                try decoder.send(packet)
                packet.unref()
                try compareDecoded()
            }
        }
        for (index, picture) in pictures.enumerated() {
            picture.pts = Int64(index)
            try encoder.send(picture)
            try decodeWhatIsReady()
        }
        try encoder.sendEndOfStream()
        try decodeWhatIsReady()
        try decoder.sendEndOfStream()
        try compareDecoded()
        return worst
    }
}
