import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime

extension Stitcher {
    /// Runs the stitch into an HLS ladder (`-o DIR/master.m3u8`): its files
    /// are checked first, written in place as segments complete, and all
    /// removed if the render fails or is stopped.
    func runLadder(_ ladder: HLSLadder, stop: StopRequest, progress: (StitchProgress) -> Void) throws -> StitchReport {
        let subtitles = plan.subtitleTrack(settings)
        let files = LadderFiles(master: outputPath, ladder: ladder, sound: settings.includeAudio, subtitles: subtitles != nil,
                                chapters: settings.chapters ? HLSChapters(chapters: plan.chapters, frameRate: plan.canvas.frameRate) : nil)
        try files.prepare(overwrite: options.overwrite)
        ProcessPolicy.heapIsQuiet()
        let started = monotonicSeconds()
        let sink: LadderSink, writer: OutputWriter
        do {
            sink = try LadderSink(files: files, ladder: ladder, canvas: plan.canvas, settings: settings, subtitles: subtitles)
            writer = try OutputWriter(sink: sink, canvas: plan.canvas, overlay: try overlay())
        } catch {
            files.removeWritten()
            throw OutputFile.writeFailure(error, output: outputPath, doing: "can't start writing")
        }
        writer.scout = coverScout()
        do {
            var report = try play(into: writer, smart: nil, started: started, stop: stop, progress: progress)
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            // From the sharpest rendition's segments that hold the cover's frames.
            report.cover = try makeCover(scout: writer.scout) { frames in
                try files.excerpt(of: ladder.rungs[0].playlist, frames: frames, segmentFrames: ladder.segmentFrames)
            }
            files.removeExcerpt()
            report.renditions = (sink.measured + [sink.soundMeasured].compactMap { $0 }).map(files.rendition)
            report.files = files.written()
            report.wallSeconds = monotonicSeconds() - started
            report.peakMemoryBytes = peakMemoryBytes()
            return report
        } catch {
            writer.abandon()
            files.removeExcerpt()
            files.removeWritten()
            throw error
        }
    }
}

extension Stitcher {
    /// Renders `segment` of an HLS plan into `folder` (made here): each rung's CMAF segments on the
    /// segment's own time line from 0 (`LadderSegment` moves them into place), and its stretch of the
    /// whole stitch's AAC packets to `soundPath`, as `renderSegment` writes them for an MP4 plan.
    func renderLadderSegment(_ segment: SegmentPlan.Segment, isLast: Bool, ladder: HLSLadder, folder: String, soundPath: String?,
                             stop: StopRequest,
                             progress: (StitchProgress) -> Void) throws -> RenderedSegment {
        var videoOnly = settings
        videoOnly.includeAudio = false
        let files = LadderFiles(master: (folder as NSString).appendingPathComponent("master.m3u8"), ladder: ladder, sound: false,
                                subtitles: false)
        try files.prepare(overwrite: true)
        let writer: OutputWriter
        do {
            let sink = try LadderSink(files: files, ladder: ladder, canvas: plan.canvas, settings: videoOnly, subtitles: nil, writesMaster: false)
            writer = try OutputWriter(sink: sink, canvas: plan.canvas, overlay: try overlay())
        } catch {
            throw OutputFile.writeFailure(error, output: folder, doing: "can't start writing")
        }
        return try renderSegment(segment, isLast: isLast, into: writer, smart: nil, output: folder, soundPath: soundPath, stop: stop,
                                 progress: progress)
    }
}
