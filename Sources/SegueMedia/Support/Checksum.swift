internal import CFFmpeg
import Foundation

/// A file's SHA-256, by libavutil's hash API (`av_hash_alloc` … `av_hash_freep`):
/// what a rendered segment is vouched for with, and checked against at the join.
package enum Checksum {
    /// The hex SHA-256 of the file at `path`, read in 1 MiB blocks.
    package static func sha256(file path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw FFmpegError(code: -ENOENT, call: "open \(path)") }
        defer { try? handle.close() }
        var context: OpaquePointer?
        guard av_hash_alloc(&context, "SHA256") >= 0, let context else { fatalError("av_hash_alloc: out of memory") }
        defer { var owned: OpaquePointer? = context; av_hash_freep(&owned) }
        av_hash_init(context)
        while true {
            let block = handle.readData(ofLength: 1 << 20)
            if block.isEmpty { break }
            block.withUnsafeBytes { bytes in
                av_hash_update(context, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            }
        }
        var hex = [UInt8](repeating: 0, count: 2 * 32 + 1)
        av_hash_final_hex(context, &hex, Int32(hex.count))
        return String(decoding: hex.prefix { $0 != 0 }, as: UTF8.self)
    }
}
