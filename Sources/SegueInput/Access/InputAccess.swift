import Foundation
package import SegueMedia
import SegueModel
import SegueCore

/// Opens inputs, local or remote, as the policy allows: http(s) URLs go
/// through libavformat's own network protocols with a timeout and retries,
/// or, with a cache, through the cache's local copy; local files through a
/// descriptor of our own, checked against the input roots once opened.
package struct InputAccess: Sendable {
    package var network: NetworkSettings
    package var cache: RemoteCache?
    package var policy: InputPolicy
    /// Folders of Segue's own copies of remote clips (a staging folder): not
    /// the user's inputs, so not confined to the input roots.
    var ownFolders: [String] = []

    package init(network: NetworkSettings = NetworkSettings(), cache: RemoteCache? = nil, policy: InputPolicy = InputPolicy()) {
        self.network = network
        self.cache = cache
        self.policy = policy
    }

    /// Whether `path` is reached over the network (then with the timeout,
    /// retries and cache of `network`): `InputLocation`'s answer.
    package static func isRemote(_ path: String) -> Bool { InputLocation(path).isRemote }

    /// Where `path` is, or why it may not be opened (a refused protocol, a
    /// URL under `--no-remote`): nothing is opened or requested.
    func location(of path: String) throws -> InputLocation {
        let location = InputLocation(path)
        switch location {
        case .refusedProtocol(let scheme): throw BadInputReason.refusedProtocol(scheme)
        case .remote where !policy.allowRemote: throw BadInputReason.remoteNotAllowed
        case .file(let local) where !policy.roots.isEmpty && !permits(lexically: local): throw BadInputReason.outsideInputRoots
        default: return location
        }
    }

    /// Where to read `path` from: the cache's copy of a remote clip, or the path itself.
    func readablePath(for path: String) throws -> String {
        guard case .remote = try location(of: path), let cache else { return path }
        return try cache.localCopy(of: path, network: network)
    }

    /// Opens a local file, confined to the input roots: the check is made on
    /// the opened descriptor's real path, so a symlink swapped in after an
    /// earlier check can't lead outside.
    func openFile(_ path: String) throws -> LocalFile {
        let file: LocalFile
        do {
            file = try LocalFile(path: path)
        } catch LocalFile.OpenFailure.notRegularFile {
            throw BadInputReason.notRegularFile
        } catch LocalFile.OpenFailure.posix(let code) {
            throw FFmpegError.posix(code)
        }
        guard policy.permits(resolvedPath: file.resolvedPath) || isOwnCopy(file.resolvedPath) else {
            throw BadInputReason.outsideInputRoots
        }
        return file
    }

    /// Opens `path` for demuxing, retrying transient network failures with backoff.
    /// `deeperProbe` reads up to a minute and 64 MB to learn the streams (a
    /// DVD still menu's single picture comes with nothing after it to decode it by).
    /// A format Segue doesn't open, or a picture over the limit, is a `BadInputReason`.
    package func openDemuxer(_ path: String, deeperProbe: Bool = false, cancellation: Cancellation = Cancellation()) throws -> Demuxer {
        let probing = deeperProbe ? ["analyzeduration": "60000000", "probesize": "67108864"] : [:]
        do {
            switch try location(of: path) {
            case .file(let local):
                let file = try openFile(local)
                return try Demuxer(file: file, options: probing, maxPictureArea: policy.maxPictureArea, cancellation: cancellation)
            case .remote(let url):
                return try openRemote(url, options: probing, cancellation: cancellation)
            case .refusedProtocol(let scheme):
                throw BadInputReason.refusedProtocol(scheme)
            }
        } catch let refused as RefusedFormat {
            throw BadInputReason.refusedFormat(name: refused.name, longName: refused.longName)
        } catch let large as PictureTooLarge {
            throw BadInputReason.pictureTooLarge(width: large.width, height: large.height, limit: policy.maxPictureArea)
        }
    }

    private func openRemote(_ url: String, options probing: [String: String], cancellation: Cancellation) throws -> Demuxer {
        let microseconds = String(Int(network.timeout * 1_000_000))
        let options = probing.merging([
            "rw_timeout": microseconds, // every read and write
            "timeout": microseconds, // the socket, connect included
        ]) { _, network in network }
        // Failures to connect are retried here, with backoff; a connection lost
        // mid-clip is resumed by the demuxer at the byte it had reached.
        return try InputAccess.retrying(network, url: url) {
            try Demuxer(networkURL: url, options: options, retries: network.retries,
                        maxPictureArea: policy.maxPictureArea, cancellation: cancellation)
        }
    }

    /// The same access, also trusting Segue's own copies in `folder`.
    package func trusting(_ folder: String) -> InputAccess {
        var access = self
        access.ownFolders.append(InputAccess.resolved(folder))
        return access
    }

    private func isOwnCopy(_ resolvedPath: String) -> Bool {
        let folders = ownFolders + (cache.map { [InputAccess.resolved($0.folder)] } ?? [])
        return folders.contains { resolvedPath.hasPrefix($0 + "/") }
    }

    /// A path with symlinks and `..` resolved as far as it exists, the rest appended.
    static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let parent = (absolute as NSString).deletingLastPathComponent
        guard parent != absolute, !parent.isEmpty else { return absolute }
        return (resolved(parent) as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
    }

    /// The early check, on the name: it names the problem before anything is
    /// read (the opened file is checked again in `openFile`).
    private func permits(lexically path: String) -> Bool {
        let real = InputAccess.resolved(path)
        return policy.permits(resolvedPath: real) || isOwnCopy(real)
    }

    /// Runs `attempt` up to 1 + retries times while it fails transiently,
    /// waiting 0.25 s, 0.5 s, 1 s … between tries; the final error says what happened.
    package static func retrying<T>(_ network: NetworkSettings, url: String, _ attempt: () throws -> T) throws -> T {
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
        // libavformat answers a redirect to a protocol it may not follow with EINVAL alone: ask where it went.
        if error.posixCode == EINVAL, let target = RemoteCache.refusedRedirect(of: url) { return .redirectRefused(to: target) }
        if error == .invalidData { return .notMedia }
        return .other(error.message)
    }

    static func resolves(_ host: String) -> Bool {
        var result: UnsafeMutablePointer<addrinfo>?
        defer { if result != nil { freeaddrinfo(result) } }
        return getaddrinfo(host, nil, nil, &result) == 0
    }
}
