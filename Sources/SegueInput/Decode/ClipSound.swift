package import SegueMedia
import SegueModel
import SegueCore

/// A clip's sound as the canvas wants it (48 kHz stereo float, in sync with
/// its pictures): exactly as many samples as asked for, silence where the clip
/// has none. Read through the shared sound reader, from the packets the
/// router hands the sound stream.
package final class ClipSound {
    /// Nil for a clip that is not heard (no sound, a still, `--no-audio`).
    private let reader: SoundReader?
    /// Nil for a text card (no file).
    private let router: PacketRouter?
    private let damage: DamagePolicy
    private let sampleRate: Int
    private var samples = SampleQueue()
    /// Samples replaced by silence before they were decoded (see `next`).
    private var owed = 0
    /// No more packets go into the reader; it has given what it held.
    private var isFed: Bool
    /// Samples made up because the sound ended early (or was missing).
    package private(set) var padded = 0
    /// The stream the packets come from, with its time 0.
    private let stream: PacketRouter.Sound?
    /// Picks the packets kept aside as they are fed (they are decoded too),
    /// by pts from the clip's time 0, each with the number it gives them; set
    /// before the first is fed.
    package var setAside: ((Int64) -> Int?)?
    /// Packets kept aside, waiting to be taken, with their numbers.
    private var keptAside: [(packet: Packet, number: Int)] = []
    /// The clip's time (in samples from its time 0) of the next own sample handed out.
    package private(set) var position = 0
    /// Where the packets fed so far end, in samples from time 0: past it the
    /// decoder gives only the encoder's padding.
    package private(set) var soundEnd = 0
    /// Samples from time 0 to the end of the clip's last picture.
    package let pictureSamples: Int

    /// Output samples per source sample: a speed change's 1/speed.
    private let stretch: Double

    /// `stream` is where the reader's packets come from (`reader(demuxer:…)`).
    init(reader: SoundReader?, router: PacketRouter?, damage: DamagePolicy, sampleRate: Int, pictureSamples: Int,
         stream: PacketRouter.Sound? = nil, speed: PlaybackSpeed? = nil) {
        stretch = speed.map { $0.isFreeze ? 1 : 1 / $0.rate.value } ?? 1
        self.reader = reader
        self.router = router
        self.damage = damage
        self.sampleRate = sampleRate
        self.pictureSamples = pictureSamples
        self.stream = stream
        isFed = reader == nil
    }

    /// Whether the clip is heard (it has a sound path).
    package var isHeard: Bool { reader != nil }

    /// Drops the clip's first `count` samples (its sound moved early): the
    /// first sample handed out is its sample `count`. Only before any is taken.
    package func skipStart(_ count: Int) {
        precondition(count >= 0 && position == 0 && owed == 0, "a skip after the sound has started")
        owed = count
        position = count
    }

    /// The packets kept aside since the last call, in order, with their numbers.
    package func takeSetAside() -> [(packet: Packet, number: Int)] {
        defer { keptAside = [] }
        return keptAside
    }

    /// The sound graph: `async` + `first_pts=0` make silence where the sound
    /// starts late or has gaps, and trim it where it starts early, so it stays
    /// locked to the pictures; then the `--loudness` gain, if any.
    /// A speed change plays it through `atempo` (pitch kept; one stage takes 0.5x to 100x).
    static func filters(sampleRate: Int, loudness: String?, speed: PlaybackSpeed? = nil) -> String {
        var tempo = ""
        if let speed = speed?.rate.value {
            tempo = speed < 0.5 ? ",atempo=\(speed.squareRoot()),atempo=\(speed.squareRoot())" : ",atempo=\(speed)"
        }
        return "aresample=\(sampleRate):async=1:first_pts=0" + tempo
            + ",aformat=sample_fmts=fltp:channel_layouts=\(OutputAudio.channelLayout)" + (loudness.map { ",\($0)" } ?? "")
    }

    /// The sound path of `clip`, when it is heard: its reader, and the stream
    /// the router hands it, timed from the same instant as the video's `videoOrigin`.
    static func reader(demuxer: Demuxer, video: StreamInfo, videoOrigin: Int64, clip: PlannedClip, canvas: Canvas,
                       settings: StitchSettings, strict: Bool) throws -> (reader: SoundReader, sound: PacketRouter.Sound)? {
        // A freeze frame, or a speed beyond what sounds right, is silent.
        guard settings.includeAudio, !clip.info.facts.isStill, clip.info.use.speed?.isAudible ?? true,
              let index = demuxer.bestStream(.audio),
              demuxer.streams[index].kind == .audio else { return nil }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index)
        decoder.failOnDamage = strict
        let stream = demuxer.streams[index]
        let origin = video.timeBase.rescale(videoOrigin, to: stream.timeBase)
        let filters = ClipSound.filters(sampleRate: canvas.sampleRate, loudness: LoudnessMeter.filters(for: clip, target: settings.loudness),
                                        speed: clip.info.use.speed)
        // Sound past the clip's end is never heard: a block stamped hours later isn't filled up to.
        let end = clip.info.use.inPoint + clip.info.sourceSeconds + 1
        let reader = SoundReader(decoder: decoder, filters: filters, clock: .stream(timeBase: stream.timeBase, origin: origin),
                                 audibleUntil: end)
        return (reader, PacketRouter.Sound(stream: stream, origin: origin))
    }

    /// Seconds of sound made up beyond what the clip had.
    var paddedSeconds: Double { Double(padded) / Double(sampleRate) }

    /// Damaged packets and blocks concealed so far.
    var concealed: Int { reader?.decoder.damage ?? 0 }

    /// Exactly `count` samples per channel of the clip's own sound, silence where it has none.
    package func next(_ count: Int) throws -> [[Float]] {
        precondition(count >= 0, "a negative number of samples")
        position += count
        // Bound how much video may be read ahead while looking for sound, so a
        // badly interleaved file (or sound starting late) can't fill memory.
        while samples.count < count + owed, !isFed, router?.isVideoBacklogFull == false {
            try feed()
        }
        // Sound that arrives after silence stood in for it is dropped, so it can't fall behind.
        let skipped = min(owed, samples.count)
        samples.drop(skipped)
        owed -= skipped
        let (chunk, available) = samples.take(count)
        if available < count {
            padded += count - available
            if !isFed { owed += count - available }
        }
        return chunk
    }

    /// Reads packets on (as far as the video's backlog allows) until they
    /// reach past clip sample `sample`, or end: where they end says what is real.
    package func readOn(past sample: Int) throws {
        while soundEnd < sample, !isFed, router?.isVideoBacklogFull == false { try feed() }
    }

    /// Sends one sound packet through the reader; at the end of the sound
    /// (or a damaged stretch ending it), flushes the decoder and the graph.
    private func feed() throws {
        guard let reader, let router else { return }
        if let packet = try router.nextPacket(video: false) {
            if let stream, let pts = packet.pts {
                if let number = setAside?(pts - stream.origin) { keptAside.append((packet.clone(), number)) }
                let end = stream.stream.timeBase.rescale(pts + packet.duration - stream.origin, to: Rational(1, sampleRate))
                soundEnd = max(soundEnd, stretch == 1 ? Int(end) : Int(Double(end) * stretch))
            }
            if try damage.survives({ try reader.decode(packet, into: append) }) { return }
        }
        isFed = true
        router.endSound()
        _ = try damage.survives { try reader.flush(into: append) }
        try reader.close(into: append)
    }

    private func append(_ block: Frame) {
        samples.append(block)
    }
}
