import Foundation
import SegueCore

/// The output canvas every clip is normalised to.
public struct Canvas: Sendable, Equatable, Codable {
    package var width: Int
    package var height: Int
    public var frameRate: Rational
    package var sampleRate: Int
    /// The output sound's channels: 2, or with `--smart` the clips' own (`OutputAudio.copiedFormat`).
    package var soundChannels = OutputAudio.channels
    /// How pictures are stored: SDR BT.709 or 10-bit HLG/PQ BT.2020.
    package var colour: OutputColour = .sdr
    /// HDR10 metadata written into the stream; nil for SDR or HLG without any.
    package var hdrMetadata: HDRMetadata?

    package init(width: Int, height: Int, frameRate: Rational, sampleRate: Int, colour: OutputColour = .sdr,
                 hdrMetadata: HDRMetadata? = nil) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        self.colour = colour
        self.hdrMetadata = hdrMetadata
    }

    /// The sound sample at which frame `frame` starts (rounded to the nearest).
    package func sampleIndex(atFrame frame: Int) -> Int {
        let numerator = frame * sampleRate * frameRate.denominator
        return (numerator + frameRate.numerator / 2) / frameRate.numerator
    }
}

/// Where a clip's picture lands on the canvas: scaled to `scaledWidth` x
/// `scaledHeight`, then placed at (`x`, `y`) (contain) or cropped from there (cover).
package struct Placement: Sendable, Equatable {
    package var scaledWidth: Int
    package var scaledHeight: Int
    package var x: Int
    package var y: Int

    package init(scaledWidth: Int, scaledHeight: Int, x: Int, y: Int) {
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
        self.x = x
        self.y = y
    }

    /// Even sizes and offsets keep 4:2:0 chroma aligned.
    package static func fit(displayWidth: Int, displayHeight: Int, into canvas: Canvas, mode: Fit) -> Placement {
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        let scaleX = Double(canvas.width) / Double(max(displayWidth, 1))
        let scaleY = Double(canvas.height) / Double(max(displayHeight, 1))
        switch mode {
        case .stretch:
            return Placement(scaledWidth: canvas.width, scaledHeight: canvas.height, x: 0, y: 0)
        case .contain, .cover, .blur:
            // Blur places the picture as contain does; the fill behind it is the clip's filter graph's.
            let contains = mode != .cover
            let scale = contains ? min(scaleX, scaleY) : max(scaleX, scaleY)
            var width = even(Double(displayWidth) * scale), height = even(Double(displayHeight) * scale)
            if contains { width = min(width, canvas.width); height = min(height, canvas.height) }
            else { width = max(width, canvas.width); height = max(height, canvas.height) }
            let x = (abs(canvas.width - width) / 4) * 2, y = (abs(canvas.height - height) / 4) * 2
            return Placement(scaledWidth: width, scaledHeight: height, x: x, y: y)
        }
    }
}

/// One clip's place in the output.
package struct PlannedClip: Sendable {
    package var index: Int
    package var info: ClipInfo
    /// Output frames this clip contributes, overlaps included.
    package var frameCount: Int
    /// Output frame at which the clip starts.
    package var startFrame: Int
    package var placement: Placement
    /// How it fills the canvas: its list entry's choice, else the output's.
    package var fit: Fit = .contain
    /// Where it stands under an editor's timeline's own sound (`Plan.soundTracks`); nil for none.
    package var soundPlace: SoundPlace?
}

/// The meeting of clip `index` and clip `index + 1`.
package struct PlannedJoin: Sendable {
    package var index: Int
    package var transition: TransitionKind
    /// Frames during which both clips show (0 for a cut).
    package var frameCount: Int
    /// How its progress runs.
    package var easing: Easing

    package init(index: Int, transition: TransitionKind, frameCount: Int, easing: Easing = .linear) {
        self.index = index
        self.transition = transition
        self.frameCount = frameCount
        self.easing = easing
    }

    /// How far step `step` of its frames is towards the incoming clip: `(step + 1) / (frames + 1)`, eased.
    package func progress(atStep step: Int) -> Double {
        easing(Double(step + 1) / Double(frameCount + 1))
    }
}

