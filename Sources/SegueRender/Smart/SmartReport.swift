import SegueModel

extension SmartPlan {
    /// Each clip's frames and sound copied or re-encoded, and why not copied,
    /// as the stitch's report tells them.
    func report(of plan: Plan, includeAudio: Bool) -> [StitchReport.SmartClip] {
        clips.enumerated().map { index, clip in
            var report = StitchReport.SmartClip(index: index, framesCopied: clip.copiedFrames,
                                                picturesCopied: clip.copy?.copiedPictures ?? 0,
                                                framesReencoded: plan.clips[index].frameCount - clip.copiedFrames,
                                                reason: clip.reason, notCopied: clip.notCopied)
            if includeAudio, index < sound.count {
                let choice = sound[index], copied = choice.copy?.count ?? 0
                // A copied clip is heard at its run's shift (all of it: the windows read it there too), another where it is.
                report.sound = StitchReport.SmartSound(shiftSamples: choice.copy?.shift ?? 0, framesCopied: copied,
                                                       framesReencoded: max(0, Self.soundFrames(of: index, in: plan) - copied),
                                                       reason: choice.notCopied?.description)
            }
            return report
        }
    }

    /// The pictures written for output frames `frames`: one per frame, a
    /// copied timed GOP's own count (`ClipCopyPlan.TimedPictures`).
    func pictures(inOutputFrames frames: Range<Int>) -> Int {
        var count = frames.count
        for (clip, copy) in zip(plan.clips, clips.map(\.copy)) {
            guard let copy else { continue }
            let own = ((frames.lowerBound - clip.startFrame)..<(frames.upperBound - clip.startFrame)).clamped(to: 0..<max(0, clip.frameCount))
            count += copy.pictures(inFrames: own) - own.count
        }
        return count
    }

    /// The output's AAC frames that start in clip `index`'s share of the output
    /// (joins split in the middle): what its sound was copied or encoded as.
    private static func soundFrames(of index: Int, in plan: Plan) -> Int {
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
