/// The transitions of Debian's libavfilter 5.1 `xfade`, in the library's
/// own order (the constants of its `transition` option, by value), with their
/// help text, less `custom` (an expression, not a transition). The model lists
/// and checks names from here without libavfilter; a test holds this list to
/// the library linked (`XfadeGraph.transitionNames`).
package enum XfadeTransitions {
    package static let names: [(name: String, help: String)] = [
        ("fade", "fade transition"),
        ("wipeleft", "wipe left transition"),
        ("wiperight", "wipe right transition"),
        ("wipeup", "wipe up transition"),
        ("wipedown", "wipe down transition"),
        ("slideleft", "slide left transition"),
        ("slideright", "slide right transition"),
        ("slideup", "slide up transition"),
        ("slidedown", "slide down transition"),
        ("circlecrop", "circle crop transition"),
        ("rectcrop", "rect crop transition"),
        ("distance", "distance transition"),
        ("fadeblack", "fadeblack transition"),
        ("fadewhite", "fadewhite transition"),
        ("radial", "radial transition"),
        ("smoothleft", "smoothleft transition"),
        ("smoothright", "smoothright transition"),
        ("smoothup", "smoothup transition"),
        ("smoothdown", "smoothdown transition"),
        ("circleopen", "circleopen transition"),
        ("circleclose", "circleclose transition"),
        ("vertopen", "vert open transition"),
        ("vertclose", "vert close transition"),
        ("horzopen", "horz open transition"),
        ("horzclose", "horz close transition"),
        ("dissolve", "dissolve transition"),
        ("pixelize", "pixelize transition"),
        ("diagtl", "diag tl transition"),
        ("diagtr", "diag tr transition"),
        ("diagbl", "diag bl transition"),
        ("diagbr", "diag br transition"),
        ("hlslice", "hl slice transition"),
        ("hrslice", "hr slice transition"),
        ("vuslice", "vu slice transition"),
        ("vdslice", "vd slice transition"),
        ("hblur", "hblur transition"),
        ("fadegrays", "fadegrays transition"),
        ("wipetl", "wipe tl transition"),
        ("wipetr", "wipe tr transition"),
        ("wipebl", "wipe bl transition"),
        ("wipebr", "wipe br transition"),
        ("squeezeh", "squeeze h transition"),
        ("squeezev", "squeeze v transition"),
        ("zoomin", "zoom in transition"),
        ("fadefast", "fast fade transition"),
        ("fadeslow", "slow fade transition"),
    ]
}

/// FFmpeg 6.1's newer xfade transitions, which Debian's 5.1 xfade lacks:
/// Segue draws them itself (`Frame.shape`), under xfade's names, in 6.1's order.
package enum TransitionShape: String, CaseIterable, Sendable {
    case coverleft, coverright, coverup, coverdown
    case revealleft, revealright, revealup, revealdown
    case hlwind, hrwind, vuwind, vdwind
}

/// Which way Segue's own slide pushes the current picture out.
package enum SlideDirection: Sendable { case left, right, up, down }
