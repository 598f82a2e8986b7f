import Foundation
import SegueMedia

/// Which of one clip's frames are copied from its own encoded packets, in
/// whole GOPs (a picture decoding can start at, and every picture up to the
/// next such), and how its packets' timestamps map to the clip's frame positions.
struct ClipCopyPlan: Sendable {
    /// A run of frame positions that starts where decoding can start and ends before the next.
    struct GOP: Sendable {
        var frames: Range<Int>
        var copied: Bool
    }

    /// Source pts of clip position 0 (the in point), in `timeBase`.
    let origin: Int64
    let timeBase: Rational
    let frameRate: Rational
    let syntax: CopySyntax
    /// Every GOP of the source, in order; copied ones lie wholly in the clip's own frames.
    let gops: [GOP]
    /// HEVC: new ids for the clip's parameter sets and slices, when its own
    /// collide with another copied clip's.
    var renumbering: HEVCRenumbering?

    /// The frame position of a packet or picture stamped `pts`, rounded to the nearest frame.
    func position(ofPTS pts: Int64) -> Int {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return pts < origin ? -Int(Int32.max) : Int(Int32.max) }
        return Int((2 * numerator + denominator).floorDivided(by: 2 * denominator))
    }

    /// Whether `pts` lies within a quarter of a frame of a frame position: the
    /// `fps` filter puts such a picture on that position too (it rounds to the
    /// nearest), so phones' jittered capture times still copy.
    func isOnGrid(_ pts: Int64) -> Bool {
        guard let (numerator, denominator) = framesFraction(of: pts) else { return false }
        return abs(numerator - Int64(position(ofPTS: pts)) * denominator) * 4 <= denominator
    }

    /// `pts` from the clip's origin, in frames, as an exact fraction; nil when
    /// its terms would not fit in 64 bits with room to round (a time far from
    /// any picture of the clip: damaged).
    private func framesFraction(of pts: Int64) -> (numerator: Int64, denominator: Int64)? {
        let ticks = pts.subtractingReportingOverflow(origin)
        let scale = Int64(timeBase.numerator).multipliedReportingOverflow(by: Int64(frameRate.numerator))
        let denominator = Int64(timeBase.denominator).multipliedReportingOverflow(by: Int64(frameRate.denominator))
        guard !ticks.overflow, !scale.overflow, !denominator.overflow, denominator.partialValue > 0 else { return nil }
        let numerator = ticks.partialValue.multipliedReportingOverflow(by: scale.partialValue)
        let limit = Int64.max / 8
        guard !numerator.overflow, (-limit..<limit).contains(numerator.partialValue), denominator.partialValue < limit else { return nil }
        return (numerator.partialValue, denominator.partialValue)
    }

    /// Whether the frame at `position` is copied.
    func isCopied(_ position: Int) -> Bool {
        gopIndex(containing: position).map { gops[$0].copied } ?? false
    }

    /// Whether the frame at `position` opens a run of copied GOPs: the output
    /// comes to it from other pictures (re-encoded, or another clip's).
    func startsCopiedRun(_ position: Int) -> Bool {
        guard let index = gopIndex(containing: position), gops[index].copied, gops[index].frames.lowerBound == position else {
            return false
        }
        return index == 0 || !gops[index - 1].copied || gops[index - 1].frames.upperBound != position
    }

    private func gopIndex(containing position: Int) -> Int? {
        var low = 0, high = gops.count
        while low < high {
            let middle = (low + high) / 2
            if gops[middle].frames.upperBound <= position { low = middle + 1 } else { high = middle }
        }
        return low < gops.count && gops[low].frames.contains(position) ? low : nil
    }

    var copiedFrames: Int { gops.filter(\.copied).reduce(0) { $0 + $1.frames.count } }
}

private extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// What `--smart` does with each clip, and the output's one video sample
/// description: every parameter set of the copied clips plus the encoder's
/// own, under ids that don't collide.
struct SmartPlan: Sendable {
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

    /// The output's avcC or hvcC record.
    var extradata: [UInt8]
    /// x264 or x265 parameters for every re-encoded stretch: for x264 an
    /// SPS/PPS id of its own, and headers that don't depend on the content,
    /// so every stretch's match.
    var encoderParams: String
    /// For HEVC: the ids x265's parameter sets and slices are given in the
    /// file (x265 can't be told them).
    var renumbering: HEVCRenumbering?
    /// The MP4 sample entry when it isn't the encoder's own (hev1 for HEVC with in-band parameter sets).
    var sampleEntry: String?
    /// Pictures decoders hold back, the most any copied clip or the encoder needs;
    /// decoding times run this many frames behind the frame numbers.
    var reorderDelay: Int

