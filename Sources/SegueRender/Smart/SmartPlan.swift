import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// What `--smart` does with each clip, and the output's one video sample
/// description: every parameter set of the copied clips plus the encoder's
/// own, under ids that don't collide.
package struct SmartPlan: Sendable {
    struct Clip: Sendable {
        /// Nil: the clip is re-encoded whole.
        var copy: ClipCopyPlan?
        /// Why the clip (or part of it) is not copied.
        var notCopied: [NotCopied] = []
        /// The same, as the report says it.
        var reason: String? { notCopied.isEmpty ? nil : notCopied.map(\.description).joined(separator: "; ") }
        /// The quality frames beside this clip are re-encoded at: a CRF from the
        /// source's own quantisers (H.264) or measured (HEVC).
        var crf: Int?
        var copiedFrames: Int { copy?.copiedFrames ?? 0 }
    }

    var clips: [Clip]
    /// Per clip: the AAC packets copied, or why its sound is not copied (empty without audio).
    var sound: [SoundChoice] = []

    struct SoundChoice: Sendable {
        var copy: ClipSoundCopy?
        var notCopied: SoundNotCopied?
    }

    /// The output's sound track these copies need, nil when no sound is copied.
    var soundTrack: SmartSound? {
        let runs = sound.compactMap(\.copy).map(\.slots)
        return runs.isEmpty ? nil : SmartSound(runs: runs, totalSamples: plan.sampleIndex(atFrame: plan.totalFrames))
    }

    /// The output's video track these copies need: what the sink is built with.
    let outputTrack: SmartVideo
    /// How the output's track stores its pictures: as the clips whose frames copy most do.
    var form: TrackForm { TrackForm(orientation: outputTrack.orientation, fullRange: outputTrack.fullRange) }

    /// How a track stores its pictures: turned as a display matrix says, in full or limited range.
    struct TrackForm: Hashable, Sendable {
        var orientation = DisplayOrientation.upright
        var fullRange = false
    }
    let plan: Plan
    /// The CRF the user chose, for frames of clips that are not copied (never
    /// lossless: see `SmartTrack.stretchCRF`).
    let chosenCRF: Int

    var copiedFrames: Int { clips.reduce(0) { $0 + $1.copiedFrames } }

    /// The CRF output frame `frame` is encoded at: the best quality among the
    /// copied clips on screen (or either side of held frames), so re-encoded
    /// GOPs match the copied ones; else the chosen CRF.
    func crf(atFrame frame: Int) -> Int {
        let near = plan.clips.filter { frame >= $0.startFrame - 1 && frame <= $0.startFrame + $0.frameCount }
        return near.compactMap { clips[$0.index].copy != nil ? clips[$0.index].crf : nil }.min() ?? chosenCRF
    }

    /// Reads every clip that could be copied and decides what is copied.
    /// `ownFrames` gives each clip's positions that play as its own (not in a transition).
    /// `copiesSound`: false where the sound is encoded apart (a segment's).
    init(plan: Plan, settings: StitchSettings, access: InputAccess, copiesSound: Bool = true, ownFrames: (PlannedClip) -> Range<Int>,
         heldEdges: (PlannedClip) -> (first: Bool, last: Bool)) throws {
        self.plan = plan
        chosenCRF = SmartTrack.stretchCRF(settings.crf)
        let form = SmartPlan.trackForm(plan, settings: settings)
        let videoReasons = plan.clips.map { SmartPlan.disqualification($0, canvas: plan.canvas, settings: settings, form: form) }
        let soundReasons = settings.includeAudio && copiesSound
            ? plan.clips.map { SoundCopyPlanner.disqualification($0, plan: plan, settings: settings) } : nil
        let reads = SmartPlan.read(plan, codec: settings.codec, videoReasons: videoReasons, soundReasons: soundReasons, access: access)
        var (clips, scans) = SmartPlan.copyPlans(plan, reasons: videoReasons, reads: reads, ownFrames: ownFrames, heldEdges: heldEdges)
        outputTrack = try SmartTrackHeader.make(scans: scans, clips: &clips, plan: plan, settings: settings, crf: chosenCRF,
                                                form: form)
        SmartPlan.measureQuality(of: &clips, scans: scans, plan: plan, settings: settings, access: access)
        self.clips = clips
        if let soundReasons {
            sound = SoundCopyPlanner.plan(plan, reasons: soundReasons, scanned: reads.map(\.sound)) { clip in
                // Where the clip plays alone and unchanged: its own frames, less a held frame's ramp.
                let own = ownFrames(clip), edges = heldEdges(clip)
                let first = own.lowerBound + (edges.first ? 1 : 0), last = max(first, own.upperBound - (edges.last ? 1 : 0))
                return plan.sampleIndex(atFrame: clip.startFrame + first)..<plan.sampleIndex(atFrame: clip.startFrame + last)
            }.map { result in
                switch result {
                case .success(let copy): return SoundChoice(copy: copy)
                case .failure(let error): return SoundChoice(copy: nil, notCopied: error.reason)
                }
            }
        }
    }

    /// Reads every clip once for what `--smart` needs of it: its video where
    /// nothing keeps it from being copied, its sound likewise (no
    /// `soundReasons`: not at all). Clips are read two (the cores) at once:
    /// the read is most of what --smart adds before the first frame is written.
    private static func read(_ plan: Plan, codec: VideoCodecChoice, videoReasons: [NotCopied?], soundReasons: [SoundNotCopied?]?,
                             access: InputAccess) -> [ClipRead] {
        let syntax = CopySyntax(codec)
        return concurrentMap(plan.clips.count) { index in
            let readsSound = soundReasons.map { $0[index] == nil } ?? false
            return ClipRead(clip: plan.clips[index], canvas: plan.canvas, videoSyntax: videoReasons[index] == nil ? syntax : nil,
                            readsSound: readsSound, access: access)
        }
    }

    /// Each clip's copy plan, or why it has none; and the scans of the clips that copy.
    private static func copyPlans(_ plan: Plan, reasons: [NotCopied?], reads: [ClipRead], ownFrames: (PlannedClip) -> Range<Int>,
                                  heldEdges: (PlannedClip) -> (first: Bool, last: Bool)) -> ([Clip], [ClipScan?]) {
        var clips: [Clip] = []
        var scans: [ClipScan?] = []
        for (clip, read) in zip(plan.clips, reads) {
            guard let result = read.video else {
                clips.append(Clip(copy: nil, notCopied: reasons[clip.index].map { [$0] } ?? []))
                scans.append(nil)
                continue
            }
            do {
                var scan = try result.get()
                let edges = heldEdges(clip)
                let copy = scan.copyPlan(ownFrames: ownFrames(clip), frameCount: clip.frameCount,
                                         keepFirst: edges.first, keepLast: edges.last)
                var reasons: [NotCopied] = []
                if copy.copiedFrames == 0 {
                    reasons = [.noWholeGOP]
                } else if copy.copiedFrames < clip.frameCount {
                    reasons = [.touchedGOPs]
                }
                if scan.irregularGOPs > 0 { reasons.append(.irregularTimes(scan.irregularGOPs)) }
                if copy.reencodedLeadingPictures > 0 { reasons.append(.leadingPictures(copy.reencodedLeadingPictures)) }
                if scan.referencedLeading > 0 && copy.copiedFrames < clip.frameCount {
                    reasons.append(.leadingReferenced(scan.referencedLeading))
                }
                clips.append(Clip(copy: copy.copiedFrames > 0 ? copy : nil, notCopied: reasons))
                scans.append(copy.copiedFrames > 0 ? scan : nil)
            } catch let unfit as ClipScan.Unfit {
                clips.append(Clip(copy: nil, notCopied: [unfit.reason]))
                scans.append(nil)
            } catch {
                clips.append(Clip(copy: nil, notCopied: [.unreadablePackets(OutputFile.describe(error))]))
                scans.append(nil)
            }
        }
        return (clips, scans)
    }

    /// The quality `crf(atFrame:)` asks of the copied clips beside re-encoded
    /// frames, read from their first pictures (two clips at once); a clip
    /// copied whole between copied clips needs none. HEVC clips with the same
    /// parameter sets (one device) are measured once.
    private static func measureQuality(of clips: inout [Clip], scans: [ClipScan?], plan: Plan, settings: StitchSettings,
                                       access: InputAccess) {
        let copiedFrames = SmartPlan.copiedOutputFrames(plan: plan, clips: clips)
        let needed = plan.clips.filter { clip in
            guard clips[clip.index].copy != nil else { return false }
            let near = max(0, clip.startFrame - 1)..<min(plan.totalFrames, clip.startFrame + clip.frameCount + 1)
            return near.contains { !copiedFrames[$0] }
        }
        // Clips measured on behalf of a group: for HEVC, one per device.
        let syntax = CopySyntax(settings.codec)
        var groups: [[Int]] = []
        var groupOfDevice: [[[UInt8]]: Int] = [:]
        for clip in needed {
            let device = scans[clip.index].map { $0.parameterSets.sorted { $0.key < $1.key }.map(\.value) } ?? []
            if syntax == .hevc, let group = groupOfDevice[device] {
                groups[group].append(clip.index)
            } else {
                groupOfDevice[device] = groups.count
                groups.append([clip.index])
            }
        }
        let measured = groups.map { plan.clips[$0[0]] }
        let qualities = concurrentMap(groups.count) { group in
            let clip = measured[group]
            return syntax == .hevc
                ? ClipQuality.measuredCRF(of: clip, canvas: plan.canvas, settings: settings, access: access)
                : ClipQuality.quantiserCRF(of: clip, access: access)
        }
        for (group, crf) in zip(groups, qualities) { for index in group { clips[index].crf = crf } }
    }

    /// Which output frames are copied packets rather than encoded pictures.
    private static func copiedOutputFrames(plan: Plan, clips: [Clip]) -> [Bool] {
        var copied = [Bool](repeating: false, count: plan.totalFrames)
        for clip in plan.clips {
            guard let copy = clips[clip.index].copy else { continue }
            for gop in copy.gops where gop.copied {
                for position in gop.frames where clip.startFrame + position < copied.count {
                    copied[clip.startFrame + position] = true
                }
            }
        }
        return copied
    }

    /// How the output's track stores its pictures: the orientation and range
    /// under which the most frames can copy (upright and limited on a tie, or
    /// when none can). A mirrored orientation only when every video clip is
    /// mirrored alike: a player that ignores the mirror then shows every clip
    /// alike. Full range (a phone's camera) for SDR output only.
    static func trackForm(_ plan: Plan, settings: StitchSettings) -> TrackForm {
        let videoClips = plan.clips.filter { !$0.info.facts.isStill && $0.info.use.card == nil }
        let turns = Set(videoClips.compactMap(\.info.facts.orientation.trackOrientation)).subtracting([.upright])
            .sorted { ($0.mirrored ? 1 : 0, $0.rotation) < ($1.mirrored ? 1 : 0, $1.rotation) }
            .filter { turn in videoClips.allSatisfy { $0.info.facts.orientation.trackOrientation == turn } || !turn.mirrored }
        let ranges = plan.canvas.colour == .sdr ? [false, true] : [false]
        var best = (form: TrackForm(), frames: 0)
        for orientation in [.upright] + turns {
            for fullRange in ranges {
                let form = TrackForm(orientation: orientation, fullRange: fullRange)
                let frames = plan.clips.filter { disqualification($0, canvas: plan.canvas, settings: settings, form: form) == nil }
                    .reduce(0) { $0 + $1.frameCount }
                if frames > best.frames { best = (form, frames) }
            }
        }
        return best.form
    }

    /// Why a clip's encoded video can't stand in the output unchanged, or nil
    /// if it can, in a track that stores its pictures in `form`.
    static func disqualification(_ clip: PlannedClip, canvas: Canvas, settings: StitchSettings, form: TrackForm) -> NotCopied? {
        let orientation = form.orientation
        let info = clip.info
        guard settings.codec == .h264 || settings.codec == .hevc else { return .outputNotCopied(settings.codec) }
        if info.use.card != nil { return .textCard }
        if let speed = info.use.speed { return .speedChange(speed.description) }
        if info.use.caption != nil { return .caption }
        if !info.use.layers.isEmpty { return .layers }
        if settings.subtitles == .burn, info.subtitles?.cues.isEmpty == false { return .burnedSubtitles }
        let syntax = CopySyntax(settings.codec)
        if settings.overlay != nil { return .overlay }
        if info.facts.videoCodec != syntax.codecName {
            return .otherCodec(info.facts.videoCodec, output: settings.codec)
        }
        if InputAccess.isRemote(info.readPath) { return .remote }
        guard let own = info.facts.orientation.trackOrientation else { return .displayMatrixNotATurn }
        if own != orientation { return .orientation(own, track: orientation) }
        let stored = orientation.storedSize(width: canvas.width, height: canvas.height)
        if info.facts.codedWidth != stored.width || info.facts.codedHeight != stored.height {
            return .pictureSize(width: info.facts.codedWidth, height: info.facts.codedHeight, storedWidth: stored.width,
                                storedHeight: stored.height, orientation: orientation)
        }
        if info.facts.sampleAspectRatio.reduced != Rational(1, 1) { return .pixelsNotSquare }
        if clip.placement != Placement(scaledWidth: canvas.width, scaledHeight: canvas.height, x: 0, y: 0) {
            return .scaled
        }
        // A variable rate (a phone dropping frames in the dark): the scan copies
        // GOPs on the grid as they are and those off it at their pictures' own
        // times, at any canvas rate it doesn't outrun, unless `--fps` asked for a rate.
        let ownTimes = info.facts.variableFrameRate && settings.frameRate == nil && info.facts.frameRate.value <= canvas.frameRate.value
        if info.facts.frameRate.reduced != canvas.frameRate.reduced && !ownTimes {
            return .frameRate(info.facts.frameRate, variable: info.facts.variableFrameRate, canvas: canvas.frameRate)
        }
        let output = canvas.colour
        if info.facts.colour.bitDepth != output.bitDepth { return .bitDepth(info.facts.colour.bitDepth, output: output) }
        // FFmpeg names a full-range H.264 picture yuvj420p.
        let formats = form.fullRange ? [output.pixelFormatName, "yuvj420p"] : [output.pixelFormatName]
        if !formats.contains(info.facts.pixelFormat) || info.facts.fullRange != form.fullRange {
            return .pixelFormat(info.facts.pixelFormat, fullRange: info.facts.fullRange, output: output, outputFullRange: form.fullRange)
        }
        if info.facts.interlaced { return .interlaced }
        return output.dynamicRange.isHDR ? hdrMismatch(info, canvas: canvas) : sdrMismatch(info)
    }

    /// SDR output: each tag BT.709, or unsaid at an HD size, where the colour
    /// conversion takes it as BT.709 too; Dolby Vision only as profile 8's SDR base layer.
    private static func sdrMismatch(_ info: ClipInfo) -> NotCopied? {
        if let profile = info.facts.dolbyVisionProfile, profile != 8 { return .dolbyVision(profile: profile) }
        let colour = info.facts.colour
        let hd = info.facts.codedHeight >= 720
        guard [colour.matrix, colour.primaries, colour.transfer].allSatisfy({ $0 == "bt709" || ($0 == nil && hd) }),
              info.facts.colourMatrix == .bt709, info.facts.dynamicRange == .sdr else {
            return .colours
        }
        return nil
    }

    /// HDR output: BT.2020 primaries and matrix, the output's transfer, and
    /// the very HDR10 metadata the output states (its re-encoded pictures
    /// carry that, so a player sees one mastering display throughout). Dolby
    /// Vision profile 8 plays as its base layer: copied pictures keep their
    /// RPUs byte for byte (NAL type 62, which HEVC decoders pass over), and
    /// the output never claims Dolby Vision, whose every picture would need one.
    private static func hdrMismatch(_ info: ClipInfo, canvas: Canvas) -> NotCopied? {
        let output = canvas.colour
        if let profile = info.facts.dolbyVisionProfile, profile != 8 { return .dolbyVision(profile: profile) }
        if info.facts.dynamicRange != output.dynamicRange { return .transfer(info.facts.colour.transfer, output: output) }
        if info.facts.colour.primaries != output.primariesName { return .primaries(info.facts.colour.primaries) }
        if info.facts.colour.matrix != output.matrixName { return .matrix(info.facts.colour.matrix) }
        // Compared as x265 writes them (its units), so the same SEI read back compares equal.
        if info.facts.hdrMetadata?.x265Parameters != canvas.hdrMetadata?.x265Parameters {
            return .hdrMetadata(info.facts.hdrMetadata, output: canvas.hdrMetadata)
        }
        return nil
    }
}
