/// The demuxers Segue lets open an input: real media containers, raw audio
/// and single pictures. Everything else libavformat knows is refused before it
/// reads past the probe: playlists and manifests (HLS, DASH) and libavformat's
/// `concat`, which open other files and URLs; text shown as video (`tty`,
/// `bin` and their kind); image sequences (`image2`), which expand names;
/// devices and generators.
package enum MediaFormats {
    /// Demuxer names (`AVInputFormat.name`) that may open an input.
    package static let allowed: Set<String> = [
        // Containers of moving pictures (and sound)
        "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "mpegts", "mpeg", "avi", "mxf", "flv", "live_flv", "asf",
        "ogg", "nut", "wtv", "dv", "gxf", "rm", "ivf", "obu", "yuv4mpegpipe", "gif", "apng",
        // Elementary video streams
        "h264", "hevc", "m4v", "mpegvideo", "vc1", "mjpeg", "av1",
        // Sound (a music bed, a clip's own)
        "wav", "w64", "aiff", "caf", "mp3", "aac", "flac", "ac3", "eac3", "dts", "truehd", "wv", "ape", "tta",
        "amr", "amrnb", "amrwb", "au", "opus", "loas", "mlp",
        // Single pictures
        "jpeg_pipe", "png_pipe", "webp_pipe", "bmp_pipe", "tiff_pipe", "gif_pipe", "jpegls_pipe", "jpegxl_pipe",
        "ppm_pipe", "pgm_pipe", "pgmyuv_pipe", "pam_pipe", "dpx_pipe", "exr_pipe", "psd_pipe", "qoi_pipe",
        "sgi_pipe", "sunrast_pipe", "xbm_pipe", "xpm_pipe", "xwd_pipe", "pcx_pipe", "photocd_pipe", "j2k_pipe",
    ]

    /// The demuxers a sidecar subtitle file (clip.srt, .vtt, .ass) may be
    /// opened with: plain text formats that open nothing else.
    package static let subtitles: Set<String> = ["srt", "webvtt", "ass"]
}
