import Foundation
import SegueMedia

/// Why a clip's sound is not copied by `--smart`: a value to compare, whose
/// `description` is what the report says.
enum SoundNotCopied: Equatable, Sendable, CustomStringConvertible {
    case notHeard
    case codec(String)
    case notAACLC
    case sampleRate(Int, output: Int)
    case channels(Int)
    case loudnessGain
    case musicBed
    case remote
    case timeBase(Rational)
    case unreadablePackets(String)
    /// No stretch of whole, regular AAC frames lies far enough from its seams.
    case noRegularStretch

    var description: String {
        switch self {
        case .notHeard: return "it has no sound"
        case let .codec(codec): return "its sound is \(codec), not AAC"
        case .notAACLC: return "its sound is not AAC-LC with 1024-sample frames at the output's rate and layout"
        case let .sampleRate(rate, output): return "its sound is \(rate) Hz, the output's \(output) Hz"
        case let .channels(count): return "its sound has \(count) channel\(count == 1 ? "" : "s"), the output's 2"
        case .loudnessGain: return "--loudness changes its sound's level"
        case .musicBed: return "a music bed is mixed under it"
        case .remote: return "a remote clip's sound is not copied (its packets would be read twice)"
        case let .timeBase(timeBase): return "its sound's timestamps (\(timeBase)) don't count samples"
        case let .unreadablePackets(detail): return "can't read its sound packets (\(detail))"
        case .noRegularStretch:
            return "no stretch of whole AAC frames, on one grid from its first, lies far enough from its joins, trims and held frames"
        }
    }
}

/// Which of a clip's AAC packets `--smart` copies: one run of consecutive
/// packets, 1024 samples apart, each standing in one frame (slot) of the
/// output track's 1024-sample grid.
struct ClipSoundCopy: Sendable, Equatable {
    /// The pts of the first copied packet, in samples (the stream's time
    /// base) from the clip's time 0 (its in point).
    var firstPTS: Int64
    var count: Int
    /// The output track's AAC frame the first copied packet stands as.
    var firstSlot: Int
    /// Samples the clip's sound moves in the output (the copied frames sit on
    /// the output's grid, the clip's own generally doesn't line up with it):
    /// at most half a frame either way.
    var shift: Int

    var slots: Range<Int> { firstSlot..<(firstSlot + count) }

    /// The output frame a source packet stamped `pts` stands as, nil when it isn't copied.
    func slot(ofPTS pts: Int64) -> Int? {
        let offset = pts - firstPTS
        guard offset >= 0, offset % Int64(SoundCopyPlanner.frameSize) == 0 else { return nil }
        let index = Int(offset) / SoundCopyPlanner.frameSize
        return index < count ? firstSlot + index : nil
    }
}

/// Decides, for every clip, whether and which of its AAC packets are copied.
enum SoundCopyPlanner {
    static let frameSize = OutputAudio.frameSize
    /// AAC frames re-encoded on each side of a seam (at least): room for what
    /// happens there (a clip's sound moved up to half a frame, the outgoing one
    /// running on into the incoming one's crossfade), and away from the source
    /// encoder's first frames (short-window ones: copying from a clip's second
    /// frame after a re-encoded long-window frame breaks the MDCT overlap).
    /// Every frame more is AAC encoding on the writer's thread, the `--smart`
    /// cut job's critical path.
    static let margin = 4

    /// Each clip's copy, or why its sound is not copied. `region` gives the
    /// output samples where a clip plays alone and unchanged (its own frames,
    /// minus held ones' ramps).
    static func plan(_ plan: Plan, settings: StitchSettings, access: InputAccess,
                     region: (PlannedClip) -> Range<Int>) -> [Result<ClipSoundCopy, SoundNotCopiedError>] {
        let reasons = plan.clips.map { disqualification($0, plan: plan, settings: settings) }
        let regions = plan.clips.map(region)
        return concurrentMap(plan.clips.count) { index -> Result<ClipSoundCopy, SoundNotCopiedError> in
            let clip = plan.clips[index]
            if let reason = reasons[index] {
                return .failure(SoundNotCopiedError(reason: reason))
            }
            do {
                let packets = try scan(clip, canvasRate: plan.canvas.sampleRate, access: access)
                let exactStart = plan.sampleIndex(atFrame: clip.startFrame)
                if let copy = choose(packets, exactStart: exactStart, region: regions[index]) {
                    return .success(copy)
                } else {
                    return .failure(SoundNotCopiedError(reason: .noRegularStretch))
                }
            } catch let error as SoundNotCopiedError {
                return .failure(error)
            } catch {
                return .failure(SoundNotCopiedError(reason: .unreadablePackets(OutputFile.describe(error))))
            }
        }
    }

    /// Why a clip's sound can't be copied, from what the probe and the settings say.
    static func disqualification(_ clip: PlannedClip, plan: Plan, settings: StitchSettings) -> SoundNotCopied? {
        guard let audio = clip.info.audio, !clip.info.isStill else { return .notHeard }
        if settings.music != nil { return .musicBed }
        if audio.codec != "aac" { return .codec(audio.codec) }
        if audio.sampleRate != plan.canvas.sampleRate { return .sampleRate(audio.sampleRate, output: plan.canvas.sampleRate) }
        if audio.channels != 2 { return .channels(audio.channels) }
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

    /// The clip's sound packets, in order, timed from its in point.
    static func scan(_ clip: PlannedClip, canvasRate: Int, access: InputAccess) throws -> [Scanned] {
        let demuxer = try access.openDemuxer(clip.info.readPath)
        guard let videoIndex = demuxer.bestStream(.video), let index = demuxer.bestStream(.audio),
              demuxer.streams[index].kind == .audio else {
            throw SoundNotCopiedError(reason: .notHeard)
        }
        let stream = demuxer.streams[index]
        guard stream.timeBase.reduced == Rational(1, canvasRate) else { throw SoundNotCopiedError(reason: .timeBase(stream.timeBase)) }
        guard isLowComplexityAAC(stream.extradata) else { throw SoundNotCopiedError(reason: .notAACLC) }
        let video = demuxer.streams[videoIndex]
        let origin = video.timeBase.rescale(clip.info.origin(in: video), to: stream.timeBase)
        var packets: [Scanned] = []
        let packet = Packet()
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index, let pts = packet.pts else { continue }
            packets.append(Scanned(pts: pts - origin, duration: packet.duration, plain: !packet.hasSideData))
        }
        return packets
    }

    /// Whether an AudioSpecificConfig says AAC-LC, 48 kHz, stereo, 1024-sample
    /// frames (object type 2, frequency index 3, channel configuration 2, no
    /// core coder, no extension), optionally followed by the explicit "no SBR"
    /// sync extension FFmpeg's encoder writes.
    static func isLowComplexityAAC(_ config: [UInt8]) -> Bool {
        guard config.count >= 2, config[0] == 0x11, config[1] == 0x90 else { return false }
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

/// A clip whose sound is not copied, and why.
struct SoundNotCopiedError: Error, Sendable {
    var reason: SoundNotCopied
}
