internal import SegueMedia
import SegueInput
import SegueModel

/// How two clips meet (`TransitionMode`): how a join's frames are drawn and
/// heard, where `JoinLayout` has placed them. A new join mode is one more
/// case of the layout and one more conforming type.
protocol JoinStrategy {
    /// Shapes the sound of own frame `position` (e.g. ramps next to held
    /// frames); `soundDelay` samples of silence come before the clip's own
    /// sound in its first frame (`ClipSource.OwnFrame.soundDelay`).
    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int, soundDelay: Int)
    /// Plays `join`'s frames from the clip going out and the clip coming in;
    /// false when a segment's window ended before the join did.
    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws -> Bool
}

extension JoinLayout {
    /// The strategy that draws and sounds joins laid out this way.
    var strategy: JoinStrategy {
        switch mode {
        case .overlap: OverlapJoin()
        case .freeze: FreezeJoin()
        }
    }
}

/// The last frames of one clip and the first of the next play at once; the
/// sound crossfades over the same frames.
struct OverlapJoin: JoinStrategy {
    /// The gl_ effects' pictures, kept from join to join.
    private let glWorkspace = GLWorkspace()

    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int, soundDelay: Int) {}

    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws -> Bool {
        let transitionStart = clock.nextSampleIndex
        let transitionSamples = clock.samples(forFrames: join.frameCount)
        let painter = try TransitionPainter(join, canvas: clock.canvas, glWorkspace: glWorkspace)
        for step in 0..<join.frameCount {
            if clock.reachedWindowEnd { return false }
            let picture = try painter.draw(step: step, from: outgoing.nextPicture(), to: incoming.nextPicture())
            var sound: [[Float]]?
            if clock.includeAudio {
                let count = clock.samplesForNextFrame
                sound = try AudioChunker.crossfade(outgoing.nextSamples(count), incoming.nextSamples(count),
                                                   offset: clock.nextSampleIndex - transitionStart, length: transitionSamples,
                                                   easing: join.easing)
            }
            try clock.emit(picture, sound, clipIndex: join.index)
        }
        return true
    }
}

/// A feed player's cover, literally: the last picture of one clip and the
/// first of the next are held and blended over inserted frames, in silence
/// reached through short ramps, so no content is lost.
struct FreezeJoin: JoinStrategy {
    /// The gl_ effects' pictures, kept from join to join.
    private let glWorkspace = GLWorkspace()

    func shape(_ sound: inout [[Float]]?, at position: Int, of clip: PlannedClip, joinBefore: Int, joinAfter: Int, soundDelay: Int) {
        // The ramp up starts where the clip's own sound does.
        if joinBefore > 0 && position == 0 { AudioChunker.fadeIn(&sound, from: soundDelay) }
        if joinAfter > 0 && position == clip.frameCount - 1 { AudioChunker.fadeOut(&sound) }
    }

    func play(_ join: PlannedJoin, from outgoing: ClipSource, to incoming: ClipSource, through clock: FrameClock) throws -> Bool {
        if clock.reachedWindowEnd { return false }
        let held = try outgoing.heldPicture()
        let waiting = try incoming.peekPicture()
        let painter = try TransitionPainter(join, canvas: clock.canvas, glWorkspace: glWorkspace)
        for step in 0..<join.frameCount {
            if clock.reachedWindowEnd { return false }
            let picture = try painter.draw(step: step, from: held, to: waiting)
            let silence = clock.includeAudio
                ? [[Float]](repeating: [Float](repeating: 0, count: clock.samplesForNextFrame), count: OutputAudio.channels) : nil
            try clock.emit(picture, silence, clipIndex: join.index)
        }
        return true
    }
}

/// The pictures of one join's transition, drawn step by step. Segue's own
/// fade and slides, FFmpeg 6.1's newer xfade shapes and the gl-transitions
/// effects, are its pixel code;
/// every other transition is libavfilter's xfade, through one graph built for
/// the join and used for all its frames
/// (freed with the painter: nothing grows from join to join). An eased join
/// draws at its curve's progress: the built-in shapes hold their ends beyond
/// 0 and 1 (a curve that overshoots turns back there), the gl_ effects draw
/// what their GLSL draws past them, and an xfade graph is made anew where
/// the curve turns back (its ticks only go forward).
final class TransitionPainter {
    private let join: PlannedJoin
    private let canvas: Canvas
    private var xfade: XfadeGraph?
    /// The gl_ effects' R'G'B' pictures, made at the first frame they are
    /// drawn in and kept (a join strategy passes its own, kept from join to
    /// join: a picture's memory is touched once a render, not once a join).
    private let glWorkspace: GLWorkspace
    /// Ticks of an eased join's xfade graph: 2^16 a transition, exact to a
    /// 65536th; a linear one's are its steps, exactly the fade's fractions.
    private let ticks: Int
    static let easedTicks = 1 << 16

    init(_ join: PlannedJoin, canvas: Canvas, glWorkspace: GLWorkspace = GLWorkspace()) throws {
        self.join = join
        self.canvas = canvas
        self.glWorkspace = glWorkspace
        ticks = join.easing.isLinear ? join.frameCount + 1 : Self.easedTicks
        xfade = try makeGraph()
    }

    private func makeGraph() throws -> XfadeGraph? {
        guard case .xfade(let name) = join.transition.drawing, join.frameCount > 0 else { return nil }
        return try XfadeGraph(transition: name, width: canvas.width, height: canvas.height, pixelFormat: canvas.colour.pixelFormat,
                              ticks: ticks)
    }

    /// Step `step` of the join's frames (in order), drawn between `outgoing`
    /// and `incoming`, `join.progress(atStep:)` of the way to `incoming`.
    func draw(step: Int, from outgoing: Frame, to incoming: Frame) throws -> Frame {
        let position = join.progress(atStep: step)
        if let xfade { return try drawXfade(xfade, at: position, outgoing, incoming) }
        let picture = try Frame.video(width: canvas.width, height: canvas.height, pixelFormat: canvas.colour.pixelFormat)
        switch join.transition.drawing {
        case .blend: Frame.blend(outgoing, incoming, weight: Int((position * 256).rounded()), into: picture)
        case .slide(let direction): Frame.slide(outgoing, incoming, fraction: min(max(position, 0), 1), direction: direction, into: picture)
        case .shape(let shape): Frame.shape(outgoing, incoming, shape: shape, progress: position, into: picture)
        case .gl(let transition): glWorkspace.draw(outgoing, incoming, transition: transition, progress: position, matrix: glMatrix, into: picture)
        case .cut, .xfade: break
        }
        return picture
    }

    /// The canvas's Y'CbCr matrix for the gl-transitions effects: BT.709 for SDR, BT.2020 for HDR.
    private var glMatrix: GLColourMatrix {
        let bits = canvas.colour.bitDepth
        return canvas.colour.dynamicRange == .sdr ? .bt709(bits: bits) : .bt2020(bits: bits)
    }

    /// xfade at `position`: its ends are the pictures themselves; a tick behind the last drawn takes a new graph.
    private func drawXfade(_ graph: XfadeGraph, at position: Double, _ outgoing: Frame, _ incoming: Frame) throws -> Frame {
        let tick = Int((position * Double(ticks)).rounded())
        if tick <= 0 { return outgoing.clone() }
        if tick >= ticks { return incoming.clone() }
        guard tick <= graph.lastTick, let fresh = try makeGraph() else { return try graph.draw(outgoing, incoming, tick: tick) }
        xfade = fresh
        return try fresh.draw(outgoing, incoming, tick: tick)
    }
}
