internal import CFFmpeg

/// Pictures of one size and format whose buffers are reused: a buffer comes
/// back to the pool when the last reference to it goes (in an encoder, a
/// filter graph, a held picture), so a stage that makes a picture per frame
/// allocates only as many as are alive at once, as libavfilter's own pools do.
/// `av_buffer_pool_uninit` frees the pool once every buffer is back.
package final class PicturePool {
    private var pool: OpaquePointer?
    package let width: Int, height: Int
    package let pixelFormat: PixelFormat
    private let bufferSize: Int32
    /// Row alignment in bytes, as libavfilter's pictures have.
    private static let alignment: Int32 = 32

    package init(width: Int, height: Int, pixelFormat: PixelFormat) throws {
        precondition(width > 0 && height > 0, "a picture pool needs a size")
        let size = av_image_get_buffer_size(AVPixelFormat(pixelFormat.rawValue), Int32(width), Int32(height), Self.alignment)
        try check(size, "av_image_get_buffer_size")
        guard let pool = av_buffer_pool_init(Int(size), nil) else { fatalError("av_buffer_pool_init: out of memory") }
        self.pool = pool
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        bufferSize = size
    }

    deinit {
        av_buffer_pool_uninit(&pool)
    }

    /// A picture with a buffer of its own from the pool (its samples are not cleared).
    package func picture() throws -> Frame {
        guard let buffer = av_buffer_pool_get(pool) else { fatalError("av_buffer_pool_get: out of memory") }
        let frame = Frame()
        let picture = frame.pointer
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        picture.pointee.format = pixelFormat.rawValue
        picture.pointee.buf.0 = buffer
        try withUnsafeMutablePointer(to: &picture.pointee.data) { data in
            try withUnsafeMutablePointer(to: &picture.pointee.linesize) { lines in
                try data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 4) { planes in
                    try lines.withMemoryRebound(to: Int32.self, capacity: 4) { strides in
                        _ = try check(av_image_fill_arrays(planes, strides, buffer.pointee.data, AVPixelFormat(pixelFormat.rawValue),
                                                       Int32(width), Int32(height), Self.alignment), "av_image_fill_arrays")
                    }
                }
            }
        }
        return frame
    }
}

extension Frame {
    /// Copies `source`'s timing, colour tags and side data (`av_frame_copy_props`) onto this picture.
    package func copyProperties(from source: Frame) {
        if av_frame_copy_props(pointer, source.pointer) < 0 { fatalError("av_frame_copy_props: out of memory") }
    }
}
