internal import CFFmpeg
internal import CHeif

// HEIC/HEIF photos (iPhone, many Android phones) through libheif: the primary
// image only (its grid tiles assembled, its irot/imir applied by libheif), as
// an 8-bit RGB `Frame` for the still pipeline. Thumbnails, depth and gain-map
// (auxiliary) images are never decoded. Bounded before decoding: the file's
// bytes, its tile count, and its size (as shown and as coded) against the
// same picture area as every other input.

/// Why libheif, or Segue's bounds on a HEIF file, refused it.
package enum HEIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libheif call failed: the call, libheif's error code and subcode, its message.
    case library(call: String, code: Int32, subcode: Int32, message: String)
    /// The primary image is assembled from more images than any photo needs.
    case tooManyTiles(count: Int, limit: Int)
    /// The file holds more bytes than any photo does.
    case fileTooLarge(bytes: Int64, limit: Int)

    package var description: String {
        switch self {
        case let .library(call, _, _, message): return "\(call): \(message)"
        case let .tooManyTiles(count, limit): return "its picture is built from \(count) tiles, over the \(limit) a photo may have"
        case let .fileTooLarge(bytes, limit):
            return "the file holds \(bytes / 1_000_000) MB, over the \(limit / 1_000_000) MB a HEIF photo may have"
        }
    }

    /// libheif's "security limit exceeded" (an allocation or size past its own limits).
    package var isSecurityLimit: Bool {
        if case let .library(_, _, subcode, _) = self { return subcode == Int32(heif_suberror_Security_limit_exceeded.rawValue) }
        return false
    }

    static func check(_ error: heif_error, _ call: String) throws {
        guard error.code != heif_error_Ok else { return }
        throw HEIFError.library(call: call, code: Int32(error.code.rawValue), subcode: Int32(error.subcode.rawValue),
                                message: error.message.map { String(cString: $0) } ?? "")
    }
}

/// A HEIF file read into libheif (one `heif_context`, freed in deinit).
package final class HEIFFile {
    private let context: OpaquePointer

    /// The most bytes a HEIF photo may hold: it is read whole (a 100-megapixel photo is under 60 MB).
    package static let maxFileBytes = 256_000_000
    /// The most images a primary may be assembled from: a 100-megapixel photo in 256x256 tiles has 1,526.
    package static let maxTiles = 2_048
    /// The longest side libheif accepts (its own default, stated here so it can't drift).
    static let maxSide: Int32 = 32_768

    /// Reads `file` whole, after checking its size and its primary's tile count.
    package init(file: LocalFile) throws {
        guard file.size <= Int64(HEIFFile.maxFileBytes) else {
            throw HEIFError.fileTooLarge(bytes: file.size, limit: HEIFFile.maxFileBytes)
        }
        let bytes = file.prefix(Int(file.size))
        if let layout = HEIFLayout.read(bytes), layout.tileCount > HEIFFile.maxTiles {
            throw HEIFError.tooManyTiles(count: layout.tileCount, limit: HEIFFile.maxTiles)
        }
        guard let context = heif_context_alloc() else { fatalError("heif_context_alloc: out of memory") }
        self.context = context
        heif_context_set_maximum_image_size_limit(context, HEIFFile.maxSide)
        // The copy is libheif's own, held as long as the context; ours goes with this scope.
        try bytes.withUnsafeBytes { buffer in
            try HEIFError.check(heif_context_read_from_memory(context, buffer.baseAddress, buffer.count, nil),
                                "heif_context_read_from_memory")
        }
    }

    deinit { heif_context_free(context) }

    /// The primary image: the one a viewer shows.
    package func primary() throws -> HEIFImageHandle {
        var handle: OpaquePointer?
        try HEIFError.check(heif_context_get_primary_image_handle(context, &handle), "heif_context_get_primary_image_handle")
        guard let handle else { throw HEIFError.library(call: "heif_context_get_primary_image_handle", code: 0, subcode: 0, message: "no primary image") }
        return HEIFImageHandle(handle)
    }
}

