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
    /// windows around them are encoded from their sound), and the stream they
    /// come from, with its time 0.
    private let copy: ClipSoundCopy?
    private let stream: PacketRouter.Sound?
    /// Copied packets met, waiting to be taken, with their output frames.
    private var copied: [(packet: Packet, slot: Int)] = []
    /// The clip's time (in samples from its time 0) of the next own sample handed out.
    private var position: Int
    /// Where the packets fed so far end, in samples from time 0: past it the
    /// decoder gives only the encoder's padding.
    private var soundEnd = 0
    /// What plays before the clip's own sound when it stands late, and its
    /// sound continued past its last picture (`--smart`).
    private var edges: SoundEdges
    /// Samples from time 0 to the end of the clip's last picture.
    private let pictureSamples: Int

    /// `copy` moves the clip's sound by its `shift` (the copied packets decode
    /// to it there): that many samples late (silence before it), or early (its
    /// first samples dropped, and as many played past its last picture).
    init(reader: SoundReader?, router: PacketRouter, damage: DamagePolicy, sampleRate: Int, pictureSamples: Int,
         copy: ClipSoundCopy? = nil, stream: PacketRouter.Sound? = nil) {
        self.reader = reader
        self.router = router
        self.damage = damage
        self.sampleRate = sampleRate
        self.pictureSamples = pictureSamples
        self.copy = reader == nil ? nil : copy
        self.stream = stream
        isFed = reader == nil
        let shift = self.copy?.shift ?? 0
        edges = SoundEdges(delay: max(0, shift))
        owed = max(0, -shift)
        position = max(0, -shift)
    }

    /// Samples of silence before the clip's own sound (its sound stands late), while none has been handed out.
    var delay: Int { edges.delay }
    /// Samples the clip's sound stands late (negative: early) to meet its copied packets.
    var shift: Int { copy?.shift ?? 0 }

    /// At a cut: `samples` (the outgoing clip's sound running on) play
    /// instead of the silence before the clip's own sound, and their last
    /// `SoundEdges.cutFade` crossfade into its first own samples.
    func leadIn(_ samples: [[Float]]) {
        edges.leadIn(samples)
    }

    /// Exactly `count` samples of the clip's sound past what it has handed
    /// out: at a cut, where the next clip's sound starts late, the clip's own
    /// sound beyond its last picture (a phone's runs on a few tens of
    /// milliseconds), continued where it has ended.
    func runOn(_ count: Int) throws -> [[Float]] {
        try take(count, continuingPastEnd: true)
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
        "aresample=\(sampleRate):async=1:first_pts=0,aformat=sample_fmts=fltp:channel_layouts=\(OutputAudio.channelLayout)"
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

    /// Exactly `count` samples per channel, silence where the clip has none
    /// (and first what plays before its own sound, when it stands late).
    func next(_ count: Int) throws -> [[Float]] {
        // A copied clip moved early plays past its last picture; nothing else does.
        try take(count, continuingPastEnd: copy != nil)
    }

    private func take(_ count: Int, continuingPastEnd: Bool) throws -> [[Float]] {
        precondition(count >= 0, "a negative number of samples")
        let lead = min(count, edges.delay)
        let start = position, padding = padded
        var samples = try own(count - lead)
        if continuingPastEnd, start + samples[0].count > pictureSamples {
            // Where the packets end decides what is real: read on until they pass these samples, or end.
            while soundEnd < start + samples[0].count, !isFed, !router.isVideoBacklogFull { try feed() }
            continuePastEnd(&samples, from: start, padded: padded - padding)
        }
        return edges.around(samples, lead: lead)
    }

    /// Past its last picture a clip's sound plays only with `--smart` (moved
    /// early, or running on at a cut): where its sound has ended there (its
    /// packets' end, or `padded` samples made up at the end of `samples`, which
    /// start at clip time `start`), its last stretch is continued, not left
    /// a gap the plain stitch doesn't have. A sound that ended before the
    /// picture did stays silent, as there.
    private func continuePastEnd(_ samples: inout [[Float]], from start: Int, padded: Int) {
        let count = samples[0].count
        let real = max(0, max(pictureSamples, min(soundEnd, start + count - padded)) - start)
        guard real < count else { return }
        if soundEnd >= pictureSamples {
            edges.continuing(&samples, from: real)
        } else {
            for channel in samples.indices { samples[channel].replaceSubrange(real..., with: repeatElement(0, count: count - real)) }
        }
    }

    /// Exactly `count` samples of the clip's own sound, silence where it has none.
    private func own(_ count: Int) throws -> [[Float]] {
        position += count
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
            if let stream, let pts = packet.pts {
                if let copy, let slot = copy.slot(ofPTS: pts - stream.origin) { copied.append((packet.clone(), slot)) }
                let end = stream.stream.timeBase.rescale(pts + packet.duration - stream.origin, to: Rational(1, sampleRate))
                soundEnd = max(soundEnd, Int(end))
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
