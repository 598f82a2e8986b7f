internal import CFFmpeg
import Foundation

/// A local file opened by us, not by libavformat: a descriptor whose real
/// path is known once it is open (so a confinement check is made on what was
/// opened, and a symlink swapped in afterwards changes nothing), refused
/// unless it is a regular file (no FIFO, device or /dev/stdin), and read by a
/// demuxer through an AVIOContext over the descriptor, so that a name holding
/// `%` or `:` is never read as a pattern or a protocol.
package final class LocalFile {
    /// Why a local file can't be opened.
    package enum OpenFailure: Error, Equatable {
        case posix(Int32)
        case notRegularFile
    }

    package let path: String
    /// The opened file's real path: `..` and every symlink resolved.
    package let resolvedPath: String
    package let size: Int64
    private let descriptor: Int32
    private var position: Int64 = 0
    /// What libavformat reads: our callbacks over `descriptor`; made on first use.
    private var ioContext: UnsafeMutablePointer<AVIOContext>?

    package init(path: String) throws {
        self.path = path
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw OpenFailure.posix(errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw OpenFailure.notRegularFile
        }
        // O_NONBLOCK only kept a FIFO from blocking the open; a regular file reads the same without it.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        size = Int64(status.st_size)
        resolvedPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? path
    }

    deinit {
        if ioContext != nil { av_freep(&ioContext!.pointee.buffer) }
        avio_context_free(&ioContext)
        Glibc.close(descriptor)
    }

    /// Up to `count` bytes from the start of the file (a header to look at).
    package func prefix(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, Int(size))))
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, read)))
    }

    /// Everything in the file, if it holds at most `limit` bytes (a clip list); nil when larger.
    package func contents(limit: Int) -> Data? {
        guard size <= Int64(limit) else { return nil }
        return Data(prefix(Int(size)))
    }

    /// The AVIOContext a demuxer reads this file through (owned by the file).
    var context: UnsafeMutablePointer<AVIOContext> {
        if let ioContext { return ioContext }
        let bufferSize: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(bufferSize)) else { fatalError("av_malloc: out of memory") }
        ioContext = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, Unmanaged.passUnretained(self).toOpaque(),
            { opaque, buffer, size in
                Unmanaged<LocalFile>.fromOpaque(opaque!).takeUnretainedValue().read(into: buffer!, count: Int(size))
            },
            nil,
            { opaque, offset, whence in
                Unmanaged<LocalFile>.fromOpaque(opaque!).takeUnretainedValue().seek(to: offset, whence: whence)
            })
        guard let ioContext else { fatalError("avio_alloc_context: out of memory") }
        return ioContext
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        while true {
            let read = pread(descriptor, buffer, count, off_t(position))
            if read > 0 {
                position += Int64(read)
                return Int32(read)
            }
            if read == 0 { return FFmpegError.endOfFile.code }
            if errno != EINTR { return cffmpeg_averror(errno) }
        }
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        // Offsets come from the file's own fields (a chunk offset, an index): a
        // target before the start or past 2^62 is refused, never overflowed into.
        let target: (Int64, Bool)
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return size
        case SEEK_SET: target = (offset, false)
        case SEEK_CUR: target = position.addingReportingOverflow(offset)
        case SEEK_END: target = size.addingReportingOverflow(offset)
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        guard !target.1, target.0 >= 0, target.0 <= Int64(1) << 62 else { return Int64(cffmpeg_averror(EINVAL)) }
        position = target.0
        return position
    }
}
