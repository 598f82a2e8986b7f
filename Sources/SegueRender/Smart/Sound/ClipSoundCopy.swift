internal import SegueMedia
import SegueInput
import SegueModel

/// Which of a clip's AAC packets `--smart` copies: one run of consecutive
/// packets, 1024 samples apart, each standing in one frame (slot) of the
/// output track's 1024-sample grid.
struct ClipSoundCopy: Sendable, Equatable {
    /// The pts of the first copied packet, in samples (the stream's time
    /// base) from the clip's time 0 (its in point).
    var firstPTS: Int64
    var count: Int
    /// The output track's AAC frame the first copied packet stands as.
    var firstSlot: Int
    /// Samples the clip's sound moves in the output (the copied frames sit on
    /// the output's grid, the clip's own generally doesn't line up with it):
    /// at most half a frame either way.
    var shift: Int

    var slots: Range<Int> { firstSlot..<(firstSlot + count) }

    /// The output frame a source packet stamped `pts` stands as, nil when it isn't copied.
    func slot(ofPTS pts: Int64) -> Int? {
        let offset = pts - firstPTS
        guard offset >= 0, offset % Int64(SoundCopyPlanner.frameSize) == 0 else { return nil }
        let index = Int(offset) / SoundCopyPlanner.frameSize
        return index < count ? firstSlot + index : nil
    }
}
