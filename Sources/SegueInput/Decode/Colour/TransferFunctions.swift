import Foundation
import SegueModel
internal import SegueMedia

/// The curves and constants of BT.2100 (PQ and HLG), BT.1886 and BT.2087
/// that the colour LUTs are computed from. Light is in cd/m² (nits) unless
/// said otherwise; signals run 0 to 1 (full range, non-linear).
enum TransferFunctions {
    // MARK: PQ (SMPTE ST 2084, BT.2100)

    private static let pqM1 = 2610.0 / 16384, pqM2 = 2523.0 / 4096 * 128
    private static let pqC1 = 3424.0 / 4096, pqC2 = 2413.0 / 4096 * 32, pqC3 = 2392.0 / 4096 * 32
    /// PQ's absolute peak.
    static let pqPeak = 10_000.0

    /// PQ EOTF: signal to display light.
    static func pqToLight(_ signal: Double) -> Double {
        let p = pow(min(max(signal, 0), 1), 1 / pqM2)
        return pqPeak * pow(max(p - pqC1, 0) / (pqC2 - pqC3 * p), 1 / pqM1)
    }

    /// Inverse PQ EOTF: display light to signal.
    static func lightToPQ(_ light: Double) -> Double {
        let y = pow(min(max(light, 0), pqPeak) / pqPeak, pqM1)
        return pow((pqC1 + pqC2 * y) / (1 + pqC3 * y), pqM2)
    }

    // MARK: HLG (ARIB STD-B67, BT.2100)

    private static let hlgA = 0.17883277, hlgB = 1 - 4 * 0.17883277
    private static let hlgC = 0.5 - 0.17883277 * log(4 * 0.17883277)
    /// HLG's nominal display peak and its system gamma there (BT.2100).
    static let hlgPeak = 1000.0
    static let hlgSystemGamma = 1.2

    /// HLG OETF: scene light (0 to 1) to signal.
    static func hlgOETF(_ scene: Double) -> Double {
        let e = max(scene, 0)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : hlgA * log(12 * e - hlgB) + hlgC
    }

    /// Inverse HLG OETF: signal to scene light (0 to 1).
    static func hlgInverseOETF(_ signal: Double) -> Double {
        let s = min(max(signal, 0), 1)
        return s <= 0.5 ? s * s / 3 : (exp((s - hlgC) / hlgA) + hlgB) / 12
    }

    /// HLG OOTF on the reference display (1000 cd/m², gamma 1.2): scene RGB
    /// (BT.2020, 0 to 1) to display light; hue and saturation kept.
    static func hlgOOTF(_ scene: RGB) -> RGB {
        let luminance = max(scene.bt2020Luminance, 0)
        return scene * (hlgPeak * pow(luminance, hlgSystemGamma - 1))
    }

    /// Inverse HLG OOTF: display light (BT.2020, up to 1000 cd/m²) to scene RGB (0 to 1).
    static func hlgInverseOOTF(_ display: RGB) -> RGB {
        let luminance = display.bt2020Luminance
        guard luminance > 0 else { return RGB(0, 0, 0) }
        let sceneLuminance = pow(luminance / hlgPeak, 1 / hlgSystemGamma)
        return display * (sceneLuminance / luminance)
    }

    // MARK: SDR (BT.1886 display, black at 0)

    static let sdrGamma = 2.4

    static func sdrToRelativeLight(_ signal: Double) -> Double { pow(min(max(signal, 0), 1), sdrGamma) }
    static func relativeLightToSDR(_ light: Double) -> Double { pow(min(max(light, 0), 1), 1 / sdrGamma) }

    // MARK: Primaries (BT.2087), on linear light

    static func bt709ToBT2020(_ c: RGB) -> RGB {
        RGB(0.627403895934699 * c.r + 0.329283038377884 * c.g + 0.043313065687417 * c.b,
            0.069097289358232 * c.r + 0.919540395075459 * c.g + 0.011362315566309 * c.b,
            0.016391438875150 * c.r + 0.088013307877226 * c.g + 0.895595253247624 * c.b)
    }

    static func bt2020ToBT709(_ c: RGB) -> RGB {
        RGB(1.660491002108435 * c.r - 0.587641138788550 * c.g - 0.072849863319885 * c.b,
            -0.124550474521591 * c.r + 1.132899897125960 * c.g - 0.008349422604369 * c.b,
            -0.018150763354905 * c.r - 0.100578898008007 * c.g + 1.118729661362913 * c.b)
    }
}

/// Three linear or non-linear components, red, green, blue.
struct RGB: Equatable {
    var r: Double, g: Double, b: Double

    init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    var bt2020Luminance: Double { 0.2627 * r + 0.6780 * g + 0.0593 * b }
    var bt709Luminance: Double { 0.2126 * r + 0.7152 * g + 0.0722 * b }
    var maximum: Double { max(r, g, b) }
    var minimum: Double { min(r, g, b) }

    func map(_ transform: (Double) -> Double) -> RGB { RGB(transform(r), transform(g), transform(b)) }

    static func * (c: RGB, k: Double) -> RGB { RGB(c.r * k, c.g * k, c.b * k) }

    /// This colour moved towards the grey `grey` by `amount` (0: unchanged, 1: the grey).
    func desaturated(towards grey: Double, by amount: Double) -> RGB {
        map { grey + ($0 - grey) * (1 - amount) }
    }
}
