import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// One conversion between colour spaces, on full-range non-linear RGB
/// signals: from a source's transfer and primaries to a target's. The
/// matrix and range are swscale's job, on either side of it.
///
/// Light is display light in cd/m². SDR into HDR follows BT.2408: SDR's
/// 100 % at 203 cd/m² (HLG 75 %, PQ 58 %). HLG is the light its reference
/// display (1000 cd/m², system gamma 1.2) shows. HDR into SDR is tone-mapped:
/// see `toneMapped`.
struct ColourMapping: Hashable, Sendable {
    enum Primaries: String, Sendable { case bt709, bt2020 }

    var source: DynamicRange
    var sourcePrimaries: Primaries
    var target: DynamicRange

    init(from source: DynamicRange, primaries: Primaries, to target: DynamicRange) {
        precondition(source.isHDR ? primaries == .bt2020 : true, "HDR sources are BT.2020")
        self.source = source
        self.sourcePrimaries = primaries
        self.target = target
    }

    var targetPrimaries: Primaries { target.isHDR ? .bt2020 : .bt709 }

    /// Names the conversion, for the LUT's file; bump `version` when the maths changes.
    var key: String {
        let version = 2
        return "v\(version)-\(source.rawValue.lowercased())-\(sourcePrimaries.rawValue)-to-\(target.rawValue.lowercased())"
    }

    /// SDR 100 % in HDR (BT.2408 reference white).
    static let referenceWhite = 203.0

    /// The brightest light a PQ source is taken to hold: BT.2390's EETF
    /// rolls 0...2000 cd/m² into HLG's 0...1000 (brighter clips to white),
    /// leaving everything below about 730 cd/m² as it is.
    static let pqSourcePeak = 2000.0

    /// The target's signal for one source signal.
    func map(_ signal: RGB) -> RGB {
        if source == target && sourcePrimaries == targetPrimaries { return signal }
        let light = displayLight(signal)
        switch target {
        case .sdr:
            if source.isHDR { return Self.toneMapped(light, from: source) }
            // SDR BT.2020 to BT.709: a gamut mapping on relative light.
            let relative = TransferFunctions.bt2020ToBT709(light * (1 / Self.referenceWhite))
            return Self.intoGamut(relative, peak: 1, primaries: .bt709).map(TransferFunctions.relativeLightToSDR)
        case .pq:
            let bt2020 = sourcePrimaries == .bt709 ? TransferFunctions.bt709ToBT2020(light) : light
            return bt2020.map(TransferFunctions.lightToPQ)
        case .hlg:
            let bt2020 = sourcePrimaries == .bt709 ? TransferFunctions.bt709ToBT2020(light) : light
            let bounded = Self.intoGamut(bt2020, peak: TransferFunctions.hlgPeak, primaries: .bt2020)
            return TransferFunctions.hlgInverseOOTF(bounded).map(TransferFunctions.hlgOETF)
        }
    }

    /// The source's signal as display light, on its own primaries.
    private func displayLight(_ signal: RGB) -> RGB {
        switch source {
        case .sdr: return signal.map(TransferFunctions.sdrToRelativeLight) * Self.referenceWhite
        case .pq: return signal.map(TransferFunctions.pqToLight)
        case .hlg: return TransferFunctions.hlgOOTF(signal.map(TransferFunctions.hlgInverseOETF))
        }
    }

