import SegueCore

/// What a clip's pictures are, as the user reads them in `probe` and as the
/// video filters convert them: the facts the file states, and the usual
/// assumptions where it states nothing.
package enum ColourMatrix: String, Sendable {
    case bt601, bt709, bt2020, rgb
}

extension ClipFacts {
    /// PQ (HDR10, smpte2084) or HLG (arib-std-b67) by the transfer, SDR otherwise.
    package var dynamicRange: DynamicRange { colour.dynamicRange }

    /// The matrix the file names; when it names none, BT.601 for SD (height
    /// under 720, as players assume) and BT.709 for HD.
    package var colourMatrix: ColourMatrix { colour.matrix(height: codedHeight) }

    /// Full range (0-255) when the file or its yuvj pixel format says so; limited otherwise.
    package var fullRange: Bool { colour.isFullRange }

    package var interlaced: Bool { fieldOrder.isInterlaced }
}

extension ColourInfo {
    package var dynamicRange: DynamicRange {
        switch transfer {
        case "smpte2084": return .pq
        case "arib-std-b67": return .hlg
        default: return .sdr
        }
    }

    package func matrix(height: Int) -> ColourMatrix {
        switch matrix {
        case "bt709", "smpte240m": return .bt709
        case "smpte170m", "bt470bg", "fcc": return .bt601
        case "bt2020nc", "bt2020c": return .bt2020
        case "gbr": return .rgb
        default:
            // HDR is BT.2020 whatever else is left unsaid.
            if dynamicRange != .sdr || primaries == "bt2020" { return .bt2020 }
            return height < 720 ? .bt601 : .bt709
        }
    }

    package var isFullRange: Bool { fullRange ?? fullRangeFormat }
}
