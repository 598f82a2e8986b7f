internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// With `--smart`: a clip's copied GOPs, whose packets are handed to the
/// stitcher as they are, undecoded, in decoding order, with their frame
/// positions. Packets met before a copied run (decoding resumes at a keyframe
/// before the in point) go to the video path; its decoded stretch ends where
/// the copied run begins.
final class CopiedRuns: CopiedPackets {
    let plan: ClipCopyPlan
    private let router: PacketRouter
    private let video: VideoNormaliser
    private let damage: DamagePolicy
    /// With `--strict`: a decoder that checks the copied packets too (their
    /// pictures are dropped), so damage in them stops the stitch as it does
    /// anywhere else.
    private let checker: Decoder?
    private let checked = Frame()
    /// Copied packets the video path reached, with where they show: the stitcher takes them next.
    private var held: [CopiedPacket] = []
    /// Packets of the timed GOP being taken (`ClipCopyPlan.TimedPictures`) still to hand on.
    private var timedLeft = 0
    /// The position of a held keyframe whose leading pictures, which follow
    /// it, are still being decoded: the decoded stretch ends there after them.
    private var leadingBefore: Int?
    /// H.264: in a run that starts at an open GOP's I picture, rewritten as an
    /// IDR, how far its pictures' frame_num and POC are moved back to count
    /// from it, and how many reference pictures the run has had since.
    private var countedBack: (frameNum: Int, pocLsb: Int, references: Int)?

    init(plan: ClipCopyPlan, demuxer: Demuxer, router: PacketRouter, video: VideoNormaliser, damage: DamagePolicy) throws {
        self.plan = plan
        self.router = router
        self.video = video
        self.damage = damage
        checker = damage.strict ? try Decoder(demuxer: demuxer, streamIndex: video.decoder.streamIndex, threads: 1) : nil
        checker?.failOnDamage = true
    }

    /// Whether a copied packet waits for the stitcher: no picture comes before it is taken.
    var isHolding: Bool { !held.isEmpty && leadingBefore == nil }

    /// Keeps `packet` for the stitcher if the plan copies it, ending the
    /// decoded stretch before it; false for a packet to decode.
    func holdIfCopied(_ packet: Packet) throws -> Bool {
        guard let time = packet.pts.flatMap(plan.copiedTime(ofPTS:)) else { return false }
        try meet(packet, at: time.frame)
        held.append(CopiedPacket(packet: packet, time: time))
        return true
    }

    /// The copied packets that belong to frame `position`: the next one; of
    /// a timed GOP, those that show before the next frame (at its last frame, the rest).
    func take(at position: Int) throws -> [CopiedPacket] {
        guard let gop = plan.copiedTimedGOP(showing: position), let timed = gop.timed else { return [try next()] }
        if position == gop.frames.lowerBound { timedLeft = timed.pictures }
        var taken: [CopiedPacket] = []
        while timedLeft > 0 {
            try readToHeld()
            guard position == gop.frames.upperBound - 1 || held[0].time.frame <= position else { break }
            taken.append(try next())
            timedLeft -= 1
        }
        // The GOP's last picture (in decoding order: the track's duration counts from it) lasts to the GOP's end.
        if timedLeft == 0, !taken.isEmpty { taken[taken.count - 1].end = FrameTime(frame: gop.frames.upperBound) }
        return taken
    }

    /// Reads on (decoding what comes before) until a copied packet is held.
    private func readToHeld() throws {
        while !isHolding {
            guard let packet = try router.nextPacket(video: true) else {
                // The file ends inside a keyframe's leading pictures: they are all decoded.
                if !held.isEmpty { try endLeading(); break }
                throw SegueError(.readFailed, subject: damage.subject, detail: "its packets ended before the planned copy")
            }
            // Decoded on the way (from a keyframe before the in point, or leading pictures): shown before the copy.
            if try !holdIfCopied(packet) { _ = try video.decode(packet) }
        }
    }

    /// The next copied packet, in decoding order, rewritten as the track needs it.
    private func next() throws -> CopiedPacket {
        try readToHeld()
        let copied = held.removeFirst()
        let packet = copied.packet
        let startsRun = copied.time.fraction.numerator == 0 && plan.startsCopiedRun(copied.time.frame)
        if startsRun { CopiedRuns.markAsBrokenLink(packet, plan.syntax) }
        if let slices = plan.openGOPSlices { try countFromOpenGOPStart(packet, startsRun: startsRun, slices) }
        try check(packet, startsRun: startsRun)
        if let renumbering = plan.renumbering { try CopiedRuns.renumber(packet, renumbering) }
        return copied
    }

