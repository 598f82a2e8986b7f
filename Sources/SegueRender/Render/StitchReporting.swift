import SegueModel
import SegueRuntime

extension Stitcher {
    /// What a stitch played, told as its report (the run's time and memory are the caller's to add).
    func report(of played: Played, smart: SmartPlan?) -> StitchReport {
        StitchReport(
            output: outputPath, container: target.container, canvas: plan.canvas, clipCount: plan.clips.count, frames: played.frames,
            audioSamples: played.audioSamples, plannedDuration: plan.duration, joins: played.joins,
            startupSeconds: played.startupSeconds, warnings: played.notices.map(\.description), wallSeconds: 0, peakMemoryBytes: 0,
            smart: smart?.report(of: plan, includeAudio: settings.includeAudio),
            smartTrack: smart.map { smart in
                let stored = smart.form.orientation.storedSize(width: plan.canvas.width, height: plan.canvas.height)
                return StitchReport.SmartTrack(storedWidth: stored.width, storedHeight: stored.height,
                                               orientation: smart.form.orientation, fullRange: smart.form.fullRange)
            },
            music: played.music.map {
                StitchReport.Music(path: $0.path, loudness: $0.loudness, gain: $0.gain, volume: $0.volume, ducking: $0.duck)
            })
    }
}

extension Stitcher {
    /// A scout for the writer when a cover or poster is asked for.
    func coverScout() -> CoverScout? {
        settings.cover != nil || settings.poster != nil ? CoverScout() : nil
    }

    /// Writes the cover and poster from the finished output, read back from `source` (nothing without a scout).
    func makeCover(scout: CoverScout?, source: (Range<Int>) throws -> CoverMaker.Source) throws -> StitchReport.Cover? {
        guard let scout else { return nil }
        do {
            return try CoverMaker(settings: settings, canvas: plan.canvas).make(total: plan.totalFrames, scout: scout, source: source)
        } catch let error as SegueError {
            throw error
        } catch {
            throw OutputFile.writeFailure(error, output: settings.cover ?? settings.poster ?? outputPath, doing: "can't write the cover")
        }
    }
}
