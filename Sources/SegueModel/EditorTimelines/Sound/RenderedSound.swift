import Foundation
import SegueCore

extension EditTimeline {
    /// The sound tracks `plan` rendered from its timelines' own sound, for
    /// `--export-otio`: each track's clips at their cuts (their media by
    /// absolute path, source ranges in the media's timecode, levels kept),
    /// silence as gaps, each fade as a transition centred as it was played.
    /// Times count at the timeline's rate from the output's start.
    package static func renderedSound(from plan: Plan, paths: ExportPaths) -> [EditAudioTrack] {
        plan.soundTracks.flatMap { track in
            let sound = track.sound, rate = sound.rate
            // Each stretch's pieces, cut to the record time it plays and moved to where it plays in the output.
            let placed = track.stretches.map { stretch in
                let offset = Int64((Double(stretch.origin) / Double(plan.canvas.sampleRate) * rate.value).rounded())
                let first = Int64((Double(stretch.frames.lowerBound) / plan.canvas.frameRate.value * rate.value).rounded()) - offset
                let last = Int64((Double(stretch.frames.upperBound) / plan.canvas.frameRate.value * rate.value).rounded()) - offset
                return (offset: offset, record: first..<last)
            }
            return sound.tracks.map { soundTrack in
                let pieces = placed.flatMap { offset, record in
                    soundTrack.pieces.compactMap { $0.cut(to: record, rate: rate) }.map { piece in
                        var moved = piece
                        moved.recordStart += offset
                        return moved
                    }
                }
                return EditAudioTrack(name: soundTrack.name, items: renderedItems(pieces, rate: rate, offset: 0, paths: paths))
            }
        }
    }

    private static func renderedItems(_ pieces: [TimelineSound.Piece], rate: Rational, offset: Int64, paths: ExportPaths) -> [EditAudioItem] {
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
            let seconds = piece.fileStart + Double(piece.before) / rate.value * (piece.tempo ?? 1) + piece.mediaStart
            let source = EditRange(start: EditTime(value: (seconds * rate.value * 1_000_000).rounded() / 1_000_000, rate: rate.value),
                                   duration: time(cutOut - cutIn))
            let clip = EditClip(name: piece.name, media: EditMedia(location: paths.location(of: piece.path), startSeconds: piece.mediaStart), source: source,
                                speed: piece.tempo.flatMap(PlaybackSpeed.init))
            items.append(.clip(EditAudioClip(clip: clip, level: piece.level, channel: piece.channel)))
            cursor = cutOut
            let next = sorted.indices.contains(index + 1) ? sorted[index + 1] : nil
            let crossfaded = next.map { $0.fadeIn > 0 && offset + $0.recordStart + $0.before == cutOut } ?? false
            if piece.fadeOut > 0, !crossfaded {
                items.append(.transition(EditTransition(kind: .dissolve, before: time(piece.fadeOut - piece.after), after: time(piece.after))))
            }
        }
        return items
    }
}

extension TimelineSound.Piece {
    /// The piece as heard within record frames `record`: itself when its cuts lie within; else cut
    /// there (no fade or handle on a side cut); nil when it plays none of them.
    func cut(to record: Range<Int64>, rate: Rational) -> Self? {
        let cutIn = recordStart + before, cutOut = recordStart + recordFrames - after
        let heardIn = max(cutIn, record.lowerBound), heardOut = min(cutOut, record.upperBound)
        guard heardIn < heardOut else { return nil }
        var piece = self
        if heardIn > cutIn {
            piece.fileStart += Double(heardIn - recordStart) / rate.value * (tempo ?? 1)
            piece.recordStart = heardIn
            piece.before = 0
            piece.fadeIn = 0
        }
        if heardOut < cutOut {
            piece.after = 0
            piece.fadeOut = 0
            piece.recordFrames = heardOut - piece.recordStart
        } else {
            piece.recordFrames = recordStart + recordFrames - piece.recordStart
        }
        return piece
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
                if let channel = sound.channel { segue["channel"] = ["source": channel.source, "side": channel.side.rawValue] }
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