/// Who plays when, in whole output frames, and exactly how many audio samples
/// belong to each stretch of frames.
public struct Plan: Sendable {
    package var canvas: Canvas
    package var clips: [PlannedClip]
    package var joins: [PlannedJoin]
    package var mode: TransitionMode
    /// Why the output has its dynamic range (`canvas.colour`), as the report says it.
    package var colourReason: String
    /// What the user should know about the plan.
    package var notices: [Warning]
    /// The editors' timelines' own sounds, each heard instead of its clips' own (one per timeline
    /// of the list, in its order; one whose clips were all left out plays nowhere).
    package var soundTracks: [PlannedSound] = []
    /// What the stitch writes (a file or an HLS ladder), resolved once when a request becomes this
    /// plan; nil for a plan that is not written (one inspected, or a library's before it names one).
    package var target: RenderTarget?
    /// The notices as the user reads them.
    package var warnings: [String] { notices.map(\.description) }

    package var totalFrames: Int {
        guard let last = clips.last else { return 0 }
        return last.startFrame + last.frameCount
    }

    package var duration: Double { Double(totalFrames) / canvas.frameRate.value }

    /// Frames of the join into clip `index` (0 for the first clip, or a cut).
    package func joinFrames(before index: Int) -> Int { index > 0 ? joins[index - 1].frameCount : 0 }

    /// Frames of the join out of clip `index` (0 for the last clip, or a cut).
    package func joinFrames(after index: Int) -> Int { index < joins.count ? joins[index].frameCount : 0 }

    /// The first audio sample of output frame `frame`. Rounding each boundary
    /// from the frame count (rather than adding per-frame sizes) never drifts.
    package func sampleIndex(atFrame frame: Int) -> Int {
        canvas.sampleIndex(atFrame: frame)
    }

    /// Plans `infos` in order; `joins[i]`, where given, overrides how clip i meets clip i + 1.
    public init(clips infos: [ClipInfo], settings: StitchSettings, joins choices: [JoinChoice?] = []) throws {
        try self.init(clips: infos, settings: settings, joins: choices, sounds: [], places: [])
    }

    /// Plans `infos` as `init(clips:settings:joins:)` does, under `sounds` (the list's timelines'
    /// own sounds), with `places[i]` where clip i stands under one.
    package init(clips infos: [ClipInfo], settings: StitchSettings, joins choices: [JoinChoice?], sounds: [TimelineSound],
                 places: [SoundPlace?]) throws {
        guard let firstClip = infos.first else { throw SegueError.usage("no clips to stitch") }
        // A still never sets the canvas: the first video does; with only stills, full HD of the first photo's shape.
        let first = infos.first { !$0.facts.isStill } ?? Plan.stillsCanvas(portrait: firstClip.facts.displayHeight > firstClip.facts.displayWidth)
        var rate = settings.frameRate ?? first.facts.frameRate
        if !rate.isValid { rate = Rational(30, 1) }
        canvas = Canvas(width: settings.size?.width ?? evenCeiling(first.facts.displayWidth),
                        height: settings.size?.height ?? evenCeiling(first.facts.displayHeight),
                        frameRate: rate.reduced, sampleRate: settings.sampleRate)
        // A timeline's own sound is mixed, never copied: the output keeps 48 kHz stereo for it.
        let places = infos.indices.map { $0 < places.count ? places[$0].flatMap { sounds.indices.contains($0.track) ? $0 : nil } : nil }
        if settings.smart, !places.contains(where: { $0 != nil }), let copied = OutputAudio.copiedFormat(of: infos) {
            canvas.sampleRate = copied.sampleRate
            canvas.soundChannels = copied.channels
        }
        let colour = try OutputColourChoice(settings.hdr, codec: settings.codec, clips: infos)
        canvas.colour = colour.colour
        canvas.hdrMetadata = colour.metadata
        colourReason = colour.reason
        mode = settings.mode
        let layout = JoinLayout(mode: mode)
        notices = infos.compactMap(\.lengthWarning) + colour.notices
            + infos.compactMap { info in info.unusedColourProfile.map { Warning.colourProfileIgnored(path: info.path, reason: $0) } }
            + infos.compactMap { info in info.use.edited.flatMap { $0.isHeld ? Warning.edgeFramesHeld(path: info.path, held: $0) : nil } }
        let counts = infos.map { max(1, Int(($0.use.duration * rate.value).rounded())) }

        joins = Plan.joins(of: infos, counts: counts, choices: choices, settings: settings, rate: rate, layout: layout,
                           notices: &notices)

        clips = []
        var start = 0
        for (index, info) in infos.enumerated() {
            let fit = info.use.fit ?? settings.fit
            let placement = Placement.fit(displayWidth: info.facts.displayWidth, displayHeight: info.facts.displayHeight, into: canvas, mode: fit)
            clips.append(PlannedClip(index: index, info: info, frameCount: counts[index], startFrame: start, placement: placement,
                                     fit: fit, soundPlace: places[index]))
            start = layout.nextStart(after: start, frameCount: counts[index], joinAfter: joinFrames(after: index))
        }
        soundTracks = sounds.indices.map { [clips, canvas] in PlannedSound(sounds[$0], track: $0, clips: clips, places: places, canvas: canvas) }
    }

