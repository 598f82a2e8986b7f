package import SegueMedia
import SegueModel

/// Gathers the output's audio and cuts it into the encoder's frame size,
/// stamping each block with its position in samples.
package struct AudioChunker {
    let frameSize: Int
    let sampleRate: Int
    private var pending: [[Float]] = [[], []]
    package private(set) var samplesWritten = 0

    package init(frameSize: Int, sampleRate: Int) {
        precondition(frameSize > 0 && sampleRate > 0, "a frame size of \(frameSize) at \(sampleRate) Hz")
        self.frameSize = frameSize
        self.sampleRate = sampleRate
    }

    package mutating func append(_ samples: [[Float]], submit: (Frame) throws -> Void) throws {
        precondition(samples.count == pending.count, "\(samples.count) channels of sound for \(pending.count)")
        precondition(samples.hasEqualChannels, "channels of different lengths")
        for channel in pending.indices { pending[channel] += samples[channel] }
        var start = 0
        while pending[0].count - start >= frameSize {
            try submit(makeBlock(start: start, count: frameSize))
            start += frameSize
        }
        if start > 0 { for channel in pending.indices { pending[channel].removeFirst(start) } }
    }

    /// Sends what is left as a shorter last block (AAC accepts a small last frame).
    package mutating func flush(submit: (Frame) throws -> Void) throws {
        guard !pending[0].isEmpty else { return }
        try submit(makeBlock(start: 0, count: pending[0].count))
        pending = [[], []]
    }

    private mutating func makeBlock(start: Int, count: Int) throws -> Frame {
        precondition(count > 0 && start >= 0 && start + count <= pending[0].count, "a block past the samples pending")
        let block = try Frame.audio(sampleCount: count, channels: OutputAudio.channels, sampleRate: sampleRate)
        block.setSamples(from: pending, start: start)
        block.pts = Int64(samplesWritten)
        samplesWritten += count
        return block
    }

    /// Samples in the short ramps around freeze joins: 10 ms at 48 kHz.
    static let rampLength = 480

    /// Ramps `sound` up from silence, from sample `start` on (silence before it).
    package static func fadeIn(_ sound: inout [[Float]]?, from start: Int = 0) {
        guard var channels = sound else { return }
        precondition(!channels.isEmpty && channels.hasEqualChannels, "channels of different lengths")
        precondition(start >= 0, "a ramp starting before the sound")
        let first = min(start, channels[0].count), length = min(rampLength, channels[0].count - first)
        for channel in channels.indices {
            for index in 0..<first { channels[channel][index] = 0 }
            for index in 0..<length { channels[channel][first + index] *= Float(index) / Float(length) }
        }
        sound = channels
    }

    /// Ramps the end of `sound` down to silence.
    package static func fadeOut(_ sound: inout [[Float]]?) {
        guard var channels = sound else { return }
        precondition(!channels.isEmpty && channels.hasEqualChannels, "channels of different lengths")
        let count = channels[0].count, length = min(rampLength, count)
        for channel in channels.indices {
            for index in 0..<length { channels[channel][count - 1 - index] *= Float(index) / Float(length) }
        }
        sound = channels
    }

    /// A crossfade of `a` out and `b` in, linear (ffmpeg's acrossfade default) unless `easing` shapes it;
    /// `offset` is where these samples sit in a transition `length` samples long.
    package static func crossfade(_ a: [[Float]], _ b: [[Float]], offset: Int, length: Int, easing: Easing = .linear) -> [[Float]] {
        precondition(a.count == b.count && zip(a, b).allSatisfy { $0.count == $1.count }, "crossfading sounds of different shapes")
        var mixed = a
        let scale = 1 / Float(max(length, 1))
        // The eased gains, once for all channels; a curve's overshoot held at the ends (the sound doesn't swell).
        let gains: [Float] = (0..<(mixed.first?.count ?? 0)).map { index in
            let linear = (Float(offset + index) + 0.5) * scale
            return easing.isLinear ? linear : Float(min(max(easing(Double(linear)), 0), 1))
        }
        for channel in mixed.indices {
            for index in mixed[channel].indices {
                let gain = gains[index]
                mixed[channel][index] = a[channel][index] * (1 - gain) + b[channel][index] * gain
            }
        }
        return mixed
    }
}
