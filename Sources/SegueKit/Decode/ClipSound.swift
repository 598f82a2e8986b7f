import Foundation
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
    /// What plays before the clip's own sound when it stands late (a copied
    /// clip moved onto the output's AAC grid): silence, or at a cut the
    /// sound of the clip before running on (`leadIn`).
    private var leading: [[Float]]
    /// The outgoing clip's sound still to crossfade into the first own samples after a cut (`leadIn`).
    private var fadingOut: [[Float]] = [[], []]
    /// The clip's time (in samples from its time 0) of the next own sample handed out.
    private var position: Int
    /// Where the packets fed so far end, in samples from time 0: past it the
    /// decoder gives only the encoder's padding.
    private var soundEnd = 0
    /// The last two stretches handed out (their arrays, not copies): what a
    /// sound that has ended is continued from.
    private var recent: [[[Float]]] = []
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
        leading = [[Float]](repeating: [Float](repeating: 0, count: max(0, shift)), count: 2)
        owed = max(0, -shift)
        position = max(0, -shift)
    }

    /// Samples of silence before the clip's own sound (its sound stands late), while none has been handed out.
    var delay: Int { leading[0].count }
    /// Samples the clip's sound stands late (negative: early) to meet its copied packets.
    var shift: Int { copy?.shift ?? 0 }

    /// Samples over which a cut between moved clips is crossfaded (2.7 ms at
    /// 48 kHz): the two sides no longer meet at the samples the plain stitch
    /// joins, and a jump between others could click where its doesn't.
    static let cutFade = 128

    /// At a cut: `samples` (the outgoing clip's sound running on) play
    /// instead of the silence before the clip's own sound, and their last
    /// `cutFade` crossfade into its first own samples.
    func leadIn(_ samples: [[Float]]) {
        precondition(samples.count == 2 && samples.allSatisfy { $0.count == delay + ClipSound.cutFade },
                     "a lead-in of another length")
        leading = samples.map { Array($0.prefix(delay)) }
        fadingOut = samples.map { Array($0.dropFirst(delay)) }
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

    /// Exactly `count` samples per channel, silence where the clip has none
    /// (and first what plays before its own sound, when it stands late).
    func next(_ count: Int) throws -> [[Float]] {
        // A copied clip moved early plays past its last picture; nothing else does.
        try take(count, continuingPastEnd: copy != nil)
    }

    private func take(_ count: Int, continuingPastEnd: Bool) throws -> [[Float]] {
        precondition(count >= 0, "a negative number of samples")
        let lead = min(count, leading[0].count)
        let start = position, padding = padded
        var samples = try own(count - lead)
        if continuingPastEnd, start + samples[0].count > pictureSamples {
            // Where the packets end decides what is real: read on until they pass these samples, or end.
            while soundEnd < start + samples[0].count, !isFed, !router.isVideoBacklogFull { try feed() }
            continuePastEnd(&samples, from: start, padded: padded - padding)
        }
        if !fadingOut[0].isEmpty { fadeIn(&samples) }
        if lead > 0 {
            for channel in samples.indices { samples[channel].insert(contentsOf: leading[channel].prefix(lead), at: 0) }
            leading = leading.map { Array($0.dropFirst(lead)) }
        }
        recent = Array((recent + [samples]).suffix(2))
        return samples
    }

    /// Crossfades what is left of `fadingOut` into the start of `samples`
    /// (equal power: the two sides are unrelated sounds).
    private func fadeIn(_ samples: inout [[Float]]) {
        let count = min(fadingOut[0].count, samples[0].count), done = ClipSound.cutFade - fadingOut[0].count
        for index in 0..<count {
            let angle = (Double(done + index) + 0.5) / Double(ClipSound.cutFade) * Double.pi / 2
            let incoming = Float(sin(angle)), outgoing = Float(cos(angle))
            for channel in samples.indices {
                samples[channel][index] = samples[channel][index] * incoming + fadingOut[channel][index] * outgoing
            }
        }
        fadingOut = fadingOut.map { Array($0.dropFirst(count)) }
    }

    /// Past its last picture a clip's sound plays only with `--smart` (moved
    /// early, or running on at a cut): where its sound has ended there (its
    /// packets' end, or `padded` samples made up at the end of `samples`, which
    /// start at clip time `start`), its last stretch is continued
    /// (`SoundContinuation`), not left a gap the plain stitch doesn't have.
    /// A sound that ended before the picture did stays silent, as there.
    private func continuePastEnd(_ samples: inout [[Float]], from start: Int, padded: Int) {
        let count = samples[0].count
        let real = max(0, max(pictureSamples, min(soundEnd, start + count - padded)) - start)
        guard real < count else { return }
        guard soundEnd >= pictureSamples else {
            for channel in samples.indices { samples[channel].replaceSubrange(real..., with: repeatElement(0, count: count - real)) }
            return
        }
        var history = recent.reduce(into: [[Float]](repeating: [], count: 2)) { joined, part in
            for channel in joined.indices { joined[channel] += part[channel] }
        }
        for channel in history.indices { history[channel] += samples[channel][..<real] }
        let continued = SoundContinuation.continuing(history, count: count - real)
        for channel in samples.indices { samples[channel].replaceSubrange(real..., with: continued[channel]) }
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
