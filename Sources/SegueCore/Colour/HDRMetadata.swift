import Foundation

/// HDR10 static metadata: the mastering display (SMPTE ST 2086) and the
/// content light levels (CTA-861.3), as a clip states them or as Segue
/// chooses when none does.
package struct HDRMetadata: Sendable, Equatable, Codable {
    /// Chromaticities (x, y) of the display's red, green and blue primaries and white point.
    package var red: [Double]
    package var green: [Double]
    package var blue: [Double]
    package var whitePoint: [Double]
    /// The display's luminance range in cd/m².
    package var minLuminance: Double
    package var maxLuminance: Double
    /// Maximum content light level and maximum frame-average light level, cd/m²; nil when unstated.
    package var maxCLL: Int?
    package var maxFALL: Int?

    package init(red: [Double], green: [Double], blue: [Double], whitePoint: [Double], minLuminance: Double, maxLuminance: Double,
                maxCLL: Int? = nil, maxFALL: Int? = nil) {
        self.red = red
        self.green = green
        self.blue = blue
        self.whitePoint = whitePoint
        self.minLuminance = minLuminance
        self.maxLuminance = maxLuminance
        self.maxCLL = maxCLL
        self.maxFALL = maxFALL
    }

    /// BT.2020 primaries, D65, 1000 cd/m² peak and 0.0001 black: the
    /// mastering display BT.2408 takes as typical, for output whose clips state none.
    package static let typical = HDRMetadata(red: [0.708, 0.292], green: [0.170, 0.797], blue: [0.131, 0.046],
                                            whitePoint: [0.3127, 0.3290], minLuminance: 0.0001, maxLuminance: 1000,
                                            maxCLL: 1000, maxFALL: 400)

    /// The dimmest peak a real mastering display has, cd/m² (SDR's reference
    /// display is 100; HDR ones are brighter).
    package static let dimmestPeak = 100.0

    /// Why these values can't be passed on, nil when they can: values out of
    /// range (a luminance of 0 or above 10,000 cd/m², a chromaticity outside
    /// 0...1), or that no real display has (a peak under 100 cd/m², which a
    /// writer's unit slip gives; primaries that are not red, green and blue
    /// around the white point, as a writer that lists them in the wrong order
    /// gives; a frame-average light level above the maximum).
    /// The primaries are FFmpeg's, in R, G, B order (`AVMasteringDisplayMetadata`:
    /// it reorders HEVC's SEI and MP4's `mdcv`, which list G, B, R).
    package var implausibility: String? {
        let points = [red, green, blue, whitePoint]
        if !points.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0 > 0 && $0 < 1 } }) { return "a chromaticity outside 0 to 1" }
        if !(maxLuminance > 0 && maxLuminance <= 10_000) { return "a peak luminance of \(maxLuminance) cd/m²" }
        if !(minLuminance >= 0 && minLuminance < maxLuminance) { return "a black level of \(minLuminance) cd/m²" }
        // A light level of 0 means unknown (CTA-861.3).
        for (name, value) in [("MaxCLL", maxCLL), ("MaxFALL", maxFALL)] {
            if let value, !(0...10_000).contains(value) { return "a \(name) of \(value) cd/m²" }
        }
        if maxLuminance < Self.dimmestPeak {
            return "a peak luminance of \(decimal(maxLuminance)) cd/m², under any display's \(Int(Self.dimmestPeak))"
        }
        if !primariesInOrder {
            func point(_ p: [Double]) -> String { "(\(decimal(p[0])), \(decimal(p[1])))" }
            return "primaries that are not red, green and blue around its white point "
                + "(red \(point(red)), green \(point(green)), blue \(point(blue)), white \(point(whitePoint)))"
        }
        if let cll = maxCLL, let fall = maxFALL, cll > 0, fall > cll { return "a MaxFALL of \(fall) cd/m², above its MaxCLL of \(cll)" }
        return nil
    }

    /// Whether red is the reddest primary (largest x), green the greenest
    /// (largest y) and blue the bluest (smallest y), with the white point
    /// inside their triangle.
    private var primariesInOrder: Bool {
        guard red[0] > green[0], red[0] > blue[0], green[1] > red[1], green[1] > blue[1], blue[1] < red[1] else { return false }
        // The white point lies on the same side of each edge, taken in turn.
        func side(_ a: [Double], _ b: [Double]) -> Double {
            (b[0] - a[0]) * (whitePoint[1] - a[1]) - (b[1] - a[1]) * (whitePoint[0] - a[0])
        }
        let sides = [side(red, green), side(green, blue), side(blue, red)]
        return sides.allSatisfy { $0 > 0 } || sides.allSatisfy { $0 < 0 }
    }

    private func decimal(_ value: Double) -> String { String(format: "%g", value) }

    /// x265's `master-display` and `max-cll` parameters (chromaticities in
    /// 1/50000, luminance in 1/10000 cd/m², G, B, R order).
    package var x265Parameters: String {
        func point(_ p: [Double]) -> String { "(\(Int((p[0] * 50000).rounded())),\(Int((p[1] * 50000).rounded())))" }
        let display = "G\(point(green))B\(point(blue))R\(point(red))WP\(point(whitePoint))"
            + "L(\(Int((maxLuminance * 10000).rounded())),\(Int((minLuminance * 10000).rounded())))"
        return "master-display=\(display):max-cll=\(maxCLL ?? 0),\(maxFALL ?? 0)"
    }

    /// SVT-AV1's `mastering-display` and `content-light` parameters (decimal values, G, B, R order).
    package var svtParameters: String {
        func point(_ p: [Double]) -> String { "(\(decimal(p[0])),\(decimal(p[1])))" }
        func decimal(_ value: Double) -> String { String(format: "%.4f", value) }
        return "mastering-display=G\(point(green))B\(point(blue))R\(point(red))WP\(point(whitePoint))"
            + "L(\(decimal(maxLuminance)),\(decimal(minLuminance))):content-light=\(maxCLL ?? 0),\(maxFALL ?? 0)"
    }
}
