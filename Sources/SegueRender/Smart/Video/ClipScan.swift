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
    /// Packets in decoding order: their pts, and whether decoding can start at them.
    private var packets: [(pts: Int64?, randomAccess: Bool)] = []
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
        var randomAccess = false
        let syntax = syntax
        packet.forEachNALUnit(lengthSize: 4) { header, unit in
            let type = syntax.unitType(header: header)
            if syntax.isRandomAccess(type) { randomAccess = true }
            if syntax == .hevc, type == HEVC.prefixSEI, !namesSetsInSEI || outputHDRSEI != nil {
                let types = HEVC.seiPayloadTypes(unit())
                namesSetsInSEI = namesSetsInSEI || types.contains { $0 == 0 || $0 == 129 }
                if outputHDRSEI != nil { hdrSEI.formUnion(types.compactMap(HDRSEI.init(rawValue:))) }
            }
            guard syntax.isParameterSet(type) else { return }
            carriesParameterSets = true
            note(unit())
        }
        packets.append((packet.pts, randomAccess))
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
        var gops: [ClipCopyPlan.GOP] = []
        /// Each group's frame positions in decoding order (nil: off the grid or unstamped).
        var groups: [[Int?]] = []
        var start = 0
        while start < packets.count {
            var end = start + 1
            while end < packets.count && !packets[end].randomAccess { end += 1 }
            let positions = packets[start..<end].map { packet in packet.pts.flatMap { grid.isOnGrid($0) ? grid.position(ofPTS: $0) : nil } }
            groups.append(positions)
            if packets[start].randomAccess, let key = positions[0], !positions.contains(nil) {
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
        let plan = ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, syntax: syntax, gops: clean)
        // Decoding times may run at most this far behind the frame numbers:
        // each copied packet's, counted from the first copied position of its group.
        for group in groups {
            let copied = group.compactMap { $0 }.filter(plan.isCopied)
            guard let first = copied.min() else { continue }
            for (offset, position) in copied.enumerated() { reorderDelay = max(reorderDelay, offset - (position - first)) }
        }
        return plan
    }
}
