import SegueCore

/// How clips meet: a transition by its name, as the command line, a manifest,
/// a plan and a report write it. Segue's own `none`, `fade` and `slide-*`,
/// every transition of libavfilter's `xfade` under xfade's own name, FFmpeg
/// 6.1's twelve newer xfade shapes (drawn by Segue), the gl-transitions
/// effects Segue draws on the CPU (`gl_…`), and `random` (resolved
/// per join when the plan is made).
///
/// Codable as its name alone (a plan or a manifest holds a plain string); a
/// name this FFmpeg doesn't know fails to decode.
public struct TransitionKind: RawRepresentable, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// Every transition by its name, `random` last (`slide` is an alias, not a case).
    public static var allCases: [TransitionKind] { TransitionCatalogue.kinds }

    /// A known name (see `TransitionCatalogue.entries`), or a gl_ effect's
    /// with parameters (`gl_cube(floating=5)`, kept as `GLTransition` spells
    /// it); `slide` is `init(name:)`'s alias, not a name.
    public init?(rawValue: String) {
        if case .success(let transition) = GLTransition.parse(rawValue) {
            self.rawValue = transition.spelling
            return
        }
        guard TransitionCatalogue.kinds.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(known name: String) { rawValue = name }

    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let kind = TransitionKind(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: TransitionCatalogue.unknown(name))
        }
        self = kind
    }

    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    package static let none = TransitionKind(known: "none")
    /// Segue's cross-dissolve (not xfade's `fade`).
    public static let fade = TransitionKind(known: "fade")
    package static let slideLeft = TransitionKind(known: "slide-left")
    package static let slideRight = TransitionKind(known: "slide-right")
    package static let slideUp = TransitionKind(known: "slide-up")
    package static let slideDown = TransitionKind(known: "slide-down")
    /// A transition per join picked from the catalogue, the same for the same inputs.
    package static let random = TransitionKind(known: "random")

    /// Segue's own transitions, drawn by its own pixel code, in listing order.
    static let own: [TransitionKind] = [.none, .fade, .slideLeft, .slideRight, .slideUp, .slideDown]

    /// Parses the command line's and manifests' names; plain `slide` means left.
    public init?(name: String) {
        if name == "slide" { self = .slideLeft } else { self.init(rawValue: name) }
    }

    public var description: String { rawValue }

    /// 1 s for a fade (and every xfade transition), 0.3 s for a slide, as a
    /// feed player's covers last; `random` takes its pick's.
    package var defaultDuration: Double {
        switch self {
        case .none: return 0
        case .slideLeft, .slideRight, .slideUp, .slideDown: return 0.3
        default: return 1.0
        }
    }

    /// How the pictures of a join are drawn.
    package enum Drawing: Equatable {
        case cut
        /// Segue's integer blend.
        case blend
        /// Segue's row copies.
        case slide(SlideDirection)
        /// libavfilter's xfade, by its name.
        case xfade(String)
        /// One of FFmpeg 6.1's newer xfade shapes, drawn by Segue's own pixel code.
        case shape(TransitionShape)
        /// A gl-transitions effect with its uniforms, evaluated per pixel by Segue's own code.
        case gl(GLTransition)
    }

    package var drawing: Drawing {
        switch self {
        case .none, .random: return .cut // random is always resolved before anything is drawn
        case .fade: return .blend
        case .slideLeft: return .slide(.left)
        case .slideRight: return .slide(.right)
        case .slideUp: return .slide(.up)
        case .slideDown: return .slide(.down)
        default:
            if let shape = TransitionShape(rawValue: rawValue) { return .shape(shape) }
            if case .success(let transition) = GLTransition.parse(rawValue) { return .gl(transition) }
            return .xfade(rawValue)
        }
    }
}

/// Every transition Segue accepts, with a few words on each: the list
/// `segue transitions` prints and `random` picks from.
public enum TransitionCatalogue {
    public struct Entry: Sendable, Equatable {
        /// The name as `--transition` and manifests take it.
        public var name: String
        /// A few words on what it does.
        public var summary: String
    }

