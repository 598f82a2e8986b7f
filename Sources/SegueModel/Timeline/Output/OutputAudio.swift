import SegueMedia
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
    /// clips' AAC sound, by seconds heard (on a tie the higher rate, then
    /// stereo), so that sound can be copied; nil when no clip has AAC sound
    /// at one of `copiedRates` in one or two channels.
    package static func copiedFormat(of clips: [ClipInfo]) -> (sampleRate: Int, channels: Int)? {
        struct Format: Hashable { var sampleRate: Int, channels: Int }
        var seconds: [Format: Double] = [:]
        for clip in clips where !clip.isStill {
            guard let audio = clip.audio, audio.codec == "aac", copiedRates.contains(audio.sampleRate),
                  (1...2).contains(audio.channels) else { continue }
            seconds[Format(sampleRate: audio.sampleRate, channels: audio.channels), default: 0] += clip.duration
        }
        let most = seconds.max { ($0.value, $0.key.sampleRate, $0.key.channels) < ($1.value, $1.key.sampleRate, $1.key.channels) }?.key
        return most.map { ($0.sampleRate, $0.channels) }
    }
}