    /// The output's video track these copies need: what the sink is built with.
    var outputTrack: EncodingSink.SmartVideo {
        EncodingSink.SmartVideo(extradata: extradata, encoderParams: encoderParams, renumbering: renumbering,
                                sampleEntry: sampleEntry, reorderDelay: reorderDelay)
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

    /// Scans every clip that could be copied and decides what is copied.
    /// `ownFrames` gives each clip's positions that play as its own (not in a transition).
    /// `copiesSound`: false where the sound is encoded apart (a segment's).
    init(plan: Plan, settings: StitchSettings, access: InputAccess, copiesSound: Bool = true, ownFrames: (PlannedClip) -> Range<Int>,
         heldEdges: (PlannedClip) -> (first: Bool, last: Bool)) throws {
        self.plan = plan
        chosenCRF = SmartTrack.stretchCRF(settings.crf)
        let syntax = CopySyntax(settings.codec)
        var (clips, scans) = try SmartPlan.scan(plan, settings: settings, access: access, ownFrames: ownFrames, heldEdges: heldEdges)
        let merged = SmartPlan.mergeParameterSets(scans, into: &clips, plan: plan)

        // The encoder's own sets take ids no copied clip uses: x264 is told its
        // id; x265's output is renumbered on the way to the file.
        let renumbering = syntax == .hevc ? try SmartPlan.renumbering(avoiding: Set(merged.sets.keys)) : nil
        self.renumbering = renumbering
        if syntax == .hevc {
            encoderParams = "info=0"
        } else {
            let used = Set(merged.sets.keys.map(\.id)) // x264 numbers its PPS like its SPS
            encoderParams = "sps-id=\((0...31).first { !used.contains($0) } ?? 31):stitchable=1"
        }
        let probe = try Encoder.video(codec: syntax == .hevc ? .hevc : .h264, width: plan.canvas.width,
                                      height: plan.canvas.height, frameRate: plan.canvas.frameRate, crf: chosenCRF,
                                      preset: settings.preset, codecParams: encoderParams, globalHeader: true)
        guard let own = syntax.description(probe.extradata) else {
            throw SegueError(.writeFailed, detail: "the \(syntax.codecName) encoder gave no parameter sets")
        }
        let ownUnits = try own.units.map { unit in
            guard let renumbering else { return unit }
            guard let renumbered = renumbering.apply(unit) else {
                throw SegueError(.writeFailed, detail: "the HEVC encoder's parameter sets could not be renumbered")
            }
            return renumbered
        }
        // HEVC samples with parameter sets of their own need the hev1 sample entry
        // (hvc1 promises every set is in the header).
        let inBand = syntax == .hevc && zip(scans, clips).contains { scan, clip in clip.copy != nil && scan?.carriesParameterSets == true }
        sampleEntry = inBand ? "hev1" : nil
        // The encoder's own sets first: GStreamer's parser reads SEI (picture timing, recovery
        // points) against the last SPS it parsed, and only copied packets carry such SEI.
        let copied = merged.sets.keys.sorted().map { merged.sets[$0]!.bytes }
        extradata = merged.base.map {
            syntax.record(base: $0, units: ownUnits + copied, profile: max(merged.profile, own.profile),
                          level: max(merged.level, own.level), complete: !inBand)
        } ?? []
        let copiedDelays = zip(scans, clips).compactMap { scan, clip in clip.copy != nil ? scan?.reorderDelay : nil }
        // libx265 doesn't say its delay (has_b_frames); its SPS does.
        let ownDelay = max(probe.reorderDelay, own.units.compactMap(HEVC.reorderDepth).max() ?? 0)
        reorderDelay = max(ownDelay, copiedDelays.max() ?? 0)
        SmartPlan.measureQuality(of: &clips, scans: scans, plan: plan, settings: settings, access: access)
        self.clips = clips
        if settings.includeAudio && copiesSound {
            sound = SoundCopyPlanner.plan(plan, settings: settings, access: access) { clip in
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

    /// Each clip's copy plan, or why it has none; and the scans of the clips
    /// that copy. Packets are read two clips (the cores) at once: the scan is
    /// most of what --smart adds before the first frame is written.
    private static func scan(_ plan: Plan, settings: StitchSettings, access: InputAccess, ownFrames: (PlannedClip) -> Range<Int>,
                             heldEdges: (PlannedClip) -> (first: Bool, last: Bool)) throws -> ([Clip], [ClipScan?]) {
        let syntax = CopySyntax(settings.codec)
        let reasons = plan.clips.map { SmartPlan.disqualification($0, canvas: plan.canvas, settings: settings) }
        let scanned = concurrentMap(plan.clips.count) { index -> Result<ClipScan, Error>? in
            guard reasons[index] == nil else { return nil }
            return Result { try ClipScan(clip: plan.clips[index], canvas: plan.canvas, syntax: syntax, access: access) }
        }
        var clips: [Clip] = []
        var scans: [ClipScan?] = []
        for (clip, result) in zip(plan.clips, scanned) {
            guard let result else {
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
                    reasons = [.touchedGOPs(variableRate: clip.info.variableFrameRate)]
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
                ? ClipScan.measuredCRF(of: clip, canvas: plan.canvas, settings: settings, access: access)
                : ClipScan.quantiserCRF(of: clip, access: access)
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

    /// Every copied clip's parameter sets, by kind and id, for the one sample
    /// description; a clip whose set reuses an id with other content is
    /// re-encoded instead, and its reason says so.
    private static func mergeParameterSets(_ scans: [ClipScan?], into clips: inout [Clip], plan: Plan)
        -> (sets: [CopySyntax.SetKey: (bytes: [UInt8], clip: Int)], base: CopySyntax.Description?, profile: Int, level: Int) {
        var sets: [CopySyntax.SetKey: (bytes: [UInt8], clip: Int)] = [:]
        var base: CopySyntax.Description?
        var profile = 0, level = 0
        for (index, scan) in scans.enumerated() {
            guard let scan, clips[index].copy != nil else { continue }
            var parameterSets = scan.parameterSets
            if let (key, _) = parameterSets.sorted(by: { $0.key < $1.key }).first(where: { key, bytes in
                sets[key].map { $0.bytes != bytes } ?? false
            }) {
                let other = sets[key]!.clip
                guard let renumbering = renumbering(of: scan, avoiding: Set(sets.keys)),
                      let renumbered = try? parameterSets.values.map({ unit -> [UInt8] in
                          guard let new = renumbering.apply(unit) else { throw ClipScan.Unfit(reason: .unreadableDescription) }
                          return new
                      }) else {
                    clips[index].copy = nil
                    clips[index].notCopied.append(.setConflict(set: "\(key)", clip: other, path: plan.clips[other].info.path,
                                                               newIDs: nil))
                    continue
                }
                parameterSets = Dictionary(renumbered.compactMap { unit in scan.syntax.setKey(unit).map { ($0, unit) } }) { a, _ in a }
                clips[index].copy?.renumbering = renumbering
                clips[index].notCopied.append(.setConflict(set: "\(key)", clip: other, path: plan.clips[other].info.path,
                                                           newIDs: "\(renumbering.newIDs)"))
            }
            for (key, bytes) in parameterSets { sets[key] = (bytes, index) }
            base = base ?? scan.description
            profile = max(profile, scan.description.profile)
            level = max(level, scan.description.level)
        }
        return (sets, base, profile, level)
    }

    /// New ids for an HEVC clip whose sets collide with copied ones: only for
    /// a clip with one VPS, SPS and PPS and no SEI that names a set by its id
    /// (buffering period, active parameter sets); nil otherwise.
    private static func renumbering(of scan: ClipScan, avoiding used: Set<CopySyntax.SetKey>) -> HEVCRenumbering? {
        guard scan.syntax == .hevc, !scan.namesSetsInSEI else { return nil }
        func only(_ type: Int) -> Int? {
            let ids = scan.parameterSets.keys.filter { $0.type == type }.map(\.id)
            return ids.count == 1 ? ids[0] : nil
        }
        func free(_ type: Int, among ids: [Int]) -> Int? { ids.first { id in !used.contains { $0.type == type && $0.id == id } } }
        guard let video = only(HEVC.videoParameterSet), let sequence = only(HEVC.sequenceParameterSet),
              let picture = only(HEVC.pictureParameterSet),
              let newVideo = free(HEVC.videoParameterSet, among: Array(0...15)),
              let newSequence = free(HEVC.sequenceParameterSet, among: Array(0...15)),
              let newPicture = free(HEVC.pictureParameterSet, among: HEVCRenumbering.pictureSetIDs(replacing: picture)) else {
            return nil
        }
        return HEVCRenumbering(videoSet: (video, newVideo), sequenceSet: (sequence, newSequence), pictureSet: (picture, newPicture))
    }

    /// New ids for x265's VPS, SPS and PPS that no copied clip uses. A
    /// slice's PPS id can only move to one whose code is a whole byte longer.
    static func renumbering(avoiding used: Set<CopySyntax.SetKey>) throws -> HEVCRenumbering {
        func free(_ type: Int, among ids: [Int]) -> Int? { ids.first { id in !used.contains { $0.type == type && $0.id == id } } }
        // x265 numbers every set 0.
        guard let video = free(HEVC.videoParameterSet, among: Array(0...15)),
              let sequence = free(HEVC.sequenceParameterSet, among: Array(0...15)),
              let picture = free(HEVC.pictureParameterSet, among: HEVCRenumbering.pictureSetIDs(replacing: 0).filter { $0 > 0 }) else {
            throw SegueError(.writeFailed, detail: "the copied clips use every parameter-set id the encoder could take")
        }
        return HEVCRenumbering(videoSet: (0, video), sequenceSet: (0, sequence), pictureSet: (0, picture))
    }

    /// Why a clip's encoded video can't stand in the output unchanged, or nil if it can.
    static func disqualification(_ clip: PlannedClip, canvas: Canvas, settings: StitchSettings) -> NotCopied? {
        let info = clip.info
        let syntax = CopySyntax(settings.codec)
        if info.videoCodec != syntax.codecName {
            return .otherCodec(info.videoCodec, output: settings.codec)
        }
        if InputAccess.isRemote(info.readPath) { return .remote }
        if info.codedWidth != canvas.width || info.codedHeight != canvas.height || info.rotation != 0 {
            return .pictureSize(width: info.codedWidth, height: info.codedHeight, rotation: info.rotation,
                                canvasWidth: canvas.width, canvasHeight: canvas.height)
        }
        if info.sampleAspectRatio.reduced != Rational(1, 1) { return .pixelsNotSquare }
        if clip.placement != Placement(scaledWidth: canvas.width, scaledHeight: canvas.height, x: 0, y: 0) {
            return .scaled
        }
        // A variable rate recorded at the canvas rate (a phone dropping frames in
        // the dark) still has GOPs whose frames sit on the grid: the scan copies
        // those and re-encodes the rest.
        if info.frameRate.reduced != canvas.frameRate.reduced {
            return .frameRate(info.frameRate, variable: info.variableFrameRate, canvas: canvas.frameRate)
        }
        if info.pixelFormat != "yuv420p" || info.colour.bitDepth != 8 || info.fullRange {
            return .pixelFormat(info.pixelFormat, fullRange: info.fullRange)
        }
        if info.interlaced { return .interlaced }
        // Each tag BT.709, or unsaid at an HD size, where the colour conversion takes it as BT.709 too.
        let colour = info.colour
        let hd = info.codedHeight >= 720
        guard [colour.matrix, colour.primaries, colour.transfer].allSatisfy({ $0 == "bt709" || ($0 == nil && hd) }),
              info.colourMatrix == .bt709, info.dynamicRange == .sdr, info.dolbyVisionProfile == nil else {
            return .colours
        }
        return nil
    }
}

/// One pass over a clip's video packets: GOP boundaries, frame positions,
/// parameter sets. Its quality (`quantiserCRF`, `measuredCRF`) is read in a
/// pass of its own, only for the clips that need it.
struct ClipScan: Sendable {
    let syntax: CopySyntax
    let description: CopySyntax.Description
    /// Every parameter set the clip's pictures may refer to, its header's and in-band.
    private(set) var parameterSets: [CopySyntax.SetKey: [UInt8]] = [:]
    /// Whether its samples repeat parameter sets in-band.
    private(set) var carriesParameterSets = false
    /// Whether SEI in its samples names a parameter set by id (HEVC buffering
    /// period, active parameter sets): renumbering its sets would leave those behind.
    private(set) var namesSetsInSEI = false
    /// Pictures decoded to read the quantisers from (a GOP's I, P and B pictures).
    private static let quantiserSample = 12
    private(set) var reorderDelay = 0
    private let grid: ClipCopyPlan
    /// Packets in decoding order: their pts, whether decoding can start at
    /// them, and whether they can't be decoded when it starts at the last such.
    private var packets: [(pts: Int64?, randomAccess: Bool, skippedLeading: Bool)] = []

    init(clip: PlannedClip, canvas: Canvas, syntax: CopySyntax, access: InputAccess) throws {
        self.syntax = syntax
        let demuxer = try access.openDemuxer(clip.info.readPath)
        guard let index = demuxer.bestStream(.video) else { throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream") }
        let stream = demuxer.streams[index]
        if let unfit = syntax.unfitness(stream.extradata) { throw ClipScan.unfit(unfit) }
        guard let description = syntax.description(stream.extradata) else { throw ClipScan.unfit(.unreadableDescription) }
        self.description = description
        grid = ClipCopyPlan(origin: clip.info.origin(in: stream),
                            timeBase: stream.timeBase, frameRate: canvas.frameRate, syntax: syntax, gops: [])
        for unit in description.units { if let key = syntax.setKey(unit) { parameterSets[key] = unit } }

        let packet = Packet()
        var inBandConflict = false
        /// A parameter set met after the header: in band, or in a sample description that takes over midway.
        func note(_ unit: [UInt8]) {
            guard let key = syntax.setKey(unit) else { return }
            if let known = parameterSets[key], known != unit { inBandConflict = true }
            parameterSets[key] = unit
        }
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            // A file joined from two recordings (two sample descriptions): the second's sets are met here.
            if let header = packet.newTrackHeader {
                guard syntax.unfitness(header) == nil, let next = syntax.description(header) else {
                    throw ClipScan.unfit(.descriptionChangesToUncopyable)
                }
                next.units.forEach(note)
            }
            var randomAccess = false, skippedLeading = false
            packet.forEachNALUnit(lengthSize: 4) { header, unit in
                let type = syntax.unitType(header: header)
                if syntax.isRandomAccess(type) { randomAccess = true }
                if syntax.isSkippedLeading(type) { skippedLeading = true }
                if syntax == .hevc, type == HEVC.prefixSEI, !namesSetsInSEI {
                    namesSetsInSEI = HEVC.seiPayloadTypes(unit()).contains { $0 == 0 || $0 == 129 }
                }
                guard syntax.isParameterSet(type) else { return }
                carriesParameterSets = true
                note(unit())
            }
            packets.append((packet.pts, randomAccess, skippedLeading))
        }
        if inBandConflict { throw ClipScan.unfit(.setsChangeMidway) }
    }

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

    /// The worst luma PSNR of `pictures` encoded by x265 at `crf` and decoded again.
    private static func reencodedPSNR(_ pictures: [Frame], crf: Int, canvas: Canvas, preset: String) throws -> Double {
        let encoder = try Encoder.video(codec: .hevc, width: canvas.width, height: canvas.height, frameRate: canvas.frameRate,
                                        crf: crf, preset: preset, codecParams: "info=0", threads: 1, globalHeader: true)
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

    /// A fact found in the stream that keeps its packets out of the output.
    struct Unfit: Error {
        var reason: NotCopied
    }

    private static func unfit(_ reason: NotCopied) -> Unfit { Unfit(reason: reason) }

    /// Splits the packets where decoding can start afresh; a GOP is copied
    /// when its frames are whole (every position once, on the frame grid,
    /// none shown before its first) and all play as the clip's own.
    /// An HEVC CRA followed by pictures that refer back across it (RASL) is no
    /// place to split: the GOP before it is needed to decode them, so it goes
    /// on (as an H.264 open-GOP I picture does).
    mutating func copyPlan(ownFrames: Range<Int>, frameCount: Int, keepFirst: Bool, keepLast: Bool) -> ClipCopyPlan {
        var splits = packets.map(\.randomAccess)
        for index in splits.indices where splits[index] {
            splits[index] = !packets[(index + 1)...].prefix { !$0.randomAccess }.contains { $0.skippedLeading }
        }
        var gops: [ClipCopyPlan.GOP] = []
        var start = 0
        while start < packets.count {
            var end = start + 1
            while end < packets.count && !splits[end] { end += 1 }
            let group = packets[start..<end]
            let positions = group.compactMap { $0.pts.map(grid.position(ofPTS:)) }
            let first = positions.min() ?? 0, last = positions.max() ?? 0
            let whole = splits[start] && positions.count == group.count
                && group.allSatisfy { $0.pts.map(grid.isOnGrid) ?? false }
                && last - first + 1 == group.count && Set(positions).count == group.count
                && positions.first == first
            var copied = whole && first >= ownFrames.lowerBound && last < ownFrames.upperBound && last < frameCount
            if copied && ((keepFirst && first == 0) || (keepLast && last == frameCount - 1)) { copied = false }
            if whole {
                if copied {
                    // Decoding times may run at most this far behind the frame numbers.
                    for (offset, position) in positions.enumerated() {
                        reorderDelay = max(reorderDelay, offset - (position - first))
                    }
                }
                gops.append(.init(frames: first..<(last + 1), copied: copied))
            }
            start = end
        }
        // Keep only GOPs that don't overlap each other (a broken stream might).
        gops.sort { $0.frames.lowerBound < $1.frames.lowerBound }
        var clean: [ClipCopyPlan.GOP] = []
        for gop in gops where clean.last.map({ $0.frames.upperBound <= gop.frames.lowerBound }) ?? true { clean.append(gop) }
        return ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, syntax: syntax, gops: clean)
    }
}
