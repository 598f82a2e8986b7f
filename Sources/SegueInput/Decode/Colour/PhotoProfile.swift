internal import SegueMedia
import SegueModel
import SegueCore

/// A photo's ICC profile, applied once as the photo becomes a still: its RGB
/// converted by LittleCMS (relative colorimetric) into sRGB for an SDR canvas,
/// or into BT.2020 primaries with sRGB's curve for an HDR one (where nothing
/// of a wide-gamut photo is clipped), then placed as every photo is.
///
/// A photo without a profile, or with sRGB's, is left exactly as it is
/// (its values taken as BT.709, as ever); one whose profile can't be used
/// is too, and was warned about when it was probed (`problem`).
enum PhotoProfile {
    /// `picture` in the canvas's primaries when its ICC profile says it is in
    /// others; otherwise `picture` itself.
    static func applied(to picture: Frame, clip: PlannedClip, canvas: Canvas) throws -> Frame {
        guard let profile = picture.iccProfile else { return picture }
        let target: ICCConversion.Target = canvas.colour.dynamicRange.isHDR ? .bt2020 : .sRGB
        // A wide canvas's primaries, a deep canvas or a deep photo: 16 bits a sample, so no step shows.
        let deep = target == .bt2020 || canvas.colour.bitDepth > 8 || picture.colour.bitDepth > 8
        // Warned about when probed: the picture goes on as it is.
        guard let conversion = try? ICCConversion(profile: profile, into: target, deep: deep), !conversion.isSRGB else {
            return picture
        }
        let converted = try rgb(picture, format: conversion.pixelFormat, clip: clip)
        try conversion.apply(to: converted)
        return converted
    }

    /// Why the ICC profile `picture` carries can't be applied, for the
    /// warning that names the photo; nil when it carries none or it can be.
    static func problem(of picture: Frame) -> String? {
        guard let profile = picture.iccProfile else { return nil }
        do {
            _ = try ICCConversion(profile: profile, into: .sRGB, deep: false)
            return nil
        } catch {
            return error.description
        }
    }

    /// `picture` as packed RGB in `format`: itself when it is already, else
    /// converted by swscale from its own matrix and range (as the clip's
    /// graph would read them) through a graph of its own.
    private static func rgb(_ picture: Frame, format: PixelFormat, clip: PlannedClip) throws -> Frame {
        if picture.pixelFormat == format { return picture }
        let colour = picture.colour.filled(from: clip.info.facts.colour)
        let matrix = ColourConversion.inputMatrix(colour.matrix(height: clip.info.facts.codedHeight), fullRange: colour.isFullRange)
        let input = picture.clone()
        input.pts = 0
        let graph = try FilterGraph(videoLike: input, timeBase: Rational(1, 1),
                                    description: "scale=flags=bicubic+accurate_rnd+full_chroma_int\(matrix),format=\(format.name)")
        try graph.push(input)
        try graph.close(atPTS: 1)
        let converted = Frame()
        guard try graph.pull(into: converted) == .ready else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "the picture could not be converted to RGB for its colour profile")
        }
        return converted
    }
}
