internal import SegueMedia
import Synchronization

/// Process-wide settings a program may choose; the library never applies them
/// by itself, because they change how the whole process logs and allocates.
public enum ProcessPolicy {
    /// What the library calls at its quiet moments (after probing, after the
    /// smart scan, after a re-encoded stretch): nothing, unless the process chose it.
    private static let quietHeapHook = Mutex<(@Sendable () -> Void)?>(nil)

    /// What `segue` uses: libav's own log limited to fatal messages (Segue's
    /// messages name the clip instead), large buffers returned to the system
    /// at once, and the heap's free memory given back at the library's quiet
    /// moments; together they keep peak memory flat over long runs.
    public static func applyCommandLineDefaults() {
        LibAV.quietLogs()
        LibAV.returnLargeBuffersToTheSystem()
        quietHeapHook.withLock { $0 = { LibAV.trimHeap() } }
    }

    /// Runs the process's quiet-heap hook, if it set one.
    package static func heapIsQuiet() {
        quietHeapHook.withLock { $0 }?()
    }
}
