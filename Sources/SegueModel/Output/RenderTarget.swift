import SegueCore

/// What a stitch writes, resolved once when the request becomes a plan: one
/// file in a container (MP4 or WebM), or an HLS ladder (a master playlist
/// beside its renditions, with the rungs chosen for the canvas). Nothing
/// below the request reads the output's name for its kind again.
package enum RenderTarget: Sendable, Equatable {
    case file(path: String, container: OutputContainer)
    case ladder(master: String, HLSLadder)

    /// The target for `path` (its extension says the kind) and a plan's
    /// canvas and settings; a `.usage` error for a name Segue doesn't write,
    /// or a ladder that can't be made of the canvas.
    package init(path: String, canvas: Canvas, settings: StitchSettings) throws {
        guard let container = OutputContainer(path: path) else { throw SegueError.usage(OutputContainer.refusal(path: path)) }
        guard container == .hls else {
            self = .file(path: path, container: container)
            return
        }
        do {
            self = .ladder(master: path, try HLSLadder(canvas: canvas, settings: settings))
        } catch let error as LadderError {
            throw SegueError.usage(error.message)
        }
    }

    /// The file written, or the ladder's master playlist.
    package var path: String {
        switch self {
        case .file(let path, _): return path
        case .ladder(let master, _): return master
        }
    }

    package var container: OutputContainer {
        switch self {
        case .file(_, let container): return container
        case .ladder: return .hls
        }
    }

    /// The ladder's rungs and segment grid; nil for one file.
    package var ladder: HLSLadder? {
        if case .ladder(_, let ladder) = self { return ladder }
        return nil
    }
}

extension Plan {
    /// This plan writing `path` (its extension says the kind: see `RenderTarget.init(path:canvas:settings:)`).
    package func aimed(at path: String, settings: StitchSettings) throws -> Plan {
        var plan = self
        plan.target = try RenderTarget(path: path, canvas: canvas, settings: settings)
        return plan
    }
}
