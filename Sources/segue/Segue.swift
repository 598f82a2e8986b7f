import ArgumentParser
import Foundation
import SegueKit

@main
struct Segue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue",
        abstract: "Join video clips into one gapless MP4 or WebM, with cuts, fades or slides between them.",
        discussion: """
        Examples:
          segue stitch a.mp4 b.mov c.mp4 -o out.mp4
          segue stitch clips.txt -o reel.mp4 --transition fade --size 1280x720 --fps 30
          segue probe clips.txt
          segue plan clips.txt -o out.mp4 --work /shared/job && segue render /shared/job --segment 0 && segue join /shared/job
        """,
        version: SegueVersion.current,
        subcommands: [Stitch.self, Probe.self, Transitions.self, PlanCommand.self, Render.self, Join.self],
        defaultSubcommand: Stitch.self
    )

    /// Parses and runs like `ParsableCommand.main()`, but bad usage exits 2 (the
    /// command line's contract, docs/usage.md), not the argument parser's 64.
    static func main() {
        ProcessPolicy.applyCommandLineDefaults()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as SegueError {
            Terminal.error(error.description)
            Foundation.exit(error.exitCode)
        } catch {
            // Help, version and completion scripts exit 0 through here too.
            if exitCode(for: error) == .validationFailure {
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
                Terminal.error(message)
                Foundation.exit(2)
            }
            Self.exit(withError: error)
        }
    }
}

/// Where messages go: everything but the output file is written to stderr.
enum Terminal {
    static let isInteractive = isatty(STDERR_FILENO) == 1

    static func error(_ message: String) {
        for line in message.split(separator: "\n", omittingEmptySubsequences: true) {
            write("segue: error: \(line)\n")
        }
    }

    static func warning(_ message: String) {
        write("segue: warning: \(message)\n")
    }

    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The process's promise that a stop stops: once SIGINT or SIGTERM has asked,
/// the job has `grace` seconds to end on its own (it checks between frames
/// and cancels its reads); a step that can't be interrupted (a probe waiting
/// on a slow server, say) doesn't hold the process: it removes what it was
/// writing and exits 128 + the signal. A process-wide choice, so it lives here.
enum StopDeadline {
    static let grace = 1.0

    static func arm(_ stop: StopRequest, cleanUp: @escaping @Sendable () -> Void) {
        let watcher = Thread {
            while stop.signal == nil { Thread.sleep(forTimeInterval: 0.05) }
            Thread.sleep(forTimeInterval: grace)
            let signal = stop.signal ?? SIGTERM
            cleanUp()
            Terminal.error(SegueError.interrupted(signal: signal).description)
            _exit(128 + signal)
        }
        watcher.name = "segue-stop-deadline"
        watcher.start()
    }
}
