internal import CFFmpeg
import Foundation
import SegueCore

extension LibAV {
    /// Every protocol this libavformat knows for input (`avio_enum_protocols`):
    /// what `Network.knownProtocols` states, read from the library linked.
    package static var inputProtocols: Set<String> {
        var names: Set<String> = []
        var opaque: UnsafeMutableRawPointer?
        while let name = avio_enum_protocols(&opaque, 0) { names.insert(String(cString: name)) }
        return names
    }
}

extension Cancellation {
    /// libavformat's interrupt callback over this cancellation: a blocked
    /// open or read returns `AVERROR_EXIT` once it is raised. The callback
    /// holds it unretained: its owner keeps it alive while libav may call.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                Unmanaged<Cancellation>.fromOpaque(opaque!).takeUnretainedValue().isCancelled ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// A network input whose connection failed and could not be resumed: how far
/// it got and how often it was tried. Never a damaged file.
package struct ConnectionLost: Error, Sendable, CustomStringConvertible {
    package var url: String
    /// Bytes received before the connection was given up.
    package var bytesReceived: Int64
    /// Attempts made at the failing position, the first included.
    package var tries: Int
    /// What the last attempt failed with.
    package var cause: FFmpegError

    package var description: String {
        let cut = cause == .inputOutput || cause == .endOfFile ? "" : " (\(cause.message))"
        return "connection lost after \(bytesReceived) bytes\(cut); gave up after \(tries) \(tries == 1 ? "try" : "tries")"
    }
}

/// The bytes of a network input, read through libavformat's own protocols,
/// that picks up where it stopped after a lost connection: it reopens the URL
/// at the byte it had reached (an HTTP range request) up to `retries` times,
/// waiting 0.25 s, 0.5 s, 1 s … between tries. libavformat reads it through an
/// AVIOContext whose callbacks land here (`avio_alloc_context`; freed with
/// its buffer in `deinit`).
final class ResumingInput {
    let url: String
    private let options: [String: String]
    private let retries: Int
    private let cancellation: Cancellation
    /// The current connection, reopened after a failure.
    private var connection: UnsafeMutablePointer<AVIOContext>?
    /// What libavformat reads: our callbacks over `connection`.
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private var position: Int64 = 0
    private var size: Int64 = -1
    /// Set once the input has been given up.
    private(set) var lost: ConnectionLost?

    /// Opens `url`; a failure to connect at all is thrown as it is (the caller retries those).
    init(url: String, options: [String: String], retries: Int, cancellation: Cancellation) throws {
        self.url = url
        self.options = options
        self.retries = retries
        self.cancellation = cancellation
        connection = try connect(at: 0)
        size = avio_size(connection)
        let bufferSize: Int32 = 32 * 1024
        guard let buffer = av_malloc(Int(bufferSize)) else { fatalError("av_malloc: out of memory") }
        context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, Unmanaged.passUnretained(self).toOpaque(),
            { opaque, buffer, size in
                Unmanaged<ResumingInput>.fromOpaque(opaque!).takeUnretainedValue().read(into: buffer!, count: Int(size))
            },
            nil,
            { opaque, offset, whence in
                Unmanaged<ResumingInput>.fromOpaque(opaque!).takeUnretainedValue().seek(to: offset, whence: whence)
            })
        guard context != nil else { fatalError("avio_alloc_context: out of memory") }
    }

    deinit {
        // The buffer may have been replaced by libavformat; free the one it holds now.
        if context != nil { av_freep(&context!.pointee.buffer) }
        avio_context_free(&context)
        avio_closep(&connection)
    }

    private func connect(at offset: Int64) throws -> UnsafeMutablePointer<AVIOContext> {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        if offset > 0 { av_dict_set(&dictionary, "offset", String(offset), 0) }
        defer { av_dict_free(&dictionary) }
        var interrupt = cancellation.interruptCallback
        var opened: UnsafeMutablePointer<AVIOContext>?
        try check(avio_open2(&opened, url, AVIO_FLAG_READ, &interrupt, &dictionary), "avio_open2")
        return opened!
    }

    /// The read callback: up to `count` bytes, resuming after a lost connection.
    private func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        if let lost { return lost.cause.code }
        var tries = 1
        while true {
            var code: Int32 = FFmpegError.inputOutput.code
            if let connection {
                code = avio_read_partial(connection, buffer, Int32(count))
                if code > 0 {
                    position += Int64(code)
                    return code
                }
            }
            // An end before the announced size is a connection that stopped early.
            let early = code == FFmpegError.endOfFile.code && size > 0 && position < size
            if code == 0 || (code == FFmpegError.endOfFile.code && !early) { return FFmpegError.endOfFile.code }
            let failure = FFmpegError(code: early ? FFmpegError.inputOutput.code : code, call: "avio_read")
            guard !cancellation.isCancelled else { return FFmpegError.exit.code }
            guard failure.isTransport, tries <= retries else {
                lost = ConnectionLost(url: url, bytesReceived: position, tries: tries, cause: failure)
                return failure.code
            }
            Thread.sleep(forTimeInterval: Network.backoff(afterTries: tries))
            tries += 1
            avio_closep(&connection)
            connection = try? connect(at: position)
        }
    }

    /// The seek callback: positions within the input, or its size (AVSEEK_SIZE).
    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return size >= 0 ? size : Int64(FFmpegError.posix(ENOSYS).code) }
        var reached = connection.map { avio_seek($0, offset, whence & ~AVSEEK_FORCE) } ?? Int64(FFmpegError.inputOutput.code)
        if reached < 0, whence & ~AVSEEK_FORCE == SEEK_SET, lost == nil, !cancellation.isCancelled {
            // A broken connection can't seek; a new one starts at the target.
            avio_closep(&connection)
            connection = try? connect(at: offset)
            if connection != nil { reached = offset }
        }
        if reached >= 0 { position = reached }
        return reached
    }
}
