import SegueCore

/// Where a clip's sound comes from: its asset (nil: it has none), the
/// element that names the asset (the clip, or an `audio` inside it, whose
/// `start` and `offset` then count the media's time), and the clip's timing.
struct FCPXMLSoundSource {
    var element: ParsedXMLElement
    var asset: ParsedXMLElement?
    var inner: ParsedXMLElement
    var map: FCPXMLTiming
    /// Whether the clip is also a picture (a medium without sound is then silence, not refused).
    var withPicture: Bool
}

extension FCPXMLReading {
    /// A clip's sound at its place (moved by `audioStart` less `start` for a
    /// J or L cut, `audioDuration` long), at its `adjust-volume` level.
    mutating func placeSound(_ source: FCPXMLSoundSource, _ label: String, start: Double, duration: Double, at spot: FCPXMLSpot,
                             into placements: inout FCPXMLPlacements) throws {
        guard let asset = source.asset else {
            placements.sounds.append(placed(.gap(time(duration)), duration, at: spot))
            return
        }
        let audioStart = try FCPXMLValues.seconds(source.element, "audioStart", label) ?? start
        let length = try FCPXMLValues.length(source.element, "audioDuration", label) ?? duration
        let split = abs(audioStart - start) > 1e-9 || abs(length - duration) > 1e-9
        if let speed = source.map.speed {
            soundNotes.append("\(label): played at \(speed.description); its sound isn't (silent)")
            placements.sounds.append(placed(.gap(time(duration)), duration, at: spot))
            return
        }
        let contained = source.inner.name != source.element.name
        var level = try volume(source.element, label)
        var media = source.map.map(audioStart)
        if contained {
            level = try AudioLevel.checked(decibels: level + volume(source.inner, label), label)
            media += (try FCPXMLValues.seconds(source.inner, "start", label) ?? 0) - (try FCPXMLValues.seconds(source.inner, "offset", label) ?? 0)
        }
        let clip = try makeClip(source.element, asset, source: media, length: length, label)
        if spot.top, spot.lane != 0 || level != 0 || !source.withPicture || split { soundTracksNeeded = true }
        var sound = placed(EditAudioItem.clip(EditAudioClip(clip: clip, level: level, withPicture: source.withPicture)), length, at: spot)
        sound.start = spot.position + (audioStart - start)
        if split {
            sound.join = nil
            placements.sounds.append(placed(.gap(time(duration)), duration, at: spot))
        }
        placements.sounds.append(sound)
    }

    /// An element's `adjust-volume` in dB (0 without one); keyframes are noted, its `amount` kept.
    mutating func volume(_ element: Element, _ label: String) throws -> Double {
        guard let adjust = element.child("adjust-volume") else { return 0 }
        if adjust.children("param").contains(where: { $0.child("keyframeAnimation") != nil }) { notes.append(AudioLevel.keyframedNote(label)) }
        return try FCPXMLValues.decibels(adjust, "amount", label) ?? 0
    }
}
