internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// A video track of copied packets and re-encoded stretches. Each stretch
/// has an encoder of its own (it starts with an IDR and ends closed), all
/// with the same parameter sets, listed in `extradata` with the copied ones.
struct SmartVideo: Sendable, VideoTrackLayout {
    var extradata: [UInt8]
    /// x264 or x265 parameters every stretch's encoder takes (x264: its sps-id, stitchable).
    var encoderParams: String
    /// HEVC: the ids x265's parameter sets and slices take in the file.
    var renumbering: HEVCRenumbering?
    /// The MP4 sample entry, when not the encoder's (hev1).
    var sampleEntry: String?
    /// Decoding times run this many frames behind frame numbers.
    var reorderDelay: Int
    /// How the copied clips store their pictures, which the track's display matrix says.
    var orientation = DisplayOrientation.upright
    /// Whether the copied clips' samples, and so the track's, are full range.
    var fullRange = false
    /// The track counts time in ticks, this many to a frame: 1, or finer
    /// when a variable-rate clip's pictures are copied at their own times.
    var ticksPerFrame: Int64 = 1

    /// Ticks to a frame fine enough for pictures copied at their own times:
    /// whole frames of `frameRate`, at least 90 000 ticks a second.
    static func fineTicksPerFrame(_ frameRate: Rational) -> Int64 {
        let perFrameRateNumerator = (90_000 + frameRate.numerator - 1) / max(1, frameRate.numerator)
        return Int64(frameRate.denominator * max(1, perFrameRateNumerator))
    }

    func makeTrack(muxer: Muxer, codec: VideoCodecChoice, crf: Int, makeEncoder: @escaping (Int) throws -> Encoder) throws -> any VideoTrack {
        try SmartTrack(muxer: muxer, layout: self, codec: codec, crf: crf, makeEncoder: makeEncoder)
    }
}

/// `--smart`: copied packets with re-encoded stretches between them. Each
/// stretch has an encoder of its own (it starts with an IDR and ends closed),
/// all with the same parameter sets, listed in the track's header with the
/// copied ones.
final class SmartTrack: VideoTrack {
    private let muxer: Muxer
    private let layout: SmartVideo
    private let stream: Int
    /// Makes a stretch's encoder at a quality.
    private let makeEncoder: (Int) throws -> Encoder
    private let syntax: CopySyntax
    /// The parameter sets every stretch's encoder must make.
    private let stretchExtradata: [UInt8]
    /// The stretch under way, and its quality; nil between stretches.
    private var stretch: (encoder: Encoder, crf: Int)?
    private let defaultCRF: Int
    /// Video packets written, which numbers their decoding times.
    private var written: Int64 = 0
    /// The pts (in ticks) of packets written whose decoding times are still
    /// to be given out, smallest first (see `write`).
    private var pendingTimes: [Int64] = []
    private let packet = Packet()

    init(muxer: Muxer, layout: SmartVideo, codec: VideoCodecChoice, crf: Int,
         makeEncoder: @escaping (Int) throws -> Encoder) throws {
        self.muxer = muxer
        self.layout = layout
        self.makeEncoder = makeEncoder
        syntax = CopySyntax(codec)
        defaultCRF = SmartTrack.stretchCRF(crf)
        let trial = try makeEncoder(defaultCRF)
        let matrix = layout.orientation == .upright ? nil : layout.orientation.matrix(storedWidth: trial.width, storedHeight: trial.height)
        let ticks = layout.ticksPerFrame == 1 ? nil
            : Rational(trial.timeBase.numerator, trial.timeBase.denominator * Int(layout.ticksPerFrame)).reduced
        stream = try muxer.addStream(for: trial, extradata: layout.extradata, codecTag: layout.sampleEntry, displayMatrix: matrix,
                                     timeBase: ticks)
        stretchExtradata = trial.extradata
    }

