import CFFmpeg

/// A libav call that returned a negative code: which call, the code, and
/// `av_strerror`'s text for it. Lower layers turn it into a `SegueError` that
/// names the clip.
struct FFmpegError: Error, CustomStringConvertible {
    let code: Int32
    let call: String

    var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return string(fromCString: buffer)
    }

    var description: String { "\(call): \(message)" }

    /// AVERROR_EOF.
    static let endOfFile = cffmpeg_averror_eof()
    /// AVERROR(EAGAIN): "feed me more input" or "drain me first".
    static let tryAgain = cffmpeg_averror(EAGAIN)
    /// AVERROR_INVALIDDATA, a corrupt packet or an unrecognised file.
    static let invalidData: Int32 = -0x4144_4E49 // FFERRTAG('I','N','D','A')

    var isNoSpace: Bool { code == cffmpeg_averror(ENOSPC) }

    /// FFERRTAG: FFmpeg's own error codes are negated four-character tags.
    static func tag(_ a: UInt8, _ b: Character, _ c: Character, _ d: Character) -> Int32 {
        -Int32(bitPattern: UInt32(a) | UInt32(b.asciiValue!) << 8 | UInt32(c.asciiValue!) << 16 | UInt32(d.asciiValue!) << 24)
    }

    static let httpBadRequest = tag(0xF8, "4", "0", "0")
    static let httpUnauthorized = tag(0xF8, "4", "0", "1")
    static let httpForbidden = tag(0xF8, "4", "0", "3")
    static let httpNotFound = tag(0xF8, "4", "0", "4")
    static let httpOther4xx = tag(0xF8, "4", "X", "X")
    static let httpServerError = tag(0xF8, "5", "X", "X")

    /// The POSIX errno behind an AVERROR(errno), if it is one.
    var posixCode: Int32? {
        let errno = -code
        return errno > 0 && errno < 4096 ? errno : nil
    }
}

/// Throws an `FFmpegError` for a negative return code, passes others through.
@discardableResult
func check(_ code: Int32, _ call: @autoclosure () -> String) throws -> Int32 {
    if code < 0 { throw FFmpegError(code: code, call: call()) }
    return code
}

/// The result of a send/receive step: EAGAIN and EOF are control flow, not errors.
enum Step: Equatable {
    case ready
    case needsInput
    case endOfStream
}

/// Maps a receive call's return code to a `Step`, throwing real errors.
func step(_ code: Int32, _ call: @autoclosure () -> String) throws -> Step {
    if code == FFmpegError.tryAgain { return .needsInput }
    if code == FFmpegError.endOfFile { return .endOfStream }
    try check(code, call())
    return .ready
}

/// Library-wide libav setup.
enum LibAV {
    /// Keeps libav's own log quiet so that our messages, which name the clip,
    /// are the ones users read. Runs once, from whichever wrapper opens first.
    static let quietLogs: Void = cffmpeg_set_log_level(AV_LOG_FATAL)
    static let noTimestamp = cffmpeg_nopts_value()

    /// Large buffers (pictures) always come from, and go straight back to, the
    /// system, so freed pictures don't stay in a fragmented heap. Runs once.
    static let returnLargeBuffersToTheSystem: Void = cffmpeg_fix_mmap_threshold(256 * 1024)

    /// Gives freed heap memory back to the system.
    static func trimHeap() { cffmpeg_trim_heap() }
}

/// The text of a NUL-terminated C buffer.
func string(fromCString buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
