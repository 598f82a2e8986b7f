internal import SegueMedia
import SegueInput
import SegueModel

// What the plain path asks of a smart plan: the writer's track layouts and
// each clip's copy as its source reads it (and, in SmartPlan.swift, the
// quality of the frames around copies; in SmartReport.swift, what the report
// says of each clip). The stitcher names `SmartPlan` and these, nothing of
// how the copy is made.
extension SmartPlan {
    /// The output's video track laid out as copied runs and re-encoded
    /// stretches; nil when nothing is copied (the track is encoded whole).
    var videoLayout: (any VideoTrackLayout)? { copiedFrames > 0 ? outputTrack : nil }

    /// The output's sound track laid out as copied AAC frames and re-encoded
    /// windows; nil when no sound is copied.
    var soundLayout: (any SoundTrackLayout)? { soundTrack }

    /// What of clip `index` its source hands on undecoded (its copied GOPs),
    /// and how its sound is moved to meet its copied AAC packets. `sound`:
    /// false where the sound is encoded apart (a segment's), so none is moved.
    func copying(clip index: Int, sound: Bool) -> ClipCopying {
        let video = index < clips.count ? clips[index].copy : nil
        // Every clip of a stitch that copies sound gets a move, so a cut between any two can run on.
        let moved = sound && index < self.sound.count ? ClipSoundMove(copy: self.sound[index].copy) : nil
        return ClipCopying(video: video, sound: moved)
    }

    /// Whether any of clip `index`'s GOPs are copied (such a clip is read
    /// from its start, never sought into).
    func copiesVideo(ofClip index: Int) -> Bool {
        index < clips.count && clips[index].copy != nil
    }
}
