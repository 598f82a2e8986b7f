internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel

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
    /// The copied packet the video path reached: the stitcher takes it next.
    private var held: Packet?

    init(plan: ClipCopyPlan, demuxer: Demuxer, router: PacketRouter, video: VideoNormaliser, damage: DamagePolicy) throws {
        self.plan = plan
        self.router = router
        self.video = video
        self.damage = damage
        checker = damage.strict ? try Decoder(demuxer: demuxer, streamIndex: video.decoder.streamIndex, threads: 1) : nil
        checker?.failOnDamage = true
    }

    /// Whether a copied packet waits for the stitcher: no picture comes before it is taken.
    var isHolding: Bool { held != nil }

    /// Keeps `packet` for the stitcher if the plan copies it: its frame
    /// position, or nil for a packet to decode.
    func holdIfCopied(_ packet: Packet) -> Int? {
        guard let position = position(of: packet) else { return nil }
        held = packet
        return position
    }

    /// The next copied frame's packet, in decoding order, and its frame position.
    func next() throws -> (packet: Packet, position: Int) {
        while true {
            guard let packet = try takeHeld() ?? router.nextPacket(video: true) else {
                throw SegueError(.readFailed, subject: damage.subject, detail: "its packets ended before the planned copy")
            }
            guard let position = position(of: packet) else {
                // Decoded on the way (from a keyframe before the in point): its pictures fall before the copy.
                _ = try video.decode(packet)
                continue
            }
            try video.endStretch(before: position)
            video.noteCopied(position)
            let startsRun = plan.startsCopiedRun(position)
            if startsRun { CopiedRuns.markAsBrokenLink(packet, plan.syntax) }
            try check(packet, startsRun: startsRun)
            if let renumbering = plan.renumbering { try CopiedRuns.renumber(packet, renumbering) }
            return (packet, position)
        }
    }

    private func takeHeld() -> Packet? {
        defer { held = nil }
        return held
    }

    /// The frame position of a packet the plan copies, nil for one that is decoded.
    private func position(of packet: Packet) -> Int? {
        guard let pts = packet.pts else { return nil }
        let position = plan.position(ofPTS: pts)
        return plan.isCopied(position) ? position : nil
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
    /// after: marked a broken link (BLA, having no leading pictures), it starts
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
