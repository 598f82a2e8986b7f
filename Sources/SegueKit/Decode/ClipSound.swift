import SegueMedia

/// A clip's sound as the canvas wants it (48 kHz stereo float, in sync with
/// its pictures): exactly as many samples as asked for, silence where the clip
/// has none. Read through the shared sound reader, from the packets the
/// router hands the sound stream.
final class ClipSound {
    /// Nil for a clip that is not heard (no sound, a still, `--no-audio`).
    private let reader: SoundReader?
    private let router: PacketRouter
    private let damage: DamagePolicy
    private let sampleRate: Int
    private var samples = SampleQueue()
    /// Samples replaced by silence before they were decoded (see `next`).
    private var owed = 0
    /// No more packets go into the reader; it has given what it held.
    private var isFed: Bool
    /// Samples made up because the sound ended early (or was missing).
    private(set) var padded = 0
    /// With `--smart`: the packets copied as they are (they are decoded too:
    /// windows around them are encoded from their sound), and their time 0.
    private let copy: ClipSoundCopy?
    private let origin: Int64
    /// Copied packets met, waiting to be taken, with their output frames.
    private var copied: [(packet: Packet, slot: Int)] = []

    init(reader: SoundReader?, router: PacketRouter, damage: DamagePolicy, sampleRate: Int,
         copy: ClipSoundCopy? = nil, origin: Int64 = 0) {
        self.reader = reader
        self.router = router
        self.damage = damage
        self.sampleRate = sampleRate
        self.copy = reader == nil ? nil : copy
        self.origin = origin
        isFed = reader == nil
    }

    /// The copied packets met since the last call, in order, each with the output sound frame it stands as.
    func takeCopied() -> [(packet: Packet, slot: Int)] {
        defer { copied = [] }
        return copied
    }

    /// The sound graph: `async` + `first_pts=0` make silence where the sound
    /// starts late or has gaps, and trim it where it starts early, so it stays
    /// locked to the pictures; then the `--loudness` gain, if any.
    static func filters(sampleRate: Int, loudness: String?) -> String {
        "aresample=\(sampleRate):async=1:first_pts=0,aformat=sample_fmts=fltp:channel_layouts=stereo"
            + (loudness.map { ",\($0)" } ?? "")
    }

    /// The sound path of `clip`, when it is heard: its reader, and the stream
    /// the router hands it, timed from the same instant as the video's `videoOrigin`.
    static func reader(demuxer: Demuxer, video: StreamInfo, videoOrigin: Int64, clip: PlannedClip, canvas: Canvas,
                       settings: StitchSettings, strict: Bool) throws -> (reader: SoundReader, sound: PacketRouter.Sound)? {
        guard settings.includeAudio, !clip.info.isStill, let index = demuxer.bestStream(.audio),
              demuxer.streams[index].kind == .audio else { return nil }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index)
        decoder.failOnDamage = strict
        let stream = demuxer.streams[index]
        let origin = video.timeBase.rescale(videoOrigin, to: stream.timeBase)
        let filters = ClipSound.filters(sampleRate: canvas.sampleRate,
                                        loudness: LoudnessMeter.filters(for: clip, target: settings.loudness))
        // Sound past the clip's end is never heard: a block stamped hours later isn't filled up to.
        let end = clip.info.inPoint + clip.info.duration + 1
        let reader = SoundReader(decoder: decoder, filters: filters, clock: .stream(timeBase: stream.timeBase, origin: origin),
                                 audibleUntil: end)
        return (reader, PacketRouter.Sound(stream: stream, origin: origin))
    }

    /// Seconds of sound made up beyond what the clip had.
    var paddedSeconds: Double { Double(padded) / Double(sampleRate) }

    /// Damaged packets and blocks concealed so far.
    var concealed: Int { reader?.decoder.damage ?? 0 }

    /// Exactly `count` samples per channel, silence where the clip has none.
    func next(_ count: Int) throws -> [[Float]] {
        precondition(count >= 0, "a negative number of samples")
        // Bound how much video may be read ahead while looking for sound, so a
        // badly interleaved file (or sound starting late) can't fill memory.
        while samples.count < count + owed, !isFed, !router.isVideoBacklogFull {
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

    /// Sends one sound packet through the reader; at the end of the sound
    /// (or a damaged stretch ending it), flushes the decoder and the graph.
    private func feed() throws {
        guard let reader else { return }
        if let packet = try router.nextPacket(video: false) {
            if let copy, let pts = packet.pts, let slot = copy.slot(ofPTS: pts - origin) {
                copied.append((packet.clone(), slot))
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
