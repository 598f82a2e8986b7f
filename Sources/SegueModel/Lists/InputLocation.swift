import Foundation
import SegueCore

/// Where an input's bytes are: a local file, an http(s) URL, or nowhere Segue
/// goes. The one answer to "is this remote?" and "which file is this?" for
/// the command line, lists, the plan and the opener alike.
package enum InputLocation: Equatable {
    case file(String)
    case remote(String)
    /// A name that starts with a protocol libavformat knows and Segue refuses.
    case refusedProtocol(String)

    /// `folder`: where a relative name is looked for (a list's folder; the
    /// current one when empty), for a name that starts like a protocol.
    package init(_ input: String, relativeTo folder: String = "") {
        // libavformat reads "proto:…" (and "subfile,,start,…,:…") through the protocol it names.
        let scheme = String(input.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }).lowercased()
        let after = input.dropFirst(scheme.count).first
        guard scheme.first?.isLetter == true, after == ":" || after == "," else { self = .file(input); return }
        if after == ":" && Network.isNetworkURL(input) { self = .remote(input); return }
        if after == ":" && scheme == "file" {
            // file:///abs/path (percent-encoded) or libavformat's file:path
            let rest = input.dropFirst("file:".count)
            self = .file(rest.hasPrefix("//") ? URL(string: input)?.path ?? String(rest.dropFirst(2)) : String(rest))
            return
        }
        // A file whose name holds a colon opens as itself.
        let named = folder.isEmpty ? input : (folder as NSString).appendingPathComponent(input)
        if Network.knownProtocols.contains(scheme) && !FileManager.default.fileExists(atPath: named) {
            self = .refusedProtocol(scheme)
        } else {
            self = .file(input)
        }
    }

    /// Whether the input is read over the network (with the timeout, retries and cache of `NetworkSettings`).
    package var isRemote: Bool {
        if case .remote = self { return true }
        return false
    }
}
