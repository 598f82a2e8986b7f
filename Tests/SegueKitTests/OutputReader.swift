import Foundation
@testable import SegueKit
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia

/// A decoded output, read with Segue's own demuxer and decoders.
struct DecodedOutput {
    var width = 0
    var height = 0
    /// Luma plane of every picture, in presentation order.
    var pictures: [PlaneImage] = []
    /// When each picture shows, in seconds (its pts).
    var times: [Double] = []
    /// First channel of the audio, as decoded (priming already trimmed by the demuxer).
    var audio: [Float] = []
    var sampleRate = 0
    var audioChannels = 0

    init(path: String) throws {
        let demuxer = try InputAccess().openDemuxer(path)
        let videoIndex = demuxer.bestStream(.video)
        let audioIndex = demuxer.bestStream(.audio)
        let video = try videoIndex.map { try Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) }
        let videoTimeBase = videoIndex.map { demuxer.streams[$0].timeBase }
        let sound = try audioIndex.map { try Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) }
        let packet = Packet()
        let frame = Frame()
        func drain(_ decoder: Decoder) throws {
            while try decoder.receive(into: frame) == .ready {
                if decoder === video {
                    width = frame.width
                    height = frame.height
                    pictures.append(frame.plane(0))
                    times.append(Double(frame.pts ?? 0) * (videoTimeBase?.value ?? 0))
                } else {
                    sampleRate = frame.sampleRate
                    audioChannels = frame.channelCount
                    audio += frame.samples(channel: 0)
                }
            }
        }
        while try demuxer.read(into: packet) {
            if let video, packet.streamIndex == video.streamIndex { try video.send(packet); try drain(video) }
            if let sound, packet.streamIndex == sound.streamIndex { try sound.send(packet); try drain(sound) }
        }
        for decoder in [video, sound].compactMap({ $0 }) {
            try decoder.sendEndOfStream()
            try drain(decoder)
        }
    }

    /// The audio heard during output frame `index` at `frameRate`.
    func audioChunk(frame index: Int, frameRate: Double) -> ArraySlice<Float> {
        let perFrame = Double(sampleRate) / frameRate
        let start = min(audio.count, Int((Double(index) * perFrame).rounded()))
        let end = min(audio.count, Int((Double(index + 1) * perFrame).rounded()))
        return audio[start..<end]
    }
}

enum Tone {
    /// Power of `frequency` in `samples` (Goertzel).
    static func power(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Int) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / Double(sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return (previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious)
            / Double(max(samples.count, 1) * max(samples.count, 1))
    }

    /// Which of the marker tones dominates, or nil if none clearly does.
    static func dominantClip(_ samples: ArraySlice<Float>, sampleRate: Int) -> Int? {
        let powers = Marker.tones.map { power(samples, frequency: $0, sampleRate: sampleRate) }
        let sorted = powers.sorted(by: >)
        guard let best = sorted.first, best > 1e-4, best > 4 * sorted[1] else { return nil }
        return powers.firstIndex(of: best)
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
