import Foundation
import SegueModel
internal import SegueMedia

/// A remote clip that could not be had, and why.
struct RemoteError: Error, Equatable, Sendable, CustomStringConvertible {
    var url: String
    var failure: RemoteFailure
    /// Worth another try (a refused or reset connection, a timeout, HTTP 5xx).
    var transient = false
    /// Tries made before giving up (1: not retried).
    var tries = 1

    var description: String {
        tries > 1 ? "\(failure); gave up after \(tries) tries" : failure.description
    }
}

/// What went wrong fetching a remote clip, in words a user can act on.
enum RemoteFailure: Equatable, Sendable, CustomStringConvertible {
    case notFound
    case accessDenied
    case needsAuthorisation
    case badRequest
    case refusedByServer
    case serverError
    /// Any other HTTP status the cache's download got.
    case httpStatus(Int)
    case connectionRefused
    case connectionReset
    case connectionLost
    case timedOut(seconds: Double)
    case unreachable
    case dnsLookupFailed(host: String)
    case tls(String)
    case notMedia
    case incompleteDownload(received: Int, expected: Int64)
    case cantStore(String)
    case noResponse
    /// A redirect to something other than an http(s) URL, not followed.
    case redirectRefused(to: String)
    /// What the system said, when none of the above fits.
    case other(String)

    var description: String {
        switch self {
        case .notFound: return "not found (HTTP 404)"
        case .accessDenied: return "access denied (HTTP 403)"
        case .needsAuthorisation: return "needs authorisation (HTTP 401)"
        case .badRequest: return "bad request (HTTP 400)"
        case .refusedByServer: return "refused by the server (HTTP 4xx)"
        case .serverError: return "server error (HTTP 5xx)"
        case .httpStatus(let status): return "the server answered HTTP \(status)"
        case .connectionRefused: return "connection refused"
        case .connectionReset: return "connection reset"
        case .connectionLost: return "connection lost"
        case .timedOut(let seconds): return "timed out after \(Plan.seconds(seconds))"
        case .unreachable: return "network unreachable"
        case .dnsLookupFailed(let host): return "DNS lookup failed for \(host)"
        case .tls(let detail): return "TLS or connection error (\(detail))"
        case .notMedia: return "not a media file (no known container format)"
        case .incompleteDownload(let received, let expected): return "download incomplete (\(received) of \(expected) bytes)"
        case .cantStore(let detail): return "can't store it in the cache (\(detail))"
        case .noResponse: return "no HTTP response"
        case .redirectRefused(let target): return "redirected to \(target), which is not an http or https URL; only those are followed"
        case .other(let detail): return "can't open it (\(detail))"
        }
    }

    /// The failure an HTTP status (of a download that got one) stands for.
    init(status: Int) {
        switch status {
        case 404: self = .notFound
        case 403: self = .accessDenied
        case 401: self = .needsAuthorisation
        default: self = .httpStatus(status)
        }
    }
}
