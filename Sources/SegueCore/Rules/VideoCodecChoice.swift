/// The output's video codec: the one choice the command line, manifests,
/// settings, the encoder and smart render share.
package enum VideoCodecChoice: String, Sendable, CaseIterable {
    case h264, hevc, av1

    /// Whether its stream can carry 10-bit BT.2100 HDR (HEVC Main 10, AV1 Main).
    package var carriesHDR: Bool { self != .h264 }

    /// Bits per sample its output uses for SDR: AV1 is 10-bit whatever the range
    /// (Main profile, the same cost, no banding); H.264 and HEVC stay 8-bit.
    package var sdrBitDepth: Int { self == .av1 ? 10 : 8 }

    /// The SVT-AV1 preset (13 fastest ... 0 slowest) for an x264/x265 preset name.
    package static func svtPreset(for name: String) -> Int {
        let presets = ["ultrafast": 12, "superfast": 11, "veryfast": 10, "faster": 9, "fast": 8,
                       "medium": 7, "slow": 6, "slower": 5, "veryslow": 4, "placebo": 2]
        return presets[name] ?? 7
    }
}