    /// Every accepted name, in listing order: Segue's own (and the `slide`
    /// alias), xfade's in the library's order, FFmpeg 6.1's newer shapes
    /// (Segue's drawing), the gl-transitions effects, then `random`.
    public static let entries: [Entry] = {
        var entries = [
            Entry(name: "none", summary: "a cut: the next clip starts at once"),
            Entry(name: "fade", summary: "cross-dissolve (Segue's own blend)"),
            Entry(name: "slide", summary: "same as slide-left"),
            Entry(name: "slide-left", summary: "the next clip pushes the current one out to the left (Segue's own)"),
            Entry(name: "slide-right", summary: "the next clip pushes the current one out to the right (Segue's own)"),
            Entry(name: "slide-up", summary: "the next clip pushes the current one out upwards (Segue's own)"),
            Entry(name: "slide-down", summary: "the next clip pushes the current one out downwards (Segue's own)"),
        ]
        for (name, help) in xfadeNames {
            entries.append(Entry(name: name, summary: xfadeSummaries[name] ?? "xfade: \(help)"))
        }
        for shape in TransitionShape.allCases {
            entries.append(Entry(name: shape.rawValue, summary: shapeSummaries[shape] ?? shape.rawValue))
        }
        for effect in GLEffect.allCases {
            entries.append(Entry(name: effect.transitionName, summary: glSummaries[effect] ?? effect.rawValue))
        }
        entries.append(Entry(name: "random", summary: "a transition per join from this list, the same on every run for the same inputs"))
        return entries
    }()

    /// Every transition by its name (`slide` and `random` aside), in listing order.
    static let kinds: [TransitionKind] = TransitionKind.own + xfadeNames.map { TransitionKind(xfade: $0.name) }
        + TransitionShape.allCases.map { TransitionKind(xfade: $0.rawValue) }
        + GLEffect.allCases.map { TransitionKind(xfade: $0.transitionName) } + [.random]

    /// What `random` picks from: every transition that draws something (not
    /// `none`, not an alias).
    package static var pickable: [TransitionKind] { kinds.filter { $0 != .none && $0 != .random } }

    /// xfade's transitions (as the library lists them), less its `fade` (the
    /// name is Segue's own cross-dissolve) and the shapes Segue draws itself
    /// (a later FFmpeg's xfade has them too: listed once, drawn by Segue).
    private static var xfadeNames: [(name: String, help: String)] {
        XfadeTransitions.names.filter { $0.name != "fade" && TransitionShape(rawValue: $0.name) == nil }
    }

    /// What an unknown transition name (or a gl_ effect's bad parameters) is told.
    package static func unknown(_ name: String) -> String {
        if case .failure(let error) = GLTransition.parse(name) { return "transition \(error)" }
        return "unknown transition '\(name)' (run `segue transitions` for the list)"
    }

