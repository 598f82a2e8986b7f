internal import SegueMedia
import SegueModel
import SegueCore

/// The libavfilter description that turns one clip's decoded pictures into
/// canvas pictures: deinterlaced, at the canvas rate, turned upright, converted
/// to SDR BT.709 limited range (tone-mapped when HDR), scaled, padded or cropped.
enum VideoFilters {
    /// `firstPicture` is what the decoder says about the first picture; where
    /// it is silent, the probed stream facts apply.
    /// `text`: the clip's caption, drawn last, over the fitted canvas picture.
    static func description(for clip: PlannedClip, canvas: Canvas, firstPicture: ColourInfo, interlacedPicture: Bool,
                            text: TextLayer? = nil) -> String {
        let colour = firstPicture.filled(from: clip.info.facts.colour)
        let placement = clip.placement
        let conversion = ColourConversion.filters(from: colour, codedHeight: clip.info.facts.codedHeight, width: placement.scaledWidth,
                                                  height: placement.scaledHeight, to: canvas.colour)
        return fitted(upright(clip, canvas: canvas, interlacedPicture: interlacedPicture) + conversion, clip: clip, canvas: canvas,
                      text: text)
    }

    /// The clip's graph as `description` makes it, or split around a
    /// `ColourTable` when the colour is converted by one (HDR into 8-bit SDR):
    /// the table runs on whichever of the upright picture (`uprightWidth` x
    /// `uprightHeight`) and the placed one is smaller.
    static func stages(for clip: PlannedClip, canvas: Canvas, firstPicture: ColourInfo, interlacedPicture: Bool,
                       uprightWidth: Int, uprightHeight: Int, text: TextLayer? = nil) -> VideoStages {
        let colour = firstPicture.filled(from: clip.info.facts.colour)
        guard let table = ColourConversion.table(from: colour, codedHeight: clip.info.facts.codedHeight, to: canvas.colour) else {
            return .single(description(for: clip, canvas: canvas, firstPicture: firstPicture, interlacedPicture: interlacedPicture,
                                       text: text))
        }
        let placement = clip.placement
        let shrinks = placement.scaledWidth * placement.scaledHeight <= uprightWidth * uprightHeight
        let (width, height) = shrinks ? (placement.scaledWidth, placement.scaledHeight) : (uprightWidth, uprightHeight)
        // 8-bit 4:2:0 stays as it is; every other source is read at 10 bits.
        let format = firstPicture.bitDepth <= 8 && clip.info.facts.colour.bitDepth <= 8 ? "yuv420p" : "yuv420p10le"
        let front = upright(clip, canvas: canvas, interlacedPicture: interlacedPicture)
            + ["scale=\(width):\(height):flags=bicubic", "format=\(format)"]
        let grow = shrinks ? [] : ["scale=\(placement.scaledWidth):\(placement.scaledHeight):flags=bicubic"]
        return .split(front: front.joined(separator: ","), table: table, colour: canvas.colour,
                      back: fitted(grow.isEmpty ? ["null"] : grow, clip: clip, canvas: canvas, text: text))
    }

    /// Deinterlaced, at the canvas rate, turned upright.
    private static func upright(_ clip: PlannedClip, canvas: Canvas, interlacedPicture: Bool) -> [String] {
        let info = clip.info
        var filters: [String] = []
        // Each picture is rebuilt from its fields (bwdif), so none is combed;
        // on a canvas at twice the clip's rate or more, each field becomes a
        // picture of its own (50i to 50p), otherwise the rate stays.
        let rate = canvas.frameRate
        if info.facts.interlaced || interlacedPicture {
            let mode = rate.value >= 1.9 * info.facts.frameRate.value ? "send_field" : "send_frame"
            filters.append("bwdif=mode=\(mode):parity=auto:deint=\(info.facts.interlaced ? "all" : "interlaced")")
        }
        filters.append("fps=fps=\(rate.numerator)/\(rate.denominator):start_time=0")
        // A track's display matrix: its turn and mirror. Else the turn alone: a photo's EXIF
        // orientation (its mirror is the still's own filter), or a matrix that also shears or scales.
        filters += info.facts.orientation.filterTurn.uprightFilters
        return filters
    }

