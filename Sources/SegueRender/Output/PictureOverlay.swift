internal import SegueMedia
import SegueInput
import SegueModel

/// Draws the `--overlay` picture over every output picture, after the
/// transition is composed and before the encoder, so nothing under it moves
/// it: one libavfilter graph (scale, alpha, overlay) for the whole output,
/// fed the decoded logo once and then each canvas picture in turn.
final class PictureOverlay {
    /// Where and how large the logo is on the canvas.
    struct Box: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The gap between the logo and the canvas's edges, as a fraction of the canvas height.
    static let margin = 0.03

    let box: Box
    private let graph: FilterGraph

    /// `picture` is the decoded logo (any size and pixel format; alpha kept),
    /// stored as its `orientation` (a photo's EXIF) says.
    init(picture: Frame, orientation: ClipOrientation = .upright, canvas: Canvas, position: OverlayPosition, widthFraction: Double,
         opacity: Double) throws {
        precondition(picture.width > 0 && picture.height > 0, "an overlay picture has a size")
        // A photo stored turned or mirrored is stood upright first, as a still clip is.
        let turn = orientation.filterTurn.rotation
        let upright = [orientation.mirrorsPhoto ? "hflip" : nil,
                       [90: "transpose=clock", 180: "hflip,vflip", 270: "transpose=cclock"][turn]].compactMap { $0 }
        let sideways = turn == 90 || turn == 270
        let box = PictureOverlay.box(pictureWidth: sideways ? picture.height : picture.width,
                                     pictureHeight: sideways ? picture.width : picture.height, canvas: canvas,
                                     position: position, widthFraction: widthFraction)
        self.box = box
        // Scaled once and turned into BT.709 limited-range YUV with its alpha; the opacity scales the alpha.
        var logo = upright + ["scale=\(box.width):\(box.height):flags=bicubic:out_color_matrix=bt709:out_range=tv", "format=yuva420p"]
        if opacity < 1 { logo.append("lutyuv=a=val*\(opacity)") }
        // In HDR output the logo sits at reference white, as an SDR clip does.
        logo += ColourConversion.overlayFilters(to: canvas.colour)
        let description = "[logo]" + logo.joined(separator: ",")
            + "[mark];[in][mark]overlay=x=\(box.x):y=\(box.y):format=\(TextLayer.overlayFormat(canvas.colour)):eof_action=repeat"
        let timeBase = canvas.frameRate.inverted
        let canvasPicture = try Frame.video(width: canvas.width, height: canvas.height, pixelFormat: canvas.colour.pixelFormat)
        graph = try FilterGraph(videoLike: canvasPicture, timeBase: timeBase,
                                second: picture, labelled: "logo", description: description)
        // One logo for the whole output: the overlay repeats it after its end.
        picture.pts = 0
        try graph.push(picture, into: 1)
        try graph.close(atPTS: 1, source: 1)
    }

    /// `picture` with the logo drawn on it (its pts and colour tags kept);
    /// the overlay takes the picture's references.
    func draw(_ picture: Frame) throws -> Frame {
        try graph.push(picture)
        let drawn = Frame()
        guard try graph.pull(into: drawn) == .ready else {
            throw SegueError(.processingFailed, detail: "the overlay gave no picture")
        }
        return drawn
    }

    /// The logo `widthFraction` of the canvas wide (its aspect kept, even sizes),
    /// `margin` of the canvas height from the edges at `position`, centred at `.center`.
    static func box(pictureWidth: Int, pictureHeight: Int, canvas: Canvas, position: OverlayPosition,
                    widthFraction: Double) -> Box {
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        let width = min(canvas.width, even(Double(canvas.width) * widthFraction))
        let height = min(canvas.height, even(Double(width) * Double(pictureHeight) / Double(pictureWidth)))
        let margin = Int((Double(canvas.height) * PictureOverlay.margin).rounded())
        let left = min(margin, canvas.width - width), top = min(margin, canvas.height - height)
        let right = max(0, canvas.width - width - margin), bottom = max(0, canvas.height - height - margin)
        switch position {
        case .topLeft: return Box(x: left, y: top, width: width, height: height)
        case .topRight: return Box(x: right, y: top, width: width, height: height)
        case .bottomLeft: return Box(x: left, y: bottom, width: width, height: height)
        case .bottomRight: return Box(x: right, y: bottom, width: width, height: height)
        case .center: return Box(x: (canvas.width - width) / 2, y: (canvas.height - height) / 2, width: width, height: height)
        }
    }
}
