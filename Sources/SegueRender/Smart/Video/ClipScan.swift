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
    /// Packets in decoding order: their pts, whether decoding can start at
    /// them, and whether they can't be decoded when it starts at the last such.
    private var packets: [(pts: Int64?, randomAccess: Bool, skippedLeading: Bool)] = []
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
        var randomAccess = false, skippedLeading = false
        let syntax = syntax
        packet.forEachNALUnit(lengthSize: 4) { header, unit in
            let type = syntax.unitType(header: header)
            if syntax.isRandomAccess(type) { randomAccess = true }
            if syntax.isSkippedLeading(type) { skippedLeading = true }
            if syntax == .hevc, type == HEVC.prefixSEI, !namesSetsInSEI || outputHDRSEI != nil {
                let types = HEVC.seiPayloadTypes(unit())
                namesSetsInSEI = namesSetsInSEI || types.contains { $0 == 0 || $0 == 129 }
                if outputHDRSEI != nil { hdrSEI.formUnion(types.compactMap(HDRSEI.init(rawValue:))) }
            }
            guard syntax.isParameterSet(type) else { return }
            carriesParameterSets = true
            note(unit())
        }
        packets.append((packet.pts, randomAccess, skippedLeading))
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
        // Frames planned past the clip's last picture hold it: the GOP that
        // shows it is decoded (a copied one's pictures never reach the video path).
        if let lastPicture = gops.map(\.frames.upperBound).max(), lastPicture < frameCount,
           let index = gops.firstIndex(where: { $0.frames.upperBound == lastPicture }) {
            gops[index] = .init(frames: gops[index].frames, copied: false)
        }
        // Keep only GOPs that don't overlap each other (a broken stream might).
        gops.sort { $0.frames.lowerBound < $1.frames.lowerBound }
        var clean: [ClipCopyPlan.GOP] = []
        for gop in gops where clean.last.map({ $0.frames.upperBound <= gop.frames.lowerBound }) ?? true { clean.append(gop) }
        return ClipCopyPlan(origin: grid.origin, timeBase: grid.timeBase, frameRate: grid.frameRate, syntax: syntax, gops: clean)
    }
}
