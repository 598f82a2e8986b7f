import Foundation
import SegueMedia

/// The second player: opens a clip and decodes its first pictures on a
/// background thread while the current clip plays, and hands it over at the join.
final class Preloader: @unchecked Sendable {
    // SAFETY: `outcome` is written once by the loading thread and read by the
    // stitcher after `ready` is signalled; the ClipSource inside is touched by
    // the loading thread only until then, and by the stitcher only after.
    private var outcome: Handoff<Result<ClipSource, Error>>?
    private let ready = DispatchSemaphore(value: 0)
    private let load: @Sendable () -> Result<ClipSource, Error>
    private let inBackground: Bool

    /// `staged`, when given, is fetching the clip's bytes; the open waits for
    /// it and reads the local copy (or the URL if the fetch failed).
    init(clip: PlannedClip, canvas: Canvas, settings: StitchSettings, primePictures: Int, staged: Prefetcher? = nil) {
        inBackground = settings.preload
        load = {
            Result {
                let local = staged?.take()
                // Unlinked once open: the open file keeps its bytes, and nothing stays behind.
                defer { if let local { unlink(local) } }
                let source = try ClipSource(clip: clip, canvas: canvas, settings: settings, readPath: local)
                try source.prime(pictures: primePictures)
                return source
            }
        }
        if inBackground {
            let thread = Thread { [self] in
                outcome = Handoff(value: load())
                ready.signal()
            }
            thread.name = "segue-preload"
            thread.start()
        }
    }

    /// The opened, primed clip, and how long the caller had to wait for it.
    func take() throws -> (source: ClipSource, waited: Double) {
        let start = monotonicSeconds()
        if inBackground {
            ready.wait()
        } else {
            outcome = Handoff(value: load())
        }
        let waited = monotonicSeconds() - start
        return (try outcome!.value.get(), waited)
    }
}
