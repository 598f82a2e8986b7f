internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel

/// A clip's video packets as `--smart` reads them, one at a time: GOP
/// boundaries, frame positions, parameter sets. Its quality
/// (`ClipQuality`) is read apart, only for the clips that need it.
struct ClipScan: Sendable {
    let syntax: CopySyntax
    let description: CopySyntax.Description
    /// The video stream's index in the file.
    let streamIndex: Int
    /// Where its chroma samples sit (the VUI's chroma_sample_loc_type), nil when unsaid.
    let chromaSiteType: Int?
    /// Every parameter set the clip's pictures may refer to, its header's and in-band.
    private(set) var parameterSets: [CopySyntax.SetKey: [UInt8]] = [:]
    /// Whether its samples repeat parameter sets in-band.
    private(set) var carriesParameterSets = false
    /// Whether SEI in its samples names a parameter set by id (HEVC buffering
    /// period, active parameter sets): renumbering its sets would leave those behind.
    private(set) var namesSetsInSEI = false
    private(set) var reorderDelay = 0
    private let grid: ClipCopyPlan
    /// The output's bits per sample, which a sample description taking over midway must keep.
    private let bitDepth: Int
    /// The HDR10 SEI the output's re-encoded pictures carry (nil: not checked,
    /// for SDR output), and those met in the clip's header and samples.
    private let outputHDRSEI: Set<HDRSEI>?
    private var hdrSEI: Set<HDRSEI> = []
    /// Packets in decoding order: their pts; whether decoding can start at
    /// them; whether a copy can start at them if the pictures after them that
    /// show before them are left out (an H.264 open GOP's I picture, which
    /// can be rewritten as an IDR); whether other pictures may refer to them.
    private var packets: [(pts: Int64?, duration: Int64, randomAccess: Bool, openKey: Bool, reference: Bool)] = []
    /// Whether the clip's pictures come at irregular times: a GOP off the
    /// frame grid is copied at its pictures' own times (`ClipCopyPlan.TimedPictures`).
    private let variableRate: Bool
    /// A variable-rate clip's GOPs off the grid whose times are too irregular to copy them at.
    private(set) var irregularGOPs = 0
    /// H.264: reads and rewrites the clip's slice headers, once an open GOP's
    /// I picture is met; nil until then, or when its parameter sets can't be read.
    private var slices: H264SliceSyntax?
    /// H.264: a slice header after the first open GOP's I picture couldn't be read (none is then rewritten).
    private var unreadableSlice = false
    /// H.264 open GOPs' I pictures after which a reference picture shows before them (B-pyramid).
    private(set) var referencedLeading = 0
    /// A parameter set met again with other content under the same id.
    private var inBandConflict = false

