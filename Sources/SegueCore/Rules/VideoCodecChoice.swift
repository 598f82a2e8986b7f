/// The output's video codec: the one choice the command line, manifests,
/// settings, the encoder and smart render share.
public enum VideoCodecChoice: String, Sendable, CaseIterable {
    case h264, hevc, av1, vp9

    /// Whether its stream can carry 10-bit BT.2100 HDR (HEVC Main 10, AV1 Main, VP9 Profile 2).
    package var carriesHDR: Bool { self != .h264 }

    /// Bits per sample its output uses for SDR: AV1 is 10-bit whatever the range
    /// (Main profile, the same cost, no banding); H.264, HEVC and VP9 stay 8-bit
    /// (VP9 Profile 0, the one every browser decodes).
    package var sdrBitDepth: Int { self == .av1 ? 10 : 8 }

    /// Its name as people write it.
    package var displayName: String {
        switch self {
        case .h264: return "H.264"
        case .hevc: return "HEVC"
        case .av1: return "AV1"
        case .vp9: return "VP9"
        }
    }

    /// The SVT-AV1 preset (13 fastest ... 0 slowest) for an x264/x265 preset name.
    package static func svtPreset(for name: String) -> Int {
        let presets = ["ultrafast": 12, "superfast": 11, "veryfast": 10, "faster": 9, "fast": 8,
                       "medium": 7, "slow": 6, "slower": 5, "veryslow": 4, "placebo": 2]
        return presets[name] ?? 7
    }

    /// libvpx-vp9's deadline and `cpu-used` speed for an x264/x265 preset name:
    /// the four fastest are its realtime mode (speeds 8 to 5), the rest its
    /// good mode from speed 4 down to 0, placebo its best mode. (Good mode's
    /// speed 5 is no choice: in Debian's libvpx 1.12 it took twice speed 4's
    /// time here, with row-mt.)
    package static func vpxSpeed(for name: String) -> (deadline: String, cpuUsed: Int) {
        let speeds: [String: (String, Int)] = [
            "ultrafast": ("realtime", 8), "superfast": ("realtime", 7), "veryfast": ("realtime", 6),
            "faster": ("realtime", 5), "fast": ("good", 4), "medium": ("good", 3), "slow": ("good", 2),
            "slower": ("good", 1), "veryslow": ("good", 0), "placebo": ("best", 0),
        ]
        let speed = speeds[name] ?? ("good", 3)
        return (speed.0, speed.1)
    }
}
