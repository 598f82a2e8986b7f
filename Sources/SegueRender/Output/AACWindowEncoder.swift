internal import SegueMedia
import SegueInput
import SegueModel

/// Encodes stretches ("windows") of the output's AAC frames apart from the
/// rest, so they stand beside packets encoded elsewhere (another segment's,
/// or copied ones): one encoder, fed the output's sound on its 1024-sample
/// grid, keeps of each window only the packets whose decoded frames start in
/// its `keep` range and hands them on with that output sample.
///
/// A window is fed from `preRoll` frames before what it keeps, so the MDCT
/// overlap, window choices and rate control at its seam come from the same
/// sound as its neighbours', to `postRoll` frames after (a packet's MDCT
/// reaches one frame ahead, and the encoder holds one frame back). Windows
/// follow one another on the same encoder, its stream running on from one
/// window's post-roll into the next one's pre-roll (both dropped).
final class AACWindowEncoder {
    static let frameSize = OutputAudio.frameSize
    /// Frames fed past a window's kept packets.
    static let postRoll = 3

    /// A stretch of kept packets and the sound fed for it, in output samples.
    struct Window: Equatable {
        /// Packets kept: those whose decoded frame starts here (`Int.max`: to the end).
        let keep: Range<Int>
        /// The first output sample fed (on the grid, never before 0).
        let feedStart: Int
        /// Where feeding stops; nil: at the end of the sound, when the encoder is flushed.
        let feedEnd: Int?

        /// Keeps `keep`, fed from `preRoll` frames before it to `postRoll`
        /// frames after; a window kept to the end is fed to `soundEnd`.
        init(keeping keep: Range<Int>, preRoll: Int, soundEnd: Int?) {
            precondition(keep.lowerBound % AACWindowEncoder.frameSize == 0, "a window off the AAC frame grid")
            self.keep = keep
            feedStart = max(0, keep.lowerBound - preRoll * AACWindowEncoder.frameSize)
            feedEnd = keep.upperBound == .max ? soundEnd : keep.upperBound + AACWindowEncoder.postRoll * AACWindowEncoder.frameSize
        }

        /// The window at the sound's start also keeps the encoder's priming
        /// frame (decoded at -1024), so the track's edit list starts at sample 0
        /// as in a full encode.
        var keepsPriming: Bool { keep.lowerBound == 0 }

        /// Whether a packet whose decoded frame starts at output sample `start` is kept.
        func keeps(_ start: Int) -> Bool {
            (start >= keep.lowerBound || (keepsPriming && start == -AACWindowEncoder.frameSize)) && start < keep.upperBound
        }
    }

    private let encoder: Encoder
    private let sampleRate: Int
    private let packet = Packet()
    /// The encoder's pts for the next sample it is sent.
    private var clock = 0
    /// The window under way, and the encoder's pts of its first sample.
    private(set) var window: Window?
    private var origin = 0
    /// The next output sample the window is fed.
    private(set) var fed = 0
    /// Where the packets the window kept so far end (output samples).
    private(set) var keptEnd = 0

    init(encoder: Encoder, sampleRate: Int) {
        precondition(encoder.frameSize == AACWindowEncoder.frameSize, "AAC frames of \(encoder.frameSize) samples")
        self.encoder = encoder
        self.sampleRate = sampleRate
    }

    /// Starts `window`: its feed starts at `window.feedStart`, on from whatever the encoder was fed before.
    func start(_ window: Window) {
        self.window = window
        origin = clock
        fed = window.feedStart
        keptEnd = window.keep.lowerBound
    }

    /// Whether the window has been fed to its end (never, for one fed to the sound's end).
    var isFed: Bool { window?.feedEnd.map { fed >= $0 } ?? false }

    /// Encodes `count` samples (a frame at most) of `sound`, from index
    /// `offset`, as the window's next; each packet kept goes to `keep` with the
    /// output sample its decoded frame starts at.
    func encode(_ sound: [[Float]], from offset: Int, count: Int, keep: (Packet, Int) throws -> Void) throws {
        precondition(window != nil && count <= AACWindowEncoder.frameSize, "sound for no window, or more than a frame")
        let block = try Frame.audio(sampleCount: count, channels: encoder.channels, sampleRate: sampleRate)
        if encoder.channels == 1 {
            block.setSamples(from: MonoDownmix.samples(sound, from: offset, count: count), start: 0)
        } else {
            block.setSamples(from: sound, start: offset)
        }
        block.pts = Int64(clock)
        clock += count
        fed += count
        try encoder.send(block)
        try drain(keep)
    }

    /// Ends the encoder's stream; the window's last kept packets go to `keep`.
    func flush(keep: (Packet, Int) throws -> Void) throws {
        try encoder.sendEndOfStream()
        try drain(keep)
    }

    /// Hands on the packets the encoder has ready that the window keeps; drops
    /// the rest (the previous window's last post-roll frame comes out here too,
    /// before this window's origin: dropped).
    private func drain(_ keep: (Packet, Int) throws -> Void) throws {
        while try encoder.receive(into: packet) == .ready {
            guard let pts = packet.pts, let window else { continue }
            let start = Int(pts) - origin + window.feedStart
            guard window.keeps(start) else {
                packet.unref()
                continue
            }
            try keep(packet, start)
            keptEnd = start + AACWindowEncoder.frameSize
        }
    }
}