    /// Checks the video stream's header; its packets then go to `take`.
    init(clip: PlannedClip, demuxer: Demuxer, canvas: Canvas, syntax: CopySyntax) throws {
        self.syntax = syntax
        guard let index = demuxer.bestStream(.video) else { throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream") }
        streamIndex = index
        let stream = demuxer.streams[index]
        chromaSiteType = stream.chromaSiteType
        bitDepth = canvas.colour.bitDepth
        variableRate = clip.info.facts.variableFrameRate
        if let unfit = syntax.unfitness(stream.extradata, bitDepth: bitDepth) { throw ClipScan.unfit(unfit) }
        guard let description = syntax.description(stream.extradata) else { throw ClipScan.unfit(.unreadableDescription) }
        self.description = description
        grid = ClipCopyPlan(origin: clip.info.origin(in: stream),
                            timeBase: stream.timeBase, frameRate: canvas.frameRate, syntax: syntax, gops: [])
        for unit in description.units { if let key = syntax.setKey(unit) { parameterSets[key] = unit } }
        outputHDRSEI = canvas.colour.dynamicRange.isHDR && syntax == .hevc ? HDRSEI.written(for: canvas.hdrMetadata) : nil
        if outputHDRSEI != nil { description.declarations.forEach { hdrSEI.formUnion(HDRSEI.carried(by: $0)) } }
    }

    /// Takes the video stream's next packet, in file order.
    mutating func take(_ packet: Packet) throws {
        // A file joined from two recordings (two sample descriptions): the second's sets are met here.
        if let header = packet.newTrackHeader {
            guard syntax.unfitness(header, bitDepth: bitDepth) == nil, let next = syntax.description(header) else {
                throw ClipScan.unfit(.descriptionChangesToUncopyable)
            }
            next.units.forEach { note($0) }
        }
        var randomAccess = false, recoveryPoint = false, reference = false
        var pictureSlices: [[UInt8]] = []
        let syntax = syntax
        packet.forEachNALUnit(lengthSize: 4) { header, unit in
            let type = syntax.unitType(header: header)
            if syntax.isRandomAccess(type) { randomAccess = true }
            if syntax == .h264 {
                // A recovery point from which every picture shows right (a count above 0: only some pictures later).
                if type == H264.supplementalEnhancement && H264.recoveryFrameCount(unit(.max)) == 0 { recoveryPoint = true }
                if type == H264.nonIDRSlice || type == H264.idrSlice {
                    reference = reference || header & 0x60 != 0
                    // A keyframe's slices whole (they are rewritten as an IDR's to check they can be); others' headers.
                    if recoveryPoint || slices != nil { pictureSlices.append(unit(recoveryPoint ? .max : ClipScan.sliceHeaderBytes)) }
                }
            }
            if syntax == .hevc, type == HEVC.prefixSEI, !namesSetsInSEI || outputHDRSEI != nil {
                let types = HEVC.seiPayloadTypes(unit(.max))
                namesSetsInSEI = namesSetsInSEI || types.contains { $0 == 0 || $0 == 129 }
                if outputHDRSEI != nil { hdrSEI.formUnion(types.compactMap(HDRSEI.init(rawValue:))) }
            }
            guard syntax.isParameterSet(type) else { return }
            carriesParameterSets = true
            note(unit(.max))
        }
        let openKey = !randomAccess && recoveryPoint && canStartAnIDR(pictureSlices)
        if let slices, !openKey, !pictureSlices.allSatisfy({ Self.canFollowAnIDR($0, slices) }) { unreadableSlice = true }
        packets.append((packet.pts, packet.duration, randomAccess, openKey, reference))
    }

    /// Whether an H.264 picture's slices, each of an I picture, can be rewritten as an IDR's.
    private mutating func canStartAnIDR(_ pictureSlices: [[UInt8]]) -> Bool {
        if slices == nil { slices = H264SliceSyntax(parameterSets: Array(parameterSets.values)) }
        guard let slices, !pictureSlices.isEmpty else { return false }
        return pictureSlices.allSatisfy { slices.header($0)?.sliceType == 2 && slices.idrSlice($0) != nil }
    }

    /// The bytes of an H.264 slice the scan reads its header from: a header
    /// longer than this (none seen) reads as unreadable, and the clip's open
    /// GOPs are then not copied from.
    static let sliceHeaderBytes = 1024

    /// Whether an H.264 slice can be copied after an I picture rewritten as an
    /// IDR: its header read, and its memory management operations all such as
    /// can be left out when they name a picture from before it (checked as if every earlier one were).
    private static func canFollowAnIDR(_ slice: [UInt8], _ slices: H264SliceSyntax) -> Bool {
        guard let header = slices.header(slice) else { return false }
        return header.isIDR || header.nalRefIdc == 0 || slices.withoutMarkingBeforeIDR(slice, referencesSinceIDR: 1) != nil
    }

    /// After the last packet: throws when the clip's parameter sets changed midway.
    /// Throws too when its HDR10 SEI are not the kinds the output's re-encoded pictures carry.
    func finish() throws {
        if inBandConflict { throw ClipScan.unfit(.setsChangeMidway) }
        if let outputHDRSEI, hdrSEI != outputHDRSEI {
            throw ClipScan.unfit(.hdrSEI(carried: hdrSEI.sorted(), output: outputHDRSEI.sorted()))
        }
    }

    /// A parameter set met after the header: in band, or in a sample description that takes over midway.
    private mutating func note(_ unit: [UInt8]) {
        guard let key = syntax.setKey(unit) else { return }
        if let known = parameterSets[key], known != unit { inBandConflict = true }
        parameterSets[key] = unit
    }

    /// A fact found in the stream that keeps its packets out of the output.
    struct Unfit: Error {
        var reason: NotCopied
    }

    private static func unfit(_ reason: NotCopied) -> Unfit { Unfit(reason: reason) }

    /// Splits the packets where decoding can start afresh; a GOP is copied
    /// when its frames are whole (every position once, on the frame grid,
    /// none shown before its first) and all play as the clip's own. Pictures
    /// after a keyframe that show before it (an HEVC CRA's RASL pictures,
    /// which refer back across it) are its leading pictures, a GOP of their
    /// own that `ClipCopyPlan` settles by its neighbours. A variable-rate
    /// clip's GOP off the grid is copied at its pictures' own times.
    mutating func copyPlan(ownFrames: Range<Int>, frameCount: Int, keepFirst: Bool, keepLast: Bool) -> ClipCopyPlan {
        let splits = copyStarts()
        // The packets from each split to the next.
        let starts = packets.indices.filter { $0 == 0 || splits[$0] }
        let ranges = zip(starts, starts.dropFirst() + [packets.count]).map { $0..<$1 }
        var gops: [ClipCopyPlan.GOP] = []
        irregularGOPs = 0
        for (at, range) in ranges.enumerated() where splits[range.lowerBound] {
            let positions = packets[range].map { packet in packet.pts.flatMap { grid.isOnGrid($0) ? grid.position(ofPTS: $0) : nil } }
            if let key = positions[0], !positions.contains(nil),
               let whole = ClipScan.wholeGOP(positions.compactMap { $0 }, key: key, ownFrames: ownFrames, frameCount: frameCount,
                                            keepFirst: keepFirst, keepLast: keepLast) {
                gops += whole
            } else if variableRate {
                let next = at + 1 < ranges.count ? ranges[at + 1] : nil
                if let timed = timedGOP(range, next: next, ownFrames: ownFrames, frameCount: frameCount,
                                        keepFirst: keepFirst, keepLast: keepLast) {
                    gops.append(timed)
                } else {
                    irregularGOPs += 1
                }
            }
        }
        var plan = ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, syntax: syntax,
                                gops: ClipScan.cleaned(gops, frameCount: frameCount))
        if splits != packets.map(\.randomAccess) { plan.openGOPSlices = slices }
        reorderDelay = ranges.map { copiedReorderDelay($0, plan: plan) }.max() ?? 0
        return plan
    }

