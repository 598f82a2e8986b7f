import Foundation
import SegueCore

/// Reads an xmeml sequence's `<audio>` tracks as its video tracks are read
/// (`XMLTrackReading`): clip items, transition items (crossfades), holes as
/// silence, a clip item holding a `<sequence>` as that sequence's sound
/// (flattened into the tracks by `EditAudioTrack.flattened`); each clip
/// item's Audio Levels filter gives its constant level.
struct XMLAudioReading {
    typealias Element = ParsedXMLElement
    var tracks: [EditAudioTrack] = []
    var notes: [String] = []

    /// `path`: the ids of the sequences being read (a nested one among them is a loop).
    init(reader: FCP7XMLReader, audio: Element, context: FCP7XMLReader.Context, rate: Rational, path: [String] = []) throws {
        let list = audio.children("track").map(reader.deref)
        guard list.count <= EditAudioTrack.mostTracks else {
            throw EditTimelineError("\(list.count) audio tracks (at most \(EditAudioTrack.mostTracks) are mixed)")
        }
        var layers: [EditAudioLayer] = []
        for (index, track) in list.enumerated() {
            let label = "audio track \(index + 1)"
            if track.text("enabled")?.uppercased() == "FALSE" {
                notes.append("\(label): disabled, so not heard")
                continue
            }
            var reading = XMLTrackReading(reader: reader, track: track, context: context + [audio, track], sound: true, path: path)
            do {
                try reading.read()
            } catch let error as EditTimelineError {
                throw EditTimelineError("\(label): \(error.message)")
            }
            notes += reading.notes.map { "\(label): \($0)" }
            var levels = reading.levels.makeIterator(), channels = reading.channels.makeIterator()
            var nested = reading.nestedSounds.makeIterator()
            let pieces: [EditAudioLayer.Piece] = reading.items.map { item in
                switch item {
                case .clip(let clip): return .item(.clip(EditAudioClip(clip: clip, level: levels.next() ?? 0, channel: channels.next() ?? nil)))
                case .gap(let duration): return .item(.gap(duration))
                case .fill(let fill): return .item(.gap(fill.duration))
                case .transition(let transition): return .item(.transition(transition))
                case .nested(let sequence): return nested.next().map { .nested($0) } ?? .item(.gap(sequence.source.duration))
                }
            }
            layers.append(EditAudioLayer(name: "A\(index + 1)", pieces: pieces))
        }
        tracks = try EditAudioTrack.flattened(layers, rate: rate)
    }
}

extension AudioLevel {
    /// A clip item's level in dB from its Audio Levels filter's `level`
    /// parameter (a linear gain, 1 = 0 dB); keyframes are noted and the
    /// parameter's constant `value` kept (0 dB when it has none).
    static func xmeml(_ filters: [ParsedXMLElement], _ label: String, notes: inout [String]) throws -> Double {
        var level = 0.0
        for filter in filters {
            guard let effect = filter.child("effect"), isLevels(id: effect.text("effectid"), name: effect.text("name") ?? "") else { continue }
            if filter.text("enabled")?.uppercased() == "FALSE" { continue }
            for parameter in effect.children("parameter") where isLevelParameter(parameter.text("parameterid")) {
                if !parameter.children("keyframe").isEmpty { notes.append(keyframedNote(label)) }
                guard let text = parameter.text("value")?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
                guard text.count <= 40, let value = Double(text) else {
                    throw EditTimelineError("\(label): bad audio level '\(text.prefix(40))'")
                }
                level += try checked(linear: value, label)
            }
        }
        return try checked(decibels: level, label)
    }
}

extension XMLTrackReading {
    /// The one channel of its file a sound clip item plays (`sourcetrack/trackindex`) and its side: the
    /// track's `outputchannelindex` (Premiere's exploded stereo tracks), else odd channels left and even
    /// right for a file of two or more; nil when the item names no channel.
    func routedChannel(_ item: ParsedXMLElement, file: ParsedXMLElement, _ label: String) throws -> EditAudioChannel? {
        guard let text = item.text("sourcetrack/trackindex") else { return nil }
        guard let source = Int(text.trimmingCharacters(in: .whitespaces)), (1...EditAudioChannel.mostChannels).contains(source) else {
            throw EditTimelineError("\(label): sourcetrack trackindex '\(text)' is not a channel from 1 to \(EditAudioChannel.mostChannels)")
        }
        let output = track.text("outputchannelindex").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let fileChannels = file.text("media/audio/channelcount").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if output == nil, fileChannels < 2 { return EditAudioChannel(source: source, side: .both) }
        return EditAudioChannel(source: source, outputChannel: output)
    }
}
