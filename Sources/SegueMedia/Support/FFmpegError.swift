internal import CFFmpeg
import Glibc

/// A libav error code, in the style of swift-system's `Errno`: named static
/// cases to `catch` by (`catch FFmpegError.invalidData`), POSIX codes through
/// `posix(_:)`, HTTP failures as FFmpeg tags them, and the call that failed
/// for the message. Two errors are equal when their codes are.
package struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The negative code libav returned.
    package let code: Int32
    /// The call that returned it ("" for a case used as a pattern).
    package let call: String

    package init(code: Int32, call: String = "") {
        self.code = code
        self.call = call
    }

    /// `av_strerror`'s text for the code.
    package var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return string(fromCString: buffer)
    }

    package var description: String { call.isEmpty ? message : "\(call): \(message)" }

    package static func == (a: FFmpegError, b: FFmpegError) -> Bool { a.code == b.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Lets `catch FFmpegError.invalidData` match any error with that code.
    package static func ~= (pattern: FFmpegError, error: any Error) -> Bool {
        (error as? FFmpegError)?.code == pattern.code
    }

    /// AVERROR(errno) for a POSIX error number.
    package static func posix(_ errno: Int32) -> FFmpegError { FFmpegError(code: cffmpeg_averror(errno)) }

    /// The POSIX errno behind an AVERROR(errno), if it is one.
    package var posixCode: Int32? {
        let errno = -code
        return errno > 0 && errno < 4096 ? errno : nil
    }

    /// AVERROR_EOF: the end of a file or stream.
    package static let endOfFile = FFmpegError(code: cffmpeg_averror_eof())
    /// AVERROR(EAGAIN): "feed me more input" or "drain me first".
    package static let tryAgain = posix(EAGAIN)
    /// AVERROR_INVALIDDATA: a corrupt packet or an unrecognised file.
    package static let invalidData = FFmpegError(code: tag(UInt8(ascii: "I"), "N", "D", "A"))
    /// AVERROR_EXIT: an operation stopped by the interrupt callback (cancelled).
    package static let exit = FFmpegError(code: tag(UInt8(ascii: "E"), "X", "I", "T"))
    /// AVERROR(ENOSPC).
    package static let noSpace = posix(ENOSPC)
    /// AVERROR(EIO): a read or write failed (a connection that ended early, among others).
    package static let inputOutput = posix(EIO)

    package static let httpBadRequest = FFmpegError(code: tag(0xF8, "4", "0", "0"))
    package static let httpUnauthorized = FFmpegError(code: tag(0xF8, "4", "0", "1"))
    package static let httpForbidden = FFmpegError(code: tag(0xF8, "4", "0", "3"))
    package static let httpNotFound = FFmpegError(code: tag(0xF8, "4", "0", "4"))
    package static let httpOther4xx = FFmpegError(code: tag(0xF8, "4", "X", "X"))
    package static let httpServerError = FFmpegError(code: tag(0xF8, "5", "X", "X"))

    /// Whether the network or the disk failed, rather than the data being bad:
    /// worth retrying, and never to be concealed as damage.
    package var isTransport: Bool {
        if self == .httpServerError { return true }
        guard let errno = posixCode else { return false }
        return [EIO, ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EAGAIN]
            .contains(errno)
    }

    /// Whether reading or decoding a file's data failed for what the data
    /// holds: what a damaged or truncated file does. Not a lost connection or
    /// disk, not memory, and nothing a filter graph or encoder said.
    package var isDamage: Bool {
        guard !isTransport, self != .exit, posixCode != ENOMEM else { return false }
        return FFmpegError.readingAndDecodingCalls.contains { call.hasPrefix($0) }
    }

    /// The calls whose failures are the data's.
    static let readingAndDecodingCalls = ["av_read_frame", "avcodec_send_packet", "avcodec_receive_frame"]

    /// FFERRTAG: FFmpeg's own error codes are negated four-character tags.
    static func tag(_ a: UInt8, _ b: Character, _ c: Character, _ d: Character) -> Int32 {
        -Int32(bitPattern: UInt32(a) | UInt32(b.asciiValue!) << 8 | UInt32(c.asciiValue!) << 16 | UInt32(d.asciiValue!) << 24)
    }
}

/// Throws an `FFmpegError` for a negative return code, passes others through.
@discardableResult
func check(_ code: Int32, _ call: @autoclosure () -> String) throws -> Int32 {
    if code < 0 { throw FFmpegError(code: code, call: call()) }
    return code
}

/// The result of a send/receive step: EAGAIN and EOF are control flow, not errors.
package enum Step: Equatable {
    case ready
    case needsInput
    case endOfStream
}

/// Maps a receive call's return code to a `Step`, throwing real errors.
func step(_ code: Int32, _ call: @autoclosure () -> String) throws -> Step {
    if code == FFmpegError.tryAgain.code { return .needsInput }
    if code == FFmpegError.endOfFile.code { return .endOfStream }
    try check(code, call())
    return .ready
}

/// Process-wide libav and allocator policy. A library sets none of it by
/// itself: a program calls these once, at its start, if it wants them.
package enum LibAV {
    /// Keeps libav's own log to fatal messages only, so that the program's
    /// messages, which name the clip, are the ones users read; SVT-AV1, which
    /// logs to stderr by itself, to its errors (unless `SVT_LOG` says otherwise).
    package static func quietLogs() {
        cffmpeg_set_log_level(AV_LOG_FATAL)
        setenv("SVT_LOG", "1", 0)
    }

    /// Large buffers (pictures) always come from, and go straight back to, the
    /// system, so freed pictures don't stay in a fragmented heap. Measured: long
    /// runs' peak memory crept up by tens of MB with glibc's dynamic threshold.
    package static func returnLargeBuffersToTheSystem() { cffmpeg_fix_mmap_threshold(256 * 1024) }

    /// Gives freed heap memory back to the system (e.g. what probing left behind).
    package static func trimHeap() { cffmpeg_trim_heap() }
}

/// The text of a NUL-terminated C buffer.
func string(fromCString buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
