import Foundation

/// What counts as a network input, and how long to wait between tries: the
/// one definition the demuxer, the resuming input, the input access, the
/// cache and the model's input locations all use.
package enum Network {
    /// The URL schemes Segue opens over the network; every other protocol is refused.
    static let schemes: Set<String> = ["http", "https"]
    /// What those need underneath (libavformat's `protocol_whitelist`): no
    /// file, pipe, concat, subfile, crypto or data, even through a redirect.
    package static let protocols = "http,https,tcp,tls,httpproxy"

    /// Whether `url` is an http(s) URL, read over the network.
    package static func isNetworkURL(_ url: String) -> Bool {
        guard url.contains("://"), let scheme = url.split(separator: ":", maxSplits: 1).first else { return false }
        return schemes.contains(scheme.lowercased())
    }

    /// Every protocol Debian's libavformat 5.1 knows for input (`file`,
    /// `pipe`, `concat`, `subfile`, `rtmp` …, as `avio_enum_protocols` lists
    /// them; a test holds this list to the library linked): a name that starts
    /// with one and a colon would be read through it, were it given to libavformat.
    package static let knownProtocols: Set<String> = [
        "amqp", "async", "bluray", "cache", "concat", "concatf", "crypto", "data", "ffrtmphttp", "file", "ftp",
        "gopher", "gophers", "hls", "http", "httpproxy", "https", "ipfs", "ipns", "mmsh", "mmst", "pipe", "rist",
        "rtmp", "rtmps", "rtmpt", "rtmpts", "rtp", "sctp", "sftp", "srt", "srtp", "subfile", "tcp", "tls", "udp",
        "udplite", "unix", "zmq",
    ]

    /// Seconds to wait before try `tries + 1` after `tries` failed ones:
    /// 0.25 s, 0.5 s, 1 s … up to 8 s.
    package static func backoff(afterTries tries: Int) -> Double {
        min(8, 0.25 * pow(2, Double(max(tries, 1) - 1)))
    }
}
