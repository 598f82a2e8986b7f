internal import SegueMedia
import SegueModel

/// Planar float samples (one array per channel) waiting to be taken, oldest
/// first. Taken samples are removed in batches, so taking is cheap.
struct SampleQueue {
    /// Every channel's samples, all of one length; those from the head on are
    /// waiting. Decoders append here directly.
    var channels: [[Float]]
    private var head = 0

    init(channels count: Int = 2) {
        precondition(count > 0, "a sample queue needs at least one channel")
        channels = Array(repeating: [], count: count)
    }

    /// Samples per channel waiting.
    var count: Int { channels[0].count - head }

    /// Appends a block of planar float samples with as many channels as the queue.
    mutating func append(_ block: Frame) {
        precondition(block.channelCount == channels.count,
                     "a block of \(block.channelCount) channels for a queue of \(channels.count)")
        block.appendSamples(to: &channels)
    }

    /// Drops the oldest `n` samples (at most what is waiting).
    mutating func drop(_ n: Int) {
        precondition(n >= 0, "a negative number of samples to drop")
        head += min(n, count)
        compact()
    }

    /// The oldest `wanted` samples per channel, silence past what is waiting,
    /// and how many of them were waiting.
    mutating func take(_ wanted: Int) -> (samples: [[Float]], available: Int) {
        precondition(wanted >= 0, "a negative number of samples to take")
        precondition(channels.hasEqualChannels, "channels of different lengths")
        let available = min(wanted, count)
        var chunk = channels.map { Array($0[head..<(head + available)]) }
        head += available
        compact()
        if available < wanted {
            for channel in chunk.indices { chunk[channel].append(contentsOf: repeatElement(0, count: wanted - available)) }
        }
        return (chunk, available)
    }

    private mutating func compact() {
        guard head > 1 << 16 else { return }
        for channel in channels.indices { channels[channel].removeFirst(head) }
        head = 0
    }
}

extension Array where Element == [Float] {
    /// Whether every channel of this planar sound holds as many samples as the first.
    package var hasEqualChannels: Bool { allSatisfy { $0.count == first?.count } }
}
