import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// One segment of a plan rendered into its work folder. Idempotent: a segment
/// already rendered from this plan is left as it is; a render writes its
/// files under names of its own and commits them with its receipt (a
/// rename), so overlapping runs of one segment can't corrupt it.
package struct SegmentRender {
    package let work: String
    package let segment: Int

    /// What a run did: nothing (`alreadyDone`), or rendered `frames` in `wallSeconds`.
    package struct Outcome {
        package var alreadyDone: Bool
        package var frames: Int
        package var wallSeconds: Double
    }

    package init(work: String, segment: Int) {
        self.work = work
        self.segment = segment
    }

    package func run(stop: StopRequest, progress: (StitchProgress) -> Void) throws -> Outcome {
        let started = monotonicSeconds()
        let record = try SegmentPlan.load(work: work)
        guard record.segments.indices.contains(segment) else {
            throw SegueError.usage("segment \(segment) is not in the plan (it has segments 0 to \(record.segments.count - 1))")
        }
        let fingerprint = try SegmentPlan.fingerprint(work: work)
        let wanted = record.segments[segment]
        let isLast = segment == record.segments.count - 1
        let done = Outcome(alreadyDone: true, frames: wanted.frames, wallSeconds: 0)
        if Self.isDone(wanted, isLast: isLast, work: work, fingerprint: fingerprint, record: record) {
            return done
        }
        SegmentFiles.removeAbandoned(segment: segment, work: work)
        let run = "\(SegmentFiles.hostName)-\(getpid())-\(UUID().uuidString.prefix(8))"
        if let ladder = record.ladder {
            let piece = LadderSegment(record: record, segment: wanted, ladder: ladder, work: work,
                                      folderName: SegmentFiles.freshName(segment: segment, run: run, suffix: ".hls"))
            return try renderLadder(piece, isLast: isLast, fingerprint: fingerprint, started: started, stop: stop, progress: progress)
        }
        let files = Files(work: work, video: SegmentFiles.freshName(segment: segment, run: run, suffix: ".mp4"),
                          sound: record.settings.includeAudio ? SegmentFiles.freshName(segment: segment, run: run, suffix: ".m4a") : nil)
        do {
            let rendered = try render(wanted, of: record, isLast: isLast, into: files, stop: stop, progress: progress)
            for name in files.names {
                try OutputFile.moveIntoPlace(files.partial(name), over: files.inWork(name), what: "it")
            }
            let receipt = SegmentManifest(
                plan: fingerprint, segment: segment, frames: wanted.frames,
                samples: wanted.audioEnd - wanted.audioStart, audioPackets: files.sound == nil ? nil : rendered.audioPackets,
                video: files.video, videoBytes: files.size(files.video), videoSHA256: try Checksum.sha256(file: files.inWork(files.video)),
                sound: files.sound, soundBytes: files.sound.map(files.size),
                soundSHA256: try files.sound.map { try Checksum.sha256(file: files.inWork($0)) },
                wallSeconds: monotonicSeconds() - started, host: SegmentFiles.hostName, warmUpFrames: rendered.warmUpFrames,
                cover: rendered.cover, pictures: rendered.pictures == wanted.frames ? nil : rendered.pictures)
            // Another run of this segment finished first: its files stand, ours go.
            if Self.isDone(wanted, isLast: isLast, work: work, fingerprint: fingerprint, record: record) {
                files.names.forEach { unlink(files.inWork($0)) }
                return done
            }
            try writeReceipt(receipt)
            return Outcome(alreadyDone: false, frames: wanted.frames, wallSeconds: receipt.wallSeconds)
        } catch {
            files.names.forEach { unlink(files.partial($0)) }
            throw error
        }
    }

    /// Renders an HLS plan's segment into its folder (under a partial name, renamed when complete) and writes its receipt.
    private func renderLadder(_ piece: LadderSegment, isLast: Bool, fingerprint: String, started: Double, stop: StopRequest,
                              progress: (StitchProgress) -> Void) throws -> Outcome {
        let record = piece.record, wanted = piece.segment
        let folder = (work as NSString).appendingPathComponent(piece.folderName)
        do {
            let stitcher = try makeStitcher(record, output: piece.partialFolder)
            let (rendered, renditions) = try piece.render(stitcher: stitcher, isLast: isLast, stop: stop, progress: progress)
            try OutputFile.moveIntoPlace(piece.partialFolder, over: folder, what: "it")
            let receipt = SegmentManifest(
                plan: fingerprint, segment: segment, frames: wanted.frames, samples: wanted.audioEnd - wanted.audioStart,
                audioPackets: record.settings.includeAudio ? rendered.audioPackets : nil, video: nil, videoBytes: nil, videoSHA256: nil,
                sound: nil, soundBytes: nil, soundSHA256: nil, wallSeconds: monotonicSeconds() - started, host: SegmentFiles.hostName,
                warmUpFrames: rendered.warmUpFrames, renditions: renditions, cover: rendered.cover)
            if Self.isDone(wanted, isLast: isLast, work: work, fingerprint: fingerprint, record: record) {
                try? FileManager.default.removeItem(atPath: folder)
                return Outcome(alreadyDone: true, frames: wanted.frames, wallSeconds: 0)
            }
            try writeReceipt(receipt)
            return Outcome(alreadyDone: false, frames: wanted.frames, wallSeconds: receipt.wallSeconds)
        } catch {
            try? FileManager.default.removeItem(atPath: piece.partialFolder)
            throw error
        }
    }

    private func writeReceipt(_ receipt: SegmentManifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try OutputFile.writeAtomically(try encoder.encode(receipt), to: SegmentFiles.manifestPath(work: work, segment: segment))
    }

    /// The stitcher a segment renders with: the plan's timeline, settings and input policy; `output` names failures to start.
    private func makeStitcher(_ record: SegmentPlan, output: String) throws -> Stitcher {
        let plan = try record.timeline()
        let access = InputAccess(network: NetworkSettings(timeout: record.network.timeout, retries: record.network.retries),
                                 policy: try InputPolicy.confined(to: record.inputRoots, allowRemote: record.allowRemote))
        guard plan.target != nil else {
            throw SegueError(.readFailed, subject: work, detail: "the plan's HLS ladder can't be made of its canvas")
        }
        return try Stitcher.writing(output, plan: plan, settings: record.settings, access: access, copiesSound: false,
                                    options: record.runOptions)
    }

    /// Renders `wanted` into the files' partial names. Fails when it made fewer frames than planned.
    private func render(_ wanted: SegmentPlan.Segment, of record: SegmentPlan, isLast: Bool, into files: Files,
                        stop: StopRequest, progress: (StitchProgress) -> Void) throws -> Stitcher.Rendered {
        let stitcher = try makeStitcher(record, output: files.partial(files.video))
        return try wanted.render(with: stitcher, isLast: isLast, at: files.partial(files.video),
                                          soundPath: files.sound.map(files.partial), stop: stop, progress: progress)
            .checked(wanted, output: record.output)
    }

    /// Whether segment `segment` of the plan in `work` is rendered (from that plan, its files all there).
    package static func isRendered(segment: Int, work: String) -> Bool {
        guard let record = try? SegmentPlan.load(work: work), record.segments.indices.contains(segment),
              let fingerprint = try? SegmentPlan.fingerprint(work: work) else { return false }
        return isDone(record.segments[segment], isLast: segment == record.segments.count - 1, work: work, fingerprint: fingerprint,
                      record: record)
    }

    /// Whether `segment` has a receipt from this plan whose files are all there, at their sizes.
    static func isDone(_ segment: SegmentPlan.Segment, isLast: Bool, work: String, fingerprint: String, record: SegmentPlan) -> Bool {
        SegmentFiles.manifest(work: work, segment: segment.index)?.plan == fingerprint
            && SegmentFiles.problem(with: segment, isLast: isLast, work: work, includeAudio: record.settings.includeAudio,
                                    renditions: record.renditionPlaylists, deep: false) == nil
    }

    /// A render's files: written under partial names, then moved into place in the work folder.
    private struct Files {
        let work: String
        let video: String
        let sound: String?

        var names: [String] { [video, sound].compactMap { $0 } }
        func inWork(_ name: String) -> String { (work as NSString).appendingPathComponent(name) }
        func partial(_ name: String) -> String { inWork("." + name + ".partial") }
        func size(_ name: String) -> Int { FileSize.bytes(atPath: inWork(name)) ?? -1 }
    }
}

extension Stitcher.Rendered {
    /// Itself, when the render made every frame of `segment`; a failure naming `output` otherwise.
    func checked(_ segment: SegmentPlan.Segment, output: String) throws -> Self {
        guard report.frames >= segment.endFrame else {
            throw SegueError(.writeFailed, subject: output,
                             detail: "segment \(segment.index) made \(report.frames - segment.startFrame) frames, the plan \(segment.frames)")
        }
        return self
    }
}
