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

    package init(name: String, source: EditRange, recordRate: Rational, before: Int64 = 0, after: Int64 = 0) {
        self.name = name
        self.source = source
        self.recordRate = recordRate
        self.before = before
        self.after = after
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
        let mediaRate = frameRate
        let origin = startTimecode.map { code in
            code.rate.value.rounded() == mediaRate.value.rounded() ? code.frames : Int64((code.seconds * mediaRate.value).rounded())
        } ?? 0
        func mediaFrames(_ recordFrames: Int64) -> Int64 {
            EditTime(value: Double(recordFrames), rate: placement.recordRate.value).frameCount(at: mediaRate)
        }
        let start = placement.source.start.frameCount(at: mediaRate) - origin
        let length = placement.source.duration.frameCount(at: mediaRate)
        let available = Int64((pictureDuration * mediaRate.value).rounded())
        guard start < available, start + length > 0 else {
            throw BadInputReason.outsideMedia(clip: placement.name, start: Double(start) / mediaRate.value,
                                              end: Double(start + length) / mediaRate.value, length: pictureDuration)
        }
        let first = start - mediaFrames(placement.before)
        let last = start + length + mediaFrames(placement.after)
        inPoint = Double(first) / mediaRate.value
        duration = Double(placement.recordFrames) / placement.recordRate.value
        func recordFrames(_ media: Int64) -> Int64 {
            EditTime(value: Double(media), rate: mediaRate.value).frameCount(at: placement.recordRate)
        }
        edited = EditedClip(name: placement.name, before: placement.before, after: placement.after,
                            heldBefore: recordFrames(max(0, -first)), heldAfter: recordFrames(max(0, last - available)))
    }
}