    /// HDR light (BT.2020) to an SDR BT.709 signal. Colours outside BT.709
    /// are first desaturated (at constant luminance) until they fit; then the
    /// brightest component goes through `toneCurve` and the others keep
    /// their ratios to it (hue and saturation kept, so bright colours don't
    /// clip channel by channel); the top of the range is softly desaturated,
    /// as film does, and clipped.
    static func toneMapped(_ light: RGB, from source: DynamicRange) -> RGB {
        let bt709 = intoGamut(TransferFunctions.bt2020ToBT709(light), peak: .infinity, primaries: .bt709)
        let brightest = bt709.maximum
        guard brightest > 0 else { return RGB(0, 0, 0) }
        let hlgPeak = TransferFunctions.hlgPeak
        let bounded = source == .pq ? eetf(brightest, sourcePeak: pqSourcePeak, targetPeak: hlgPeak) : min(brightest, hlgPeak)
        var mapped = bt709 * (toneCurve(bounded) / brightest)
        let nearWhite = smoothStep(from: highlightDesaturationStart, to: 1, mapped.bt709Luminance)
        mapped = mapped.desaturated(towards: mapped.bt709Luminance, by: highlightDesaturation * nearWhite)
        return mapped.map { TransferFunctions.relativeLightToSDR($0) }
    }

    /// Light (0...1000 cd/m²) to SDR relative light: HLG's own curve, as
    /// its reference display's light turned back into an HLG signal shown on
    /// SDR. Below HLG's 50 % (its square-root part) this is linear (SDR's 100 %
    /// stands for 1000 / 3^1.2 = 268 cd/m²), so mid-tones and skin land where
    /// HLG's backward-compatible picture puts them; above, its logarithmic
    /// part rolls highlights off up to 1000 cd/m² at SDR's 100 %. HDR
    /// reference white (203 cd/m²) lands at 75 %, as in that picture.
    static func toneCurve(_ light: Double) -> Double {
        let scene = pow(min(max(light, 0), TransferFunctions.hlgPeak) / TransferFunctions.hlgPeak,
                        1 / TransferFunctions.hlgSystemGamma)
        return TransferFunctions.sdrToRelativeLight(TransferFunctions.hlgOETF(scene))
    }

    /// How much of their colour the brightest highlights lose, and from what
    /// SDR luminance that starts.
    static let highlightDesaturation = 0.5
    static let highlightDesaturationStart = 0.8

    /// A linear colour brought inside 0...peak: a colour with a negative
    /// component (outside the gamut) or one above the peak is desaturated
    /// towards its own luminance just enough to fit; what still doesn't
    /// (luminance itself above the peak) is clipped.
    static func intoGamut(_ c: RGB, peak: Double, primaries: Primaries) -> RGB {
        let luminance = min(max(primaries == .bt709 ? c.bt709Luminance : c.bt2020Luminance, 0), peak)
        var amount = 0.0
        if c.minimum < 0 { amount = max(amount, -c.minimum / (luminance - c.minimum)) }
        if c.maximum > peak { amount = max(amount, (c.maximum - peak) / (c.maximum - luminance)) }
        let fitted = amount > 0 ? c.desaturated(towards: luminance, by: min(amount, 1)) : c
        return fitted.map { min(max($0, 0), peak) }
    }

    /// BT.2390's EETF: light from 0...sourcePeak into 0...targetPeak, as the
    /// identity below a knee and a Hermite spline above it, in PQ's domain.
    static func eetf(_ light: Double, sourcePeak: Double, targetPeak: Double) -> Double {
        let sourceMax = TransferFunctions.lightToPQ(sourcePeak)
        let e1 = min(TransferFunctions.lightToPQ(light) / sourceMax, 1)
        let maxLum = TransferFunctions.lightToPQ(targetPeak) / sourceMax
        let kneeStart = 1.5 * maxLum - 0.5
        guard e1 > kneeStart else { return light }
        let t = (e1 - kneeStart) / (1 - kneeStart)
        let t2 = t * t, t3 = t2 * t
        let e2 = (2 * t3 - 3 * t2 + 1) * kneeStart + (t3 - 2 * t2 + t) * (1 - kneeStart) + (-2 * t3 + 3 * t2) * maxLum
        return TransferFunctions.pqToLight(e2 * sourceMax)
    }

    private static func smoothStep(from edge0: Double, to edge1: Double, _ x: Double) -> Double {
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
