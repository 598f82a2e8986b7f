import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SegueCore
package import SegueMedia
import SegueModel
import Synchronization

/// Keeps the bytes of remote clips in a folder, keyed by URL, so a re-run or a
/// clip used twice is not fetched again, as a feed player caches its videos. A kept copy is checked with a conditional GET (ETag /
/// Last-Modified; the server answers 304 without the body). A copy is written
/// under a temporary name and renamed only when complete and of the announced
/// length, so the cache never serves a partial file. Past `maxBytes` the least
/// recently used copies are evicted.
package final class RemoteCache: Sendable {
    // The folder's files are the shared state: each URL's copy is written under
    // a unique temporary name, then renamed atomically; `state` serialises the
    // index updates and evictions.
    package let folder: String
    package let maxBytes: Int?
    /// URLs already fetched or checked in this run, and per-URL locks so a clip
    /// named twice is fetched once.
    private let state = Mutex<(checked: Set<String>, fetching: [String: NSLock])>(([], [:]))

    /// What is known about one kept copy, stored beside it as JSON.
    struct Entry: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        var length: Int
        var lastUsed: Double
    }

    package init(folder: String, maxBytes: Int? = nil) throws {
        self.folder = folder
        self.maxBytes = maxBytes
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The local path of an up-to-date copy of `url`, fetching it if needed.
    func localCopy(of url: String, network: NetworkSettings) throws -> String {
        let key = RemoteCache.key(for: url)
        let urlLock = state.withLock { state -> NSLock in
            if let existing = state.fetching[key] { return existing }
            let created = NSLock()
            state.fetching[key] = created
            return created
        }
        return try urlLock.withLock {
            if state.withLock({ $0.checked.contains(url) }) { return "\(folder)/\(key).media" }
            let path = try fetch(url, key: key, network: network)
            state.withLock { _ = $0.checked.insert(url) }
            return path
        }
    }

    /// Validates or fetches one URL's copy.
    private func fetch(_ url: String, key: String, network: NetworkSettings) throws -> String {
        let dataPath = "\(folder)/\(key).media", indexPath = "\(folder)/\(key).json"
        let known = state.withLock { _ -> Entry? in
            guard let data = FileManager.default.contents(atPath: indexPath),
                  let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.url == url,
                  let size = FileSize.bytes(atPath: dataPath),
                  size == entry.length else { return nil }
            return entry
        }
        guard let address = URL(string: url) else {
            throw RemoteError(url: url, failure: .other("not a URL Foundation can read"))
        }
        var request = URLRequest(url: address)
        request.timeoutInterval = network.timeout
        if let known {
            if let etag = known.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = known.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        }
        let (downloaded, response) = try InputAccess.retrying(network, url: url) { try RemoteCache.download(request) }
        if response.statusCode == 304, var entry = known {
            entry.lastUsed = Date().timeIntervalSince1970
            try state.withLock { _ in try save(entry, to: indexPath) }
            return dataPath
        }
        defer { if let downloaded { try? FileManager.default.removeItem(at: downloaded) } }
        guard response.statusCode == 200, let downloaded else {
            throw RemoteError(url: url, failure: RemoteFailure(status: response.statusCode))
        }
        let size = FileSize.bytes(atPath: downloaded.path) ?? -1
        if response.expectedContentLength >= 0 && Int(response.expectedContentLength) != size {
            throw RemoteError(url: url, failure: .incompleteDownload(received: size, expected: response.expectedContentLength),
                              transient: true)
        }
        let entry = Entry(url: url, etag: response.value(forHTTPHeaderField: "ETag"),
                          lastModified: response.value(forHTTPHeaderField: "Last-Modified"), length: size,
                          lastUsed: Date().timeIntervalSince1970)
        try state.withLock { state in
            // Complete: move it in under a temporary name, then rename over any old copy.
            let temporary = "\(dataPath).partial-\(getpid())-\(UUID().uuidString)"
            try FileManager.default.moveItem(atPath: downloaded.path, toPath: temporary)
            guard rename(temporary, dataPath) == 0 else {
                unlink(temporary)
                throw RemoteError(url: url, failure: .cantStore(String(cString: strerror(errno))))
            }
            try save(entry, to: indexPath)
            evict(keeping: key, inUse: state.checked)
        }
        return dataPath
    }

    private func save(_ entry: Entry, to path: String) throws {
        let temporary = "\(path).partial-\(getpid())"
        try JSONEncoder().encode(entry).write(to: URL(fileURLWithPath: temporary))
        rename(temporary, path)
    }

    /// Removes least recently used copies until the cache fits `maxBytes`;
    /// the copy just stored and those this run uses (`inUse`) stay. Called under `state`'s lock.
    private func evict(keeping key: String, inUse: Set<String>) {
        guard let maxBytes, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var entries: [(key: String, entry: Entry)] = names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let key = String(name.dropLast(".json".count))
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)"),
                  let entry = try? JSONDecoder().decode(Entry.self, from: data) else { return nil }
            return (key, entry)
        }
        // Lengths come from index files on disk: summed without overflowing.
        func counted(_ entry: Entry) -> Int { max(0, min(entry.length, Int.max / 4)) }
        var total = entries.reduce(0) { min(Int.max / 2, $0 + counted($1.entry)) }
        entries.sort { $0.entry.lastUsed < $1.entry.lastUsed }
        for (victim, entry) in entries where total > maxBytes && victim != key && !inUse.contains(entry.url) {
            unlink("\(folder)/\(victim).media")
            unlink("\(folder)/\(victim).json")
            total -= counted(entry)
        }
    }

    /// A file name for a URL: a 64-bit FNV-1a hash and the URL's last path component.
    package static func key(for url: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let name = (URL(string: url)?.lastPathComponent ?? "clip").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return String(format: "%016llx", hash) + "-" + String(name.prefix(60))
    }

    /// The session every download uses: it follows redirects only to http(s) URLs.
    private static let session = URLSession(configuration: .default, delegate: RedirectGuard(), delegateQueue: nil)

    /// Where `url` redirects, when that is not an http(s) URL (one HEAD request,
    /// following http(s) redirects); nil for anything else.
    static func refusedRedirect(of url: String) -> String? {
        guard let address = URL(string: url) else { return nil }
        var request = URLRequest(url: address, timeoutInterval: 10)
        request.httpMethod = "HEAD"
        do {
            let (body, _) = try download(request)
            if let body { try? FileManager.default.removeItem(at: body) }
            return nil
        } catch let error as RemoteError {
            guard case .redirectRefused(let target) = error.failure else { return nil }
            return target
        } catch {
            return nil
        }
    }

    /// One request, waited for; the body (if any) in a temporary file.
    /// Raising `cancellation` cancels the request.
    package static func download(_ request: URLRequest, cancellation: Cancellation? = nil) throws -> (URL?, HTTPURLResponse) {
        let done = DispatchSemaphore(value: 0)
        let outcome = DownloadOutcome()
        let task = session.downloadTask(with: request) { location, response, error in
            // The system removes `location` when this returns: keep it.
            if let location {
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent("segue-download-\(UUID().uuidString)")
                if (try? FileManager.default.moveItem(at: location, to: kept)) != nil { outcome.location = kept }
            }
            outcome.response = response as? HTTPURLResponse
            outcome.error = error
            done.signal()
        }
        task.resume()
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if cancellation?.isCancelled == true { task.cancel() }
        }
        let url = request.url?.absoluteString ?? ""
        if let error = outcome.error as? URLError {
            throw RemoteError(url: url, failure: describe(error, timeout: request.timeoutInterval),
                              transient: [.timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet].contains(error.code))
        }
        if let error = outcome.error { throw RemoteError(url: url, failure: .other("\(error)")) }
        guard let response = outcome.response else { throw RemoteError(url: url, failure: .noResponse) }
        if (300..<400).contains(response.statusCode), let target = response.value(forHTTPHeaderField: "Location") {
            if let location = outcome.location { try? FileManager.default.removeItem(at: location) }
            throw RemoteError(url: url, failure: .redirectRefused(to: target))
        }
        if response.statusCode >= 500 {
            if let location = outcome.location { try? FileManager.default.removeItem(at: location) }
            throw RemoteError(url: url, failure: RemoteFailure(status: response.statusCode), transient: true)
        }
        return (outcome.location, response)
    }

    static func describe(_ error: URLError, timeout: Double) -> RemoteFailure {
        switch error.code {
        case .timedOut: return .timedOut(seconds: timeout)
        case .cannotConnectToHost: return .connectionRefused
        case .cannotFindHost, .dnsLookupFailed: return .dnsLookupFailed(host: error.failingURL?.host ?? "its host")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            return .tls(error.localizedDescription)
        case .networkConnectionLost: return .connectionLost
        default: return .other(error.localizedDescription)
        }
    }
}

/// Stops a redirect whose target is not an http(s) URL (the download then
/// ends with the 3xx response, which `download` reports).
private final class RedirectGuard: NSObject, URLSessionTaskDelegate {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // The Location as sent too: this URLSession resolves `file:///x` against the old host.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        let relative = URL(string: location)?.scheme == nil
        let allowed = (relative || Network.isNetworkURL(location)) && Network.isNetworkURL(request.url?.absoluteString ?? "")
        completionHandler(allowed ? request : nil)
    }
}

/// What a download's completion handler saw.
///
/// SAFETY: written once by URLSession's queue before `done` is signalled, read after.
private final class DownloadOutcome: @unchecked Sendable {
    var location: URL?
    var response: HTTPURLResponse?
    var error: Error?
}
