internal import CFFmpeg
import SegueCore

/// A libavfilter graph with a buffer source (or two) and one buffer sink, built
/// from a filter description (`avfilter_graph_free` frees it and every filter
/// in it; the source and sink contexts are borrowed views into it). The one
/// place Segue builds a graph: `XfadeGraph` is one too.
package final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    /// The sources in the order given (`push(_:into:)`'s index); the convenience initialisers label the first "in".
    private let sources: [UnsafeMutablePointer<AVFilterContext>]
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// The sink's time base: the unit of the pts of the frames `pull` returns.
    package let outputTimeBase: Rational

    /// A video graph fed with frames shaped like `template` (size, pixel format,
    /// aspect) whose timestamps are in `timeBase`.
    package convenience init(videoLike template: Frame, timeBase: Rational, description: String) throws {
        try self.init(sources: [("buffer", "in", FilterGraph.videoArguments(template, timeBase))], sink: "buffersink",
                      description: description)
    }

    /// A video graph with a second video source labelled `label` (e.g. a
    /// picture drawn over the first), fed with frames shaped like `second`;
    /// `push(_:into: 1)` feeds it.
    package convenience init(videoLike template: Frame, timeBase: Rational, second: Frame, labelled label: String,
                             description: String) throws {
        try self.init(sources: [("buffer", "in", FilterGraph.videoArguments(template, timeBase)),
                                ("buffer", label, FilterGraph.videoArguments(second, timeBase))],
                      sink: "buffersink", description: description)
    }

    private static func videoArguments(_ template: Frame, _ timeBase: Rational) -> String {
        var aspect = template.pointer.pointee.sample_aspect_ratio
        if aspect.num <= 0 || aspect.den <= 0 { aspect = AVRational(num: 1, den: 1) }
        return "video_size=\(template.width)x\(template.height):pix_fmt=\(template.pointer.pointee.format)"
            + ":time_base=\(timeBase.numerator)/\(timeBase.denominator):pixel_aspect=\(aspect.num)/\(aspect.den)"
    }

    /// An audio graph fed with frames shaped like `template` whose timestamps
    /// are in 1/sample rate.
    package convenience init(audioLike template: Frame, description: String) throws {
        var layout = AVChannelLayout()
        if template.pointer.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, template.pointer.pointee.ch_layout.nb_channels)
        } else {
            try check(av_channel_layout_copy(&layout, &template.pointer.pointee.ch_layout), "av_channel_layout_copy")
        }
        defer { av_channel_layout_uninit(&layout) }
        var name = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&layout, &name, name.count)
        let format = String(cString: av_get_sample_fmt_name(AVSampleFormat(template.pointer.pointee.format)))
        let arguments = "time_base=1/\(template.sampleRate):sample_rate=\(template.sampleRate)"
            + ":sample_fmt=\(format):channel_layout=\(string(fromCString: name))"
        try self.init(sources: [("abuffer", "in", arguments)], sink: "abuffersink", description: description)
    }

    /// A graph whose sources are `sourceList` (each a `filter` such as "buffer" or "abuffer",
    /// named and labelled `label` in `description`, made with `arguments`) and whose sink,
    /// `sinkName`, is labelled "out". libavfilter's defaults run it on slice
    /// threads, one per core (`thread_type` slice, `threads` 0).
    init(sources sourceList: [(filter: String, label: String, arguments: String)], sink sinkName: String,
         description: String) throws {
        guard let graph = avfilter_graph_alloc() else { fatalError("avfilter_graph_alloc: out of memory") }
        self.graph = graph
        var sources: [UnsafeMutablePointer<AVFilterContext>] = []
        var sink: UnsafeMutablePointer<AVFilterContext>?
        do {
            for (filter, label, arguments) in sourceList {
                var source: UnsafeMutablePointer<AVFilterContext>?
                try check(avfilter_graph_create_filter(&source, avfilter_get_by_name(filter), label, arguments, nil, graph),
                          "avfilter_graph_create_filter(\(filter) \(arguments))")
                sources.append(source!)
            }
            try check(avfilter_graph_create_filter(&sink, avfilter_get_by_name(sinkName), "out", nil, nil, graph),
                      "avfilter_graph_create_filter(\(sinkName))")
            // The parser's "outputs" are our sources' output pads (a list, by label), its "inputs" our sink's input pad.
            var outputs: UnsafeMutablePointer<AVFilterInOut>? = nil
            for (source, entry) in zip(sources, sourceList).reversed() {
                let output = avfilter_inout_alloc()!
                output.pointee.name = av_strdup(entry.label)
                output.pointee.filter_ctx = source
                output.pointee.pad_idx = 0
                output.pointee.next = outputs
                outputs = output
            }
            var inputs = avfilter_inout_alloc()
            defer {
                avfilter_inout_free(&outputs)
                avfilter_inout_free(&inputs)
            }
            inputs!.pointee.name = av_strdup("out")
            inputs!.pointee.filter_ctx = sink
            inputs!.pointee.pad_idx = 0
            inputs!.pointee.next = nil
            try check(avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil), "avfilter_graph_parse_ptr(\(description))")
            try check(avfilter_graph_config(graph, nil), "avfilter_graph_config(\(description))")
        } catch {
            avfilter_graph_free(&self.graph)
            throw error
        }
        self.sources = sources
        self.sink = sink!
        let timeBase = av_buffersink_get_time_base(sink)
        outputTimeBase = Rational(Int(timeBase.num), Int(timeBase.den))
    }

    deinit {
        avfilter_graph_free(&graph)
    }

    /// Feeds one frame to source `source` (0: "in"). `av_buffersrc_add_frame_flags(…, 0)`
    /// takes the frame's references and leaves `frame` blank for reuse.
    package func push(_ frame: Frame, into source: Int = 0) throws {
        try check(av_buffersrc_add_frame_flags(sources[source], frame.pointer, 0), "av_buffersrc_add_frame_flags")
    }

    /// Ends source `source`'s input at `pts` (in its time base), so filters such as
    /// fps know exactly where the stream stops.
    package func close(atPTS pts: Int64, source: Int = 0) throws {
        try check(av_buffersrc_close(sources[source], pts, 0), "av_buffersrc_close")
    }

    /// Pulls the next filtered frame (`av_buffersink_get_frame` fills a blank frame).
    package func pull(into frame: Frame) throws -> Step {
        frame.unref()
        return try step(av_buffersink_get_frame(sink, frame.pointer), "av_buffersink_get_frame")
    }
}
