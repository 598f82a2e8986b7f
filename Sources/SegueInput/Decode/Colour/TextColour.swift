import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// Colours of text drawn by libass straight onto HDR pictures (burned
/// subtitles): each SDR colour is given as the HDR signal that shows it as
/// an SDR clip's pictures are shown (white at BT.2408's reference white).
enum TextColour {
    /// `script` (ASS) with every colour (`&HBBGGRR`, `&HAABBGGRR`, in styles
    /// and override tags) given for HDR `target`; unchanged for SDR.
    static func scriptColours(_ script: String, into target: OutputColour) -> String {
        guard target.dynamicRange.isHDR else { return script }
        let mapping = ColourMapping(from: .sdr, primaries: .bt709, to: target.dynamicRange)
        let pattern = try! NSRegularExpression(pattern: "&H([0-9A-Fa-f]{2})?([0-9A-Fa-f]{6})(?![0-9A-Fa-f])")
        let text = script as NSString
        let result = NSMutableString(string: script)
        // From the end, so each match's range still holds when it is replaced.
        for match in pattern.matches(in: script, range: NSRange(location: 0, length: text.length)).reversed() {
            let alpha = match.range(at: 1).location == NSNotFound ? "" : text.substring(with: match.range(at: 1))
            let value = Int(text.substring(with: match.range(at: 2)), radix: 16) ?? 0
            func level(_ shift: Int) -> Double { Double(value >> shift & 0xFF) / 255 }
            let mapped = mapping.map(RGB(level(0), level(8), level(16)))
            let bgr = [mapped.b, mapped.g, mapped.r].map { String(format: "%02X", Int((min(max($0, 0), 1) * 255).rounded())) }
            result.replaceCharacters(in: match.range, with: "&H" + alpha + bgr.joined())
        }
        return result as String
    }
}
