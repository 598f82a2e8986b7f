import Foundation
import SegueCore

extension EditTimeline {
    /// What `plan` renders, as an editor's timeline at the output's rate
    /// (`--export-timeline`): each clip's media named as `paths` says, with
    /// its facts (rate, size, sound) and the frames it shows between its cuts,
    /// in the media's timecode; each join as a transition centred on its cut
    /// (split as the timeline that asked for it split it, else in half), its
    /// overlap taken from the clips' handles; text and black cards as gaps
    /// (their text in `titles`, with the captions), a generator's bars or
    /// colour as a generator; with `settings.chapters`, a marker where each
    /// chapter starts; a timeline's own sound as its sound tracks
    /// (`renderedSound`), else each clip's own (`clipSound`).
    /// Overlap mode only: a freeze join's held frames have no form there.
    package static func rendered(from plan: Plan, settings: StitchSettings, paths: ExportPaths) -> EditTimeline {
        let rate = plan.canvas.frameRate
        // Record frames of each join before its cut (played by the clip after it) and after it.
        let splits: [(before: Int64, after: Int64)] = plan.joins.map { join in
            let frames = Int64(join.frameCount)
            let asked = plan.clips[join.index + 1].info.use.edited?.before ?? frames / 2
            let before = min(asked, frames)
            return (before, frames - before)
        }
        var items: [EditItem] = []
        for clip in plan.clips {
            let before = clip.index > 0 ? splits[clip.index - 1].before : 0
            let after = clip.index < splits.count ? splits[clip.index].after : 0
            let length = Int64(clip.frameCount) - before - after
            if let card = clip.info.use.card {
                let duration = EditTime(value: Double(length), rate: rate.value)
                // A generator's card (no text): its bars or colour as a generator; black and text cards as gaps.
                if card.text.isEmpty, card.bars == true {
                    items.append(.fill(EditFill(look: .bars, duration: duration)))
                } else if card.text.isEmpty, card.background.uppercased() != "#000000" {
                    items.append(.fill(EditFill(look: .colour(card.background.uppercased()), duration: duration)))
                } else {
                    items.append(.gap(duration))
                }
            } else {
                items.append(.clip(renderedClip(clip.info, skipping: before, length: length, rate: rate, paths: paths)))
            }
            guard clip.index < plan.joins.count, plan.joins[clip.index].frameCount > 0 else { continue }
            let join = plan.joins[clip.index]
            let split = splits[clip.index]
            items.append(.transition(EditTransition(
                kind: .dissolve, name: join.transition == .fade ? nil : join.transition.rawValue,
                before: EditTime(value: Double(split.before), rate: rate.value),
                after: EditTime(value: Double(split.after), rate: rate.value))))
        }
        let markers = settings.chapters ? plan.chapters.map { EditMarker(name: $0.title, time: EditTime(value: Double($0.startFrame), rate: rate.value)) } : []
        var timeline = EditTimeline(rate: rate, items: items, markers: markers)
        let layers = renderedLayers(from: plan, paths: paths)
        if !layers.isEmpty { timeline.videoTracks = [EditVideoTrack(name: "V1", items: items)] + layers }
        timeline.format = EditOutputFormat(width: plan.canvas.width, height: plan.canvas.height, sampleRate: plan.canvas.sampleRate,
                                           channels: plan.canvas.soundChannels)
        timeline.titles = renderedTitles(from: plan, splits: splits)
        if settings.includeAudio {
            timeline.audioTracks = renderedSound(from: plan, paths: paths)
            timeline.clipSound = plan.soundTracks.isEmpty
        }
        return timeline
    }

