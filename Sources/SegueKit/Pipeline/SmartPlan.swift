import Foundation
import SegueMedia

/// Which of one clip's frames are copied from its own encoded packets, in
/// whole GOPs (an IDR and every picture up to the next IDR), and how its
/// packets' timestamps map to the clip's frame positions.
struct ClipCopyPlan: Sendable {
    /// A run of frame positions that starts at an IDR and ends before the next.
    struct GOP: Sendable {
        var frames: Range<Int>
        var copied: Bool
    }

    /// Source pts of clip position 0 (the in point), in `timeBase`.
    let origin: Int64
    let timeBase: Rational
    let frameRate: Rational
    /// Every GOP of the source, in order; copied ones lie wholly in the clip's own frames.
    let gops: [GOP]

    /// The frame position of a packet or picture stamped `pts`, rounded to the nearest frame.
    func position(ofPTS pts: Int64) -> Int {
        let numerator = (pts - origin) * Int64(timeBase.numerator * frameRate.numerator)
        let denominator = Int64(timeBase.denominator * frameRate.denominator)
        return Int((2 * numerator + denominator).floorDivided(by: 2 * denominator))
    }

    /// Whether `pts` lies within a twentieth of a frame of a frame position.
    func isOnGrid(_ pts: Int64) -> Bool {
        let numerator = (pts - origin) * Int64(timeBase.numerator * frameRate.numerator)
        let denominator = Int64(timeBase.denominator * frameRate.denominator)
        return abs(numerator - Int64(position(ofPTS: pts)) * denominator) * 20 <= denominator
    }

    /// Whether the frame at `position` is copied.
    func isCopied(_ position: Int) -> Bool {
        var low = 0, high = gops.count
        while low < high {
            let middle = (low + high) / 2
            if gops[middle].frames.upperBound <= position { low = middle + 1 } else { high = middle }
        }
        return low < gops.count && gops[low].frames.contains(position) && gops[low].copied
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
        var reason: String?
        /// The quality frames of this clip are re-encoded at: a CRF from the source's own quantisers.
        var crf: Int?
        var copiedFrames: Int { copy?.copiedFrames ?? 0 }
    }