    /// How each clip meets the next: what its join asks for (the list's choice, else the settings';
    /// `random` becomes its pick here), fitted to its clips' `counts` (a shortened one noted).
    private static func joins(of infos: [ClipInfo], counts: [Int], choices: [JoinChoice?], settings: StitchSettings, rate: Rational,
                              layout: JoinLayout, notices: inout [Warning]) -> [PlannedJoin] {
        let requests: [(kind: TransitionKind, frames: Int, easing: Easing)] = infos.indices.dropLast().map { index in
            let choice = index < choices.count ? choices[index] : nil
            var kind = choice?.transition ?? settings.transition
            if kind == .random { kind = TransitionCatalogue.pick(join: index, from: infos[index].path, to: infos[index + 1].path) }
            let seconds = choice?.duration ?? settings.transitionDuration ?? kind.defaultDuration
            return (kind, kind == .none ? 0 : max(1, Int((seconds * rate.value).rounded())), choice?.easing ?? settings.easing)
        }
        return requests.enumerated().map { index, request in
            var frames = request.frames
            if layout.overlaps && frames > 0 {
                // A clip overlapping on both sides gives at most half of itself to each.
                let left = index > 0 && requests[index - 1].frames > 0 ? counts[index] / 2 : counts[index]
                let right = index + 1 < requests.count && requests[index + 1].frames > 0 ? counts[index + 1] / 2 : counts[index + 1]
                frames = min(frames, left, right)
                if frames < request.frames {
                    notices.append(.transitionShortened(join: index + 1, from: infos[index].path, to: infos[index + 1].path,
                                                        asked: Double(request.frames) / rate.value,
                                                        given: Double(frames) / rate.value))
                }
            }
            return PlannedJoin(index: index, transition: frames > 0 ? request.kind : .none, frameCount: frames, easing: request.easing)
        }
    }

    /// The canvas of a reel made only of photos: 1920x1080, or 1080x1920 for a portrait first photo, at 30 fps.
    static func stillsCanvas(portrait: Bool) -> ClipInfo {
        ClipInfo(path: "", container: "", videoCodec: "", codedWidth: portrait ? 1080 : 1920, codedHeight: portrait ? 1920 : 1080,
                 sampleAspectRatio: Rational(1, 1), frameRate: Rational(30, 1), pixelFormat: "", duration: 0,
                 audio: nil)
    }

    package static func seconds(_ value: Double) -> String {
        String(format: "%.2f s", value)
    }

    /// A number as people write it: 3600, not 3600.0; -12.5 stays.
    public static func decimal(_ value: Double) -> String { decimalText(value) }
}

private func evenCeiling(_ value: Int) -> Int { max(2, (value + 1) / 2 * 2) }
