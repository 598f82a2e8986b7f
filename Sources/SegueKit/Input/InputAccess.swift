import Foundation
import SegueMedia

/// Opens inputs, local or remote: http(s) URLs go through libavformat's own
/// network protocols with a timeout and retries, or, with a cache, through
/// the cache's local copy.
public struct InputAccess: Sendable {
    public var network: NetworkSettings
    public var cache: RemoteCache?

    public init(network: NetworkSettings = NetworkSettings(), cache: RemoteCache? = nil) {
        self.network = network
        self.cache = cache
    }

    /// Whether `path` is reached over the network (then with the timeout,
    /// retries and cache of `network`): `Network`'s one definition.
    public static func isRemote(_ path: String) -> Bool { Network.isNetworkURL(path) }

    /// Where to read `path` from: the cache's copy of a remote clip, or the path itself.
    func readablePath(for path: String) throws -> String {
        // The cache fetches over HTTP(S) only; other network inputs are read as they stream.
        let lowered = path.lowercased()
        guard let cache, lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return path }
        return try cache.localCopy(of: path, network: network)
    }

    /// Opens `path` for demuxing, retrying transient network failures with backoff.
    /// `deeperProbe` reads up to a minute and 64 MB to learn the streams (a
    /// DVD still menu's single picture comes with nothing after it to decode it by).
    func openDemuxer(_ path: String, deeperProbe: Bool = false, cancellation: Cancellation = Cancellation()) throws -> Demuxer {
        let probing = deeperProbe ? ["analyzeduration": "60000000", "probesize": "67108864"] : [:]
        guard InputAccess.isRemote(path) else { return try Demuxer(url: path, options: probing, cancellation: cancellation) }
        let microseconds = String(Int(network.timeout * 1_000_000))
        let options = probing.merging([
            "rw_timeout": microseconds, // every read and write
            "timeout": microseconds, // the socket, connect included
        ]) { _, network in network }
        // Failures to connect are retried here, with backoff; a connection lost
        // mid-clip is resumed by the demuxer at the byte it had reached.
        return try InputAccess.retrying(network, url: path) {
            try Demuxer(url: path, options: options, retries: network.retries, cancellation: cancellation)
        }
    }

    /// Runs `attempt` up to 1 + retries times while it fails transiently,
    /// waiting 0.25 s, 0.5 s, 1 s … between tries; the final error says what happened.
    static func retrying<T>(_ network: NetworkSettings, url: String, _ attempt: () throws -> T) throws -> T {
        var tries = 0
        while true {
            tries += 1
            var failure: RemoteError
            do {
                return try attempt()
            } catch let error as FFmpegError {
                failure = RemoteError(url: url, failure: describe(error, url: url, network: network),
                                      transient: isTransient(error))
            } catch let error as RemoteError {
                failure = error
            }
            guard failure.transient, tries <= network.retries else {
                failure.tries = tries
                throw failure
            }
            Thread.sleep(forTimeInterval: Network.backoff(afterTries: tries))
        }
    }

    static func isTransient(_ error: FFmpegError) -> Bool { error.isTransport }

    /// Says what a network failure was, in words a user can act on.
    static func describe(_ error: FFmpegError, url: String, network: NetworkSettings) -> RemoteFailure {
        switch error {
        case .httpNotFound: return .notFound
        case .httpForbidden: return .accessDenied
        case .httpUnauthorized: return .needsAuthorisation
        case .httpBadRequest: return .badRequest
        case .httpOther4xx: return .refusedByServer
        case .httpServerError: return .serverError
        default: break
        }
        switch error.posixCode {
        case ECONNREFUSED?: return .connectionRefused
        case ECONNRESET?, EPIPE?: return .connectionReset
        case ETIMEDOUT?: return .timedOut(seconds: network.timeout)
        case ENETUNREACH?, EHOSTUNREACH?: return .unreachable
        default: break
        }
        if let host = URL(string: url)?.host, !resolves(host) { return .dnsLookupFailed(host: host) }
        if url.lowercased().hasPrefix("https://") && error.posixCode == EIO { return .tls(error.message) }
        if error == .invalidData { return .notMedia }
        return .other(error.message)
    }

    static func resolves(_ host: String) -> Bool {
        var result: UnsafeMutablePointer<addrinfo>?
        defer { if result != nil { freeaddrinfo(result) } }
        return getaddrinfo(host, nil, nil, &result) == 0
    }
}
