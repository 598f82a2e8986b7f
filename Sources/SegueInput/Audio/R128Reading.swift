import Foundation
internal import SegueMedia
import SegueModel

/// What `ebur128` says of a sound, read from the frames it passes on: the
/// integrated loudness (its latest value) and the highest true peak. One
/// reading for a clip's sound and a timeline's mix alike.
struct R128Reading {
    /// The filter that measures, stamping its findings on each frame.
    static let filter = "ebur128=peak=true:metadata=1"
    private var integrated: Double?
    /// The highest true peak, linear.
    private var peak: Double?

    mutating func take(_ measured: Frame) {
        if let value = measured.metadata("lavfi.r128.I").flatMap(Double.init) { integrated = value }
        if let value = measured.metadata("lavfi.r128.true_peak").flatMap(Double.init) { peak = max(peak ?? 0, value) }
    }

    /// The loudness read; nil when the filter gave none (no sound reached it). A silent peak reads -120 dBTP.
    var loudness: ClipInfo.Loudness? {
        guard let integrated else { return nil }
        return ClipInfo.Loudness(integrated: integrated, truePeak: (peak ?? 0) > 0 ? 20 * log10(peak!) : -120)
    }
}
