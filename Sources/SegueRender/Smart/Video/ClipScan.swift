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
    private var packets: [(pts: Int64?, randomAccess: Bool, openKey: Bool, reference: Bool)] = []
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
        packets.append((packet.pts, randomAccess, openKey, reference))
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
    /// own that `ClipCopyPlan` settles by its neighbours.
    mutating func copyPlan(ownFrames: Range<Int>, frameCount: Int, keepFirst: Bool, keepLast: Bool) -> ClipCopyPlan {
        let splits = copyStarts()
        var gops: [ClipCopyPlan.GOP] = []
        /// Each group's frame positions in decoding order (nil: off the grid or unstamped).
        var groups: [[Int?]] = []
        var start = 0
        while start < packets.count {
            var end = start + 1
            while end < packets.count && !splits[end] { end += 1 }
            let positions = packets[start..<end].map { packet in packet.pts.flatMap { grid.isOnGrid($0) ? grid.position(ofPTS: $0) : nil } }
            groups.append(positions)
            if splits[start], let key = positions[0], !positions.contains(nil) {
                let present = positions.compactMap { $0 }
                let leading = present.filter { $0 < key }, trailing = present.filter { $0 >= key }
                // Leading pictures come straight after their keyframe and fill the positions just before it.
                let leadingWhole = present.dropFirst().prefix(leading.count).allSatisfy { $0 < key }
                    && Set(leading).count == leading.count && (leading.min() ?? key) == key - leading.count
                let last = trailing.max() ?? key
                if leadingWhole && Set(trailing).count == trailing.count && last - key + 1 == trailing.count {
                    var copied = key >= ownFrames.lowerBound && last < ownFrames.upperBound && last < frameCount
                    if copied && ((keepFirst && key == 0) || (keepLast && last == frameCount - 1)) { copied = false }
                    if !leading.isEmpty { gops.append(.init(frames: (key - leading.count)..<key, copied: false, leading: true)) }
                    gops.append(.init(frames: key..<(last + 1), copied: copied))
                }
            }
            start = end
        }
        var plan = ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, syntax: syntax,
                                gops: ClipScan.cleaned(gops, frameCount: frameCount))
        if splits != packets.map(\.randomAccess) { plan.openGOPSlices = slices }
        // Decoding times may run at most this far behind the frame numbers:
        // each copied packet's, counted from the first copied position of its group.
        for group in groups {
            let copied = group.compactMap { $0 }.filter(plan.isCopied)
            guard let first = copied.min() else { continue }
            for (offset, position) in copied.enumerated() { reorderDelay = max(reorderDelay, offset - (position - first)) }
        }
        return plan
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