    /// The clips drawn over the plan's (`ClipLayer`) as tracks above it, each
    /// clip where it showed with its layout; a layer carried by both clips of a
    /// transition written once; layers that overlap in time on tracks of their own.
    private static func renderedLayers(from plan: Plan, paths: ExportPaths) -> [EditVideoTrack] {
        let rate = plan.canvas.frameRate
        var shown: [(start: Int64, clip: EditClip)] = []
        for host in plan.clips {
            for layer in host.info.use.layers {
                let start = Int64(host.startFrame + layer.firstFrame)
                var clip = renderedClip(layer.info, skipping: 0, length: Int64(layer.frameCount), rate: rate, paths: paths)
                clip.layout = layer.layout
                if let last = shown.last, last.clip.continues(into: clip, after: start - last.start, rate: rate) {
                    let end = max(last.start + last.clip.source.duration.frameCount(at: rate), start + Int64(layer.frameCount))
                    shown[shown.count - 1].clip.source.duration = EditTime(value: Double(end - last.start), rate: rate.value)
                } else {
                    shown.append((start, clip))
                }
            }
        }
        var lanes: [(end: Int64, items: [EditItem])] = []
        for (start, clip) in shown.sorted(by: { $0.start < $1.start }) {
            let length = clip.source.duration.frameCount(at: rate)
            let lane = lanes.firstIndex { $0.end <= start } ?? { lanes.append((0, [])); return lanes.count - 1 }()
            if start > lanes[lane].end { lanes[lane].items.append(.gap(EditTime(value: Double(start - lanes[lane].end), rate: rate.value))) }
            lanes[lane].items.append(.clip(clip))
            lanes[lane].end = start + length
        }
        return lanes.enumerated().map { EditVideoTrack(name: "V\($0.offset + 2)", items: $0.element.items) }
    }

    /// Text cards where they show between their cuts, and each clip's caption over the frames it shows.
    private static func renderedTitles(from plan: Plan, splits: [(before: Int64, after: Int64)]) -> [EditTitle] {
        plan.clips.compactMap { clip in
            let before = clip.index > 0 ? splits[clip.index - 1].before : 0
            let after = clip.index < splits.count ? splits[clip.index].after : 0
            let start = Int64(clip.startFrame) + before, frames = Int64(clip.frameCount) - before - after
            if let card = clip.info.use.card, !card.text.isEmpty {
                return EditTitle(kind: .card, text: card.text, background: card.background.uppercased(), start: start, frames: frames)
            }
            guard let caption = clip.info.use.caption, !caption.isEmpty else { return nil }
            return EditTitle(kind: .caption, text: caption, start: start, frames: frames)
        }
    }

    /// One clip as rendered: `length` frames at `rate` from its in point plus
    /// `skipping` (the frames before its cut), counted from its start timecode.
    private static func renderedClip(_ info: ClipInfo, skipping: Int64, length: Int64, rate: Rational, paths: ExportPaths) -> EditClip {
        let origin = info.facts.startTimecode.map { code in
            code.rate.value.rounded() == rate.value.rounded() ? code.frames : Int64((code.seconds * rate.value).rounded())
        } ?? 0
        let inFrames = Int64((info.use.inPoint * rate.value).rounded())
        // A speed change's first frame past the handles is the one it shows there.
        let skipped = info.use.speed.map { $0.sourceFrame(at: skipping) } ?? skipping
        let source = EditRange(start: EditTime(value: Double(origin + inFrames + skipped), rate: rate.value),
                               duration: EditTime(value: Double(length), rate: rate.value))
        let available = EditRange(start: EditTime(value: Double(origin), rate: rate.value),
                                  duration: EditTime(value: (info.facts.timing.pictureDuration * rate.value).rounded(), rate: rate.value))
        return EditClip(name: info.use.edited?.name ?? Plan.chapterTitle(info),
                        media: EditMedia(location: paths.location(of: info.path), facts: mediaFacts(info.facts),
                                         startSeconds: info.facts.startTimecode?.seconds ?? 0),
                        source: source, available: available, speed: info.use.speed)
    }

    /// What an editor needs to know of a probed file.
    private static func mediaFacts(_ facts: ClipFacts) -> EditMediaFacts {
        var media = EditMediaFacts(rate: facts.frameRate, width: facts.displayWidth, height: facts.displayHeight,
                                   seconds: facts.timing.pictureDuration)
        media.variableRate = facts.variableFrameRate
        if let code = facts.startTimecode {
            media.timecodeFrames = code.rate == facts.frameRate ? code.frames : Int64((code.seconds * facts.frameRate.value).rounded())
            media.dropFrame = code.dropFrame
        }
        media.soundChannels = facts.audio?.channels
        media.sampleRate = facts.audio?.sampleRate
        media.still = facts.isStill
        return media
    }
}

extension EditClip {
    /// Whether `next`, starting `offset` record frames after this clip's start, is the same media,
    /// layout and speed going on from where this one is at that point.
    func continues(into next: EditClip, after offset: Int64, rate: Rational) -> Bool {
        guard media == next.media, layout == next.layout, speed == nil, next.speed == nil,
              offset >= 0, offset <= source.duration.frameCount(at: rate) else { return false }
        return next.source.start.frameCount(at: rate) - source.start.frameCount(at: rate) == offset
    }
}
