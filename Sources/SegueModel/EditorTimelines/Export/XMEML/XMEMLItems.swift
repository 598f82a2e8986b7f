import Foundation
import SegueCore

/// The elements of laid-out tracks, as Premiere writes them: clip items with
/// their file, channel, filters and links; transition items; generators.
struct XMEMLItems {
    let rate: XMEMLRate
    var files: XMEMLFiles

    /// A `<track>`: its items, enabled and unlocked; an exploded pair's attributes and output channel.
    mutating func track(_ track: XMEMLTrack, sound: Bool) -> XMLNode {
        var children = track.entries.map { entry -> XMLNode in
            switch entry {
            case .clip(let clip): return self.clip(clip, sound: sound)
            case .transition(let transition): return self.transition(transition)
            case .generator(let generator): return self.generator(generator)
            }
        }
        children += [.leaf("enabled", track.enabled ? "TRUE" : "FALSE"), .leaf("locked", "FALSE")]
        if let output = track.outputChannel { children.append(.leaf("outputchannelindex", String(output))) }
        return XMLNode("track", track.attributes, children: children)
    }

    /// A `<clipitem>`: `in` and `out` its source frames at the sequence rate
    /// from the media's start timecode (`out` past the last frame a speed
    /// change reaches), the medium's length as its `duration`.
    mutating func clip(_ clip: XMEMLClip, sound: Bool) -> XMLNode {
        let length = clip.end - clip.start
        let first = clip.source - files.origin(of: clip.media)
        let used = clip.speed.map { $0.isFreeze ? 1 : $0.sourceFrames(for: length) } ?? length
        let name = clip.name ?? clip.media.clipName ?? clip.media.location.map { ($0 as NSString).lastPathComponent } ?? ""
        var children: [XMLNode] = [
            .leaf("name", name), .leaf("enabled", "TRUE"), .leaf("duration", String(files.frames(of: clip.media) ?? first + used)), rate.node,
            .leaf("start", String(clip.start)), .leaf("end", String(clip.end)), .leaf("in", String(first)), .leaf("out", String(first + used)),
            files.node(for: clip.media),
        ]
        if sound, let channel = clip.channel {
            children.append(XMLNode("sourcetrack", children: [.leaf("mediatype", "audio"), .leaf("trackindex", String(channel))]))
        }
        if let speed = clip.speed { children.append(XMEMLFilters.timeRemap(speed, sound: sound)) }
        if let layout = clip.layout, !sound { children += XMEMLFilters.layout(layout) }
        if sound, clip.level != 0 { children.append(XMEMLFilters.levels(clip.level)) }
        children += clip.links.map { link in
            var parts: [XMLNode] = [.leaf("linkclipref", link.id), .leaf("mediatype", link.sound ? "audio" : "video"),
                                    .leaf("trackindex", String(link.track)), .leaf("clipindex", String(link.clipIndex))]
            if link.sound { parts.append(.leaf("groupindex", "1")) }
            return XMLNode("link", children: parts)
        }
        return XMLNode("clipitem", [("id", clip.id)], children: children)
    }

    /// A `<transitionitem>`: Cross Dissolve on a picture track, Cross Fade (+3dB) on a sound track.
    func transition(_ transition: XMEMLTransition) -> XMLNode {
        let effect: [XMLNode]
        if transition.sound {
            effect = [.leaf("name", "Cross Fade (+3dB)"), .leaf("effectid", "KGAudioTransCrossFade3dB"), .leaf("effectcategory", "Crossfade"),
                      .leaf("effecttype", "transition"), .leaf("mediatype", "audio")]
        } else {
            effect = [.leaf("name", "Cross Dissolve"), .leaf("effectid", "Cross Dissolve"), .leaf("effectcategory", "Dissolve"),
                      .leaf("effecttype", "transition"), .leaf("mediatype", "video"), .leaf("wipecode", "0"), .leaf("wipeaccuracy", "100"),
                      .leaf("startratio", "0"), .leaf("endratio", "1"), .leaf("reverse", "FALSE")]
        }
        return XMLNode("transitionitem", children: [
            .leaf("start", String(transition.start)), .leaf("end", String(transition.end)), .leaf("alignment", transition.alignment),
            rate.node, XMLNode("effect", children: effect),
        ])
    }

    /// A `<generatoritem>`: FCP's Slug, Color (its `fillcolor`), Bars and Tone, or Text (its `str`).
    func generator(_ generator: XMEMLGenerator) -> XMLNode {
        let length = generator.end - generator.start
        let (name, category, parameters): (String, String, [XMLNode])
        switch generator.look {
        case .slug: (name, category, parameters) = ("Slug", "Matte", [])
        case .bars: (name, category, parameters) = ("Bars and Tone", "Matte", [])
        case .colour(let colour): (name, category, parameters) = ("Color", "Matte", [Self.colourParameter(colour)])
        case .text(let text):
            (name, category, parameters) = ("Text", "Text", [XMLNode("parameter", children: [
                .leaf("parameterid", "str"), .leaf("name", "Text"), .leaf("value", text),
            ])])
        }
        let effect = XMLNode("effect", children: [.leaf("name", name), .leaf("effectid", name), .leaf("effectcategory", category),
                                                  .leaf("effecttype", "generator"), .leaf("mediatype", "video")] + parameters)
        return XMLNode("generatoritem", [("id", generator.id)], children: [
            .leaf("name", name), .leaf("enabled", "TRUE"), .leaf("duration", String(length)), rate.node,
            .leaf("start", String(generator.start)), .leaf("end", String(generator.end)), .leaf("in", "0"), .leaf("out", String(length)),
            effect,
        ])
    }

    /// `#RRGGBB` as a Color generator's `fillcolor` (0 to 255 a channel).
    private static func colourParameter(_ colour: String) -> XMLNode {
        let hex = colour.hasPrefix("#") ? String(colour.dropFirst()) : colour
        let value = Int(hex, radix: 16) ?? 0
        let channels = [("red", value >> 16 & 0xFF), ("green", value >> 8 & 0xFF), ("blue", value & 0xFF)]
        return XMLNode("parameter", children: [
            .leaf("parameterid", "fillcolor"), .leaf("name", "Color"),
            XMLNode("value", children: [.leaf("alpha", "255")] + channels.map { .leaf($0.0, String($0.1)) }),
        ])
    }
}
