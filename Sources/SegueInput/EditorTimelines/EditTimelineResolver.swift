import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// Turns an editor's timeline into the clips Segue plays. Each clip finds its
/// media (`MediaFinder`) and keeps its source range as an `EditPlacement`,
/// placed against the media's start timecode once probed. A transition
/// between two items is centred on their cut, as OTIO has it: the item
/// before plays `after` frames past its range, the one after starts `before`
/// frames ahead of its range, and they overlap by both, so the output is as
/// long as the timeline. Gaps are black, silent cards; a transition from or
/// to a gap fades from or to black. Every join is the timeline's own, so the
/// command line's `--transition` doesn't touch it. Sound tracks become one
/// `TimelineSound` on the first entry (`TimelineSoundResolver`).
package struct EditTimelineResolver {
    /// The timeline file, as named: messages name it, relative media paths start from its folder.
    let timelinePath: String
    let finder: MediaFinder
    /// Whether its sound tracks are resolved (not with `--no-audio`).
    let resolvesSound: Bool

    package init(timelinePath: String, mediaRoots: [String], access: InputAccess, sound: Bool = true) {
        self.timelinePath = timelinePath
        resolvesSound = sound
        let folder = (timelinePath as NSString).deletingLastPathComponent
        finder = MediaFinder(folder: folder, roots: mediaRoots, access: access)
    }

    /// What a timeline expands to.
    package struct Resolved: Sendable {
        package var entries: [ClipEntry]
        /// The timeline's rate as the output's (a flag still wins).
        package var output: OutputOptions
        package var notices: [Warning]
        /// The timeline's own sound, when it has sound tracks (and they are resolved): its entries'
        /// `soundPlace` name it as track 0.
        package var sound: TimelineSound?
    }

    /// The rate an EDL counts at, which it doesn't state: the nominal rate
    /// its media agree on (23.976 material counts at 24000/1001, PAL at 25),
    /// from the `clips` whose media are found, at most `mostProbed` files;
    /// nil when none is found, they disagree, or the EDL says drop frame
    /// (`guess`) and they don't run at 29.97 or 59.94.
    package func mediaRate(of clips: [(name: String?, media: EditMedia)], guess: Rational) -> Rational? {
        var rates: Set<Rational> = [], probed: Set<String> = []
        for clip in clips where probed.count < Self.mostProbed {
            guard let path = try? finder.locate(clip.media, clipName: clip.name ?? ""), probed.insert(path).inserted,
                  let rate = try? Prober.probe(path, access: finder.access).get().facts.frameRate, rate.isValid else { continue }
            rates.insert(rate.snappedToStandard.reduced)
        }
        guard rates.count == 1, let rate = rates.first, rate.value >= 1, rate.value < 1000 else { return nil }
        let dropFrame = guess.denominator == 1001
        return !dropFrame || (rate.denominator == 1001 && [30, 60].contains(Int(rate.value.rounded()))) ? rate : nil
    }

    /// Media files probed for an EDL's rate at most.
    static let mostProbed = 64

    /// One item with the transitions either side of it.
    private struct Span {
        var item: EditItem
        var before: Int64 = 0
        var after: Int64 = 0
        /// The transition out of it, into the next span.
        var join: EditTransition?
    }

    /// The clips of `timeline`; throws the `BadInputReason` naming the item that can't be played.
    package func resolve(_ timeline: EditTimeline) throws -> Resolved {
        let rate = timeline.rate
        guard rate.isValid, rate.value > 0 else { throw BadInputReason.badList("the timeline's rate \(rate) is not a frame rate") }
        var notices = timeline.notes.map { Warning.timelineNote(path: timelinePath, note: $0) }
        if !timeline.markers.isEmpty {
            let count = timeline.markers.count
            notices.append(.timelineNote(path: timelinePath, note: "\(count) marker\(count == 1 ? "" : "s") not used "
                                         + "(--chapters makes one chapter per clip, titled by its name)"))
        }
        let spans = try EditTimelineResolver.spans(of: timeline)
        var entries: [ClipEntry] = []
        // The record frame the next entry's first frame shows at: each entry starts where the one
        // before it ends, less the transition they overlap over.
        var record: Int64 = 0
        // The record frames each entry shows, its transitions' overlaps included.
        var records: [Range<Int64>] = []
        for (index, span) in spans.enumerated() {
            var entry: ClipEntry
            switch span.item {
            case .clip(let clip):
                let name = [clip.name, clip.media.clipName].compactMap { $0 }.first { !$0.isEmpty } ?? "item \(index + 1)"
                entry = ClipEntry(path: try finder.locate(clip.media, clipName: name))
                entry.title = name
                entry.edit = EditPlacement(name: name, source: clip.source, recordRate: rate, before: span.before, after: span.after,
                                           speed: clip.speed)
                if let speed = entry.edit?.speed, !speed.isFreeze, !speed.isAudible {
                    let range = PlaybackSpeed.audibleRange
                    notices.append(.timelineNote(path: timelinePath, note: "clip '\(name)': played at \(speed.description), "
                                                 + "silent (its sound is kept from \(range.lowerBound)x to \(Int(range.upperBound))x)"))
                }
                // A photo shows for its record time, transitions included.
                entry.duration = Double(entry.edit!.recordFrames) / rate.value
            case .gap, .fill:
                guard let blank = EditTimelineResolver.blankEntry(span, rate: rate) else { continue }
                entry = blank
            case .transition:
                continue
            case .nested(let nested):
                // `EditTimeline.stackTracks` flattens every nested sequence before this.
                throw BadInputReason.badList("nested sequence '\(nested.name ?? "item \(index + 1)")' was not flattened")
            }
            entry.join = try joinChoice(span.join, rate: rate, notices: &notices)
            let frames = Int64(((entry.duration ?? 0) * rate.value).rounded())
            entry.soundPlace = SoundPlace(track: 0, entry: entries.count, recordFrame: record)
            records.append(record..<(record + frames))
            record += frames - span.after - (index + 1 < spans.count ? spans[index + 1].before : 0)
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw BadInputReason.badList("the timeline has no clips") }
        try layOver(timeline.overlays, on: &entries, records: records, rate: rate)
        // The timeline's own sound plays under all its entries, instead of their own.
        let sound = resolvesSound && !timeline.audioTracks.isEmpty ? try self.sound(of: timeline, notices: &notices) : nil
        if sound == nil { entries.indices.forEach { entries[$0].soundPlace = nil } }
        notices += finder.notes.map { Warning.timelineNote(path: timelinePath, note: $0) }
        var output = OutputOptions()
        output.frameRate = rate.reduced
        return Resolved(entries: entries, output: output, notices: notices, sound: sound)
    }

    /// Gives each entry the placed clips over its record frames, each cut to
    /// them: over a transition both entries carry it, so it stays whole through the blend.
    private func layOver(_ overlays: [EditOverlay], on entries: inout [ClipEntry], records: [Range<Int64>], rate: Rational) throws {
        for overlay in overlays {
            let clip = overlay.clip, length = clip.source.duration.frameCount(at: rate)
            let name = [clip.name, clip.media.clipName].compactMap { $0 }.first { !$0.isEmpty } ?? "placed clip"
            let path = try finder.locate(clip.media, clipName: name)
            for (index, shown) in records.enumerated() {
                let from = max(shown.lowerBound, overlay.recordStart), to = min(shown.upperBound, overlay.recordStart + length)
                guard from < to, let layout = clip.layout else { continue }
                let piece = clip.cut(skipping: from - overlay.recordStart, length: to - from, rate: rate)
                var layer = ClipEntry(path: path)
                layer.title = name
                layer.duration = Double(to - from) / rate.value
                // FCPXML's conform: `fill` fills the frame, `fit` (and `none`, drawn fitted) shows the whole picture.
                layer.fit = layout.conform.map { $0 == .fill ? .cover : .contain }
                layer.edit = EditPlacement(name: name, source: piece.source, recordRate: rate, speed: piece.speed)
                entries[index].layers.append(LayerEntry(entry: layer, layout: layout, firstFrame: Int(from - shown.lowerBound),
                                                        frameCount: Int(to - from)))
            }
        }
    }

    /// A gap's or generator's entry: black (or the generator's colour or bars) and silence, as long
    /// as the gap and the transitions into and out of it; nil when that is no frame.
    private static func blankEntry(_ span: Span, rate: Rational) -> ClipEntry? {
        let length = span.item.blank ?? EditTime(value: 0, rate: rate.value)
        let frames = length.frameCount(at: rate) + span.before + span.after
        guard frames > 0 else { return nil }
        var entry = ClipEntry(path: "")
        entry.card = TextCard(text: "", background: "#000000")
        if case .fill(let fill) = span.item {
            if case .colour(let colour) = fill.look { entry.card?.background = colour }
            if fill.look == .bars { entry.card?.bars = true }
        }
        entry.title = "Gap"
        entry.duration = Double(frames) / rate.value
        return entry
    }

    /// The items in record order, each knowing the transitions either side of
    /// it; a transition at the track's start or end fades from or to black.
    private static func spans(of timeline: EditTimeline) throws -> [Span] {
        func sides(_ value: EditTransition) -> (before: Int64, after: Int64) {
            (value.before.frameCount(at: timeline.rate), value.after.frameCount(at: timeline.rate))
        }
        var spans: [Span] = []
        var pending: EditTransition?
        for (index, item) in timeline.items.enumerated() {
            guard case .transition(let transition) = item else {
                var span = Span(item: item)
                if let pending {
                    span.before = sides(pending).before
                    spans[spans.count - 1].after = sides(pending).after
                    spans[spans.count - 1].join = pending
                }
                pending = nil
                spans.append(span)
                continue
            }
            guard pending == nil else { throw BadInputReason.badList("item \(index + 1): two transitions in a row") }
            if spans.isEmpty { spans.append(Span(item: .gap(EditTime(value: 0, rate: timeline.rate.value)))) }
            pending = transition
        }
        if pending != nil { spans.append(Span(item: .gap(EditTime(value: 0, rate: timeline.rate.value)))) }
        // The last transition (to black) is joined like the others.
        if let pending, spans.count >= 2 {
            spans[spans.count - 1].before = sides(pending).before
            spans[spans.count - 2].after = sides(pending).after
            spans[spans.count - 2].join = pending
        }
        return spans
    }

    /// How a span meets the next: a cut, or the transition's kind over both its sides.
    private func joinChoice(_ transition: EditTransition?, rate: Rational, notices: inout [Warning]) throws -> JoinChoice {
        guard let transition else { return JoinChoice(transition: TransitionKind.none) }
        let frames = transition.before.frameCount(at: rate) + transition.after.frameCount(at: rate)
        guard frames > 0 else { return JoinChoice(transition: TransitionKind.none) }
        guard transition.before.value >= 0, transition.after.value >= 0 else {
            throw BadInputReason.badList("transition \(transition.name.map { "'\($0)' " } ?? "")has a negative offset")
        }
        var kind = TransitionKind.fade
        if case .wipe(let number) = transition.kind {
            kind = EditTimelineResolver.closestWipe(number)
            notices.append(.timelineNote(path: timelinePath, note: "SMPTE wipe \(number) drawn as xfade's \(kind.rawValue), the closest"))
        }
        return JoinChoice(transition: kind, duration: Double(frames) / rate.value)
    }

    /// The xfade transition nearest a SMPTE wipe pattern number (EDL `W nnn`).
    static func closestWipe(_ number: Int) -> TransitionKind {
        let name: String
        switch number {
        case 1: name = "wiperight" // a vertical edge crossing left to right
        case 2: name = "wipedown" // a horizontal edge crossing top to bottom
        case 3: name = "wipetl"
        case 4: name = "wipetr"
        case 5: name = "wipebr"
        case 6: name = "wipebl"
        case 21: name = "horzopen"
        case 22: name = "vertopen"
        case 23...26: name = "diagtl"
        case 101...199: name = "circleopen" // irises
        default: name = "wiperight"
        }
        return TransitionKind(name: name) ?? .fade
    }
}