    var clips: [Clip]
    /// The output's avcC record.
    var extradata: [UInt8]
    /// x264 parameters for every re-encoded stretch: an SPS/PPS id of its own,
    /// and headers that don't depend on the content, so every stretch's match.
    var encoderParams: String
    /// Pictures decoders hold back, the most any copied clip or the encoder needs;
    /// decoding times run this many frames behind the frame numbers.
    var reorderDelay: Int
    let plan: Plan
    /// The CRF the user chose, for frames of clips that are not copied.
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
    init(plan: Plan, settings: StitchSettings, ownFrames: (PlannedClip) -> Range<Int>,
         heldEdges: (PlannedClip) -> (first: Bool, last: Bool)) throws {
        self.plan = plan
        chosenCRF = settings.crf
        // Every qualifying clip's packets, read two (the cores) at once: the
        // scan is most of what --smart adds before the first frame is written.
        let reasons = plan.clips.map { SmartPlan.disqualification($0, canvas: plan.canvas, settings: settings) }
        let scanned = ResultSlots<Result<ClipScan, Error>>(count: plan.clips.count)
        DispatchQueue.concurrentPerform(iterations: plan.clips.count) { index in
            guard reasons[index] == nil else { return }
            scanned[index] = Result { try ClipScan(clip: plan.clips[index], canvas: plan.canvas) }
        }
        var clips: [Clip] = []
        var scans: [ClipScan?] = []
        for (clip, result) in zip(plan.clips, scanned.values) {
            guard let result else {
                clips.append(Clip(copy: nil, reason: reasons[clip.index]))
                scans.append(nil)
                continue
            }
            do {
                var scan = try result.get()
                let edges = heldEdges(clip)
                let copy = scan.copyPlan(ownFrames: ownFrames(clip), frameCount: clip.frameCount,
                                         keepFirst: edges.first, keepLast: edges.last)
                var reason: String?
                if copy.copiedFrames == 0 {
                    reason = "no whole GOP (IDR to IDR) lies within the frames it shows unchanged"
                } else if copy.copiedFrames < clip.frameCount {
                    reason = "frames of GOPs that a transition, trim or held frame touches are re-encoded"
                }
                clips.append(Clip(copy: copy.copiedFrames > 0 ? copy : nil, reason: reason))
                scans.append(copy.copiedFrames > 0 ? scan : nil)
            } catch let unfit as ClipScan.Unfit {
                clips.append(Clip(copy: nil, reason: unfit.reason))
                scans.append(nil)
            } catch {
                clips.append(Clip(copy: nil, reason: "can't read its packets (\(Stitcher.describe(error)))"))
                scans.append(nil)
            }
        }

        // One sample description: every copied clip's parameter sets, by id.
        // A clip whose set reuses an id with other content is re-encoded.
        var sequenceSets: [Int: (bytes: [UInt8], clip: Int)] = [:]
        var pictureSets: [Int: (bytes: [UInt8], clip: Int)] = [:]
        var profile: UInt8 = 0, level: UInt8 = 0
        for (index, scan) in scans.enumerated() {
            guard let scan else { continue }
            let conflict = scan.sequenceSets.first { id, bytes in sequenceSets[id].map { $0.bytes != bytes } ?? false }
                .map { ("SPS", $0.key, sequenceSets[$0.key]!.clip) }
                ?? scan.pictureSets.first { id, bytes in pictureSets[id].map { $0.bytes != bytes } ?? false }
                .map { ("PPS", $0.key, pictureSets[$0.key]!.clip) }
            if let (kind, id, other) = conflict {
                clips[index].copy = nil
                clips[index].reason = "its \(kind) id \(id) differs from clip \(other + 1)'s (\(plan.clips[other].info.path)) "
                    + "and an MP4 track holds one set per id: re-encoded"
                continue
            }
            for (id, bytes) in scan.sequenceSets { sequenceSets[id] = (bytes, index) }
            for (id, bytes) in scan.pictureSets { pictureSets[id] = (bytes, index) }
            profile = max(profile, scan.record.profile)
            level = max(level, scan.record.level)
        }

        // The encoder's own sets take the first id no copied clip uses (x264 numbers its PPS like its SPS).
        let id = (0...31).first { sequenceSets[$0] == nil && pictureSets[$0] == nil } ?? 31
        encoderParams = "sps-id=\(id):stitchable=1"
        let probe = try Encoder.video(codec: .h264, width: plan.canvas.width, height: plan.canvas.height,
                                      frameRate: plan.canvas.frameRate, crf: settings.crf, preset: settings.preset,
                                      codecParams: encoderParams, globalHeader: true)
        guard let own = AVCRecord(probe.extradata) else {
            throw SegueError(.writeFailed, detail: "the H.264 encoder gave no avcC record")
        }
        var record = own
        record.profile = max(profile, own.profile)
        record.level = max(level, own.level)
        record.sequenceParameterSets = sequenceSets.keys.sorted().map { sequenceSets[$0]!.bytes } + own.sequenceParameterSets
        record.pictureParameterSets = pictureSets.keys.sorted().map { pictureSets[$0]!.bytes } + own.pictureParameterSets
        extradata = record.bytes
        let copiedDelays = zip(scans, clips).compactMap { scan, clip in clip.copy != nil ? scan?.reorderDelay : nil }
        reorderDelay = max(probe.reorderDelay, copiedDelays.max() ?? 0)

        // The source's quality is asked for only where frames beside a copied
        // clip are re-encoded (see `crf(atFrame:)`): only those clips have their
        // first pictures decoded for it (a clip copied whole between copied
        // clips needs none; decoding it was most of the scan's time).
        let copiedFrames = SmartPlan.copiedOutputFrames(plan: plan, clips: clips)
        let sampled = plan.clips.filter { clip in
            guard clips[clip.index].copy != nil else { return false }
            let near = max(0, clip.startFrame - 1)..<min(plan.totalFrames, clip.startFrame + clip.frameCount + 1)
            return near.contains { !copiedFrames[$0] }
        }
        let qualities = ResultSlots<Int>(count: plan.clips.count)
        DispatchQueue.concurrentPerform(iterations: sampled.count) { index in
            let clip = sampled[index]
            qualities[clip.index] = ClipScan.crf(of: clip)
        }
        for (index, crf) in qualities.values.enumerated() { clips[index].crf = crf }
        self.clips = clips
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

    /// Why a clip's encoded video can't stand in the output unchanged, or nil if it can.
    static func disqualification(_ clip: PlannedClip, canvas: Canvas, settings: StitchSettings) -> String? {
        let info = clip.info
        if settings.codec != .h264 { return "copying is done for H.264 output only so far; HEVC is re-encoded" }
        if info.videoCodec != "h264" { return "its video is \(info.videoCodec), the output is H.264" }
        if InputAccess.isRemote(info.readPath) { return "a remote clip is not copied (its packets would be read twice)" }
        if info.codedWidth != canvas.width || info.codedHeight != canvas.height || info.rotation != 0 {
            return "its picture is \(info.codedWidth)x\(info.codedHeight)"
                + (info.rotation != 0 ? " turned \(info.rotation)°" : "") + ", the canvas \(canvas.width)x\(canvas.height)"
        }
        if info.sampleAspectRatio.reduced != Rational(1, 1) { return "its pixels are not square" }
        if clip.placement != Placement(scaledWidth: canvas.width, scaledHeight: canvas.height, x: 0, y: 0) {
            return "it is scaled to fit the canvas"
        }
        if info.frameRate.reduced != canvas.frameRate.reduced || info.variableFrameRate {
            return "its frame rate (\(info.frameRate)\(info.variableFrameRate ? ", variable" : "")) is not the canvas's constant \(canvas.frameRate)"
        }
        if info.pixelFormat != "yuv420p" || info.colour.bitDepth != 8 || info.fullRange {
            return "its pixel format is \(info.pixelFormat)\(info.fullRange ? " full range" : ""), not 8-bit 4:2:0 limited range"
        }
        if info.interlaced { return "it is interlaced (it is deinterlaced)" }
        // Each tag BT.709, or unsaid at an HD size, where the colour conversion takes it as BT.709 too.
        let colour = info.colour
        let hd = info.codedHeight >= 720
        guard [colour.matrix, colour.primaries, colour.transfer].allSatisfy({ $0 == "bt709" || ($0 == nil && hd) }),
              info.colourMatrix == .bt709, info.dynamicRange == .sdr, info.dolbyVisionProfile == nil else {
            return "its colours are not SDR BT.709 (nor untagged HD): they are converted"
        }
        return nil
    }
}

/// One pass over a clip's video packets: GOP boundaries, frame positions,
/// parameter sets. Its quality (`crf(of:)`) is read in a pass of its own, only
/// for the clips that need it.
struct ClipScan: Sendable {
    let record: AVCRecord
    private(set) var sequenceSets: [Int: [UInt8]] = [:]
    private(set) var pictureSets: [Int: [UInt8]] = [:]
    /// Pictures decoded to read the quantisers from (a GOP's I, P and B pictures).
    private static let quantiserSample = 12
    private(set) var reorderDelay = 0
    private let grid: ClipCopyPlan
    /// Packets in decoding order: their pts and whether they hold an IDR picture.
    private var packets: [(pts: Int64?, idr: Bool)] = []

