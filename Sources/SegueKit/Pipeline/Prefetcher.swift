import Foundation
import SegueMedia
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches the bytes of a remote clip into a staging folder ahead of its turn,
/// so the preloader's open is a local one. A remote open costs several round
/// trips (headers, then the moov box wherever it is, then the media), often
/// more than a short clip takes to play; fetching the clip after next while
/// the current one plays takes those round trips off the join. No clip is
/// opened here: the two-open rule holds, and a failed fetch just means the
/// preloader opens the URL itself.
final class Prefetcher: @unchecked Sendable {
    // SAFETY: `localPath` is written once by the fetching thread before `done`
    // is signalled, and read only after waiting for it.
    private var localPath: String?
    private let done = DispatchSemaphore(value: 0)
    private var taken = false

    init(url: String, folder: String, network: NetworkSettings) {
        let thread = Thread { [self] in
            defer { done.signal() }
            guard var request = URL(string: url).map({ URLRequest(url: $0) }) else { return }
            request.timeoutInterval = network.timeout
            guard let (file, response) = try? InputAccess.retrying(network, url: url, { try RemoteCache.download(request) }),
                  let file else { return }
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
            let destination = "\(folder)/\(UUID().uuidString)-\(RemoteCache.key(for: url))"
            guard response.statusCode == 200, response.expectedContentLength < 0 || Int(response.expectedContentLength) == size,
                  (try? FileManager.default.moveItem(atPath: file.path, toPath: destination)) != nil else {
                try? FileManager.default.removeItem(at: file)
                return
            }
            localPath = destination
        }
        thread.name = "segue-prefetch"
        thread.start()
    }

    /// The staged file, once fetched, or nil if fetching failed. The caller
    /// owns the file from here (it unlinks it once opened).
    func take() -> String? {
        done.wait()
        taken = true
        return localPath
    }

    deinit {
        // A staged file nobody took (the stitch stopped early) is removed.
        if !taken, let localPath { unlink(localPath) }
    }
}