    func encode(_ picture: Frame, crf: Int?) throws {
        let crf = SmartTrack.stretchCRF(crf ?? defaultCRF)
        if let stretch, stretch.crf != crf { try endStretch() }
        if stretch == nil {
            let encoder = try makeEncoder(crf)
            guard syntax.description(encoder.extradata)?.units == syntax.description(stretchExtradata)?.units else {
                throw SegueError(.writeFailed, detail: "a re-encoded stretch's parameter sets differ from the track's")
            }
            stretch = (encoder, crf)
        }
        try stretch!.encoder.send(picture)
        try drain(stretch!.encoder)
    }

    /// The quality a stretch (and the track's own parameter sets, which
    /// `SmartTrackHeader` lists in the header) is encoded at: `crf`, but never
    /// lossless: x264 at CRF 0 writes other parameter sets (High 4:4:4
    /// Predictive, transform bypass) than every other stretch's.
    static func stretchCRF(_ crf: Int) -> Int { max(1, crf) }

    /// The stretch being re-encoded, if any, is finished first.
    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws {
        try endStretch()
        packet.pts = time.ticks(layout.ticksPerFrame)
        packet.duration = (end ?? time.shifted(by: 1)).ticks(layout.ticksPerFrame) - packet.pts!
        try write(packet)
    }

    func finish() throws { try endStretch() }

    /// Finishes the stretch under way, so a copied GOP can follow.
    private func endStretch() throws {
        guard let encoder = stretch?.encoder else { return }
        try encoder.sendEndOfStream()
        try drain(encoder)
        stretch = nil
        // The next stretch's encoder allocates its buffers afresh: give these back
        // first, so the peak stays that of one encoder.
        ProcessPolicy.heapIsQuiet()
    }

    private func drain(_ encoder: Encoder) throws {
        while try encoder.receive(into: packet) == .ready {
            if packet.duration == 0 { packet.duration = 1 }
            packet.pts = packet.pts.map { $0 * layout.ticksPerFrame }
            packet.duration *= layout.ticksPerFrame
            try fitStretchPacket(packet)
            try write(packet)
        }
    }

    /// Makes a re-encoded stretch's packet what the track stores: the header
    /// is an avcC or hvcC record, so the muxer leaves start codes as they are;
    /// and x265's units take the ids the track gives them.
    private func fitStretchPacket(_ packet: Packet) throws {
        if let renumbering = layout.renumbering {
            try packet.convertAnnexBToLengthPrefixed { unit in
                guard let renumbered = renumbering.apply(unit) else {
                    throw SegueError(.writeFailed, detail: "an HEVC unit of a re-encoded stretch could not be renumbered")
                }
                return renumbered
            }
        } else {
            packet.convertAnnexBToLengthPrefixed()
        }
        // An hvc1 track promises every parameter set is in its header: x265's
        // copies before its keyframes (HDR's repeat-headers) are dropped; its SEI stays.
        if syntax == .hevc, layout.sampleEntry == nil {
            let syntax = syntax
            packet.removeNALUnits(lengthSize: 4) { syntax.isParameterSet(syntax.unitType(header: $0)) }
        }
    }

    /// Stretches and copied GOPs each reorder on their own, so decoding times
    /// are made afresh, strictly increasing: packet i decodes when the
    /// (i - `reorderDelay`)th picture shows (the first ones before 0, a frame
    /// apart). With reordering at most that deep, every picture up to that
    /// one has been written by then, so the time is known, and none shows
    /// before it decodes. On the frame grid that is i - `reorderDelay` frames.
    private func write(_ packet: Packet) throws {
        guard let pts = packet.pts else { throw SegueError(.writeFailed, detail: "video packet \(written) has no time") }
        let slot = pendingTimes.firstIndex { $0 > pts } ?? pendingTimes.count
        pendingTimes.insert(pts, at: slot)
        let delay = Int64(layout.reorderDelay)
        let dts = written < delay ? (written - delay) * layout.ticksPerFrame : pendingTimes.removeFirst()
        guard pts >= dts else {
            throw SegueError(.writeFailed, detail: "video packet \(written) would decode after it shows")
        }
        packet.dts = dts
        written += 1
        try muxer.write(packet, stream: stream)
    }
}
