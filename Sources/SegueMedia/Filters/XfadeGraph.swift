internal import CFFmpeg

/// libavfilter's `xfade` drawing the pictures of one transition between two
/// canvas pictures (yuv420p or yuv420p10le): a `FilterGraph` with two buffer
/// sources (the outgoing and the incoming picture) and one sink, built once
/// per join and fed one pair per frame.
///
/// xfade draws the pair whose outgoing picture has pts `p` at progress
/// `1 - (p - first - offset) / duration` (1: all outgoing, 0: all incoming),
/// in the graph's time base. Here the time base is `1/ticks` s, the duration
/// 1 s (`ticks` ticks) and the offset 1 s: a first outgoing picture at pts 0
/// passes straight through (it only fixes `first`), and the pair for tick `t`
/// (0 < t < ticks) is drawn at pts `ticks + t`, so its progress is exactly
/// `1 - t / ticks`: `t / ticks` of the way to the incoming picture, computed
/// in xfade's own float arithmetic. A join's step k of n is tick k + 1 of
/// n + 1, the fade's `(k + 1) / (n + 1)`; an eased join asks for finer ticks.
/// Ticks only go forward: a curve that turns back needs a new graph.
///
/// FFmpeg 5.1's xfade works on 4:4:4 formats only: the graph converts each
/// picture to 4:4:4 and the result back to 4:2:0 with the scale filters
/// libavfilter inserts on its own, as the ffmpeg CLI does for the same graph.
package final class XfadeGraph {
    /// Source 0 takes the outgoing picture, source 1 the incoming.
    private let graph: FilterGraph
    private let ticks: Int
    private let width: Int
    private let height: Int
    private let pixelFormat: PixelFormat
    /// The last tick drawn (0 before the first): ticks only go forward.
    package private(set) var lastTick = 0
    private var primed = false

    /// A graph drawing `transition` (one of `transitionNames`) at progress
    /// `t / ticks` for ticks `t` from 1 to `ticks - 1`, on pictures of `width` x `height` in `pixelFormat`.
    package init(transition: String, width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p, ticks: Int) throws {
        precondition(ticks > 1, "XfadeGraph needs at least two ticks")
        precondition(XfadeGraph.transitionNames.contains { $0.name == transition }, "unknown xfade transition '\(transition)'")
        self.ticks = ticks
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        let arguments = "video_size=\(width)x\(height):pix_fmt=\(pixelFormat.rawValue)"
            + ":time_base=1/\(ticks):frame_rate=\(ticks)/1:pixel_aspect=1/1"
        // xfade runs on the graph's slice threads, one per core: libavfilter's defaults.
        graph = try FilterGraph(
            sources: [("buffer", "outgoing", arguments), ("buffer", "incoming", arguments)], sink: "buffersink",
            description: "[outgoing][incoming]xfade=transition=\(transition):duration=1:offset=1,format=\(pixelFormat.name)[out]")
    }

    /// The transition from `outgoing` to `incoming` at tick `tick` (after the
    /// last one drawn, below `ticks`): a new picture. Both pictures are left
    /// as they were (the graph gets references of its own).
    package func draw(_ outgoing: Frame, _ incoming: Frame, tick: Int) throws -> Frame {
        precondition(tick > lastTick && tick < ticks, "xfade ticks go forward, within 1..<\(ticks): \(tick) after \(lastTick)")
        precondition(outgoing.width == width && outgoing.height == height && outgoing.isShaped(like: incoming)
                     && outgoing.pointer.pointee.format == pixelFormat.rawValue,
                     "XfadeGraph draws between two \(pixelFormat.name) pictures of \(width)x\(height)")
        let result = Frame()
        if !primed {
            // Fixes xfade's first pts; passed through untouched, and dropped here.
            try push(outgoing, into: 0, pts: 0)
            guard try graph.pull(into: result) == .ready else { throw XfadeGraph.stalled }
            primed = true
        }
        let pts = Int64(ticks + tick)
        try push(outgoing, into: 0, pts: pts)
        try push(incoming, into: 1, pts: pts)
        guard try graph.pull(into: result) == .ready else { throw XfadeGraph.stalled }
        lastTick = tick
        result.pts = nil
        return result
    }

    /// Feeds a new reference to `frame` stamped `pts` to source `source`; the graph takes
    /// the reference (`FilterGraph.push`), so `frame` itself stays as it was.
    private func push(_ frame: Frame, into source: Int, pts: Int64) throws {
        let reference = frame.clone()
        reference.pts = pts
        try graph.push(reference, into: source)
    }

    /// xfade gave no picture for a full pair: never expected.
    private static var stalled: FFmpegError {
        FFmpegError(code: cffmpeg_averror(EAGAIN), call: "av_buffersink_get_frame(xfade): no picture for a full pair")
    }

    /// Every transition of this libavfilter's `xfade`, in its own order, with
    /// its help text: the constants of the filter's `transition` option, less
    /// `custom` (an expression, not a transition).
    package static let transitionNames: [(name: String, help: String)] = {
        guard let filter = avfilter_get_by_name("xfade"), var privateClass = filter.pointee.priv_class else { return [] }
        var names: [(value: Int64, name: String, help: String)] = []
        var option: UnsafePointer<AVOption>? = nil
        withUnsafeMutablePointer(to: &privateClass) { classPointer in
            let object = UnsafeMutableRawPointer(classPointer)
            while let next = av_opt_next(object, option) {
                option = next
                let entry = next.pointee
                guard entry.type == AV_OPT_TYPE_CONST, let unit = entry.unit, String(cString: unit) == "transition",
                      let name = entry.name.map({ String(cString: $0) }), name != "custom" else { continue }
                names.append((entry.default_val.i64, name, entry.help.map { String(cString: $0) } ?? ""))
            }
        }
        return names.sorted { $0.value < $1.value }.map { ($0.name, $0.help) }
    }()
}
