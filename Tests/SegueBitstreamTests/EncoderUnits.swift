/// Parameter sets and a slice as real encoders write them, recorded once from
/// the ffmpeg CLI (a 64x64 grey picture, ultrafast) so these tests need no
/// encoder: `-c:v libx264 -x264-params sps-id=3 -f h264` and
/// `-c:v libx265 -x265-params info=0 -f hevc`.
enum EncoderUnits {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = [], pending = hex.filter { !$0.isWhitespace }[...]
        while !pending.isEmpty {
            out.append(UInt8(pending.prefix(2), radix: 16)!)
            pending = pending.dropFirst(2)
        }
        return out
    }

    /// x264's SPS and PPS, both id 3 (Constrained Baseline, level 1.0).
    static let h264Sequence = bytes("6742c00a 25a109b0 11000003 00010000 0300320f 1226a0")
    static let h264Picture = bytes("68210e0f c8")

    /// x265's VPS, SPS and PPS (Main, level 1.0, all id 0; its SPS holds
    /// emulation-prevention bytes) and its IDR_N_LP slice.
    static let hevcVideo = bytes("40010c01 ffff0160 00000300 90000003 00000300 1e959409")
    static let hevcSequence = bytes("42010101 60000003 00900000 03000003 001ea020 81059656 54a4c2f0 16808000 00030080 00000c84")
    static let hevcPicture = bytes("4401c073 c089")
    static let hevcSlice = bytes("2801ac76 0d9091d2 38")

    /// `units` after 4-byte start codes, as an encoder's global header gives them.
    static func annexB(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { [0, 0, 0, 1] + $0 }
    }
}
