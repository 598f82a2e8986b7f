import Foundation
import SegueCore

extension EditTimeline {
    /// The sound tracks `plan` rendered from its timelines' own sound, for
    /// `--export-otio`: each track's clips at their cuts (their media by
    /// absolute path, source ranges in the media's timecode, levels kept),
    /// silence as gaps, each fade as a transition centred as it was played.
    /// Times count at the timeline's rate from the output's start.
    package static func renderedSound(from plan: Plan, currentFolder: String) -> [EditAudioTrack] {
        plan.timelineSounds.flatMap { sound, frames, _ in
            let rate = sound.rate
            let offset = Int64((Double(frames.lowerBound) / plan.canvas.frameRate.value * rate.value).rounded())
            return sound.tracks.map { track in
                EditAudioTrack(name: track.name, items: renderedItems(track.pieces, rate: rate, offset: offset, currentFolder: currentFolder))
            }
        }
    }

    private static func renderedItems(_ pieces: [TimelineSound.Piece], rate: Rational, offset: Int64, currentFolder: String) -> [EditAudioItem] {
        func time(_ frames: Int64) -> EditTime { EditTime(value: Double(frames), rate: rate.value) }
        let sorted = pieces.sorted { $0.recordStart < $1.recordStart }
        var items: [EditAudioItem] = []
        var cursor: Int64 = 0
        for (index, piece) in sorted.enumerated() {
            let cutIn = offset + piece.recordStart + piece.before, cutOut = offset + piece.recordStart + piece.recordFrames - piece.after
            if cutIn > cursor { items.append(.gap(time(cutIn - cursor))) }
            if piece.fadeIn > 0, !(items.last.map { if case .transition = $0 { return true } else { return false } } ?? false) {
                items.append(.transition(EditTransition(kind: .dissolve, before: time(piece.before), after: time(piece.fadeIn - piece.before))))
            }
            let seconds = piece.fileStart + Double(piece.before) / rate.value + piece.mediaStart
            let source = EditRange(start: EditTime(value: (seconds * rate.value * 1_000_000).rounded() / 1_000_000, rate: rate.value),
                                   duration: time(cutOut - cutIn))
            let clip = EditClip(name: piece.name, media: EditMedia(location: absolute(piece.path, currentFolder: currentFolder)), source: source)
            items.append(.clip(EditAudioClip(clip: clip, level: piece.level)))
            cursor = cutOut
            let next = sorted.indices.contains(index + 1) ? sorted[index + 1] : nil
            let crossfaded = next.map { $0.fadeIn > 0 && offset + $0.recordStart + $0.before == cutOut } ?? false
            if piece.fadeOut > 0, !crossfaded {
                items.append(.transition(EditTransition(kind: .dissolve, before: time(piece.fadeOut - piece.after), after: time(piece.after))))
            }
        }
        return items
    }

    /// A local path made absolute and standard; a URL as it is.
    static func absolute(_ path: String, currentFolder: String) -> String {
        guard case .file(let local) = InputLocation(path) else { return path }
        let location = local.hasPrefix("/") ? local : (currentFolder as NSString).appendingPathComponent(local)
        return (location as NSString).standardizingPath
    }
}

extension OTIOWriter {
    /// A sound track as OTIO writes it: kind Audio; a clip's level (dB) under
    /// `metadata.segue.level_db`, whether it is an EDL event's picture too under `with_picture`.
    static func audioTrack(_ track: EditAudioTrack) -> [String: Any] {
        let children: [[String: Any]] = track.items.map { item in
            switch item {
            case .clip(let sound):
                var object = OTIOWriter.item(.clip(sound.clip))
                var segue: [String: Any] = [:]
                if sound.level != 0 { segue["level_db"] = sound.level }
                if sound.withPicture { segue["with_picture"] = true }
                if !segue.isEmpty {
                    var metadata = object["metadata"] as? [String: Any] ?? [:]
                    metadata["segue"] = segue
                    object["metadata"] = metadata
                }
                return object
            case .gap(let duration): return OTIOWriter.item(.gap(duration))
            case .transition(let transition): return OTIOWriter.item(.transition(transition))
            }
        }
        return item("Track.1", name: track.name, [
            "kind": "Audio", "source_range": NSNull(), "effects": [Any](), "markers": [Any](), "children": children,
        ])
    }
}
