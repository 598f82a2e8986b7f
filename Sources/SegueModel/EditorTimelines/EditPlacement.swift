import SegueCore

/// Where a clip of an editor's timeline takes its frames: its source range,
/// counted from the media's start timecode, and the record frames it plays
/// beyond that range for the transitions either side (a centred transition
/// takes them from the media's handles). `ClipInfo.place` turns it into an in
/// point and a duration once the media is probed.
package struct EditPlacement: Sendable, Equatable {
    /// The clip's name in the editor, for messages.
    package var name: String
    /// The frames the timeline names, in the media's timecode.
    package var source: EditRange
    /// The timeline's rate, which `before`, `after` and the clip's length count at.
    package var recordRate: Rational
    /// Record frames played before the source range (the transition into the clip).
    package var before: Int64
    /// Record frames played after it (the transition out of the clip).
    package var after: Int64
    /// A constant speed change or freeze frame: `source.duration` is then the record length.
    package var speed: PlaybackSpeed?

    package init(name: String, source: EditRange, recordRate: Rational, before: Int64 = 0, after: Int64 = 0, speed: PlaybackSpeed? = nil) {
        self.name = name
        self.source = source
        self.recordRate = recordRate
        self.before = before
        self.after = after
        self.speed = speed.flatMap { $0.rate.numerator == $0.rate.denominator ? nil : $0 }
    }

    /// Record frames the clip plays: its source range and both extensions.
    package var recordFrames: Int64 { source.duration.frameCount(at: recordRate) + before + after }
}

/// A clip placed from an editor's timeline, as the plan and the export need
/// it: its name, the record frames it plays beyond its source range for the
/// transitions either side, and those of its frames the media lacks (its
/// first picture held for `heldBefore`, its last for `heldAfter`, in silence).
package struct EditedClip: Sendable, Equatable, Codable {
    package var name: String
    package var before: Int64
    package var after: Int64
    package var heldBefore: Int64 = 0
    package var heldAfter: Int64 = 0

    /// Whether any frame is a held edge picture.
    package var isHeld: Bool { heldBefore + heldAfter > 0 }
}

extension EditTime {
    /// Frames at `rate`: the value itself when it counts at the same nominal
    /// rate (timecode counts 23.976 material at 24), else converted by seconds.
    package func frameCount(at rate: Rational) -> Int64 {
        if self.rate.rounded() == rate.value.rounded(), abs(self.rate - rate.value) < 0.1 { return Int64(value.rounded()) }
        return frames(at: rate)
    }
}

extension ClipInfo {
    /// Uses the frames `placement` names. Source times count from the start
    /// timecode (0 without one); the in point may fall before the media's
    /// first picture and the end after its last, those frames held
    /// (`edited`). In points land exactly on a source frame's time, so the
    /// frame-rate filter's rounding (half a frame either way) can't pick a
    /// neighbour. Throws when the source range itself misses the media.
    package mutating func place(_ placement: EditPlacement) throws {
        let mediaRate = facts.frameRate
        let origin = facts.startTimecode.map { code in
            code.rate.value.rounded() == mediaRate.value.rounded() ? code.frames : Int64((code.seconds * mediaRate.value).rounded())
        } ?? 0
        func mediaFrames(_ recordFrames: Int64) -> Int64 {
            EditTime(value: Double(recordFrames), rate: placement.recordRate.value).frameCount(at: mediaRate)
        }
        func recordFrames(_ media: Int64) -> Int64 {
            EditTime(value: Double(media), rate: mediaRate.value).frameCount(at: placement.recordRate)
        }
        let start = placement.source.start.frameCount(at: mediaRate) - origin
        let recordLength = placement.source.duration.frameCount(at: placement.recordRate)
        // Record frames played before the range and in all, as plain frames of the media (a speed change scales them).
        let speed = placement.speed.map { $0.placingHandles(before: placement.before) }
        let lead = speed?.frames ?? placement.before
        let body = speed.map { mediaFrames($0.speed.sourceFrames(for: placement.before + recordLength) - $0.frames) }
            ?? placement.source.duration.frameCount(at: mediaRate)
        let available = Int64((facts.timing.pictureDuration * mediaRate.value).rounded())
        guard start < available, start + max(body, 1) > 0 else {
            throw BadInputReason.outsideMedia(clip: placement.name, start: Double(start) / mediaRate.value,
                                              end: Double(start + body) / mediaRate.value, length: facts.timing.pictureDuration)
        }
        let first = start - mediaFrames(lead)
        let last = speed.map { first + mediaFrames($0.speed.sourceFrames(for: placement.recordFrames)) }
            ?? start + body + mediaFrames(placement.after)
        use.inPoint = Double(first) / mediaRate.value
        use.duration = Double(placement.recordFrames) / placement.recordRate.value
        use.speed = speed?.speed
        // Output frames showing plain frames the media lacks: before its first, from its last on.
        let missingBefore = recordFrames(max(0, -first)), presentEnd = recordFrames(available - first)
        let heldBefore = speed.map { $0.speed.firstFrame(showing: missingBefore) ?? placement.recordFrames } ?? missingBefore
        let heldAfter = speed.map { placement.recordFrames - ($0.speed.firstFrame(showing: presentEnd) ?? placement.recordFrames) }
            ?? recordFrames(max(0, last - available))
        use.edited = EditedClip(name: placement.name, before: placement.before, after: placement.after,
                            heldBefore: min(max(heldBefore, 0), placement.recordFrames), heldAfter: max(heldAfter, 0))
    }
}
