import Foundation
import SegueCore

extension MLTWriter {
    /// Titles and captions on a track above the picture: each a transparent
    /// colour producer with Shotcut's simple text filter (cards centred, captions at the bottom).
    mutating func addTitles() {
        guard !timeline.titles.isEmpty else { return }
        var children: [XMLNode] = []
        var cursor: Int64 = 0
        for title in timeline.titles.sorted(by: { $0.start < $1.start }) where title.frames > 0 {
            if title.start > cursor { children.append(XMLNode("blank", [("length", "\(title.start - cursor)")])) }
            let start = max(title.start, cursor)
            let id = "title\(producers.count)"
            producers.append(XMLNode("producer", [("id", id)], children: [
                Self.property("length", "\(Int64(Int32.max))"), Self.property("resource", "#00000000"), Self.property("mlt_service", "color"),
                XMLNode("filter", children: [
                    Self.property("mlt_service", "dynamictext"), Self.property("argument", title.text),
                    Self.property("geometry", "0 0 \(timeline.format?.width ?? 1920) \(timeline.format?.height ?? 1080) 1"),
                    Self.property("family", "DejaVu Sans"), Self.property("fgcolour", "#ffffffff"), Self.property("bgcolour", "#00000000"),
                    Self.property("olcolour", "#aa000000"), Self.property("outline", "2"), Self.property("halign", "center"),
                    Self.property("valign", title.kind == .card ? "middle" : "bottom"),
                ]),
            ]))
            children.append(XMLNode("entry", [("producer", id), ("in", "0"), ("out", "\(title.start + title.frames - start - 1)")]))
            cursor = title.start + title.frames
        }
        playlists.append((XMLNode("playlist", [("id", "titles")], children: children), false))
    }

    /// A timeline's sound track as a sound-only playlist: each clip at its level, silence as blanks; its fades noted.
    mutating func addSoundTrack(_ track: EditAudioTrack, id: String) {
        var children: [XMLNode] = []
        var fades = 0
        for item in track.items {
            switch item {
            case .clip(let sound):
                guard let first = try? span(of: sound.clip).first, let location = sound.clip.media.location else { continue }
                children.append(soundEntry(location, first: first, frames: frames(sound.clip.source.duration), level: sound.level,
                                           speed: sound.clip.speed))
            case .gap(let duration): children.append(XMLNode("blank", [("length", "\(frames(duration))")]))
            case .transition: fades += 1
            }
        }
        if fades > 0 { warnings.append("MLT export: sound track \(track.name ?? id): \(fades) fade(s) are written as cuts") }
        if track.items.contains(where: { if case .clip(let clip) = $0 { return clip.channel != nil } else { return false } }) {
            warnings.append("MLT export: sound track \(track.name ?? id): its channel routing is not written (each clip plays all its channels)")
        }
        playlists.append((XMLNode("playlist", [("id", id)], children: children), true))
    }

    /// The music bed as a sound-only playlist at its level, faded in and out over the output (ducking is not written).
    mutating func addMusic(_ music: EditMusicBed) {
        var children: [XMLNode] = []
        let total = music.track.items.reduce(Int64(0)) { sum, item in
            if case .clip(let sound) = item { return sum + frames(sound.clip.source.duration) }
            return sum
        }
        var played: Int64 = 0
        for case .clip(let sound) in music.track.items {
            guard let location = sound.clip.media.location else { continue }
            let length = frames(sound.clip.source.duration)
            var entry = soundEntry(location, first: 0, frames: length, level: sound.level, speed: nil)
            entry.children += fadeFilters(music, at: played, of: length, total: total)
            children.append(entry)
            played += length
        }
        if music.duck > 0 { warnings.append("MLT export: the music bed's ducking (\(Plan.decimal(music.duck)) dB under clip sound) is not written") }
        playlists.append((XMLNode("playlist", [("id", "music")], children: children), true))
    }

    /// The bed's fade in over its first `fadeIn` seconds and out over its last `fadeOut`, on the entries holding them.
    private func fadeFilters(_ music: EditMusicBed, at start: Int64, of length: Int64, total: Int64) -> [XMLNode] {
        var filters: [XMLNode] = []
        let fadeIn = Int64((music.fadeIn * rate.value).rounded()), fadeOut = Int64((music.fadeOut * rate.value).rounded())
        if start < fadeIn {
            filters.append(XMLNode("filter", children: [
                Self.property("mlt_service", "volume"), Self.property("level", "0=-60;\(min(fadeIn - start, length) - 1)=0"),
            ]))
        }
        if start + length > total - fadeOut {
            let from = max(total - fadeOut - start, 0)
            filters.append(XMLNode("filter", children: [
                Self.property("mlt_service", "volume"), Self.property("level", "\(from)=0;\(length - 1)=-60"),
            ]))
        }
        return filters
    }

    /// An entry of a sound-only producer of its own (its level a volume filter).
    private mutating func soundEntry(_ location: String, first: Int64, frames length: Int64, level: Double, speed: PlaybackSpeed?) -> XMLNode {
        let id = "sound\(producers.count)"
        var properties = [Self.property("length", "\(Int64(Int32.max))"), Self.property("resource", location),
                          Self.property("mlt_service", "avformat"), Self.property("video_index", "-1")]
        if let speed, speed.rate.value != 1 {
            properties = [Self.property("length", "\(Int64(Int32.max))"), Self.property("resource", "\(Plan.decimal(speed.rate.value)):\(location)"),
                          Self.property("mlt_service", "timewarp"), Self.property("video_index", "-1")]
        }
        if level != 0 { properties.append(XMLNode("filter", children: [Self.property("mlt_service", "volume"), Self.property("level", Plan.decimal(level))])) }
        producers.append(XMLNode("producer", [("id", id)], children: properties))
        return XMLNode("entry", [("producer", id), ("in", "\(first)"), ("out", "\(first + length - 1)")])
    }
}