/// One image of a HEIF file, not yet decoded (a `heif_image_handle`, released in deinit).
package final class HEIFImageHandle {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { heif_image_handle_release(handle) }

    /// Size as shown: rotation (`irot`), mirror and crop applied.
    package var width: Int { Int(heif_image_handle_get_width(handle)) }
    package var height: Int { Int(heif_image_handle_get_height(handle)) }
    /// Size as coded (`ispe`), before the transformations.
    package var codedWidth: Int { Int(heif_image_handle_get_ispe_width(handle)) }
    package var codedHeight: Int { Int(heif_image_handle_get_ispe_height(handle)) }
    /// Bits per luma sample (8, 10, 12), or nil when unstated.
    package var lumaBits: Int? {
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        return bits > 0 ? bits : nil
    }

    /// The picture as shown, 8-bit RGB, tagged with the primaries and
    /// transfer the file states (nclx), carrying its ICC profile. Refused, undecoded, when either of
    /// its sizes is empty or over `maxPictureArea` pixels.
    package func decode(maxPictureArea: Int) throws -> Frame {
        for (width, height) in [(width, height), (codedWidth, codedHeight)] {
            if width <= 0 || height <= 0 || width * height > maxPictureArea { throw PictureTooLarge(width: width, height: height) }
        }
        guard let options = heif_decoding_options_alloc() else { fatalError("heif_decoding_options_alloc: out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 0 // irot, imir and clap applied here, once; no EXIF orientation after
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        try HEIFError.check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options),
                            "heif_decode_image")
        guard let decoded else { throw HEIFError.library(call: "heif_decode_image", code: 0, subcode: 0, message: "no image") }
        let image = HEIFImage(decoded)
        let frame = try image.frame()
        var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_handle_get_nclx_color_profile(handle, &profile).code == heif_error_Ok, let profile {
            frame.pointer.pointee.color_primaries = AVColorPrimaries(UInt32(profile.pointee.color_primaries.rawValue))
            frame.pointer.pointee.color_trc = AVColorTransferCharacteristic(UInt32(profile.pointee.transfer_characteristics.rawValue))
            heif_nclx_color_profile_free(profile)
        }
        try attachICCProfile(to: frame)
        return frame
    }

    /// The primary's ICC profile (`colr` of type `prof` or `rICC`), if any, as
    /// the picture's side data, where FFmpeg's decoders put a JPEG's or a PNG's.
    private func attachICCProfile(to frame: Frame) throws {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return }
        guard let side = av_frame_new_side_data(frame.pointer, AV_FRAME_DATA_ICC_PROFILE, size) else {
            fatalError("av_frame_new_side_data: out of memory")
        }
        try HEIFError.check(heif_image_handle_get_raw_color_profile(handle, side.pointee.data), "heif_image_handle_get_raw_color_profile")
    }
}

/// A decoded HEIF picture (a `heif_image`, released in deinit).
final class HEIFImage {
    private let image: OpaquePointer

    init(_ image: OpaquePointer) { self.image = image }

    deinit { heif_image_release(image) }

    /// The interleaved RGB picture copied into a new rgb24 `Frame` (full range, RGB matrix).
    func frame() throws -> Frame {
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let source = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= width * 3 else {
            throw HEIFError.library(call: "heif_image_get_plane_readonly", code: 0, subcode: 0, message: "no RGB plane")
        }
        let frame = try Frame.video(width: width, height: height, pixelFormat: .rgb24)
        guard let destination = frame.pointer.pointee.data.0 else { fatalError("av_frame_get_buffer gave no plane") }
        let lineSize = Int(frame.pointer.pointee.linesize.0)
        for row in 0..<height {
            (destination + row * lineSize).update(from: source + row * Int(stride), count: width * 3)
        }
        frame.pointer.pointee.colorspace = AVCOL_SPC_RGB
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        return frame
    }
}
