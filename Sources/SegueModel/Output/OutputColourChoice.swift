import SegueCore

/// What `--hdr` asks of the output's dynamic range.
public enum HDRChoice: String, Sendable, CaseIterable, Codable {
    /// SDR BT.709: HDR clips are tone-mapped.
    case off
    /// 10-bit BT.2100 HLG, whatever the clips are.
    case hlg
    /// 10-bit BT.2100 PQ (HDR10), whatever the clips are.
    case pq
    /// HDR when a clip is HDR and the codec carries it, in the first HDR clip's transfer; SDR otherwise.
    case auto
}

/// The output's colour, decided once from `--hdr`, the codec and the clips,
/// with the reason the report gives and the notes the user should read.
struct OutputColourChoice {
    var colour: OutputColour
    /// The HDR10 metadata written into the stream; nil for SDR, or HLG whose clips state none.
    var metadata: HDRMetadata?
    /// Why the output has this range, as the report says it.
    var reason: String
    var notices: [Warning] = []

    /// A `.usage` error when `--hdr` asks for HDR from a codec that can't carry it.
    init(_ choice: HDRChoice, codec: VideoCodecChoice, clips: [ClipInfo]) throws {
        let moving = clips.filter { !$0.facts.isStill && $0.use.card == nil }
        let firstHDR = moving.first { $0.facts.dynamicRange.isHDR }
        let range: DynamicRange
        switch choice {
        case .hlg, .pq:
            guard codec.carriesHDR else {
                throw SegueError.usage("--hdr \(choice.rawValue) needs --codec hevc, av1 or vp9: \(codec.rawValue) output is SDR only")
            }
            range = choice == .hlg ? .hlg : .pq
            reason = "--hdr \(choice.rawValue)"
        case .off:
            range = .sdr
            reason = firstHDR == nil ? "--hdr off" : "--hdr off: HDR clips tone-mapped to SDR"
        case .auto:
            if let firstHDR, codec.carriesHDR {
                range = firstHDR.facts.dynamicRange
                reason = "\(firstHDR.path) is \(firstHDR.facts.dynamicRange.rawValue), the first HDR clip"
            } else if firstHDR != nil {
                range = .sdr
                reason = "\(codec.rawValue) output is SDR: HDR clips tone-mapped (--codec hevc, av1 or vp9 keeps HDR)"
            } else {
                range = .sdr
                reason = "no clip is HDR"
            }
        }
        colour = OutputColour(range, bitDepth: range.isHDR ? 10 : codec.sdrBitDepth)
        for clip in moving where clip.facts.dynamicRange.isHDR {
            if let primaries = clip.facts.colour.primaries, primaries != "bt2020" {
                notices.append(.hdrTagsContradict(path: clip.path, transfer: clip.facts.dynamicRange, primaries: primaries))
            }
            if range.isHDR, clip.facts.colour.bitDepth > 10 || !clip.facts.pixelFormat.hasPrefix("yuv420") {
                notices.append(.hdrPictureReduced(path: clip.path, pixelFormat: clip.facts.pixelFormat))
            }
        }
        guard range.isHDR else { return }
        var stated: HDRMetadata?
        var ignored = false
        // A display's metadata describes pictures of its own transfer: only those clips' is passed on.
        for clip in moving where clip.facts.dynamicRange == range {
            guard let metadata = clip.facts.hdrMetadata else { continue }
            if let problem = metadata.implausibility {
                notices.append(.hdrMetadataIgnored(path: clip.path, reason: problem))
                ignored = true
            } else if stated == nil {
                stated = metadata
                reason += "; HDR10 metadata from \(clip.path)"
            }
        }
        // PQ always states its mastering display (HDR10); HLG only passes on what a clip states.
        if stated == nil && range == .pq {
            stated = .typical
            reason += "; HDR10 metadata: BT.2408 defaults (1000 cd/m² display, MaxCLL 1000, MaxFALL 400), "
                + (ignored ? "no clip states any a display can trust" : "no clip states any")
        } else if stated == nil && ignored {
            reason += "; no HDR10 metadata: no clip states any a display can trust"
        }
        metadata = stated
    }
}