    init(clip: PlannedClip, canvas: Canvas) throws {
        let demuxer = try Demuxer(url: clip.info.readPath)
        guard let index = demuxer.bestStream(.video) else { throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream") }
        let stream = demuxer.streams[index]
        guard let record = AVCRecord(stream.extradata), record.lengthSize == 4 else {
            throw ClipScan.unfit("its H.264 has no avcC record with 4-byte lengths")
        }
        guard record.chromaFormat == 1, record.lumaBitDepth == 8 else { throw ClipScan.unfit("it is not 8-bit 4:2:0") }
        self.record = record
        grid = ClipCopyPlan(origin: (stream.startTime ?? 0) + stream.timeBase.ticks(seconds: clip.info.inPoint),
                            timeBase: stream.timeBase, frameRate: canvas.frameRate, gops: [])
        for unit in record.sequenceParameterSets { if let id = H264.parameterSetID(unit) { sequenceSets[id] = unit } }
        for unit in record.pictureParameterSets { if let id = H264.parameterSetID(unit) { pictureSets[id] = unit } }

        let packet = Packet()
        var inBandConflict = false
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            var idr = false
            packet.forEachH264Unit(lengthSize: 4) { type, unit in
                if type == H264.idrSlice { idr = true }
                guard type == H264.sequenceParameterSet || type == H264.pictureParameterSet else { return }
                let unit = unit()
                guard let id = H264.parameterSetID(unit) else { return }
                let known = type == H264.sequenceParameterSet ? sequenceSets[id] : pictureSets[id]
                if let known, known != unit { inBandConflict = true }
                if type == H264.sequenceParameterSet { sequenceSets[id] = unit } else { pictureSets[id] = unit }
            }
            packets.append((packet.pts, idr))
        }
        if inBandConflict { throw ClipScan.unfit("its stream changes parameter sets midway") }
    }

