import Foundation
import SegueCore

extension XMEMLWriter {
    /// How many channels each sound stream of `media` has, in order (the
    /// facts carry one stream today; each stream gets tracks of its own).
    static func streams(of media: EditMedia) -> [Int] {
        media.facts?.soundChannels.map { [$0] } ?? []
    }

    /// V1's clips' own sound, linked to their pictures: each stream on a
    /// track pair of its own, as Premiere writes a stereo clip (an exploded
    /// pair: one clip item per channel, `sourcetrack` 1 on the left track, 2 on
    /// the right; a mono stream's one channel on both); one track playing
    /// every channel when the output is mono.
    mutating func clipSoundTracks(of items: [EditItem]) -> [XMEMLTrack] {
        let clips = items.compactMap { item -> EditClip? in
            if case .clip(let clip) = item, clip.media.location != nil { return clip }
            return nil
        }
        for clip in clips where (Self.streams(of: clip.media).max() ?? 0) > 2 {
            let name = clip.name ?? clip.media.location ?? ""
            warnings.append("xmeml export: clip '\(name)' has \(Self.streams(of: clip.media).max() ?? 0) sound channels; its first two are written")
        }
        let groups = clips.map { Self.streams(of: $0.media).count }.max() ?? 0
        let sides: [Int?] = (timeline.format?.channels ?? 2) >= 2 ? [1, 2] : [nil]
        var tracks: [XMEMLTrack] = []
        for group in 0..<groups {
            for (index, side) in sides.enumerated() {
                let lane = Self.soundLane(items, group: group, side: side, rate: timeline.rate)
                var track = XMEMLTrack(entries: layout.soundTrack(lane.items, owners: lane.owners, channel: nil))
                if sides.count == 2 {
                    track.attributes = [("currentExplodedTrackIndex", String(index)), ("totalExplodedTrackCount", "2"),
                                        ("premiereTrackType", "Stereo")]
                    track.outputChannel = side
                }
                tracks.append(track)
            }
        }
        return tracks
    }

    /// One track of V1's sound: each clip's stream `group` playing channel
    /// `side` (its last when it has fewer; every channel when nil), silence
    /// for a clip without it, the picture's transitions between; each clip
    /// owned by its ordinal among V1's clips.
    private static func soundLane(_ items: [EditItem], group: Int, side: Int?, rate: Rational) -> (items: [EditAudioItem], owners: [Int?]) {
        var lane: [EditAudioItem] = [], owners: [Int?] = [], ordinal = 0
        for item in items {
            switch item {
            case .clip(let clip) where clip.media.location != nil:
                let streams = streams(of: clip.media)
                if streams.indices.contains(group) {
                    let before = streams.prefix(group).reduce(0, +)
                    let channel = side.map { EditAudioChannel(source: before + min($0, streams[group]), side: .both) }
                    lane.append(.clip(EditAudioClip(clip: clip, withPicture: true, channel: channel)))
                    owners.append(ordinal)
                } else {
                    lane.append(.gap(clip.source.duration))
                    owners.append(nil)
                }
                ordinal += 1
            case .transition(let transition):
                lane.append(.transition(transition))
                owners.append(nil)
            default:
                lane.append(.gap(EditTime(value: Double(item.length(at: rate)), rate: rate.value)))
                owners.append(nil)
            }
        }
        return (lane, owners)
    }

    /// The timeline's own sound tracks: each clip at its level, on the channel it plays; a track's
    /// `outputchannelindex` when all its routed clips go to one side.
    mutating func timelineSoundTracks() -> [XMEMLTrack] {
        timeline.audioTracks.enumerated().map { number, track in
            var written = XMEMLTrack(entries: layout.soundTrack(track.items, owners: [], channel: nil))
            let sides = Set(track.items.compactMap { item -> EditAudioChannel.Side? in
                if case .clip(let sound) = item { return sound.channel?.side }
                return nil
            })
            switch sides {
            case [.left]: written.outputChannel = 1
            case [.right]: written.outputChannel = 2
            case [], [.both]: break
            default:
                warnings.append("xmeml export: sound track \(track.name ?? String(number + 1)) routes its clips to different sides; "
                                + "odd channels are read as left and even as right")
            }
            return written
        }
    }

    /// The music bed as a track of its own: its clips at their level, faded in and out; ducking can't be said.
    mutating func musicTrack() -> [XMEMLTrack] {
        guard let music = timeline.music else { return [] }
        let rate = timeline.rate.value
        let fadeIn = EditTime(value: (music.fadeIn * rate).rounded(), rate: rate)
        let fadeOut = EditTime(value: (music.fadeOut * rate).rounded(), rate: rate)
        let zero = EditTime(value: 0, rate: rate)
        let items = [.transition(EditTransition(kind: .dissolve, before: zero, after: fadeIn))] + music.track.items
            + [.transition(EditTransition(kind: .dissolve, before: fadeOut, after: zero))]
        if music.duck > 0, timeline.clipSound || !timeline.audioTracks.isEmpty {
            warnings.append("xmeml export: the music bed's ducking (\(XMLNode.decimal(music.duck)) dB under clip sound) is not written: "
                            + "it plays at its level throughout")
        }
        return [XMEMLTrack(entries: layout.soundTrack(items, owners: [], channel: nil))]
    }

    /// Links each V1 clip item with its sound's clip items: every member lists the whole group, itself too.
    static func link(_ video: inout XMEMLTrack, _ sound: inout [XMEMLTrack]) {
        var groups: [Int: [XMEMLLink]] = [:]
        let pictures = members(of: video, sound: false)
        for member in pictures {
            groups[member.key, default: []].append(XMEMLLink(id: member.id, sound: false, track: 1, clipIndex: member.clipIndex))
        }
        let sounds = sound.map { members(of: $0, sound: true) }
        for (number, list) in sounds.enumerated() {
            for member in list {
                groups[member.key, default: []].append(XMEMLLink(id: member.id, sound: true, track: number + 1, clipIndex: member.clipIndex))
            }
        }
        func assign(_ track: inout XMEMLTrack, _ list: [(entry: Int, clipIndex: Int, key: Int, id: String)]) {
            for member in list {
                guard let group = groups[member.key], group.count > 1, case .clip(var clip) = track.entries[member.entry] else { continue }
                clip.links = group
                track.entries[member.entry] = .clip(clip)
            }
        }
        assign(&video, pictures)
        for index in sound.indices { assign(&sound[index], sounds[index]) }
    }

    /// A track's clip items with their entry index, `clipindex` (clip and generator items counted from 1) and
    /// group key: a picture's ordinal among the track's clips, a sound's owner.
    private static func members(of track: XMEMLTrack, sound: Bool) -> [(entry: Int, clipIndex: Int, key: Int, id: String)] {
        var found: [(entry: Int, clipIndex: Int, key: Int, id: String)] = [], items = 0, clips = 0
        for (index, entry) in track.entries.enumerated() where entry.isItem {
            items += 1
            guard case .clip(let clip) = entry else { continue }
            if let key = sound ? clip.owner : clips { found.append((index, items, key, clip.id)) }
            clips += 1
        }
        return found
    }
}
