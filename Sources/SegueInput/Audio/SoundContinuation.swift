import SegueModel
internal import SegueMedia
/// Sound made up past a sound's end where silence would be heard as a gap
/// (`--smart` moves a clip's sound up to half an AAC frame, and the clip
/// before it fills the wait with its own sound run on: one that has ended is
/// continued here).
package enum SoundContinuation {
    /// Samples compared at the end (5 ms at 48 kHz).
    static let window = 256
    /// The longest stretch repeated.
    static let longest = 2048

    /// `count` samples after `history` (planar, two channels): its last
    /// stretch repeated, from the lag at which its end best matches what came
    /// before (for a tone, whole periods), so the join makes no jump. Silence
    /// when `history` is too short to search.
    package static func continuing(_ history: [[Float]], count: Int) -> [[Float]] {
        precondition(count >= 0 && !history.isEmpty && history.hasEqualChannels, "continuing sound of another shape")
        let length = history[0].count
        let shortest = max(32, min(count, longest))
        guard length >= window + shortest else {
            return [[Float]](repeating: [Float](repeating: 0, count: count), count: history.count)
        }
        let lag = bestLag(history, in: shortest...min(length - window, shortest + longest))
        return history.map { channel in
            (0..<count).map { channel[length - lag + $0 % lag] }
        }
    }

    /// The lag in `lags` at which the last `window` samples best match those `lag` earlier (normalised correlation).
    static func bestLag(_ history: [[Float]], in lags: ClosedRange<Int>) -> Int {
        let end = history[0].count
        var best = (lag: lags.lowerBound, score: -Double.infinity)
        for lag in lags {
            var dot: Float = 0, energy: Float = 0, reference: Float = 0
            for channel in history {
                for index in (end - window)..<end {
                    let a = channel[index], b = channel[index - lag]
                    dot += a * b
                    energy += b * b
                    reference += a * a
                }
            }
            let product = Double(energy) * Double(reference)
            let score = product < 1e-12 ? 0 : Double(dot) / product.squareRoot()
            if score > best.score { best = (lag, score) }
        }
        return best.lag
    }
}
