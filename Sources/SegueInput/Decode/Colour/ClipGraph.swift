internal import SegueMedia
import SegueModel
import SegueCore

/// A clip's video graph: one libavfilter graph, or, when its colour is
/// converted by a `ColourTable`, two graphs with the table between them
/// (the front one deinterlaces, sets the rate, turns and, if it shrinks the
/// picture, scales; the back one scales up, fits and draws the text), so the
/// conversion runs once on whichever of the source or the placed picture is
/// smaller, with no RGB picture made. Pushed, closed and pulled as one graph.
final class ClipGraph {
    private let front: FilterGraph
    private let conversion: (table: ColourTable, colour: OutputColour, back: String, text: TextLayer?)?
    private var back: FilterGraph?
    private var pool: PicturePool?
    private let converted = Frame()
    /// Where the back graph's input ends: one frame after the latest picture pushed into it.
    private var backEnd: Int64 = 0
    private var backClosed = false

    /// Threads sharing each picture's conversion.
    static let conversionThreads = 2

    init(_ stages: VideoStages, text: TextLayer?, videoLike template: Frame, timeBase: Rational) throws {
        switch stages {
        case .single(let description):
            front = try TextLayer.graph(with: text, videoLike: template, timeBase: timeBase, description: description)
            conversion = nil
        case .split(let frontDescription, let table, let colour, let backDescription):
            front = try FilterGraph(videoLike: template, timeBase: timeBase, description: frontDescription)
            conversion = (table, colour, backDescription, text)
        }
    }

    func push(_ frame: Frame) throws { try front.push(frame) }

    /// Ends the input at `pts` (in the time base the graph was made with).
    func close(atPTS pts: Int64) throws { try front.close(atPTS: pts) }

    /// The next picture out of the graph (both graphs, when split).
    func pull(into frame: Frame) throws -> Step {
        guard let conversion else { return try front.pull(into: frame) }
        while true {
            if let back {
                let step = try back.pull(into: frame)
                if step != .needsInput || backClosed { return step }
            }
            switch try front.pull(into: converted) {
            case .ready:
                try pushConverted(conversion)
            case .endOfStream:
                guard let back, !backClosed else { return .endOfStream }
                try back.close(atPTS: backEnd)
                backClosed = true
            case .needsInput:
                return .needsInput
            }
        }
    }

    /// The front graph's picture through the table, into the back graph (made on the first one).
    private func pushConverted(_ conversion: (table: ColourTable, colour: OutputColour, back: String, text: TextLayer?)) throws {
        if pool == nil || pool!.width != converted.width || pool!.height != converted.height {
            pool = try PicturePool(width: converted.width, height: converted.height, pixelFormat: .yuv420p)
        }
        let picture = try pool!.picture()
        Frame.convert(converted, through: conversion.table, into: picture, threads: Self.conversionThreads)
        picture.copyProperties(from: converted)
        picture.tag(as: conversion.colour)
        converted.unref()
        if back == nil {
            back = try TextLayer.graph(with: conversion.text, videoLike: picture, timeBase: front.outputTimeBase,
                                       description: conversion.back)
        }
        backEnd = max(backEnd, (picture.pts ?? backEnd) + 1)
        try back!.push(picture)
    }
}