    /// `filters` (ending in the placed picture, in the canvas's colour)
    /// padded or cropped to the canvas (or over its blurred fill), the text drawn last.
    private static func fitted(_ filters: [String], clip: PlannedClip, canvas: Canvas, text: TextLayer?) -> String {
        var filters = filters
        let placement = clip.placement
        if placement.scaledWidth < canvas.width || placement.scaledHeight < canvas.height {
            if clip.fit == .blur {
                filters.append("setsar=1")
                // The text goes over the filled canvas, as over a padded one.
                let filled = filters.joined(separator: ",") + blurFill(placement, canvas: canvas)
                return text?.drawn(over: filled) ?? filled
            }
            filters.append("pad=\(canvas.width):\(canvas.height):\(placement.x):\(placement.y):black")
        }
        if placement.scaledWidth > canvas.width || placement.scaledHeight > canvas.height {
            filters.append("crop=\(canvas.width):\(canvas.height):\(placement.x):\(placement.y)")
        }
        filters.append("setsar=1")
        let chain = filters.joined(separator: ",")
        return text?.drawn(over: chain) ?? chain
    }

    /// A text card's picture, from any canvas-sized picture: its background
    /// colour (`#RRGGBB`, set in RGB and converted as every clip is, to
    /// BT.709 limited range), with its text drawn over it, then brought to the
    /// canvas's colour as an SDR clip is.
    static func cardDescription(background: String, bars: Bool = false, text: TextLayer?, canvas: Canvas) -> String {
        let value = Int(background.dropFirst(), radix: 16) ?? 0
        let (red, green, blue) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        let fill = bars ? barsFilter : "lutrgb=r=\(red):g=\(green):b=\(blue)"
        let chain = ["format=rgb24", fill,
                     "scale=out_color_matrix=bt709:out_range=tv", "format=yuv420p", "setsar=1"].joined(separator: ",")
        let card = text?.drawn(over: chain, pictures: .sdr) ?? chain
        guard canvas.colour != .sdr else { return card }
        let sdr = ColourInfo(matrix: "bt709", primaries: "bt709", transfer: "bt709", fullRange: false)
        return card + "," + ColourConversion.filters(from: sdr, codedHeight: canvas.height, width: canvas.width,
                                                     height: canvas.height, to: canvas.colour).joined(separator: ",")
    }

    /// Seven SMPTE-like bars at 75 %: white, yellow, cyan, green, magenta,
    /// red, blue, left to right (bar i has red when bit 1 of i is clear,
    /// green when i < 4, blue when i is even).
    static let barsFilter = "geq=r='191*eq(mod(floor(floor(X*7/W)/2)\\,2)\\,0)':g='191*lt(floor(X*7/W)\\,4)':b='191*eq(mod(floor(X*7/W)\\,2)\\,0)'"

    /// How much smaller than the canvas the blurred fill is made: blurring a
    /// picture an eighth of the canvas's height and scaling it up costs a
    /// fraction of blurring it whole, and looks the same.
    static let blurFillShrink = 8
    /// The fill's blur (Gaussian sigma) as a fraction of the canvas height.
    /// Seen on a white grid over red (lines 28 canvas pixels apart on a 180
    /// high canvas): at a 30th, a 20th and a 15th the grid still showed
    /// through as a plaid; at a 7.5th it was an even wash. A 10th: no plaid
    /// left to see, the clip's colours still placed.
    static let blurFillSigma = 1.0 / 10
    /// The fill's colours are scaled towards black by this much (in RGB terms: Y above black, U and V around grey).
    static let blurFillLight = 0.6
    /// The fill's quantiser offset for the encoder (`addroi`'s qoffset, -1 to 1; positive: fewer bits).
    static let blurFillQuantiserOffset = 0.15
    /// The fill is made from every this many frames (chosen by the clip's time,
    /// so a segment that starts inside a clip picks the same ones) and held in
    /// between: the encoder skips held blocks almost for free, where a fill
    /// that changes every frame costs nearly as much as the picture; a blur
    /// this strong moves softly at an eighth of the rate (3.75 a second at 30
    /// fps). Each fill made costs the encoder a fresh picture in the bars, so
    /// this rate sets most of the look's cost (measured in docs/performance.md).
    static let blurFillEvery = 8

