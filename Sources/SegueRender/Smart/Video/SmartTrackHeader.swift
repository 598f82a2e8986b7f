internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel

/// The output's one video sample description under `--smart`: every
/// parameter set of the copied clips plus the encoder's own, under ids that
/// don't collide, and what the re-encoded stretches' encoders are told.
enum SmartTrackHeader {
    /// The track for `clips`' copies; a clip whose parameter sets can't join
    /// the others' loses its copy (its reason says why).
    static func make(scans: [ClipScan?], clips: inout [SmartPlan.Clip], plan: Plan, settings: StitchSettings,
                     crf: Int, form: SmartPlan.TrackForm) throws -> SmartVideo {
        let syntax = CopySyntax(settings.codec)
        let chromaSite = plan.canvas.colour.dynamicRange.isHDR && syntax == .hevc ? agreeOnChromaSite(scans, clips: &clips) : nil
        let merged = mergeParameterSets(scans, into: &clips, plan: plan)
        // The encoder's own sets take ids no copied clip uses: x264 is told its
        // id; x265's output is renumbered on the way to the file.
        let renumbering = syntax == .hevc ? try renumbering(avoiding: Set(merged.sets.keys)) : nil
        let (probe, encoderParams) = try probeEncoder(syntax: syntax, copiedLevel: merged.level, chromaSite: chromaSite, plan: plan,
                                                      settings: settings, used: Set(merged.sets.keys), crf: crf, form: form)
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
        // The encoder's own sets first: GStreamer's parser reads SEI (picture timing, recovery
        // points) against the last SPS it parsed, and only copied packets carry such SEI.
        let copied = merged.sets.keys.sorted().map { merged.sets[$0]!.bytes }
        // HDR10 SEI the encoder states in its header (mastering display, light
        // levels): the copied clips' own, as `SmartPlan.hdrMismatch` requires.
        let declarations = plan.canvas.colour.dynamicRange.isHDR ? own.declarations : []
        let extradata = merged.base.map {
            syntax.record(base: $0, units: ownUnits + copied + declarations, profile: max(merged.profile, own.profile),
                          level: max(merged.level, own.level), complete: !inBand)
        } ?? []
        let copiedDelays = zip(scans, clips).compactMap { scan, clip in clip.copy != nil ? scan?.reorderDelay : nil }
        // libx265 doesn't say its delay (has_b_frames); its SPS does.
        let ownDelay = max(probe.reorderDelay, own.units.compactMap(HEVC.reorderDepth).max() ?? 0)
        var track = SmartVideo(extradata: extradata, encoderParams: encoderParams, renumbering: renumbering,
                               sampleEntry: inBand ? "hev1" : nil, reorderDelay: max(ownDelay, copiedDelays.max() ?? 0),
                               orientation: form.orientation, fullRange: form.fullRange)
        if clips.contains(where: { $0.copy?.gops.contains { $0.copied && $0.timed != nil } == true }) {
            track.ticksPerFrame = SmartVideo.fineTicksPerFrame(plan.canvas.frameRate)
        }
        return track
    }

    /// An encoder as every re-encoded stretch's will be, and the parameters
    /// they take: x264's free SPS id; for HEVC, the canvas's colour and HDR10
    /// SEI (from `Encoder.video`) and, for HDR, the copied clips' level and
    /// chroma site, so the stretches' SPS match the copied ones (x265 may
    /// refuse a level too low for its settings: it then chooses its own).
    private static func probeEncoder(syntax: CopySyntax, copiedLevel: Int, chromaSite: Int?, plan: Plan, settings: StitchSettings,
                                     used: Set<CopySyntax.SetKey>, crf: Int, form: SmartPlan.TrackForm) throws -> (Encoder, String) {
        let stored = form.orientation.storedSize(width: plan.canvas.width, height: plan.canvas.height)
        func open(_ params: String) throws -> Encoder {
            try Encoder.video(codec: syntax == .hevc ? .hevc : .h264, width: stored.width, height: stored.height,
                              frameRate: plan.canvas.frameRate, crf: crf, preset: settings.preset, colour: plan.canvas.colour,
                              metadata: plan.canvas.hdrMetadata, fullRange: form.fullRange, codecParams: params, globalHeader: true)
        }
        guard syntax == .hevc else {
            let ids = Set(used.map(\.id)) // x264 numbers its PPS like its SPS
            let params = "sps-id=\((0...31).first { !ids.contains($0) } ?? 31):stitchable=1"
            return (try open(params), params)
        }
        // x265 writes no chroma site unless told; left (0) is what an unsaid one means.
        let base = "info=0" + (chromaSite.map { $0 > 0 ? ":chromaloc=\($0)" : "" } ?? "")
        if plan.canvas.colour.dynamicRange.isHDR, copiedLevel > 0 {
            // general_level_idc is 30 times the level; x265 takes it in tenths.
            let params = base + ":level-idc=\(copiedLevel / 3)"
            if let encoder = try? open(params) { return (encoder, params) }
        }
        return (try open(base), base)
    }

    /// The chroma site of the first copied clip, which the re-encoded pictures
    /// take; a copied clip whose chroma sits elsewhere is re-encoded instead.
    private static func agreeOnChromaSite(_ scans: [ClipScan?], clips: inout [SmartPlan.Clip]) -> Int? {
        var first: (index: Int, site: Int?)?
        for (index, scan) in scans.enumerated() {
            guard let scan, clips[index].copy != nil else { continue }
            guard let chosen = first else {
                first = (index, scan.chromaSiteType)
                continue
            }
            // Unsaid means left.
            if (scan.chromaSiteType ?? 0) != (chosen.site ?? 0) {
                clips[index].copy = nil
                clips[index].notCopied.append(.chromaSite(scan.chromaSiteType, clip: chosen.index, clipSite: chosen.site))
            }
        }
        return first?.site
    }

    /// Every copied clip's parameter sets, by kind and id, for the one sample
    /// description; a clip whose set reuses an id with other content is
    /// re-encoded instead, and its reason says so.
    private static func mergeParameterSets(_ scans: [ClipScan?], into clips: inout [SmartPlan.Clip], plan: Plan)
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
}
