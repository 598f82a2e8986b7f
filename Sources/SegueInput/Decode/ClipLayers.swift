import Foundation
internal import SegueMedia
import SegueModel

/// The layers an editor's timeline places over a clip (`ClipLayer`): each
/// decoded as a clip of its own, fitted to the canvas, opened when its first
/// frame is due and closed after its last, and drawn over the host's
/// pictures by its layout (crop, scale, turn, opacity, position) in one
/// libavfilter graph per layer.
final class ClipLayers {
    private struct Drawn {
        let layer: ClipLayer
        var source: ClipSource?
        var graph: FilterGraph?
    }

    private let host: PlannedClip
    private let canvas: Canvas
    private let settings: StitchSettings
    private let strict: Bool
    private let access: InputAccess
    private var layers: [Drawn]
    /// The host's frame the next picture is.
    private var position = 0

    /// Nil when `clip` has no layers.
    init?(clip: PlannedClip, canvas: Canvas, settings: StitchSettings, strict: Bool, access: InputAccess) {
        guard !clip.info.use.layers.isEmpty else { return nil }
        host = clip
        self.canvas = canvas
        var pictureOnly = settings
        pictureOnly.includeAudio = false
        self.settings = pictureOnly
        self.strict = strict
        self.access = access
        layers = clip.info.use.layers.map { Drawn(layer: $0) }
    }

    /// `picture` (the host's next) with every layer due at it drawn over it, bottom first.
    func draw(over picture: Frame) throws -> Frame {
        defer { position += 1 }
        var drawn = picture
        for index in layers.indices where layers[index].layer.frames.contains(position) {
            let layer = layers[index].layer
            do {
                if layers[index].source == nil {
                    layers[index].source = try ClipSource(clip: host.planned(layer, canvas: canvas), canvas: canvas, settings: settings,
                                                          strict: strict, access: access)
                }
                let top = try layers[index].source!.nextPicture().clone()
                if layers[index].graph == nil { layers[index].graph = try Self.graph(layer.layout, over: drawn, top: top, canvas: canvas) }
                top.pts = drawn.pts
                try layers[index].graph!.push(drawn)
                try layers[index].graph!.push(top, into: 1)
                let composed = Frame()
                guard try layers[index].graph!.pull(into: composed) == .ready else {
                    throw SegueError(.processingFailed, detail: "the layer's graph gave no picture")
                }
                drawn = composed
            } catch {
                throw ClipSource.failure(error, reading: layer.info)
            }
            if position + 1 >= layer.frames.upperBound { layers[index].source = nil; layers[index].graph = nil }
        }
        return drawn
    }

    /// The graph that draws a canvas picture (`top`, input "layer") over another by `layout`.
    static func graph(_ layout: EditLayout, over base: Frame, top: Frame, canvas: Canvas) throws -> FilterGraph {
        let description = "[layer]" + filters(layout, canvas: canvas).joined(separator: ",")
            + "[top];[in][top]overlay=x='\(centre(layout.centreX, crop: layout.cropLeft - layout.cropRight, scale: layout.scaleX, size: canvas.width))-overlay_w/2'"
            + ":y='\(centre(layout.centreY, crop: layout.cropTop - layout.cropBottom, scale: layout.scaleY, size: canvas.height))-overlay_h/2'"
            + ":format=\(TextLayer.overlayFormat(canvas.colour)):eof_action=pass:repeatlast=0"
        return try FilterGraph(videoLike: base, timeBase: canvas.frameRate.inverted, second: top, labelled: "layer", description: description)
    }

    /// The layer's picture cropped, scaled, given alpha (faded by its opacity) and turned.
    static func filters(_ layout: EditLayout, canvas: Canvas) -> [String] {
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        let keptWidth = 1 - layout.cropLeft - layout.cropRight, keptHeight = 1 - layout.cropTop - layout.cropBottom
        var filters: [String] = []
        if keptWidth < 1 || keptHeight < 1 {
            filters.append(String(format: "crop=w=%d:h=%d:x=%d:y=%d", even(Double(canvas.width) * keptWidth), even(Double(canvas.height) * keptHeight),
                                  Int(Double(canvas.width) * layout.cropLeft), Int(Double(canvas.height) * layout.cropTop)))
        }
        let width = even(Double(canvas.width) * keptWidth * layout.scaleX), height = even(Double(canvas.height) * keptHeight * layout.scaleY)
        filters.append("scale=\(width):\(height):flags=bicubic")
        filters.append(canvas.colour.bitDepth > 8 ? "format=yuva420p10" : "format=yuva420p")
        if layout.opacity < 1 { filters.append(String(format: "lutyuv=a=val*%.6f", max(0, layout.opacity))) }
        if layout.rotation.truncatingRemainder(dividingBy: 360) != 0 {
            filters.append(String(format: "rotate=%.9f:ow=rotw(%.9f):oh=roth(%.9f):c=none", layout.rotation * .pi / 180,
                                  layout.rotation * .pi / 180, layout.rotation * .pi / 180))
        }
        return filters
    }

    /// Where the kept (cropped) part's centre lands along one axis, in canvas pixels.
    private static func centre(_ offset: Double, crop: Double, scale: Double, size: Int) -> Int {
        Int((Double(size) * (0.5 + offset + crop * scale / 2)).rounded())
    }
}