    /// A GOP whose pictures each sit on a frame position, as copied (after
    /// its leading pictures, when it has some); nil unless its positions are
    /// whole: leading pictures straight after their keyframe filling the
    /// positions just before it, the rest every position from it once.
    private static func wholeGOP(_ present: [Int], key: Int, ownFrames: Range<Int>, frameCount: Int,
                                 keepFirst: Bool, keepLast: Bool) -> [ClipCopyPlan.GOP]? {
        let leading = present.filter { $0 < key }, trailing = present.filter { $0 >= key }
        let leadingWhole = present.dropFirst().prefix(leading.count).allSatisfy { $0 < key }
            && Set(leading).count == leading.count && (leading.min() ?? key) == key - leading.count
        let last = trailing.max() ?? key
        guard leadingWhole && Set(trailing).count == trailing.count && last - key + 1 == trailing.count else { return nil }
        var copied = key >= ownFrames.lowerBound && last < ownFrames.upperBound && last < frameCount
        if copied && ((keepFirst && key == 0) || (keepLast && last == frameCount - 1)) { copied = false }
        let opening: [ClipCopyPlan.GOP] = leading.isEmpty ? [] : [.init(frames: (key - leading.count)..<key, copied: false, leading: true)]
        return opening + [.init(frames: key..<(last + 1), copied: copied)]
    }

