import Foundation
internal import SegueMedia
import SegueModel
import SegueRuntime
import SegueCore

/// What one render covers: the whole output, or one segment of a segmented
/// plan: its output frames, and the AAC packets it keeps of the whole
/// stitch's sound (those whose blocks start in `audio`), written to a file of
/// their own (`soundPath`, with audio: see `SegmentSound`).
enum RenderWindow {
    case whole
    case segment(frames: Range<Int>, audio: Range<Int>, soundPath: String?)
}

/// What a render's sink is made of: the canvas and settings (a segment's
/// without audio: its sound is written apart), and what the output carries
/// beside pictures and sound.
struct SinkContents {
    var canvas: Canvas
    var settings: StitchSettings
    /// The chapters, when the output carries them (nil: not asked for).
    var chapters: [Chapter]?
    var subtitles: SubtitleTrack?
    /// With `--smart`: how the copied stretches are laid out.
    var smart: SmartPlan?
}

/// Where one render writes, made for its target: a file or an HLS ladder,
/// the whole of it or one segment's part. Checked before any work, it opens
/// the sink the frames go to, gives the cover its source once finished, and
/// is then completed (moved into place, its files told) or abandoned
/// (nothing it wrote left behind).
protocol RenderOutput: AnyObject {
    /// Checks the place (nothing replaced without `overwrite`) and clears a leftover.
    func prepare(overwrite: Bool) throws
    /// The sink the render's frames go to.
    func openSink() throws -> any OutputSink
    /// Where the finished output's `frames` are read back for its cover.
    func coverSource(frames: Range<Int>) throws -> CoverMaker.Source
    /// Completes the output; the report gains what it wrote.
    func complete(_ report: inout StitchReport) throws
    /// Removes what was written.
    func abandon()
}

extension RenderTarget {
    /// Where a render of `window` writes: the target itself for the whole, or
    /// `path` (a segment's video file, or its ladder's folder) for a segment.
    func output(for window: RenderWindow, at path: String, contents: SinkContents) -> any RenderOutput {
        switch (self, window) {
        case (.file(let path, let container), .whole):
            return FileOutput(path: path, writtenAt: OutputFile.temporaryPath(for: path), container: container, contents: contents)
        case (.file, .segment):
            return FileOutput(path: path, writtenAt: path, container: .mp4, contents: contents)
        case (.ladder(let master, let ladder), .whole):
            return LadderOutput(master: master, ladder: ladder, contents: contents, isWhole: true)
        case (.ladder(_, let ladder), .segment):
            return LadderOutput(master: (path as NSString).appendingPathComponent("master.m3u8"), ladder: ladder, contents: contents,
                                isWhole: false)
        }
    }
}

/// One MP4 or WebM. The whole output is written to a hidden `.NAME.partial`
/// beside it and renamed over it when complete; a segment's video is written
/// where its render says (which renames it with its receipt).
final class FileOutput: RenderOutput {
    let path: String
    let writtenAt: String
    let container: OutputContainer
    let contents: SinkContents
    private var renames: Bool { writtenAt != path }

    init(path: String, writtenAt: String, container: OutputContainer, contents: SinkContents) {
        self.path = path
        self.writtenAt = writtenAt
        self.container = container
        self.contents = contents
    }

    func prepare(overwrite: Bool) throws {
        guard renames else { return }
        try OutputFile.checkOutput(path, overwrite: overwrite)
        unlink(writtenAt) // a leftover from a killed run
    }

    func openSink() throws -> any OutputSink {
        var format = EncodingSink.Format(canvas: contents.canvas, settings: contents.settings)
        format.container = container
        format.videoLayout = contents.smart?.videoLayout
        format.soundLayout = contents.settings.includeAudio ? contents.smart?.soundLayout : nil
        format.chapters = contents.chapters ?? []
        format.subtitles = contents.subtitles
        return try EncodingSink(path: writtenAt, format: format)
    }

    func coverSource(frames: Range<Int>) throws -> CoverMaker.Source { CoverMaker.Source(path: writtenAt) }

    func complete(_ report: inout StitchReport) throws {
        if renames { try OutputFile.moveIntoPlace(writtenAt, over: path) }
    }

    func abandon() { unlink(writtenAt) }
}

/// An HLS ladder: the whole output's files beside its master playlist, each
/// written in place as segments complete; or a segment's rungs in a folder
/// of their own (no master, sound or subtitles: the join writes those).
final class LadderOutput: RenderOutput {
    let files: LadderFiles
    let ladder: HLSLadder
    let contents: SinkContents
    let isWhole: Bool
    private var sink: LadderSink?

    init(master: String, ladder: HLSLadder, contents: SinkContents, isWhole: Bool) {
        let chapters = isWhole ? contents.chapters.map { HLSChapters(chapters: $0, frameRate: contents.canvas.frameRate) } : nil
        files = LadderFiles(master: master, ladder: ladder, sound: isWhole && contents.settings.includeAudio,
                            subtitles: isWhole && contents.subtitles != nil, chapters: chapters)
        self.ladder = ladder
        self.contents = contents
        self.isWhole = isWhole
    }

    func prepare(overwrite: Bool) throws {
        try files.prepare(overwrite: overwrite || !isWhole)
    }

    func openSink() throws -> any OutputSink {
        let sink = try LadderSink(files: files, ladder: ladder, canvas: contents.canvas, settings: contents.settings,
                                  subtitles: isWhole ? contents.subtitles : nil, writesMaster: isWhole)
        self.sink = sink
        return sink
    }

    /// From the sharpest rendition's segments that hold the cover's frames.
    func coverSource(frames: Range<Int>) throws -> CoverMaker.Source {
        try files.excerpt(of: ladder.rungs[0].playlist, frames: frames, segmentFrames: ladder.segmentFrames)
    }

    func complete(_ report: inout StitchReport) throws {
        files.removeExcerpt()
        guard isWhole, let sink else { return }
        report.renditions = (sink.measured + [sink.soundMeasured].compactMap { $0 }).map(files.rendition)
        report.files = files.written()
    }

    func abandon() {
        files.removeExcerpt()
        if isWhole { files.removeWritten() }
    }
}