    /// What the video path does with a copied packet as it is read: a run's
    /// keyframe whose leading pictures are decoded goes to the decoder before
    /// them; a GOP whose pictures they refer to goes too; otherwise the
    /// decoded stretch ends before the copy.
    private func meet(_ packet: Packet, at position: Int) throws {
        try endLeading()
        if plan.leadsDecodedPictures(position) {
            _ = try video.decode(packet)
            leadingBefore = position
        } else if plan.isDecodedToo(position) {
            if plan.startsGOP(position) { try video.endStretch(before: position) }
            _ = try video.decode(packet)
        } else if !plan.isLeading(position) {
            // Copied leading pictures follow their run's keyframe, which already ended the stretch (or opened the GOP's own).
            try video.endStretch(before: position)
        }
        video.noteCopied(position)
    }

    /// After a held keyframe's leading pictures: the decoded stretch ends before it.
    private func endLeading() throws {
        guard let position = leadingBefore else { return }
        leadingBefore = nil
        try video.endStretch(before: position)
    }

    /// Decodes a copied packet with `checker` (`--strict`), each copied run
    /// on its own as the output's decoders meet it.
    private func check(_ packet: Packet, startsRun: Bool) throws {
        guard let checker else { return }
        _ = try damage.survives {
            if startsRun {
                try checker.sendEndOfStream()
                while try checker.receive(into: checked) == .ready {}
                checker.reset()
            }
            try checker.send(packet)
            while try checker.receive(into: checked) == .ready {}
        }
    }

    /// H.264 open GOPs: an I picture that opens a copied run is rewritten as
    /// an IDR (only there can decoding start afresh and take the clip's
    /// parameter sets); the run's later pictures count frame_num and POC from
    /// it, until the clip's next IDR, and mark no picture from before it unused.
    private func countFromOpenGOPStart(_ packet: Packet, startsRun: Bool, _ slices: H264SliceSyntax) throws {
        var isIDR = false, reference = false
        var first: H264SliceHeader?
        packet.forEachNALUnit(lengthSize: 4) { header, unit in
            let type = Int(header & 0x1F)
            guard type == H264.nonIDRSlice || type == H264.idrSlice else { return }
            isIDR = isIDR || type == H264.idrSlice
            reference = reference || header & 0x60 != 0
            if first == nil { first = slices.header(unit(ClipScan.sliceHeaderBytes)) }
        }
        if isIDR || (startsRun && first?.sliceType != 2) {
            countedBack = nil
            return
        }
        if startsRun, let first { countedBack = (first.frameNum, first.pocLsb ?? 0, 0) }
        guard let back = countedBack else { return }
        try packet.rewriteNALUnits(lengthSize: 4) { unit in
            guard let type = unit.first.map({ Int($0 & 0x1F) }), type == H264.nonIDRSlice else { return nil }
            let rewritten = startsRun ? slices.idrSlice(unit, idrPicID: 1)
                : slices.renumberedSlice(unit, frameNumBack: back.frameNum, pocLsbBack: back.pocLsb)
                    .flatMap { slices.withoutMarkingBeforeIDR($0, referencesSinceIDR: back.references) }
            guard let rewritten else { throw SegueError(.writeFailed, subject: damage.subject, detail: "a copied H.264 slice header could not be rewritten") }
            return rewritten
        }
        if reference { countedBack?.references += 1 }
    }

    /// Gives a copied packet's parameter sets and slices the ids the track
    /// gives its clip (after the check, whose decoder knows the clip's own).
    private static func renumber(_ packet: Packet, _ renumbering: HEVCRenumbering) throws {
        try packet.rewriteNALUnits(lengthSize: 4) { unit in
            guard let renumbered = renumbering.apply(unit) else {
                throw SegueError(.writeFailed, detail: "a copied HEVC unit could not be renumbered")
            }
            return renumbered
        }
    }

    /// An HEVC CRA that opens a copied run follows pictures it wasn't coded
    /// after: marked a broken link (BLA, having no leading pictures: they are
    /// decoded and re-encoded before it), it starts
    /// a new coded video sequence, so decoders reset picture order and may
    /// switch parameter sets there. An IDR already does.
    private static func markAsBrokenLink(_ packet: Packet, _ syntax: CopySyntax) {
        guard syntax == .hevc else { return }
        packet.rewriteNALUnits(lengthSize: 4) { unit in
            guard HEVC.unitType(unit) == HEVC.cleanRandomAccess else { return nil }
            var marked = unit
            marked[0] = (unit[0] & 0x81) | UInt8(HEVC.brokenLinkWithoutLeading << 1)
            return marked
        }
    }
}

extension ClipCopyPlan: VideoCopy {
    func runs(demuxer: Demuxer, router: PacketRouter, video: VideoNormaliser, damage: DamagePolicy) throws -> any CopiedPackets {
        try CopiedRuns(plan: self, demuxer: demuxer, router: router, video: video, damage: damage)
    }
}
