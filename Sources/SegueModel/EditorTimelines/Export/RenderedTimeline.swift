import Foundation
import SegueCore

extension EditTimeline {
    /// What `plan` renders, as an editor's timeline at the output's rate
    /// (`--export-otio`): each clip's media by absolute path or URL with the
    /// frames it shows between its cuts, in the media's timecode; each join as
    /// a transition centred on its cut (split as the timeline that asked for
    /// it split it, else in half), its overlap taken from the clips' handles;
    /// text and black cards as gaps, a generator's bars or colour as a
    /// generator; with `chapters`, a marker where each chapter starts; a
    /// timeline's own sound as its sound tracks (`renderedSound`).
    /// Overlap mode only: a freeze join's held frames have no form there.
    package static func rendered(from plan: Plan, chapters: Bool, currentFolder: String) -> EditTimeline {
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
                items.append(.clip(renderedClip(clip.info, skipping: before, length: length, rate: rate, currentFolder: currentFolder)))
            }
            guard clip.index < plan.joins.count, plan.joins[clip.index].frameCount > 0 else { continue }
            let join = plan.joins[clip.index]
            let split = splits[clip.index]
            items.append(.transition(EditTransition(
                kind: .dissolve, name: join.transition == .fade ? nil : join.transition.rawValue,
                before: EditTime(value: Double(split.before), rate: rate.value),
                after: EditTime(value: Double(split.after), rate: rate.value))))
        }
        let markers = chapters ? plan.chapters.map { EditMarker(name: $0.title, time: EditTime(value: Double($0.startFrame), rate: rate.value)) } : []
        var timeline = EditTimeline(rate: rate, items: items, markers: markers)
        timeline.audioTracks = renderedSound(from: plan, currentFolder: currentFolder)
        return timeline
    }

    /// One clip as rendered: `length` frames at `rate` from its in point plus
    /// `skipping` (the frames before its cut), counted from its start timecode.
    private static func renderedClip(_ info: ClipInfo, skipping: Int64, length: Int64, rate: Rational,
                                     currentFolder: String) -> EditClip {
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
        var location = info.path
        if case .file(let local) = InputLocation(info.path) {
            location = local.hasPrefix("/") ? local : (currentFolder as NSString).appendingPathComponent(local)
            location = (location as NSString).standardizingPath
        }
        return EditClip(name: info.use.edited?.name ?? Plan.chapterTitle(info), media: EditMedia(location: location),
                        source: source, available: available, speed: info.use.speed)
    }
}
