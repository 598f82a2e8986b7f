internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// Decides, for every clip, whether and which of its AAC packets are copied.
enum SoundCopyPlanner {
    static let frameSize = AACWindowEncoder.frameSize
    /// AAC frames re-encoded on each side of a seam (at least): room for what
    /// happens there (a clip's sound moved up to half a frame, the outgoing one
    /// running on into the incoming one's crossfade), and away from the source
    /// encoder's first frames (short-window ones: copying from a clip's second
    /// frame after a re-encoded long-window frame breaks the MDCT overlap).
    /// Every frame more is AAC encoding on the writer's thread, the `--smart`
    /// cut job's critical path.
    static let margin = 4

    /// Each clip's copy, or why its sound is not copied: its `reasons`
    /// (`disqualification`), or what its scanned packets say (nil: not read).
    /// `region` gives the output samples where a clip plays alone and
    /// unchanged (its own frames, minus held ones' ramps).
    static func plan(_ plan: Plan, reasons: [SoundNotCopied?], scanned: [Result<[Scanned], Error>?],
                     region: (PlannedClip) -> Range<Int>) -> [Result<ClipSoundCopy, SoundNotCopiedError>] {
        plan.clips.indices.map { index in
            let clip = plan.clips[index]
            if let reason = reasons[index] {
                return .failure(SoundNotCopiedError(reason: reason))
            }
            do {
                guard let packets = try scanned[index]?.get() else { return .failure(SoundNotCopiedError(reason: .notHeard)) }
                let exactStart = plan.sampleIndex(atFrame: clip.startFrame)
                guard let copy = choose(packets, exactStart: exactStart, region: region(clip)) else {
                    return .failure(SoundNotCopiedError(reason: .noRegularStretch))
                }
                return .success(copy)
            } catch let error as SoundNotCopiedError {
                return .failure(error)
            } catch {
                return .failure(SoundNotCopiedError(reason: .unreadablePackets(OutputFile.describe(error))))
            }
        }
    }

    /// Why a clip's sound can't be copied, from what the probe and the settings say.
    static func disqualification(_ clip: PlannedClip, plan: Plan, settings: StitchSettings) -> SoundNotCopied? {
        guard let audio = clip.info.facts.audio, !clip.info.facts.isStill else { return .notHeard }
        if plan.soundIsTimelines(clipIndex: clip.index) { return .timelineSound }
        if settings.music != nil { return .musicBed }
        if clip.info.use.speed != nil { return .speedChange }
        if audio.codec != "aac" { return .codec(audio.codec) }
        if audio.sampleRate != plan.canvas.sampleRate { return .sampleRate(audio.sampleRate, output: plan.canvas.sampleRate) }
        if audio.channels != plan.canvas.soundChannels { return .channels(audio.channels, output: plan.canvas.soundChannels) }
        if LoudnessMeter.filters(for: clip, target: settings.loudness) != nil { return .loudnessGain }
        if InputAccess.isRemote(clip.info.readPath) { return .remote }
        return nil
    }

    /// One packet of the sound stream: pts in samples from the clip's time 0.
    struct Scanned {
        var pts: Int64
        var duration: Int64
        var plain: Bool
    }

    /// A clip's sound packets as `--smart` reads them, one at a time, timed from its in point.
    struct Scan {
        /// The sound stream's index in the file.
        let streamIndex: Int
        private let origin: Int64
        private(set) var packets: [Scanned] = []

        /// Checks the sound stream's header; its packets then go to `take`.
        init(clip: PlannedClip, demuxer: Demuxer, canvas: Canvas) throws {
            guard let videoIndex = demuxer.bestStream(.video), let index = demuxer.bestStream(.audio),
                  demuxer.streams[index].kind == .audio else {
                throw SoundNotCopiedError(reason: .notHeard)
            }
            let stream = demuxer.streams[index]
            guard stream.timeBase.reduced == Rational(1, canvas.sampleRate) else {
                throw SoundNotCopiedError(reason: .timeBase(stream.timeBase))
            }
            guard isLowComplexityAAC(stream.extradata, sampleRate: canvas.sampleRate, channels: canvas.soundChannels) else {
                throw SoundNotCopiedError(reason: .notAACLC)
            }
            let video = demuxer.streams[videoIndex]
            streamIndex = index
            origin = video.timeBase.rescale(clip.info.origin(in: video), to: stream.timeBase)
        }

        /// Takes the sound stream's next packet, in file order.
        mutating func take(_ packet: Packet) {
            guard let pts = packet.pts else { return }
            packets.append(Scanned(pts: pts - origin, duration: packet.duration, plain: !packet.hasSideData))
        }
    }

    /// Whether an AudioSpecificConfig says AAC-LC at `sampleRate` with
    /// `channels` (1 or 2) in 1024-sample frames (object type 2, the rate's
    /// frequency index, channel configuration 1 or 2, no core coder, no
    /// extension), optionally followed by the explicit "no SBR" sync extension
    /// FFmpeg's encoder writes.
    static func isLowComplexityAAC(_ config: [UInt8], sampleRate: Int, channels: Int) -> Bool {
        guard let frequency = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000].firstIndex(of: sampleRate), (1...2).contains(channels)
        else { return false }
        let expected: [UInt8] = [UInt8(2 << 3 | frequency >> 1), UInt8((frequency & 1) << 7 | channels << 3)]
        guard config.count >= 2, Array(config[..<2]) == expected else { return false }
        return config.count == 2 || Array(config[2...]) == [0x56, 0xE5, 0x00]
    }

    /// The longest run of regular packets (1024 samples each, one after the
    /// other from the stream's first, no priming or trimming side data) lying
    /// `margin` frames inside `region`, placed on the output's grid. Nil when
    /// none is long enough.
    static func choose(_ packets: [Scanned], exactStart: Int, region: Range<Int>) -> ClipSoundCopy? {
        let size = Int64(frameSize)
        let low = Int64(region.lowerBound + margin * frameSize - exactStart)
        let high = Int64(region.upperBound - margin * frameSize - exactStart)
        // Only packets before the stream's first irregular step: the sound path
        // lays decoded sound end to end across a small gap (it fills or trims
        // only past 0.1 s), so after one the stitched sound no longer stands
        // where the packets' timestamps say.
        let regular = packets.indices.dropFirst().first { packets[$0].pts != packets[$0 - 1].pts + size } ?? packets.count
        var best: Range<Int>?
        var start: Int?
        for index in 0..<regular {
            let packet = packets[index]
            let fits = packet.plain && packet.duration == size && packet.pts >= low && packet.pts + size <= high
            let follows = start != nil && packet.pts == packets[index - 1].pts + size
            if fits && follows { continue }
            if let begun = start, begun < index, (best?.count ?? 0) < index - begun { best = begun..<index }
            start = fits ? index : nil
        }
        if let begun = start, (best?.count ?? 0) < regular - begun { best = begun..<regular }
        guard let best, best.count >= 4 else { return nil }
        let exact = exactStart + Int(packets[best.lowerBound].pts)
        let phase = ((exact % frameSize) + frameSize) % frameSize
        let shift = phase <= frameSize / 2 ? -phase : frameSize - phase
        return ClipSoundCopy(firstPTS: packets[best.lowerBound].pts, count: best.count,
                             firstSlot: (exact + shift) / frameSize, shift: shift)
    }
}
