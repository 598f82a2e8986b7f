import Foundation

/// A number option's allowed range, and how messages say it.
public struct Limit: Sendable {
    package var lower: Double
    package var upper: Double
    /// The lower bound itself is not allowed ("more than 0").
    package var excludesLower = false

    package init(lower: Double, upper: Double, excludesLower: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.excludesLower = excludesLower
    }

    public func contains(_ value: Double) -> Bool {
        value <= upper && (excludesLower ? value > lower : value >= lower)
    }

    package func contains(_ value: Int) -> Bool { contains(Double(value)) }

    /// "from -40 to -5", or "more than 0 and at most 60".
    public var phrase: String {
        excludesLower ? "more than \(decimalText(lower)) and at most \(decimalText(upper))"
            : "from \(decimalText(lower)) to \(decimalText(upper))"
    }
}

/// Ranges more than one reader shares: the table's entries, a clip list's
/// per-clip and per-join values, the run's options and plan.json's checks.
package enum OptionLimits {
    /// A transition's seconds, from the option or a manifest's join.
    package static let transitionSeconds = Limit(lower: 0, upper: 60, excludesLower: true)
    /// A photo's seconds, from the option or a list entry.
    package static let stillSeconds = Limit(lower: 0, upper: 3600, excludesLower: true)
    package static let timeout = Limit(lower: 0, upper: 3600, excludesLower: true)
    /// An HLS segment's seconds.
    package static let hlsSeconds = Limit(lower: 1, upper: 60)
    /// An HLS rendition's short side, in pixels.
    package static let rungPixels = Limit(lower: 64, upper: 4320)
    /// Renditions an HLS ladder may have.
    package static let mostRungs = 8
    /// Where in the output a cover may be taken from, in seconds.
    package static let coverSeconds = Limit(lower: 0, upper: 864_000)
    package static let retries = Limit(lower: 0, upper: 20)
    /// Each side of the output's size, in pixels (and even).
    package static let side = Limit(lower: 2, upper: 8192)
    /// Frames a second.
    package static let frameRate = Limit(lower: 0.001, upper: 240)
    /// Each term of a frame rate written as a fraction: libav keeps them in 32 bits.
    package static let frameRateTerm = Limit(lower: 1, upper: Double(Int32.max))
    /// `--cache-max`, bytes (with a k, M, G or T suffix: binary multiples).
    package static let byteSize = Limit(lower: 1, upper: 0x1p62)
    /// AAC bits a second.
    package static let audioBitRate = Limit(lower: 8000, upper: 512_000)
    /// The presets libx264 and libx265 share.
    package static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
}

/// A number as options and messages write it: 3, not 3.0; 0.5 as 0.5.
package func decimalText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
