import SegueInput
import SegueModel

/// The output's sound, built once from the plan: each frame's own sound (its
/// clip's, shaped by the joins, at its `--loudness` gain) passes through the
/// stages in order (a timeline's sound tracks that replace it, then the music
/// bed under it) and goes to the output. The frame clock knows only the chain.
final class SoundChain {
    private let stages: [any SoundStage]
    private let output: any SoundOutput
    /// The music bed, for the report; nil without one.
    let music: MusicBed?

    init(stages: [any SoundStage], output: any SoundOutput) {
        self.stages = stages
        self.output = output
        music = stages.lazy.compactMap { ($0 as? MusicStage)?.bed }.first
    }

    /// The chain of `plan`'s sound from output frame `start` (a segment's warm-up) into `output`.
    static func make(plan: Plan, settings: StitchSettings, access: InputAccess, from start: Int,
                     output: any SoundOutput) throws -> SoundChain {
        var stages: [any SoundStage] = []
        if let mix = TimelineSoundMix.make(plan: plan, access: access, loudness: settings.loudness) {
            stages.append(TimelineSoundStage(mix))
        }
        if let path = settings.music {
            do {
                let bed = try MusicBed(path: path, plan: plan, settings: settings, access: access)
                if start > 0 { try bed.skip(plan.sampleIndex(atFrame: start)) }
                stages.append(MusicStage(bed))
            } catch {
                throw ClipSource.failure(error, reading: path)
            }
        }
        return SoundChain(stages: stages, output: output)
    }

    /// The block heard for `frame`, whose own sound is `block` from output sample `start`.
    func hear(_ block: [[Float]], from start: Int, frame: Int) throws -> [[Float]] {
        try stages.reduce(block) { heard, stage in try stage.process(heard, from: start, frame: frame) }
    }

    /// Sends a heard block to the output.
    func write(_ block: [[Float]], at start: Int) throws {
        try output.write(block, at: start)
    }

    /// Sends the output what is left.
    func finish() throws {
        try output.finish()
    }
}