    /// The x264 CRF that re-encodes `clip`'s pictures at its own quality: a
    /// step finer than the mean quantiser of its first pictures. Nil when they
    /// can't be read (the chosen CRF is used).
    static func crf(of clip: PlannedClip) -> Int? {
        var quantisers: [Double] = []
        do {
            let demuxer = try Demuxer(url: clip.info.readPath)
            guard let index = demuxer.bestStream(.video) else { return nil }
            let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1, exportQuantisers: true)
            let packet = Packet(), picture = Frame()
            func collect() throws {
                while try decoder.receive(into: picture) == .ready { picture.meanQuantiser.map { quantisers.append($0) } }
            }
            var sent = 0
            while sent < quantiserSample, try demuxer.read(into: packet) {
                guard packet.streamIndex == index else { continue }
                try decoder.send(packet)
                try collect()
                sent += 1
            }
            try decoder.sendEndOfStream()
            try collect()
        } catch {
            return nil
        }
        guard !quantisers.isEmpty else { return nil }
        let mean = quantisers.reduce(0, +) / Double(quantisers.count)
        return min(51, max(0, Int(mean.rounded()) - 1))
    }

    /// A fact found in the stream that keeps its packets out of the output.
    struct Unfit: Error {
        var reason: String
    }

    private static func unfit(_ reason: String) -> Unfit { Unfit(reason: reason) }

    /// Splits the packets at IDRs; a GOP is copied when its frames are whole
    /// (every position once, on the frame grid) and all play as the clip's own.
    mutating func copyPlan(ownFrames: Range<Int>, frameCount: Int, keepFirst: Bool, keepLast: Bool) -> ClipCopyPlan {
        var gops: [ClipCopyPlan.GOP] = []
        var start = 0
        while start < packets.count {
            var end = start + 1
            while end < packets.count && !packets[end].idr { end += 1 }
            let group = packets[start..<end]
            let positions = group.compactMap { $0.pts.map(grid.position(ofPTS:)) }
            let first = positions.min() ?? 0, last = positions.max() ?? 0
            let whole = group.first!.idr && positions.count == group.count
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
        return ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, gops: clean)
    }
}
