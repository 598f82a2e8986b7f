import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// A sound medium's facts an editor's sound clip needs: whether it has
/// sound, how long it runs, and where its source times count from.
struct SoundMedium {
    var hasSound: Bool
    /// Seconds of sound, when known.
    var seconds: Double?
    /// Its picture's rate (nil for a sound-only file): timecode counts frames at it.
    var frameRate: Rational?
    var startTimecode: StartTimecode?

    /// Probes `path`: as a clip when it has a picture, else its sound stream
    /// alone; throws what kept it from being opened (an input root's refusal, the network, no media).
    static func probe(_ path: String, access: InputAccess, recordRate: Rational) throws -> SoundMedium {
        if case .success(let info) = Prober.probe(path, access: access), !info.facts.isStill {
            let facts = info.facts
            return SoundMedium(hasSound: facts.audio != nil, seconds: facts.timing.soundDuration ?? facts.timing.sourceDuration,
                               frameRate: facts.frameRate, startTimecode: facts.startTimecode)
        }
        let demuxer = try access.openDemuxer(try access.readablePath(for: path))
        guard let index = demuxer.bestStream(.audio), demuxer.streams[index].kind == .audio else {
            return SoundMedium(hasSound: false)
        }
        let timecode = demuxer.timecode.flatMap { StartTimecode(text: $0, rate: recordRate) }
        return SoundMedium(hasSound: true, seconds: demuxer.streams[index].duration ?? demuxer.duration, startTimecode: timecode)
    }

    /// `probe`, its failure the timeline's bad input, naming the clip (`label`) and saying what kept it from being opened.
    static func opened(_ path: String, access: InputAccess, recordRate: Rational, label: String) throws -> SoundMedium {
        do {
            return try probe(path, access: access, recordRate: recordRate)
        } catch {
            throw BadInputReason.badList("\(label): \(path) can't be opened as media (\(describe(error, path: path)))")
        }
    }

    /// What kept `path` from being opened, without the path the message names already.
    static func describe(_ error: Error, path: String) -> String {
        if let error = error as? SegueError, !error.detail.isEmpty { return error.detail }
        return "\(error)"
    }

    /// Seconds into the file of source time `time` (counted from the start timecode), as a picture's in point is found.
    func fileSeconds(of time: EditTime, recordRate: Rational) -> Double {
        let rate = frameRate ?? recordRate
        let origin = startTimecode.map { code in
            code.rate.value.rounded() == rate.value.rounded() ? code.frames : Int64((code.seconds * rate.value).rounded())
        } ?? 0
        return Double(time.frameCount(at: rate) - origin) / rate.value
    }
}

extension EditTimelineResolver {
    /// The timeline's sound tracks resolved: each sound clip's medium found
    /// and probed, and where its sound starts in the file. Refuses (naming
    /// the item) a clip whose source range misses its medium's sound, or
    /// whose medium has no sound unless it is also the picture (then
    /// silence, with a note); a range partly past the sound plays silence
    /// there, with a note.
    func sound(of timeline: EditTimeline, notices: inout [Warning]) throws -> TimelineSound {
        let rate = timeline.rate
        var media: [String: SoundMedium] = [:]
        var tracks: [TimelineSound.Track] = []
        for (number, track) in timeline.audioTracks.enumerated() {
            let placed: [PlacedAudioClip]
            do { placed = try track.placed(at: rate) } catch let error as EditTimelineError { throw BadInputReason.badList(error.message) }
            var pieces: [TimelineSound.Piece] = []
            for clip in placed {
                pieces.append(try piece(clip, track: track, number: number, rate: rate, media: &media, notices: &notices))
            }
            tracks.append(TimelineSound.Track(name: track.name, pieces: pieces))
        }
        notices += Self.pastThePicture(tracks, timeline).map { Warning.timelineNote(path: timelinePath, note: $0) }
        if tracks.allSatisfy({ $0.pieces.isEmpty }) {
            notices.append(.timelineNote(path: timelinePath, note: "its sound tracks hold no clip: the output is silent "
                                         + "(the clips' own sound plays only for a timeline without sound tracks)"))
        }
        return TimelineSound(rate: rate, tracks: tracks)
    }

