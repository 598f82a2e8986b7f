internal import SegueMedia
import SegueInput
import SegueModel

/// `--smart`'s move of one clip's sound: every clip of a stitch whose sound is
/// copied anywhere gets one, so a cut between any two can run on and crossfade.
struct ClipSoundMove: SoundMove {
    /// The clip's copied AAC packets; nil when its sound is not copied (it stays where it is).
    var copy: ClipSoundCopy?

    func moving(_ sound: ClipSound) -> any MovedSound {
        MovedClipSound(sound: sound, copy: copy)
    }
}

/// A clip's sound moved by its copy's `shift` to meet its copied packets
/// (they decode to it there): that many samples late (silence before it),
/// or early (its first samples dropped, and as many played past its last
/// picture). Its copied packets are set aside as they are read (they are
/// decoded too: windows around them are encoded from their sound).
final class MovedClipSound: MovedSound {
    private let sound: ClipSound
    private let copy: ClipSoundCopy?
    /// What plays before the clip's own sound when it stands late, and its
    /// sound continued past its last picture.
    private var edges: SoundEdges

    init(sound: ClipSound, copy: ClipSoundCopy?) {
        self.sound = sound
        self.copy = sound.isHeard ? copy : nil
        let shift = self.copy?.shift ?? 0
        edges = SoundEdges(delay: max(0, shift))
        sound.skipStart(max(0, -shift))
        if let copy = self.copy { sound.setAside = { copy.slot(ofPTS: $0) } }
    }

    var shift: Int { copy?.shift ?? 0 }
    var delay: Int { edges.delay }

    /// Exactly `count` samples per channel, silence where the clip has none
    /// (and first what plays before its own sound, when it stands late).
    func next(_ count: Int) throws -> [[Float]] {
        // A copied clip moved early plays past its last picture; nothing else does.
        try take(count, continuingPastEnd: copy != nil)
    }

    /// At a cut: the clip's own sound beyond its last picture (a phone's runs
    /// on a few tens of milliseconds), continued where it has ended.
    func runOn(_ count: Int) throws -> [[Float]] {
        try take(count, continuingPastEnd: true)
    }

    /// At a cut where either clip's sound was moved: the outgoing clip's sound
    /// runs on until this clip's starts (late, by `delay`), and its last
    /// `SoundEdges.cutFade` samples crossfade into this one's first.
    func leadIn(from outgoing: any MovedSound) throws {
        guard shift != 0 || outgoing.shift != 0 else { return }
        edges.leadIn(try outgoing.runOn(delay + SoundEdges.cutFade))
    }

    func takeCopied() -> [(packet: Packet, slot: Int)] {
        sound.takeSetAside().map { ($0.packet, $0.number) }
    }

    private func take(_ count: Int, continuingPastEnd: Bool) throws -> [[Float]] {
        precondition(count >= 0, "a negative number of samples")
        let lead = min(count, edges.delay)
        let start = sound.position, padding = sound.padded
        var samples = try sound.next(count - lead)
        if continuingPastEnd, start + samples[0].count > sound.pictureSamples {
            try sound.readOn(past: start + samples[0].count)
            continuePastEnd(&samples, from: start, padded: sound.padded - padding)
        }
        return edges.around(samples, lead: lead)
    }

    /// Past its last picture a clip's sound plays only moved early, or
    /// running on at a cut: where its sound has ended there (its packets'
    /// end, or `padded` samples made up at the end of `samples`, which start
    /// at clip time `start`), its last stretch is continued, not left a gap
    /// the plain stitch doesn't have. A sound that ended before the picture
    /// did stays silent, as there.
    private func continuePastEnd(_ samples: inout [[Float]], from start: Int, padded: Int) {
        let count = samples[0].count, pictureSamples = sound.pictureSamples, soundEnd = sound.soundEnd
        let real = max(0, max(pictureSamples, min(soundEnd, start + count - padded)) - start)
        guard real < count else { return }
        if soundEnd >= pictureSamples {
            edges.continuing(&samples, from: real)
        } else {
            for channel in samples.indices { samples[channel].replaceSubrange(real..., with: repeatElement(0, count: count - real)) }
        }
    }
}
