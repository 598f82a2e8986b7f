import SegueMedia

/// Process-wide settings a program may choose; the library never applies them
/// by itself, because they change how the whole process logs and allocates.
public enum ProcessPolicy {
    /// What `segue` uses: libav's own log limited to fatal messages (Segue's
    /// messages name the clip instead), and large buffers returned to the system
    /// at once, which keeps peak memory flat over long runs.
    public static func applyCommandLineDefaults() {
        LibAV.quietLogs()
        LibAV.returnLargeBuffersToTheSystem()
    }
}