    /// One sound clip resolved: its medium found and probed (once per file, `media`), where its sound starts in the file.
    private func piece(_ clip: PlacedAudioClip, track: EditAudioTrack, number: Int, rate: Rational, media: inout [String: SoundMedium],
                       notices: inout [Warning]) throws -> TimelineSound.Piece {
        let trackLabel = "audio track \(track.name ?? String(number + 1))"
        let source = clip.item.clip
        let name = [source.name, source.media.clipName].compactMap { $0 }.first { !$0.isEmpty } ?? "item \(clip.number)"
        let label = "\(trackLabel): clip \(clip.number) '\(name)'"
        // At another speed its sound is time-stretched, its pitch kept; a freeze frame's sound is silence.
        let tempo = source.speed.map(\.rate.value) ?? 1
        let stilled = source.speed.map { !$0.isAudible } ?? false
        if let speed = source.speed, !speed.isFreeze, !speed.isAudible {
            let range = PlaybackSpeed.audibleRange
            notices.append(.timelineNote(path: timelinePath, note: "\(label): played at \(speed.description), silent "
                                         + "(sound is kept from \(range.lowerBound)x to \(Int(range.upperBound))x)"))
        }
        let path: String
        do { path = try finder.locate(source.media, clipName: name) } catch BadInputReason.mediaNotFound(let shown, let named, let looked) {
            // Named as a sound clip: "clip 'M' on audio track 'A2': its media … is not found".
            let soundClip = "\(shown)' on audio track '\(track.name ?? String(number + 1))"
            throw BadInputReason.mediaNotFound(clip: soundClip, named: named, looked: looked)
        }
        let medium = try media[path] ?? SoundMedium.opened(path, access: finder.access, recordRate: rate, label: label)
        media[path] = medium
        let start = medium.fileSeconds(of: source.source.start, recordRate: rate)
        let length = Double(clip.recordFrames - clip.before - clip.after) / rate.value * tempo
        let lead = Double(clip.before) / rate.value * tempo, tail = Double(clip.after) / rate.value * tempo
        guard medium.hasSound || clip.item.withPicture else {
            throw BadInputReason.badList("\(label): its media \(path) has no sound")
        }
        if stilled {
            // Silent at this speed: its media's sound isn't read.
        } else if !medium.hasSound {
            notices.append(.timelineNote(path: timelinePath, note: "\(label): its media has no sound, so silent"))
        } else if let seconds = medium.seconds {
            guard start < seconds, start + length > 0 else {
                throw BadInputReason.badList(String(format: "\(label): its source range (%.3f to %.3f s from the media's start "
                                                    + "timecode) lies outside its media's %.3f s of sound", start, start + length, seconds))
            }
            let first = start - lead, last = start + length + tail
            if first < -0.0005 || last > seconds + 0.0005 {
                let note = String(format: "\(label): the timeline needs its sound from %.3f to %.3f s, but its media's runs "
                                         + "0 to %.3f s; silent beyond it", first, last, seconds)
                notices.append(.timelineNote(path: timelinePath, note: note))
            }
        }
        let mediaStart = -medium.fileSeconds(of: EditTime(value: 0, rate: rate.value), recordRate: rate)
        return TimelineSound.Piece(name: name, path: path, placed: clip, fileStart: start - lead, mediaStart: mediaStart,
                                    silent: !medium.hasSound || stilled, tempo: tempo == 1 || stilled ? nil : tempo)
    }

    /// Notes for sound tracks that run on past the picture track's end: the output is as long as its picture, so they are cut there.
    private static func pastThePicture(_ tracks: [TimelineSound.Track], _ timeline: EditTimeline) -> [String] {
        let picture = timeline.items.reduce(Int64(0)) { length, item in
            switch item {
            case .clip(let clip): return length + clip.source.duration.frameCount(at: timeline.rate)
            case .gap, .fill: return length + (item.blank?.frameCount(at: timeline.rate) ?? 0)
            case .nested(let nested): return length + nested.source.duration.frameCount(at: timeline.rate)
            case .transition: return length
            }
        }
        return tracks.enumerated().compactMap { number, track in
            let end = track.pieces.map { $0.recordStart + $0.recordFrames }.max() ?? 0
            guard end > picture else { return nil }
            return "audio track \(track.name ?? String(number + 1)) runs \(end - picture) frames past the picture's end, "
                + "where the output ends: not heard beyond it"
        }
    }
}
