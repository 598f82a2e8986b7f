import SegueCore

/// Where an entry of an editor's timeline stands under the timeline's own
/// sound: which of the list's timeline sounds plays under it, its place
/// among the timeline's entries, and the record frame (at the sound's rate)
/// its first frame shows at.
package struct SoundPlace: Sendable, Equatable, Codable {
    package var track: Int
    package var entry: Int
    package var recordFrame: Int64

    package init(track: Int, entry: Int, recordFrame: Int64) {
        self.track = track
        self.entry = entry
        self.recordFrame = recordFrame
    }
}

/// A timeline's own sound as a track of the plan: heard instead of its
/// clips' own sound, in stretches of output frames, each playing the record
/// time its clips showed at in the timeline. Clips that follow one another
/// in the timeline make one stretch; a clip left out (`--skip-bad`) takes
/// its stretch of the sound with it, so every clip keeps the sound it had.
package struct PlannedSound: Sendable, Equatable {
    package var sound: TimelineSound
    /// The clips (by index in the plan) whose own sound it replaces.
    package var clips: [Int]
    package var stretches: [Stretch]

    package struct Stretch: Sendable, Equatable {
        package var frames: Range<Int>
        /// The output sample at which the timeline's record frame 0 starts, for this stretch.
        package var origin: Int
    }

    /// Whether output frame `frame` hears it.
    package func covers(frame: Int) -> Bool { stretches.contains { $0.frames.contains(frame) } }

    /// The sound laid out under `clips` (each with its place, nil for a clip of no timeline sound or another).
    init(_ sound: TimelineSound, track: Int, clips: [PlannedClip], places: [SoundPlace?], canvas: Canvas) {
        self.sound = sound
        let members = clips.filter { places[$0.index]?.track == track }
        self.clips = members.map(\.index)
        var stretches: [Stretch] = []
        var previous: (clip: Int, entry: Int)?
        for clip in members {
            guard let place = places[clip.index] else { continue }
            let end = clip.startFrame + clip.frameCount
            if let previous, previous.clip + 1 == clip.index, previous.entry + 1 == place.entry, let last = stretches.last {
                // The next entry of the timeline, next in the plan too: the stretch runs on under it.
                stretches[stretches.count - 1].frames = last.frames.lowerBound..<max(end, last.frames.upperBound)
            } else {
                // A join into it from a clip before is that clip's: its stretch starts after it.
                let start = max(clip.startFrame, stretches.last?.frames.upperBound ?? clip.startFrame)
                let origin = canvas.sampleIndex(atFrame: clip.startFrame)
                    - sound.sample(atRecordFrame: place.recordFrame, origin: 0, sampleRate: canvas.sampleRate)
                if start < end { stretches.append(Stretch(frames: start..<end, origin: origin)) }
            }
            previous = (clip.index, place.entry)
        }
        self.stretches = stretches
    }
}

extension Plan {
    /// Whether clip `index`'s own sound is replaced by its timeline's (so `--smart` never copies it).
    package func soundIsTimelines(clipIndex index: Int) -> Bool {
        soundTracks.contains { $0.clips.contains(index) }
    }
}