    /// A variable-rate clip's GOP (packets `range`) as copied at its
    /// pictures' own times, from the frame its keyframe rounds to up to the
    /// one the next GOP's first picture (or its last's end) rounds to; nil
    /// when its times are irregular (a picture shown before its keyframe, a
    /// time missing, repeated or more than a second after the one before) or
    /// a picture would show past its last frame. The clip's last GOP lasts to
    /// the clip's last frame, its last picture held as the plain stitch holds it.
    private func timedGOP(_ range: Range<Int>, next: Range<Int>?, ownFrames: Range<Int>, frameCount: Int,
                          keepFirst: Bool, keepLast: Bool) -> ClipCopyPlan.GOP? {
        let stamps = packets[range].compactMap(\.pts)
        guard stamps.count == range.count, let key = stamps.first, let last = stamps.max() else { return nil }
        let second = Int64(grid.timeBase.denominator / max(1, grid.timeBase.numerator))
        let end: Int64
        if let next {
            guard let first = packets[next].compactMap(\.pts).min() else { return nil }
            end = first
        } else {
            end = last + (packets[range.upperBound - 1].duration > 0 ? packets[range.upperBound - 1].duration : 1)
        }
        let times = stamps.sorted() + [end]
        guard times[0] == key, zip(times, times.dropFirst()).allSatisfy({ $1 > $0 && $1 - $0 <= second }) else { return nil }
        let first = grid.position(ofPTS: key)
        var after = grid.position(ofPTS: end)
        // The clip's last picture shows on to its end, as the plain stitch holds it (up to a second).
        if next == nil, after < frameCount, Double(frameCount - after) <= grid.frameRate.value { after = frameCount }
        guard first < after, let shown = grid.timedTime(ofPTS: last, key: key, first: first), shown.frame < after else { return nil }
        var copied = first >= ownFrames.lowerBound && after <= ownFrames.upperBound && after <= frameCount
        if copied && ((keepFirst && first == 0) || (keepLast && after == frameCount)) { copied = false }
        return .init(frames: first..<after, copied: copied, timed: .init(key: key, end: end, pictures: range.count))
    }

    /// How far the decoding times of a GOP's copied packets (`range`) run
    /// behind their showing: the most that one comes after pictures it shows before.
    private func copiedReorderDelay(_ range: Range<Int>, plan: ClipCopyPlan) -> Int {
        let copied = packets[range].compactMap(\.pts).filter { plan.copiedTime(ofPTS: $0) != nil }
        let rank = Dictionary(copied.sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return copied.enumerated().map { offset, pts in offset - rank[pts]! }.max() ?? 0
    }

    /// Which packets a copy can start at: IDR, CRA, BLA; an H.264 open GOP's
    /// I picture when no picture left out of the copy after it is a reference.
    private mutating func copyStarts() -> [Bool] {
        var splits = packets.map(\.randomAccess)
        referencedLeading = 0
        for index in packets.indices where packets[index].openKey && !unreadableSlice {
            guard let key = packets[index].pts else { continue }
            let leading = packets[(index + 1)...].prefix { $0.pts.map { $0 < key } ?? true }
            if leading.contains(where: \.reference) { referencedLeading += 1 } else { splits[index] = true }
        }
        return splits
    }

    /// `gops` in order, the one that shows the clip's last picture not copied
    /// when frames are planned past it, and none overlapping another.
    private static func cleaned(_ gops: [ClipCopyPlan.GOP], frameCount: Int) -> [ClipCopyPlan.GOP] {
        var gops = gops
        // Frames planned past the clip's last picture hold it: the GOP that
        // shows it is decoded (a copied one's pictures never reach the video path).
        if let lastPicture = gops.map(\.frames.upperBound).max(), lastPicture < frameCount,
           let index = gops.firstIndex(where: { $0.frames.upperBound == lastPicture }) {
            gops[index].copied = false
        }
        // Keep only GOPs that don't overlap each other (a broken stream might);
        // a keyframe whose leading pictures are dropped so is not copied either.
        gops.sort { $0.frames.lowerBound < $1.frames.lowerBound }
        var clean: [ClipCopyPlan.GOP] = []
        var leadingDropped = false
        for var gop in gops {
            guard clean.last.map({ $0.frames.upperBound <= gop.frames.lowerBound }) ?? true else {
                leadingDropped = gop.leading
                continue
            }
            if leadingDropped && !gop.leading { gop.copied = false }
            leadingDropped = false
            clean.append(gop)
        }
        return clean
    }
}
