import Foundation
import SegueMedia

/// Colours of text drawn by libass straight onto HDR pictures (burned
/// subtitles): each SDR colour is given as the HDR signal that shows it at
/// BT.2408's reference white, per channel (the text's hue stays its own;
/// greys, the usual text colours, land exactly).
enum TextColour {
    /// SDR reference white in HDR, cd/m² (BT.2408).
    static let referenceWhite = 203.0
    /// The HLG reference display's peak, cd/m², and its system gamma (BT.2100).
    static let hlgPeak = 1000.0, hlgSystemGamma = 1.2

    /// The `target` signal (0...1) that shows an SDR signal level `sdr`
    /// (0...1, BT.1886 gamma 2.4) at reference white.
    static func hdrSignal(sdr: Double, into target: DynamicRange) -> Double {
        precondition((0...1).contains(sdr), "an SDR level from 0 to 1, not \(sdr)")
        let nits = pow(sdr, 2.4) * referenceWhite
        switch target {
        case .sdr: return sdr
        case .hlg: return hlgSignal(sceneLight: pow(nits / hlgPeak, 1 / hlgSystemGamma))
        case .pq: return pqSignal(nits: nits)
        }
    }

    /// BT.2100 HLG OETF of normalised scene light (0...1).
    static func hlgSignal(sceneLight e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - a * log(4 * a)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// SMPTE ST 2084 (PQ) inverse EOTF of display light in cd/m².
    static func pqSignal(nits: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(max(0, nits) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// `script` (ASS) with every colour (`&HBBGGRR`, `&HAABBGGRR`, in styles
    /// and override tags) given for HDR `target`; unchanged for SDR.
    static func scriptColours(_ script: String, into target: OutputColour) -> String {
        guard target.dynamicRange.isHDR else { return script }
        let pattern = try! NSRegularExpression(pattern: "&H([0-9A-Fa-f]{2})?([0-9A-Fa-f]{6})(?![0-9A-Fa-f])")
        let text = script as NSString
        let result = NSMutableString(string: script)
        // From the end, so each match's range still holds when it is replaced.
        for match in pattern.matches(in: script, range: NSRange(location: 0, length: text.length)).reversed() {
            let alpha = match.range(at: 1).location == NSNotFound ? "" : text.substring(with: match.range(at: 1))
            let value = Int(text.substring(with: match.range(at: 2)), radix: 16) ?? 0
            let mapped = [16, 8, 0].map { shift -> Int in
                let level = Double(value >> shift & 0xFF) / 255
                return Int((hdrSignal(sdr: level, into: target.dynamicRange) * 255).rounded())
            }
            result.replaceCharacters(in: match.range, with: "&H" + alpha + mapped.map { String(format: "%02X", $0) }.joined())
        }
        return result as String
    }
}
