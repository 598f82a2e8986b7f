import SegueInput
import SegueModel

/// One stage of the output's sound: given a frame's block of output samples
/// (from output sample `start`, the block the stages before it left), the
/// block heard after it. Stages run in order, once per frame, in output order.
protocol SoundStage: AnyObject {
    func process(_ block: [[Float]], from start: Int, frame: Int) throws -> [[Float]]
}

/// An editor's timeline's sound tracks, heard instead of the clips' own under
/// the frames they cover.
final class TimelineSoundStage: SoundStage {
    private let mix: TimelineSoundMix

    init(_ mix: TimelineSoundMix) {
        self.mix = mix
    }

    func process(_ block: [[Float]], from start: Int, frame: Int) throws -> [[Float]] {
        guard mix.covers(frame: frame) else { return block }
        return try mix.sound(from: start, count: block.first?.count ?? 0)
    }
}

/// The music bed (`--music`) mixed under everything before it, ducked while that is heard.
final class MusicStage: SoundStage {
    let bed: MusicBed

    init(_ bed: MusicBed) {
        self.bed = bed
    }

    func process(_ block: [[Float]], from start: Int, frame: Int) throws -> [[Float]] {
        do {
            return try bed.mix(under: block)
        } catch {
            throw ClipSource.failure(error, reading: bed.path)
        }
    }
}