    /// `random`'s pick for join `index` from `from` to `to` (the clips' paths
    /// as given): a 64-bit FNV-1a hash of the three, never Swift's per-process
    /// seeded `hashValue`, so a rerun picks the same.
    package static func pick(join index: Int, from: String, to: String) -> TransitionKind {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("\(index)\u{0}\(from)\u{0}\(to)".utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // splitmix64's finaliser spreads the low bits the modulo looks at.
        hash ^= hash >> 30; hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27; hash = hash &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        let choices = pickable
        return choices[Int(hash % UInt64(choices.count))]
    }

    /// A few words on each xfade transition (FFmpeg 5.1's); one a later
    /// FFmpeg adds is listed with its own help text.
    private static let xfadeSummaries: [String: String] = [
        "wipeleft": "a hard edge sweeps right to left, uncovering the next clip",
        "wiperight": "a hard edge sweeps left to right, uncovering the next clip",
        "wipeup": "a hard edge sweeps bottom to top, uncovering the next clip",
        "wipedown": "a hard edge sweeps top to bottom, uncovering the next clip",
        "wipetl": "a corner wipe from the bottom right towards the top left",
        "wipetr": "a corner wipe from the bottom left towards the top right",
        "wipebl": "a corner wipe from the top right towards the bottom left",
        "wipebr": "a corner wipe from the top left towards the bottom right",
        "slideleft": "xfade's slide: both clips move left together",
        "slideright": "xfade's slide: both clips move right together",
        "slideup": "xfade's slide: both clips move up together",
        "slidedown": "xfade's slide: both clips move down together",
        "smoothleft": "a soft-edged wipe moving left",
        "smoothright": "a soft-edged wipe moving right",
        "smoothup": "a soft-edged wipe moving up",
        "smoothdown": "a soft-edged wipe moving down",
        "circlecrop": "the picture shrinks to a circle in black, then the next opens from one",
        "rectcrop": "the picture shrinks to a rectangle in black, then the next opens from one",
        "circleopen": "the next clip appears in a circle growing from the centre",
        "circleclose": "the current clip shrinks away inside a closing circle",
        "vertopen": "the next clip opens from a vertical line in the middle, like doors",
        "vertclose": "the next clip closes in from the left and right edges",
        "horzopen": "the next clip opens from a horizontal line in the middle",
        "horzclose": "the next clip closes in from the top and bottom edges",
        "distance": "pixels change over by how far their colours differ",
        "fadeblack": "fades out to black, then in from black",
        "fadewhite": "fades out to white, then in from white",
        "fadegrays": "fades through a grey (colourless) picture",
        "fadefast": "a cross-dissolve weighted towards a quick change",
        "fadeslow": "a cross-dissolve weighted towards a slow change",
        "radial": "a clock-hand sweep around the centre",
        "dissolve": "random pixels switch over one by one",
        "pixelize": "the picture breaks into big blocks and rebuilds as the next",
        "diagtl": "a soft diagonal wipe towards the top left",
        "diagtr": "a soft diagonal wipe towards the top right",
        "diagbl": "a soft diagonal wipe towards the bottom left",
        "diagbr": "a soft diagonal wipe towards the bottom right",
        "hlslice": "vertical slices switch to the next clip, sweeping left",
        "hrslice": "vertical slices switch to the next clip, sweeping right",
        "vuslice": "horizontal slices switch to the next clip, sweeping up",
        "vdslice": "horizontal slices switch to the next clip, sweeping down",
        "hblur": "a horizontal blur that melts one clip into the next",
        "squeezeh": "the current clip squeezes into a horizontal line, revealing the next",
        "squeezev": "the current clip squeezes into a vertical line, revealing the next",
        "zoomin": "zooms into the current clip as the next fades in",
    ]

    /// A few words on each of FFmpeg 6.1's newer shapes.
    private static let shapeSummaries: [TransitionShape: String] = [
        .coverleft: "the next clip slides in from the right over the still current one (FFmpeg 6.1's, Segue-drawn)",
        .coverright: "the next clip slides in from the left over the still current one (FFmpeg 6.1's, Segue-drawn)",
        .coverup: "the next clip slides up from the bottom over the still current one (FFmpeg 6.1's, Segue-drawn)",
        .coverdown: "the next clip slides down from the top over the still current one (FFmpeg 6.1's, Segue-drawn)",
        .revealleft: "the current clip slides out to the left, uncovering the still next one (FFmpeg 6.1's, Segue-drawn)",
        .revealright: "the current clip slides out to the right, uncovering the still next one (FFmpeg 6.1's, Segue-drawn)",
        .revealup: "the current clip slides out upwards, uncovering the still next one (FFmpeg 6.1's, Segue-drawn)",
        .revealdown: "the current clip slides out downwards, uncovering the still next one (FFmpeg 6.1's, Segue-drawn)",
        .hlwind: "a ragged soft edge blows right to left, row by row (FFmpeg 6.1's, Segue-drawn)",
        .hrwind: "a ragged soft edge blows left to right, row by row (FFmpeg 6.1's, Segue-drawn)",
        .vuwind: "a ragged soft edge blows bottom to top, column by column (FFmpeg 6.1's, Segue-drawn)",
        .vdwind: "a ragged soft edge blows top to bottom, column by column (FFmpeg 6.1's, Segue-drawn)",
    ]
}

extension TransitionCatalogue {
    /// A few words on each gl-transitions effect.
    fileprivate static let glSummaries: [GLEffect: String] = [
        .fade: "gl-transitions' fade: a cross-dissolve in RGB",
        .wipeleft: "gl-transitions' wipeLeft: a hard edge sweeps right to left",
        .wiperight: "gl-transitions' wipeRight: a hard edge sweeps left to right",
        .directional: "gl-transitions' directional: the next clip pushes the current one up",
        .circleopen: "gl-transitions' circleopen: a soft-edged circle opens from the centre",
        .angular: "gl-transitions' angular: a clock-hand sweep from the left around the centre",
        .swirl: "gl-transitions' swirl: both clips twist around the centre while cross-fading",
        .heart: "gl-transitions' heart: the next clip grows in a heart from the centre",
        .pinwheel: "gl-transitions' pinwheel: eight spinning blades uncover the next clip",
        .windowslice: "gl-transitions' windowslice: the next clip shows through ten widening slices",
        .radial: "gl-transitions' radial: a soft clock-hand sweep around the centre",
        .ripple: "gl-transitions' ripple: the current clip ripples away as the next fades in",
        .randomsquares: "gl-transitions' randomsquares: the next clip appears square by random square",
        .doorway: "gl-transitions' doorway: the current clip opens like doors onto the next, zooming in",
        .cube: "gl-transitions' cube: the clips turn as two faces of a cube over a reflecting floor",
        .invertedpagecurl: "gl-transitions' InvertedPageCurl: the current clip curls away like a page from a corner",
        .bowtiehorizontal: "gl-transitions' BowTieHorizontal: triangles grow from the left and right into a bow tie",
        .bowtievertical: "gl-transitions' BowTieVertical: triangles grow from the bottom and top into a bow tie",
        .bowtiewithparameter: "gl-transitions' BowTieWithParameter: a bow-tie wipe with its tips where you set them",
        .butterflywavescrawler: "gl-transitions' ButterflyWaveScrawler: wavy colour-split ripples scramble into the next clip",
        .circlecrop: "gl-transitions' CircleCrop: the clip shrinks to a circle on black, the next grows from one",
        .colourdistance: "gl-transitions' ColourDistance: pixels switch in order of how alike the two clips are there",
        .crazyparametricfun: "gl-transitions' CrazyParametricFun: the current clip is pulled along a curve into a swirl",
        .crosswarp: "gl-transitions' crosswarp: the clips zoom past each other, sweeping right to left",
        .directionalwarp: "gl-transitions' directionalwarp: a soft diagonal edge sweeps, each clip zooming across it",
        .directionalwipe: "gl-transitions' directionalwipe: a soft-edged diagonal wipe",
        .dreamy: "gl-transitions' Dreamy: a cross-fade with a gentle wave",
        .dreamyzoom: "gl-transitions' DreamyZoom: zooms and turns into a white flash, then out onto the next clip",
        .flyeye: "gl-transitions' flyeye: the current clip breaks into a fly's-eye grid of lenses",
        .gridflip: "gl-transitions' GridFlip: a grid of tiles flips one by one to the next clip",
        .hexagonalize: "gl-transitions' hexagonalize: both clips turn to hexagons, cross-fade and sharpen again",
        .kaleidoscope: "gl-transitions' kaleidoscope: a cross-fade through a spinning kaleidoscope",
        .morph: "gl-transitions' morph: a cross-fade with each clip pushed by the colours of both",
        .mosaic: "gl-transitions' Mosaic: the view pans over turned tiles of both clips and settles on the next",
        .polkadotscurtain: "gl-transitions' PolkaDotsCurtain: the next clip shows through growing polka dots",
        .rotate_scale_fade: "gl-transitions' rotate_scale_fade: both clips spin and shrink while cross-fading",
        .squareswire: "gl-transitions' squareswire: squares grow along a diagonal sweep to the next clip",
        .squeeze: "gl-transitions' squeeze: the current clip squeezes to a line, its colours apart",
        .swap: "gl-transitions' swap: the clips swap places, swinging in perspective over a reflecting floor",
        .bounce: "gl-transitions' Bounce: the current clip drops out of the frame with a few bounces",
        .rectangle: "gl-transitions' Rectangle: the clip shrinks to a rectangle on black, the next grows from one",
        .burn: "gl-transitions' burn: both clips brighten toward a flame colour while cross-fading",
        .cannabisleaf: "gl-transitions' cannabisleaf: the next clip grows in a leaf shape from the centre",
        .circle: "gl-transitions' circle: the current clip shrinks to a circle on dark grey, then the next grows from it",
        .colorphase: "gl-transitions' colorphase: a cross-fade with red, green and blue changing at different times",
        .crosshatch: "gl-transitions' crosshatch: the next clip shows through random crossing lines spreading from the centre",
        .doomscreentransition: "gl-transitions' DoomScreenTransition: the current clip melts down in uneven columns, like Doom",
        .fadecolor: "gl-transitions' fadecolor: a fade through black (or a colour set)",
        .fadegrayscale: "gl-transitions' fadegrayscale: a cross-fade through grey",
        .glitchdisplace: "gl-transitions' GlitchDisplace: each clip displaced by the other's colours, through a grey flash",
        .glitchmemories: "gl-transitions' GlitchMemories: a cross-fade with the colour channels jittering apart",
        .horizontalclose: "gl-transitions' HorizontalClose: soft edges close in from top and bottom",
        .horizontalopen: "gl-transitions' HorizontalOpen: the next clip opens from a line across the middle",
        .verticalclose: "gl-transitions' VerticalClose: soft edges close in from left and right",
        .verticalopen: "gl-transitions' VerticalOpen: the next clip opens from a line down the middle",
        .leftright: "gl-transitions' LeftRight: the current clip shrinks and darkens as the next slides in from the right",
        .topbottom: "gl-transitions' TopBottom: the current clip shrinks and darkens as the next slides in from below",
        .multiply_blend: "gl-transitions' multiply_blend: a cross-fade through both clips multiplied",
        .overexposure: "gl-transitions' Overexposure: a cross-fade through a washed-out, overexposed white",
        .perlin: "gl-transitions' perlin: the next clip appears through soft random blotches",
        .pixelize: "gl-transitions' pixelize: both clips turn to big pixels at the middle while cross-fading",
        .polar_function: "gl-transitions' polar_function: the next clip grows in a five-petal flower from the centre",
        .randomnoisex: "gl-transitions' randomNoisex: the next clip appears pixel by random pixel",
        .rectanglecrop: "gl-transitions' RectangleCrop: the current clip shrinks to a rectangle on black, then the next grows from it",
        .rolls: "gl-transitions' Rolls: the current clip rolls away about a corner, uncovering the next",
        .simplezoom: "gl-transitions' SimpleZoom: the current clip zooms in, then fades to the next",
        .simplezoomout: "gl-transitions' SimpleZoomOut: the next clip zooms out from close up while fading in",
        .staticfade: "gl-transitions' StaticFade: a cut at the middle through blocky colour static",
        .undulatingburnout: "gl-transitions' undulatingBurnOut: a wavy-edged circle burns out from the centre",
        .waterdrop: "gl-transitions' WaterDrop: ripples spread from the centre while cross-fading",
        .wind: "gl-transitions' wind: a ragged soft edge blows left to right, row by row",
        .windowblinds: "gl-transitions' windowblinds: a cross-fade running ahead in every other band",
        .wipedown: "gl-transitions' wipeDown: a hard edge sweeps top to bottom",
        .wipeup: "gl-transitions' wipeUp: a hard edge sweeps bottom to top",
        .zoomincircles: "gl-transitions' ZoomInCircles: rings of the current clip zoom at different speeds, then the next fades in",
        .zoomleftwipe: "gl-transitions' ZoomLeftWipe: the current clip zooms in, then a hard edge sweeps right to left",
        .zoomrigthwipe: "gl-transitions' ZoomRigthWipe: the current clip zooms in, then a hard edge sweeps left to right",
    ]
}

extension TransitionKind {
    fileprivate init(xfade name: String) { self.init(known: name) }
}
