import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// A clip's caption, its text card's text and its burned-in subtitles,
/// drawn by libass (the `ass` filter, which shapes with HarfBuzz and FriBidi)
/// at the end of the clip's own filter graph, after fit and colour
/// conversion, so the text fades and slides with its clip.
///
/// The caption and card text stay the same for the whole clip, so libass
/// draws them once, onto a transparent picture cropped to the text, which
/// the clip's graph takes as a second input and `overlay` lays over every
/// picture: blending a small picture costs far less than libass drawing the
/// text anew on each one, and libass (which loads the system's fonts when it
/// starts) starts once per clip, not twice. Subtitles change with time and
/// are drawn on each picture.
///
/// libass reads a script file: one is written per script into a temporary
/// folder of our own, with the font linked beside it, so the filter
/// description holds only names we chose (never the user's text or paths,
/// whose `:` `,` `'` `[` would break the graph). The folder lives as long as
/// the layer: the clip source keeps it while its graph may be built.
package final class TextLayer {
    private let folder: URL
    /// The still text, drawn: a see-through picture cropped to the text, and where it goes on the canvas.
    private let still: (picture: Frame, x: Int, y: Int)?
    /// The `ass` filters that draw timed text on each picture, in order.
    private let timed: [String]
    /// The colour of the pictures the text is drawn over (the canvas's).
    private let colour: OutputColour

    /// The layer of `clip`, or nil when it has no caption, is no card and
    /// has no subtitles to burn in (`burnSubtitles`).
    static func make(for clip: PlannedClip, canvas: Canvas, font: String?, burnSubtitles: Bool,
                     access: InputAccess) throws -> TextLayer? {
        let subtitles = burnSubtitles ? clip.info.subtitles.flatMap { $0.cues.isEmpty ? nil : $0 } : nil
        // A blank card (a timeline's gap) has nothing to draw.
        let cardText = clip.info.use.card.map { !$0.text.isEmpty } == true
        guard clip.info.use.caption != nil || cardText || subtitles != nil else { return nil }
        let fontFile: FontFile
        do {
            fontFile = try FontFile.open(font, access: access)
        } catch {
            throw SegueError(.readFailed, subject: font ?? FontFile.defaultPath, detail: "the font can't be used (\(error))")
        }
        var timed: [String] = []
        if let subtitles {
            let placed = BurnedCue.onGraphClock(subtitles.cues, clip: clip.info)
            let script = subtitles.styles.isEmpty
                ? TextLayer.script(caption: nil, card: nil, subtitles: placed, family: fontFile.family, width: canvas.width,
                                   height: canvas.height)
                : BurnedCue.styledScript(header: subtitles.styles, cues: placed)
            // Drawn straight onto each HDR picture, its colours are given at HDR reference white.
            timed.append(TextColour.scriptColours(script, into: canvas.colour))
        }
        let still = clip.info.use.caption != nil || clip.info.use.card != nil
            ? TextLayer.script(caption: clip.info.use.caption, card: clip.info.use.card, family: fontFile.family, width: canvas.width,
                               height: canvas.height, seeThrough: true)
            : nil
        // The still text's see-through ground is its outline's colour, so the
        // edges libass blends into it stay that colour as they fade out.
        let ground = clip.info.use.card.map(isLight) == true ? "white" : "black"
        return try TextLayer(still: still, ground: ground, timed: timed, font: fontFile, canvas: canvas)
    }

    /// `still` is drawn once (on a transparent `ground`-coloured picture) and
    /// laid over each picture; each of `timed` is drawn on each picture.
    init(still stillScript: String?, ground: String = "black", timed timedScripts: [String], font: FontFile,
         canvas: Canvas) throws {
        let folder = TextLayer.temporaryFolder().appendingPathComponent("segue-text-\(UUID().uuidString)")
        self.folder = folder
        colour = canvas.colour
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        do {
            let fontName = "font." + ((font.path as NSString).pathExtension.lowercased() == "otf" ? "otf" : "ttf")
            try FileManager.default.createSymbolicLink(atPath: fonts.appendingPathComponent(fontName).path,
                                                       withDestinationPath: font.path)
            func filter(_ script: String, named name: String) throws -> String {
                let file = folder.appendingPathComponent(name)
                try Data(script.utf8).write(to: file)
                return "ass=filename=\(file.path):fontsdir=\(fonts.path)"
            }
            timed = try timedScripts.enumerated().map { try filter($1, named: "timed\($0).ass") }
            if let stillScript {
                still = try TextLayer.draw(filter(stillScript, named: "still.ass"), ground: ground, canvas: canvas)
            } else {
                still = nil
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether some of the text changes with time (burned subtitles), so it is drawn on each picture.
    var isTimed: Bool { !timed.isEmpty }

    /// A graph description: `chain` (a filter chain, its input the graph's)
    /// with the text drawn on its pictures. Build it with `graph(with:…)`,
    /// which feeds the still text in as `[text]`.
    /// `pictures`: the colour `chain` puts out, the canvas's unless it is
    /// converted afterwards (a card is drawn in SDR, then converted whole).
    func drawn(over chain: String, pictures: OutputColour? = nil) -> String {
        var description = chain
        let pictures = pictures ?? colour
        if let still {
            // [text] is one SDR picture, brought to the pictures' colour; the overlay
            // holds it over every picture after it (eof_action=repeat).
            let conversion = ColourConversion.overlayFilters(to: pictures)
            var text = "[text]"
            if !conversion.isEmpty {
                description += "[untexted];[text]\(conversion.joined(separator: ","))[textcolour]"
                text = "[textcolour]"
            } else {
                description += "[untexted]"
            }
            description += ";[untexted]\(text)overlay=x=\(still.x):y=\(still.y):format=\(TextLayer.overlayFormat(pictures))"
                + ":eof_action=repeat"
        }
        return ([description] + timed).joined(separator: ",")
    }

    /// The `overlay` filter's working format for pictures of `colour`.
    package static func overlayFormat(_ colour: OutputColour) -> String { colour.bitDepth > 8 ? "yuv420p10" : "yuv420" }

    /// The graph of `description` (made with `text.drawn(over:)` when there is
    /// text) for pictures like `template`, with the still text fed in.
    static func graph(with text: TextLayer?, videoLike template: Frame, timeBase: Rational,
                      description: String) throws -> FilterGraph {
        guard let still = text?.still else { return try FilterGraph(videoLike: template, timeBase: timeBase, description: description) }
        let graph = try FilterGraph(videoLike: template, timeBase: timeBase, second: still.picture, labelled: "text",
                                    description: description)
        let picture = still.picture.clone()
        picture.pts = 0
        try graph.push(picture, into: 1)
        try graph.close(atPTS: 1, source: 1)
        return graph
    }

    /// The still text drawn by `filter` (an `ass` filter) onto a see-through
    /// `ground`-coloured canvas, cropped to where it drew, rounded out to even
    /// lines and columns (whole chroma samples); nil when it drew nothing (only spaces).
    private static func draw(_ filter: String, ground: String, canvas: Canvas) throws -> (picture: Frame, x: Int, y: Int)? {
        // The graph's own input is left unused: the picture comes from a source of one see-through picture.
        let graph = try FilterGraph(videoLike: try Frame.video(width: 2, height: 2), timeBase: Rational(1, 1),
                                    description: "[in]nullsink;color=c=\(ground)@0:s=\(canvas.width)x\(canvas.height):r=1:d=1,"
                                        + "format=yuva420p,\(filter):alpha=1")
        try graph.close(atPTS: 0)
        let picture = Frame()
        guard try graph.pull(into: picture) == .ready else {
            throw SegueError(.processingFailed, detail: "the text could not be drawn")
        }
        guard let box = picture.plane(3).bounds(above: 0) else { return nil }
        let x = box.x / 2 * 2, y = box.y / 2 * 2
        let right = min(canvas.width, (box.x + box.width + 1) / 2 * 2), bottom = min(canvas.height, (box.y + box.height + 1) / 2 * 2)
        return (picture.cropped(x: x, y: y, width: right - x, height: bottom - y), x, y)
    }

    /// The system's temporary folder when its path is plain (letters, digits,
    /// `/._-`: safe in a filter description), else /tmp.
    private static func temporaryFolder() -> URL {
        let folder = NSTemporaryDirectory()
        let plain = folder.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-".unicodeScalars.contains($0)) }
        return URL(fileURLWithPath: plain && !folder.isEmpty ? folder : "/tmp")
    }

    // MARK: The script

    /// The shadow's opacity (black, down and to the right). Drawn onto a
    /// see-through picture, libass's blend (FFmpeg's `ff_blend_mask`) writes
    /// the colour's opacity into the alpha twice over (0.5 comes out 0.25),
    /// so there it is asked for as the square root, and lands at 0.5 when laid over.
    static let shadowOpacity = 0.5
    /// A caption's letters are about 5 % of the canvas height, a card's 8 %.
    static let captionSize = 0.05, cardSize = 0.08
    /// Text stays inside the middle 90 % of the width; a caption sits 5 % above the bottom.
    static let margin = 0.05
    /// How much of the height a caption may take before its letters shrink.
    static let captionHeight = 0.4, cardHeight = 0.9

    /// An ASS script of one canvas (PlayRes = its size): the caption at the
    /// bottom centre, the card's text in the middle, each over the whole clip,
    /// and burned-in subtitles (of a format without styles of its own) at
    /// the bottom centre at their times, in the caption's style.
    /// Text is white outlined in black; a card's text on a light background
    /// is near-black outlined in white.
    /// `seeThrough`: drawn onto a see-through picture, to be laid over the clip.
    static func script(caption: String?, card: TextCard?, subtitles: [BurnedCue] = [], family: String, width: Int,
                       height: Int, seeThrough: Bool = false) -> String {
        let cleanFamily = family.map { $0 == "," || $0.isNewline ? " " : $0 }
        let shadowOpacity = seeThrough ? TextLayer.shadowOpacity.squareRoot() : TextLayer.shadowOpacity
        let shadowColour = String(format: "&H%02X000000", Int((255 * (1 - shadowOpacity)).rounded()))
        let marginX = Int((Double(width) * margin).rounded(.up)), marginV = Int((Double(height) * margin).rounded())
        func style(_ name: String, size: Double, alignment: Int, dark: Bool) -> String {
            let outline = max(1, size * 0.08), shadow = max(1, size * 0.04)
            let (text, edge) = dark ? ("&H00141414", "&H00FFFFFF") : ("&H00FFFFFF", "&H00000000")
            return "Style: \(name),\(String(cleanFamily)),\(format(size)),\(text),\(text),\(edge),\(shadowColour),"
                + "0,0,0,0,100,100,0,0,1,\(format(outline)),\(format(dark ? 0 : shadow)),\(alignment),\(marginX),\(marginX),\(marginV),1"
        }
        var styles: [String] = [], events: [String] = []
        let parts = [(card?.text, "Card", cardSize, cardHeight, 5, card.map(isLight) ?? false),
                     (caption, "Caption", captionSize, captionHeight, 2, false)]
        for (text, name, share, limit, alignment, dark) in parts {
            guard let text else { continue }
            let size = fittedSize(text, preferred: share * Double(height), lineWidth: Double(width - 2 * marginX),
                                  maxHeight: limit * Double(height))
            styles.append(style(name, size: size, alignment: alignment, dark: dark))
            let broken = breakingLongRuns(text, lineWidth: Double(width - 2 * marginX), size: size)
            events.append("Dialogue: 0,0:00:00.00,9:59:59.99,\(name),,0,0,0,,\(escaped(broken))")
        }
        if !subtitles.isEmpty {
            styles.append(style("Subtitle", size: captionSize * Double(height), alignment: 2, dark: false))
            events += subtitles.map { "Dialogue: 1,\($0.start),\($0.end),Subtitle,,0,0,0,,\($0.text)" }
        }
        return """
            [Script Info]
            ; Segue: a caption or text card
            ScriptType: v4.00+
            PlayResX: \(width)
            PlayResY: \(height)
            WrapStyle: 0
            ScaledBorderAndShadow: yes

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
            Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
            MarginV, Encoding
            \(styles.joined(separator: "\n"))

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            \(events.joined(separator: "\n"))

            """
    }

    /// Whether a card's background is light (BT.709 luma over 60 %): its text is then dark.
    static func isLight(_ card: TextCard) -> Bool {
        let value = Int(card.background.dropFirst(), radix: 16) ?? 0
        let luma = 0.2126 * Double(value >> 16 & 0xFF) + 0.7152 * Double(value >> 8 & 0xFF) + 0.0722 * Double(value & 0xFF)
        return luma > 0.6 * 255
    }

    /// Text as data, never markup: `{` and `}` escaped (`\{`, `\}`), every
    /// backslash followed by a WORD JOINER (U+2060, invisible) so no `\N`,
    /// `\n`, `\h` or override is formed; a line break in the text breaks the
    /// line (`\N`), other control characters become spaces.
    static func escaped(_ text: String) -> String {
        var out = ""
        var previousWasReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasReturn = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\u{2060}"
            case "{": out += "\\{"
            case "}": out += "\\}"
            case "\n" where previousWasReturn: continue
            case "\n", "\r", "\u{2028}", "\u{2029}": out += "\\N"
            default:
                if scalar.properties.generalCategory == .control { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// About how wide `scalar` is, in ems, erring wide: CJK, emoji and
    /// capitals one em, other letters 0.7 (a generous Latin average).
    private static func ems(_ scalar: Unicode.Scalar) -> Double {
        if (0xFE00...0xFE0F).contains(scalar.value) || scalar.value == 0x2060 || scalar.value == 0x200D { return 0 }
        return scalar.value >= 0x2E80 || scalar.properties.isUppercase || "mw@%".unicodeScalars.contains(scalar) ? 1.0 : 0.7
    }

    /// The letter size: `preferred`, smaller when the text (wrapped at about
    /// `lineWidth`) would take more than `maxHeight`.
    static func fittedSize(_ text: String, preferred: Double, lineWidth: Double, maxHeight: Double) -> Double {
        var size = preferred
        for _ in 0..<4 {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).reduce(0) { total, line in
                total + max(1, Int((line.unicodeScalars.reduce(0) { $0 + ems($1) } * size / lineWidth).rounded(.up)))
            }
            let needed = Double(lines) * size * 1.25
            if needed <= maxHeight { break }
            size *= maxHeight / needed
        }
        return max(8, size)
    }

    /// libass (0.17 without libunibreak) wraps only at spaces: a run without
    /// one that is wider than a line (a long word, a URL, CJK text) gets a
    /// space wherever it would otherwise run off the canvas.
    static func breakingLongRuns(_ text: String, lineWidth: Double, size: Double) -> String {
        var out = String.UnicodeScalarView()
        var run = 0.0
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                run = 0
            } else {
                let width = ems(scalar) * size
                if run + width > lineWidth * 0.95 {
                    out.append(" ")
                    run = 0
                }
                run += width
            }
            out.append(scalar)
        }
        return String(out)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
