import Foundation
import SegueInput
import SegueModel
internal import SegueMedia

/// With `--smart`, what a moved clip's sound does at its edges: what plays
/// before its own sound when it stands late (silence, or at a cut the
/// outgoing clip's sound running on, crossfaded into its first own samples),
/// and, past its last picture, its own sound continued where it has ended.
struct SoundEdges {
    /// Samples over which a cut between moved clips is crossfaded (2.7 ms at
    /// 48 kHz): the two sides no longer meet at the samples the plain stitch
    /// joins, and a jump between others could click where its doesn't.
    static let cutFade = 128

    /// What plays before the clip's own sound, still to be handed out.
    private var leading: [[Float]]
    /// The outgoing clip's sound still to crossfade into the clip's first own samples.
    private var fadingOut: [[Float]] = [[], []]
    /// The last two stretches handed out (their arrays, not copies): what a
    /// sound that has ended is continued from.
    private var recent: [[[Float]]] = []

    /// `delay` samples of silence before the clip's own sound.
    init(delay: Int) {
        precondition(delay >= 0, "a negative delay")
        leading = [[Float]](repeating: [Float](repeating: 0, count: delay), count: OutputAudio.channels)
    }

    /// Samples still to play before the clip's own sound.
    var delay: Int { leading[0].count }

    /// At a cut: `samples` (the outgoing clip's sound running on) play
    /// instead of the silence before the clip's own sound, and their last
    /// `cutFade` crossfade into its first own samples.
    mutating func leadIn(_ samples: [[Float]]) {
        precondition(samples.count == OutputAudio.channels && samples.allSatisfy { $0.count == delay + SoundEdges.cutFade },
                     "a lead-in of another length")
        leading = samples.map { Array($0.prefix(delay)) }
        fadingOut = samples.map { Array($0.dropFirst(delay)) }
    }

    /// `own` samples of the clip's sound, after `lead` samples of what plays
    /// before them and with what is left of a cut's crossfade; remembered.
    mutating func around(_ own: [[Float]], lead: Int) -> [[Float]] {
        precondition(lead >= 0 && lead <= delay && own.count == OutputAudio.channels, "more lead than there is, or not stereo")
        var samples = own
        if !fadingOut[0].isEmpty { fadeIn(&samples) }
        if lead > 0 {
            for channel in samples.indices { samples[channel].insert(contentsOf: leading[channel].prefix(lead), at: 0) }
            leading = leading.map { Array($0.dropFirst(lead)) }
        }
        recent = Array((recent + [samples]).suffix(2))
        return samples
    }

    /// Replaces `samples` from `real` on with the sound so far (what was
    /// handed out, then `samples` up to `real`) continued (`SoundContinuation`).
    func continuing(_ samples: inout [[Float]], from real: Int) {
        precondition(samples.count == OutputAudio.channels && real >= 0 && real <= samples[0].count, "continuing from outside the samples")
        var history = recent.reduce(into: [[Float]](repeating: [], count: OutputAudio.channels)) { joined, part in
            for channel in joined.indices { joined[channel] += part[channel] }
        }
        for channel in history.indices { history[channel] += samples[channel][..<real] }
        let continued = SoundContinuation.continuing(history, count: samples[0].count - real)
        for channel in samples.indices { samples[channel].replaceSubrange(real..., with: continued[channel]) }
    }

    /// Crossfades what is left of `fadingOut` into the start of `samples`
    /// (equal power: the two sides are unrelated sounds).
    private mutating func fadeIn(_ samples: inout [[Float]]) {
        let count = min(fadingOut[0].count, samples[0].count), done = SoundEdges.cutFade - fadingOut[0].count
        for index in 0..<count {
            let angle = (Double(done + index) + 0.5) / Double(SoundEdges.cutFade) * Double.pi / 2
            let incoming = Float(sin(angle)), outgoing = Float(cos(angle))
            for channel in samples.indices {
                samples[channel][index] = samples[channel][index] * incoming + fadingOut[channel][index] * outgoing
            }
        }
        fadingOut = fadingOut.map { Array($0.dropFirst(count)) }
    }
}
