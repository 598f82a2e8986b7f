internal import SegueMedia
import SegueModel

/// The stitch's sound is stereo all through; a mono output (`--smart`
/// copying mono phone sound) is encoded from the two channels' sum at -3 dB,
/// which gives back a mono clip's own samples (libswresample spreads mono to
/// both sides at -3 dB) and is the usual downmix of real stereo.
enum MonoDownmix {
    static let gain = Float(0.5.squareRoot())

    /// `count` samples of stereo `sound` from `offset`, as one channel.
    static func samples(_ sound: [[Float]], from offset: Int, count: Int) -> [[Float]] {
        precondition(sound.count == 2 && sound.allSatisfy { $0.count >= offset + count }, "a stereo stretch to downmix")
        return [(offset..<offset + count).map { (sound[0][$0] + sound[1][$0]) * gain }]
    }

    /// A stereo planar-float block as one channel, its pts kept.
    static func block(_ stereo: Frame) throws -> Frame {
        let sound = [stereo.samples(channel: 0), stereo.samples(channel: 1)]
        let mono = try Frame.audio(sampleCount: stereo.sampleCount, channels: 1, sampleRate: stereo.sampleRate)
        mono.setSamples(from: samples(sound, from: 0, count: stereo.sampleCount), start: 0)
        mono.pts = stereo.pts
        return mono
    }
}
