/// The output's sound, as every clip's sound is made for it: AAC-LC, 48 kHz
/// stereo, encoded in frames of 1024 samples. The canvas's rate is
/// `StitchSettings.sampleRate` (48 kHz unless a caller asks otherwise), or
/// with `--smart` the rate and layout most of the clips' AAC sound has (`copiedFormat`);
/// `--smart` and segments lay their AAC frames on this frame size.
package enum OutputAudio {
    /// Samples in one AAC-LC frame (the encoder's `frame_size`).
    package static let frameSize = 1024
    /// Samples a second, when nothing else is asked for.
    package static let sampleRate = 48_000
    /// Channels, and their layout as libavfilter names it.
    package static let channels = 2
    package static let channelLayout = "stereo"

    /// Rates `--smart` takes from the clips: the ones phones and cameras
    /// record at; a lower one (a camera's 8 kHz) would dull every other clip.
    package static let copiedRates: Set<Int> = [44_100, 48_000]

    /// With `--smart`: the rate and channels (mono or stereo) of most of the
    /// clips' sound, by seconds heard (on a tie the higher rate, then stereo),
    /// when some of it is AAC that can then be copied; nil (the output's
    /// usual 48 kHz stereo) when most of the sound is at another rate or
    /// layout, or none of that sound is AAC: re-encoded sound is not made
    /// mono or 44.1 kHz for a short clip's sake.
    package static func copiedFormat(of clips: [ClipInfo]) -> (sampleRate: Int, channels: Int)? {
        struct Format: Hashable { var sampleRate: Int, channels: Int }
        var seconds: [Format: Double] = [:]
        var copyable: Set<Format> = []
        for clip in clips where !clip.facts.isStill {
            guard let audio = clip.facts.audio else { continue }
            let format = Format(sampleRate: audio.sampleRate, channels: audio.channels)
            seconds[format, default: 0] += clip.use.duration
            if audio.codec == "aac" { copyable.insert(format) }
        }
        func order(_ entry: (key: Format, value: Double)) -> (Double, Int, Int) { (entry.value, entry.key.sampleRate, entry.key.channels) }
        guard let most = seconds.max(by: { order($0) < order($1) })?.key, copyable.contains(most),
              copiedRates.contains(most.sampleRate), (1...2).contains(most.channels) else { return nil }
        return (most.sampleRate, most.channels)
    }
}
