import ArgumentParser
import Foundation
import SegueKit

/// `segue stitch --jobs N [--work DIR]`: plan, render the segments N at once
/// as child processes of this program (`segue render`, as a cluster runs
/// them), then join. With --work, a rerun renders only what is not done.
extension Stitch {
    func validateSegments() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256") }
        if let seconds = segmentDuration {
            guard PlanJob.segmentSecondsLimit.contains(seconds) else {
                throw ValidationError("--segment-duration must be \(PlanJob.segmentSecondsLimit.phrase) seconds")
            }
            guard jobs != nil || work != nil else { throw ValidationError("--segment-duration needs --jobs N or --work DIR") }
        }
        if work?.isEmpty == true { throw ValidationError("--work needs a folder") }
    }

    /// Plans into --work (the folder must be given).
    /// `writesExports`: `segue plan` writes the timeline exports from the plan; `--jobs` once joined.
    func plan(work folder: String? = nil, writesExports: Bool = false) throws -> SegmentPlan {
        try PlanJob(request(), work: folder ?? work!, segmentSeconds: segmentDuration ?? PlanJob.defaultSegmentSeconds,
                    writesExports: writesExports).run { event in
            if case .warning(let text) = event, !quiet { Terminal.warning(text) }
        }
    }

    func runInSegments() throws {
        let stop = StopRequest()
        let signals = stop.raise(on: [SIGINT, SIGTERM])
        defer { signals.cancel() }
        let folder = work ?? FileManager.default.temporaryDirectory.appendingPathComponent("segue-work-\(UUID().uuidString)").path
        // A folder of our own can't be resumed from: it goes, whatever happens.
        defer { if work == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let record = try plan(work: folder)
        let todo = record.segments.map(\.index).filter { !RenderJob.isRendered(segment: $0, work: folder) }
        if !quiet && todo.count < record.segments.count {
            Terminal.write("segue: resuming: \(record.segments.count - todo.count) of \(record.segments.count) segments already rendered in \(folder)\n")
        }
        try SegmentRunner(work: folder, jobs: jobs ?? 1, quiet: quiet).render(todo, of: record.segments.count, stop: stop)
        let request = try request()
        let join = JoinJob(work: folder, reportPath: report, exports: request.timelineExports, exportRelative: request.exportRelative,
                           cacheFolder: request.cacheFolder)
        let result = try join.run(stop: stop) { event in
            if case .warning(let text) = event, !quiet { Terminal.warning(text) }
        }
        if !quiet { Terminal.write(result.summary + "\n") }
    }
}

/// Runs `segue render DIR --segment K` for each segment, `jobs` at once.
struct SegmentRunner {
    let work: String
    let jobs: Int
    let quiet: Bool
    /// The program each render runs: this one.
    var program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    func render(_ segments: [Int], of total: Int, stop: StopRequest) throws {
        var waiting = segments[...]
        var running: [pid_t: Int] = [:]
        var failed: [(segment: Int, ending: String)] = []
        var done = total - segments.count
        defer {
            // On a stop or a failure: the children still running are told to stop, and waited for.
            for pid in running.keys { kill(pid, SIGTERM) }
            for pid in running.keys { var status: Int32 = 0; waitpid(pid, &status, 0) }
        }
        while !waiting.isEmpty || !running.isEmpty {
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            while running.count < jobs, failed.isEmpty, let segment = waiting.popFirst() {
                running[try spawn(program, ["render", work, "--segment", String(segment), "--quiet"])] = segment
            }
            var ended: [pid_t] = []
            for (pid, segment) in running {
                var status: Int32 = 0
                guard waitpid(pid, &status, WNOHANG) == pid else { continue }
                ended.append(pid)
                let signal = status & 0x7f, code = (status >> 8) & 0xff
                if signal == 0 && code == 0 {
                    done += 1
                    if !quiet { Terminal.write("segue: segment \(segment) rendered (\(done) of \(total))\n") }
                } else {
                    failed.append((segment, signal != 0 ? "was killed by signal \(signal)" : "exited with status \(code)"))
                }
            }
            ended.forEach { running.removeValue(forKey: $0) }
            if !failed.isEmpty && running.isEmpty { break }
            if ended.isEmpty { usleep(50_000) }
        }
        if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
        if !failed.isEmpty {
            // A child that failed failed making the output (its own error is on stderr above): exit 1, as a stitch's.
            let list = failed.map { "the render of segment \($0.segment) \($0.ending)" }.joined(separator: "; ")
            throw SegueError(.processingFailed, subject: work,
                             detail: "\(list); the segments rendered are kept: run the same command again to resume")
        }
    }

    private func spawn(_ program: String, _ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let code = posix_spawn(&pid, program, nil, nil, argv, environ)
        guard code == 0 else {
            throw SegueError(.processingFailed, subject: program, detail: "can't start a render (\(String(cString: strerror(code))))")
        }
        return pid
    }
}
