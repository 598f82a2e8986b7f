import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SegueCore
import SegueInput
internal import SegueMedia
import SegueModel
import SegueRuntime

/// The clips ahead of the one playing: the feed player's second player. The
/// next clip is opened and its first pictures decoded in the background while
/// the current one plays (never more than two clips open); a remote clip after
/// that is fetched into a staging folder meanwhile, so its open is a local one.
///
/// A remote open costs several round trips (headers, the moov box wherever it
/// is, then the media), often more than a short clip takes to play: fetching
/// one clip further ahead than opening takes them off the join (the bench's
/// `remote` case measures it). A failed fetch just means the clip is opened
/// from its URL.
///
/// `shutDown()` (also run by `deinit`) cancels and joins every background
/// task and removes the staging folder: nothing runs on after a failure.
final class Lookahead {
    private let clips: [PlannedClip]
    private let canvas: Canvas
    private let settings: StitchSettings
    private let run: RunOptions
    /// Opens the clips (and fetches the remote ones ahead) with its network settings and cache.
    private let access: InputAccess
    /// With `--smart`: what is copied of each clip, handed to its source as it opens.
    private let smart: SmartPlan?
    /// Whether copied sound is moved into place (not in a segment: its sound is encoded apart).
    private let copiesSound: Bool
    /// Pictures decoded ahead: two prove the decoder is warm.
    private let primePictures = 2
    private var opening: [Int: BackgroundTask<ClipSource>] = [:]
    private var fetching: [Int: BackgroundTask<String?>] = [:]
    /// Whether remote clips are fetched whole ahead of their open (off for a
    /// segment: it reads only the byte ranges of the part it shows).
    private let fetchesAhead: Bool
    private let stagingFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("segue-stage-\(getpid())-\(UUID().uuidString)").path

    /// `access` opens the clips (and fetches remote ones ahead, with its network settings).
    init(clips: [PlannedClip], canvas: Canvas, settings: StitchSettings, run: RunOptions = RunOptions(),
         access: InputAccess = InputAccess(), smart: SmartPlan? = nil, copiesSound: Bool = true,
         fetchesAhead: Bool = true) {
        self.clips = clips
        self.fetchesAhead = fetchesAhead
        self.smart = smart
        self.copiesSound = copiesSound
        self.canvas = canvas
        self.settings = settings
        self.run = run
        self.access = access.trusting(stagingFolder) // its copies are ours, not the user's inputs
    }

    deinit { shutDown() }

    /// Starts opening clip `index` in the background (if there is one and it
    /// isn't under way), and fetching the clip after it. Call once the clip
    /// before `index - 1` is released. Without preload this does nothing: `take` opens.
    func prepare(_ index: Int) {
        guard run.preload, index < clips.count, opening[index] == nil else { return }
        stage(index + 1)
        opening[index] = BackgroundTask(name: "segue-preload", opener(for: index))
    }

    /// Clip `index`, opened and primed, and how long the caller waited for it.
    /// A raised `stop` ends the wait at once (the opening is cancelled).
    func take(_ index: Int, stop: StopRequest = StopRequest()) throws -> (source: ClipSource, waited: Double) {
        let start = monotonicSeconds()
        let task = opening.removeValue(forKey: index) ?? BackgroundTask(runningNow: opener(for: index))
        while !task.join(seconds: 0.05) {
            if let signal = stop.signal {
                task.cancelAndJoin()
                throw SegueError.interrupted(signal: signal)
            }
        }
        let source = try task.value()
        return (source, monotonicSeconds() - start)
    }

    /// The work of opening clip `index`: wait for its staged copy if one is
    /// coming, open it, decode its first pictures.
    private func opener(for index: Int) -> @Sendable (Cancellation) throws -> ClipSource {
        let staged = fetching.removeValue(forKey: index)
        let clip = clips[index], canvas = canvas, settings = settings, strict = run.strict, access = access, prime = primePictures
        let copying = smart?.copying(clip: index, sound: copiesSound) ?? ClipCopying()
        return { cancellation in
            let local = try staged.flatMap { try Lookahead.waitForStaged($0, cancellation: cancellation) }
            // Unlinked once open: the open file keeps its bytes, and nothing stays behind.
            defer { if let local { unlink(local) } }
            do {
                let source = try ClipSource(clip: clip, canvas: canvas, settings: settings, strict: strict, access: access, readPath: local,
                                            copying: copying, cancellation: cancellation)
                try source.prime(pictures: prime)
                return source
            } catch {
                throw ClipSource.failure(error, reading: clip.info)
            }
        }
    }

    /// The staged copy of a clip, waited for only while its open isn't
    /// cancelled: a stop ends the wait and the download with it (the fetch
    /// is no longer in `fetching`, so `shutDown` can't reach it).
    private static func waitForStaged(_ fetch: BackgroundTask<String?>, cancellation: Cancellation) throws -> String? {
        while !fetch.join(seconds: 0.05) {
            guard cancellation.isCancelled else { continue }
            fetch.cancelAndJoin()
            if let local = try? fetch.value() { unlink(local) }
            throw FFmpegError.exit
        }
        return try fetch.value()
    }

    /// Cancels and joins everything under way, then removes the staging folder.
    func shutDown() {
        for task in opening.values { task.cancelAndJoin() }
        for task in fetching.values {
            task.cancelAndJoin()
            if let local = try? task.value() { unlink(local) }
        }
        opening.removeAll()
        fetching.removeAll()
        try? FileManager.default.removeItem(atPath: stagingFolder)
    }

    /// Starts fetching remote clip `index` into the staging folder.
    private func stage(_ index: Int) {
        guard run.preload, fetchesAhead, index < clips.count, fetching[index] == nil,
              InputAccess.isRemote(clips[index].info.readPath),
              (try? FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)) != nil
        else { return }
        let url = clips[index].info.readPath, folder = stagingFolder, network = access.network
        fetching[index] = BackgroundTask(name: "segue-prefetch") { cancellation in
            Lookahead.fetch(url, into: folder, network: network, cancellation: cancellation)
        }
    }

    /// Downloads `url` whole into `folder`; nil if that failed (the clip is then opened from its URL).
    private static func fetch(_ url: String, into folder: String, network: NetworkSettings,
                              cancellation: Cancellation) -> String? {
        guard var request = URL(string: url).map({ URLRequest(url: $0) }) else { return nil }
        request.timeoutInterval = network.timeout
        guard let (file, response) = try? InputAccess.retrying(network, url: url, {
            try RemoteCache.download(request, cancellation: cancellation)
        }), let file else { return nil }
        let size = FileSize.bytes(atPath: file.path) ?? -1
        let destination = "\(folder)/\(UUID().uuidString)-\(RemoteCache.key(for: url))"
        guard !cancellation.isCancelled, response.statusCode == 200,
              response.expectedContentLength < 0 || Int(response.expectedContentLength) == size,
              (try? FileManager.default.moveItem(atPath: file.path, toPath: destination)) != nil else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        return destination
    }
}
