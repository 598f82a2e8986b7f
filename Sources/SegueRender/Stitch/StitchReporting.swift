import SegueInput
import SegueModel
import SegueMedia
extension Stitcher {
    /// What a stitch played, told as its report (the run's time and memory are the caller's to add).
    func report(of played: Played, smart: SmartPlan?) -> StitchReport {
        StitchReport(
            output: outputPath, canvas: plan.canvas, clipCount: plan.clips.count, frames: played.frames,
            audioSamples: played.audioSamples, plannedDuration: plan.duration, joins: played.joins,
            startupSeconds: played.startupSeconds, warnings: played.notices.map(\.description), wallSeconds: 0, peakMemoryBytes: 0,
            smart: smart.map(smartReport),
            music: played.music.map {
                StitchReport.Music(path: $0.path, loudness: $0.loudness, gain: $0.gain, volume: $0.volume, ducking: $0.duck)
            })
    }

    /// Each clip's frames and sound copied or re-encoded, and why not copied.
    private func smartReport(_ smart: SmartPlan) -> [StitchReport.SmartClip] {
        smart.clips.enumerated().map { index, clip in
            var report = StitchReport.SmartClip(index: index, framesCopied: clip.copiedFrames,
                                                framesReencoded: plan.clips[index].frameCount - clip.copiedFrames,
                                                reason: clip.reason, notCopied: clip.notCopied)
            if settings.includeAudio, index < smart.sound.count {
                let sound = smart.sound[index], copied = sound.copy?.count ?? 0
                // A copied clip is heard at its run's shift (all of it: the windows read it there too), another where it is.
                report.sound = StitchReport.SmartSound(shiftSamples: sound.copy?.shift ?? 0, framesCopied: copied,
                                                       framesReencoded: max(0, soundFrames(of: index) - copied),
                                                       reason: sound.notCopied?.description)
            }
            return report
        }
    }

    /// The output's AAC frames that start in clip `index`'s share of the output
    /// (joins split in the middle): what its sound was copied or encoded as.
    private func soundFrames(of index: Int) -> Int {
        func boundary(_ index: Int) -> Int {
            guard index > 0 else { return 0 }
            guard index < plan.clips.count else { return plan.sampleIndex(atFrame: plan.totalFrames) }
            return plan.sampleIndex(atFrame: plan.soundHandover(to: plan.clips[index]))
        }
        let size = OutputAudio.frameSize
        func frames(before sample: Int) -> Int { (sample + size - 1) / size }
        return frames(before: boundary(index + 1)) - frames(before: boundary(index))
    }
}