    /// The rest of the graph for `--fit blur` on a picture smaller than the
    /// canvas: the contained picture (already BT.709 yuv420p at its placed
    /// size) split in two; one copy scaled to cover a small canvas, blurred,
    /// darkened and scaled up to the canvas; the bars cut from it (crop
    /// copies nothing) and stacked with the picture (one copy, as pad makes).
    /// The overlay filter cost more: its frame sync keeps a reference to the
    /// picture below until the one above arrives, so it copies it to draw on
    /// it (on the bench's look case, 1.6 s of system time against 0.9 s).
    static func blurFill(_ placement: Placement, canvas: Canvas) -> String {
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded(.up)) * 2) }
        let smallWidth = even(Double(canvas.width) / Double(blurFillShrink))
        let smallHeight = even(Double(canvas.height) / Double(blurFillShrink))
        let cover = max(Double(smallWidth) / Double(placement.scaledWidth), Double(smallHeight) / Double(placement.scaledHeight))
        let coverWidth = max(smallWidth, even(Double(placement.scaledWidth) * cover))
        let coverHeight = max(smallHeight, even(Double(placement.scaledHeight) * cover))
        let sigma = Double(canvas.height) * blurFillSigma / Double(blurFillShrink)
        let rate = canvas.frameRate
        let light = blurFillLight
        let black = canvas.colour.blackCode, grey = canvas.colour.greyChromaCode
        let background = [
            // Every blurFillEvery-th frame of the clip's time makes the fill; the stack holds it over the frames between.
            "select='not(mod(round(t*\(rate.numerator)/\(rate.denominator)),\(blurFillEvery)))'",
            "scale=\(coverWidth):\(coverHeight):flags=bilinear",
            "crop=\(smallWidth):\(smallHeight)",
            "gblur=sigma=\(String(format: "%.2f", sigma)):steps=2",
            "lutyuv=y=(val-\(black))*\(light)+\(black):u=(val-\(grey))*\(light)+\(grey):v=(val-\(grey))*\(light)+\(grey)",
            "scale=\(canvas.width):\(canvas.height):flags=bicubic",
            "setsar=1",
        ].joined(separator: ",")
        // The bars: above and below the picture, or left and right of it (none of zero size).
        let across = placement.scaledWidth == canvas.width
        let before = across ? placement.y : placement.x
        let after = across ? canvas.height - placement.y - placement.scaledHeight : canvas.width - placement.x - placement.scaledWidth
        guard across || placement.scaledHeight == canvas.height else {
            // Bars on all four sides (only an odd canvas can ask for it): the picture drawn over the fill.
            return ",split[fill][picture];[fill]\(background)[blurred];[blurred][picture]overlay=x=\(placement.x):y=\(placement.y):format=\(TextLayer.overlayFormat(canvas.colour))"
        }
        func bar(_ offset: Int, _ length: Int) -> String {
            across ? "crop=\(canvas.width):\(length):0:\(offset)" : "crop=\(length):\(canvas.height):\(offset):0"
        }
        var bars: [(label: String, crop: String)] = []
        if before > 0 { bars.append(("before", bar(0, before))) }
        if after > 0 { bars.append(("after", bar((across ? canvas.height : canvas.width) - after, after))) }
        let fills = bars.count == 1 ? "[blurred]\(bars[0].crop)[\(bars[0].label)]"
            : "[blurred]split[b0][b1];[b0]\(bars[0].crop)[\(bars[0].label)];[b1]\(bars[1].crop)[\(bars[1].label)]"
        let order = (before > 0 ? "[before]" : "") + "[picture]" + (after > 0 ? "[after]" : "")
        // The encoder is told the bars matter less (a region of interest with a
        // quantiser offset, which x264 and x265 honour): the fill then costs
        // fewer bytes and less encoder time; a larger offset showed blocks in
        // smooth fills (docs/performance.md).
        let regions = [(0, before), ((across ? canvas.height : canvas.width) - after, after)].filter { $0.1 > 0 }.map { offset, length in
            across ? "addroi=0:\(offset):\(canvas.width):\(length):\(blurFillQuantiserOffset)"
                : "addroi=\(offset):0:\(length):\(canvas.height):\(blurFillQuantiserOffset)"
        }
        return ",split[fill][picture];[fill]\(background)[blurred];\(fills);\(order)\(across ? "vstack" : "hstack")=inputs=\(bars.count + 1),"
            + regions.joined(separator: ",")
    }
}

/// A clip's filters: one graph, or two with a `ColourTable` between them
/// (`front`'s pictures converted by `table` into `colour`, then `back`).
enum VideoStages {
    case single(String)
    case split(front: String, table: ColourTable, colour: OutputColour, back: String)
}
