import SegueMedia
/// The output's sound, as every clip's sound is made for it: AAC-LC, 48 kHz
/// stereo, encoded in frames of 1024 samples. The canvas's rate is
/// `StitchSettings.sampleRate` (48 kHz unless a caller asks otherwise);
/// `--smart` and segments lay their AAC frames on this frame size.
package enum OutputAudio {
    /// Samples in one AAC-LC frame (the encoder's `frame_size`).
    package static let frameSize = 1024
    /// Samples a second, when nothing else is asked for.
    package static let sampleRate = 48_000
    /// Channels, and their layout as libavfilter names it.
    package static let channels = 2
    package static let channelLayout = "stereo"
}
