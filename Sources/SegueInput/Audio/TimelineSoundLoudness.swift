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
        for (index, track) in plan.soundTracks.enumerated() where track.sound.loudness == nil && !track.stretches.isEmpty {
            var loudness: ClipInfo.Loudness?
            do {
                loudness = try measureMix(plan, frames: track.stretches.map(\.frames), access: access)
            } catch {
                plan.notices.append(.loudnessNotMeasured(path: plan.clips[track.clips[0]].info.path, detail: describe(error)))
            }
            plan.soundTracks[index].sound.loudness = loudness
            for clip in track.clips { plan.clips[clip].info.loudness = loudness }
        }
        return plan
    }

    /// Whether a timeline's sound in `plan` is still to be measured.
    package static func timelineSoundsUnmeasured(_ plan: Plan) -> Bool {
        plan.soundTracks.contains { $0.sound.loudness == nil && !$0.stretches.isEmpty }
    }

    /// The loudness of the timeline sound under the output's `frames` (one stretch after another), a second at a time through `ebur128`.
    private static func measureMix(_ plan: Plan, frames: [Range<Int>], access: InputAccess) throws -> ClipInfo.Loudness? {
        let mix = TimelineSoundMix(plan: plan, access: access)
        let rate = plan.canvas.sampleRate
        var graph: FilterGraph?
        var reading = R128Reading()
        let measured = Frame()
        func drain() throws {
            while let graph, try graph.pull(into: measured) == .ready { reading.take(measured) }
        }
        var measuredSamples = 0
        for stretch in frames {
            var position = plan.sampleIndex(atFrame: stretch.lowerBound)
            let end = plan.sampleIndex(atFrame: stretch.upperBound)
            while position < end {
                let count = min(rate, end - position)
                let block = try Frame.audio(sampleCount: count, channels: OutputAudio.channels, sampleRate: rate)
                block.setSamples(from: try mix.sound(from: position, count: count), start: 0)
                block.pts = Int64(measuredSamples)
                try graph.madeOnFirstUse { try FilterGraph(audioLike: block, description: R128Reading.filter) }.push(block)
                try drain()
                position += count
                measuredSamples += count
            }
        }
        try graph?.close(atPTS: Int64(measuredSamples))
        try drain()
        return reading.loudness
    }
}
