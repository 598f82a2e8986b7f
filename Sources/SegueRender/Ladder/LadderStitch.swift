import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime

extension Stitcher {
    /// Runs the stitch into an HLS ladder (`-o DIR/master.m3u8`): its files
    /// are checked first, written in place as segments complete, and all
    /// removed if the render fails or is stopped.
    func runLadder(stop: StopRequest, progress: (StitchProgress) -> Void) throws -> StitchReport {
        let ladder: HLSLadder
        do {
            ladder = try HLSLadder(canvas: plan.canvas, settings: settings)
        } catch let error as LadderError {
            throw SegueError.usage(error.message)
        }
        let subtitles = plan.subtitleTrack(settings)
        let files = LadderFiles(master: outputPath, ladder: ladder, sound: settings.includeAudio, subtitles: subtitles != nil)
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
            report.renditions = (sink.measured + [sink.soundMeasured].compactMap { $0 }).map { stream in
                StitchReport.Rendition(playlist: (files.folder as NSString).appendingPathComponent(stream.playlist), codecs: stream.codecs,
                                       width: stream.width, height: stream.height, segments: stream.segments, bytes: stream.bytes,
                                       peakBitRate: stream.peakBitRate ?? 0, averageBitRate: stream.averageBitRate ?? 0,
                                       longestSegmentSeconds: stream.longestSegment)
            }
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
