import Foundation
internal import SegueMedia
import SegueModel

extension LoudnessMeter {
    /// Measures each timeline's own sound as it will play (its mix, before
    /// `--loudness`'s gain) with `ebur128`, for `--loudness` (one static gain
    /// for the mix) and `--music` (its reference level). The measurement rides
    /// on the timeline's sound; its clips take it as their own loudness, as
    /// their own sound is not heard. A mix that can't be measured is left as it is, with a warning.
    package static func measuringTimelineSounds(_ plan: Plan, access: InputAccess = InputAccess()) -> Plan {
        var plan = plan
        for (sound, frames, _) in plan.timelineSounds where sound.loudness == nil {
            guard let carrier = plan.clips.firstIndex(where: { $0.startFrame == frames.lowerBound && $0.info.timelineSound == sound }) else {
                continue
            }
            var loudness: ClipInfo.Loudness?
            do {
                loudness = try measureMix(plan, frames: frames, access: access)
            } catch {
                plan.notices.append(.loudnessNotMeasured(path: plan.clips[carrier].info.path, detail: describe(error)))
            }
            plan.clips[carrier].info.timelineSound?.loudness = loudness
            for index in carrier..<min(plan.clips.count, carrier + sound.clipCount) { plan.clips[index].info.loudness = loudness }
        }
        return plan
    }

    /// Whether a timeline's sound in `plan` is still to be measured.
    package static func timelineSoundsUnmeasured(_ plan: Plan) -> Bool {
        plan.timelineSounds.contains { $0.sound.loudness == nil }
    }

    /// The loudness of the timeline sound under output frames `frames`, a second at a time through `ebur128`.
    private static func measureMix(_ plan: Plan, frames: Range<Int>, access: InputAccess) throws -> ClipInfo.Loudness? {
        let mix = TimelineSoundMix(plan: plan, access: access)
        let start = plan.sampleIndex(atFrame: frames.lowerBound), end = plan.sampleIndex(atFrame: frames.upperBound)
        let rate = plan.canvas.sampleRate
        var graph: FilterGraph?
        var reading = R128Reading()
        let measured = Frame()
        func drain() throws {
            while let graph, try graph.pull(into: measured) == .ready { reading.take(measured) }
        }
        var position = start
        while position < end {
            let count = min(rate, end - position)
            let block = try Frame.audio(sampleCount: count, channels: OutputAudio.channels, sampleRate: rate)
            block.setSamples(from: try mix.sound(from: position, count: count), start: 0)
            block.pts = Int64(position - start)
            try graph.madeOnFirstUse { try FilterGraph(audioLike: block, description: R128Reading.filter) }.push(block)
            try drain()
            position += count
        }
        try graph?.close(atPTS: Int64(end - start))
        try drain()
        return reading.loudness
    }
}
