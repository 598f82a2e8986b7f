package import SegueMedia
import SegueModel

/// The picture `--overlay` draws over the output (a logo: PNG, JPEG, WebP),
/// opened through the input policy like every other input and decoded once.
package enum OverlayPicture {
    /// The overlay's first picture as decoded (its own size and pixel format,
    /// alpha kept) and how it stands (a photo's EXIF orientation; upright otherwise), or
    /// why it can't be used.
    package static func load(_ path: String, access: InputAccess) -> Result<(picture: Frame, orientation: ClipOrientation), BadInput> {
        func bad(_ reason: BadInputReason) -> Result<(picture: Frame, orientation: ClipOrientation), BadInput> {
            .failure(BadInput(path: path, cause: .overlay(reason)))
        }
        // The probe says why a file or URL is no picture (missing, outside the roots, not media…), and how a photo stands.
        let orientation: ClipOrientation
        switch Prober.probe(path, access: access) {
        case .failure(let problem): return bad(problem.cause)
        case .success(let info): orientation = info.facts.isStill ? info.facts.orientation : .upright
        }
        do {
            let demuxer = try access.openDemuxer(try access.readablePath(for: path))
            guard let index = demuxer.bestStream(.video), demuxer.streams[index].kind == .video else { return bad(.noVideoStream) }
            let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1)
            let picture = Frame()
            guard try Prober.decodesAPicture(demuxer, decoder, into: picture) else { return bad(.nothingDecodes) }
            return .success((picture, orientation))
        } catch let reason as BadInputReason {
            return bad(reason)
        } catch {
            return bad(.cantOpen("\(error)"))
        }
    }

    /// Why `path` can't be the overlay, or nil when its picture decodes.
    package static func check(_ path: String, access: InputAccess) -> BadInput? {
        if case .failure(let problem) = load(path, access: access) { return problem }
        return nil
    }
}
