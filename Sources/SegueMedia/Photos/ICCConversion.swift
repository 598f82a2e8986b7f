internal import CFFmpeg
internal import CLCMS

// A photo's ICC profile (Display P3 from an iPhone, Adobe RGB from a camera)
// applied by LittleCMS: its RGB converted into the canvas's primaries,
// relative colorimetric, before the picture goes the way every photo goes.

/// Why a photo's ICC profile can't be applied.
package enum ICCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// LittleCMS can't read the bytes as a profile.
    case unreadable(bytes: Int)
    /// The profile holds more bytes than any photo's needs.
    case tooLarge(bytes: Int, limit: Int)
    /// A profile of another colour space than RGB (CMYK, Lab), which an RGB picture can't be in.
    case notRGB(space: String)
    /// LittleCMS reads the profile but can't convert from it into RGB.
    case noConversion

    package var description: String {
        switch self {
        case let .unreadable(bytes): return "its ICC profile (\(bytes) bytes) can't be read"
        case let .tooLarge(bytes, limit): return "its ICC profile holds \(bytes / 1_000) kB, over the \(limit / 1_000) kB a photo's may"
        case let .notRGB(space): return "its ICC profile is for \(space), not RGB"
        case .noConversion: return "its ICC profile can't be converted from"
        }
    }
}

/// One conversion from a photo's ICC profile into the canvas's primaries:
/// a LittleCMS transform (`cmsHTRANSFORM`, deleted in deinit), relative
/// colorimetric (the profile's white becomes the canvas's D65 white),
/// without black point compensation.
package final class ICCConversion {
    /// The RGB a converted picture is in: both use the sRGB tone curve,
    /// the encoding Segue already reads a photo's values in.
    package enum Target: Sendable {
        /// sRGB: BT.709 primaries, D65 (an SDR canvas). What lies outside is clipped.
        case sRGB
        /// BT.2020 primaries, D65 (an HDR canvas): every colour a photo's profile
        /// can hold (Display P3, Adobe RGB) fits, so nothing is clipped.
        case bt2020
    }

    /// The largest profile read (camera profiles with tables reach a few hundred kB).
    package static let maxProfileBytes = 4_000_000

    private let transform: cmsHTRANSFORM
    package let target: Target
    /// 16 bits a sample (rgb48le) in and out; 8 (rgb24) otherwise.
    package let deep: Bool
    /// Whether the profile is sRGB's (every colour within one 8-bit step of
    /// itself through it): the picture is already what Segue takes a photo to be.
    package let isSRGB: Bool

    /// The conversion from `profile` into `target`, for pictures of 8 or
    /// (`deep`) 16 bits a sample. Nil for a grey profile: a grey picture has
    /// no primaries to convert.
    package init?(profile: [UInt8], into target: Target, deep: Bool) throws(ICCError) {
        guard profile.count <= ICCConversion.maxProfileBytes else {
            throw .tooLarge(bytes: profile.count, limit: ICCConversion.maxProfileBytes)
        }
        guard let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .unreadable(bytes: profile.count)
        }
        defer { cmsCloseProfile(source) }
        let space = cmsGetColorSpace(source)
        if space == cmsSigGrayData { return nil }
        guard space == cmsSigRgbData else { throw .notRGB(space: ICCConversion.name(of: space)) }
        isSRGB = try ICCConversion.isSRGB(source)
        guard let output = ICCConversion.profile(target) else { throw .noConversion }
        defer { cmsCloseProfile(output) }
        let format = deep ? clcms_type_rgb_16() : clcms_type_rgb_8()
        guard let transform = cmsCreateTransform(source, format, output, format, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0) else {
            throw .noConversion
        }
        self.transform = transform
        self.target = target
        self.deep = deep
    }

    deinit { cmsDeleteTransform(transform) }

    /// The pixel format `apply` takes.
    package var pixelFormat: PixelFormat { deep ? .rgb48 : .rgb24 }

    /// Converts `picture` (in `pixelFormat`) in place (its buffer copied
    /// first if it is shared, so no other reference sees the change) and tags
    /// it as full-range RGB on the target's primaries with sRGB's transfer,
    /// its ICC profile removed: no copy of a 100-megapixel photo is added.
    package func apply(to picture: Frame) throws {
        precondition(picture.pixelFormat == pixelFormat, "a \(pixelFormat.name) picture, not \(picture.pixelFormat.name)")
        try check(av_frame_make_writable(picture.pointer), "av_frame_make_writable")
        guard let plane = picture.dataPointer(0) else { fatalError("an RGB picture without its plane") }
        // In place: LittleCMS reads each pixel before it writes it, the formats being the same.
        let stride = cmsUInt32Number(picture.lineSize(0))
        cmsDoTransformLineStride(transform, plane, plane, cmsUInt32Number(picture.width), cmsUInt32Number(picture.height),
                                 stride, stride, 0, 0)
        av_frame_remove_side_data(picture.pointer, AV_FRAME_DATA_ICC_PROFILE)
        picture.pointer.pointee.colorspace = AVCOL_SPC_RGB
        picture.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        picture.pointer.pointee.color_primaries = target == .sRGB ? AVCOL_PRI_BT709 : AVCOL_PRI_BT2020
        picture.pointer.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    }

    /// The target's profile: D65, its primaries, sRGB's tone curve (IEC 61966-2-1, as
    /// LittleCMS's own sRGB profile has it: a parametric curve of type 4).
    private static func profile(_ target: Target) -> cmsHPROFILE? {
        if target == .sRGB { return cmsCreate_sRGBProfile() }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.708, y: 0.292, Y: 1), Green: cmsCIExyY(x: 0.170, y: 0.797, Y: 1),
                                        Blue: cmsCIExyY(x: 0.131, y: 0.046, Y: 1))
        let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
    }

    /// Whether every colour of a 9x9x9 grid over 8-bit RGB comes out of
    /// `source` into sRGB within one step of itself.
    private static func isSRGB(_ source: cmsHPROFILE) throws(ICCError) -> Bool {
        guard let sRGB = cmsCreate_sRGBProfile() else { throw .noConversion }
        defer { cmsCloseProfile(sRGB) }
        let format = clcms_type_rgb_8()
        guard let check = cmsCreateTransform(source, format, sRGB, format, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0) else {
            throw .noConversion
        }
        defer { cmsDeleteTransform(check) }
        let steps = (0...8).map { UInt8(min(255, $0 * 32)) }
        let grid = steps.flatMap { red in steps.flatMap { green in steps.flatMap { blue in [red, green, blue] } } }
        var result = [UInt8](repeating: 0, count: grid.count)
        cmsDoTransform(check, grid, &result, cmsUInt32Number(grid.count / 3))
        return zip(grid, result).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    /// A colour space signature as its four letters ('CMYK', 'Lab ').
    private static func name(of space: cmsColorSpaceSignature) -> String {
        let value = space.rawValue
        let letters = [24, 16, 8, 0].map { Character(UnicodeScalar(UInt8(truncatingIfNeeded: value >> $0))) }
        return String(letters.filter { $0 != " " })
    }
}

extension Frame {
    /// The ICC profile the picture carries (a PNG's iCCP, a JPEG's APP2
    /// chunks, a HEIF's colr), as its bytes; nil for none.
    package var iccProfile: [UInt8]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_ICC_PROFILE), side.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size)))
    }
}
