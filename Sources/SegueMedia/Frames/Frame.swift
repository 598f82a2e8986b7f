internal import CFFmpeg

/// An owning wrapper over one `AVFrame`. Frames are not Sendable: a frame
/// crosses a thread boundary only by being handed over whole (see `Handoff`).
package final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    package init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// A new yuv420p (or other format) picture with its own buffers.
    package static func video(width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p) throws -> Frame {
        let frame = Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = pixelFormat.rawValue
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    /// A new planar-float stereo (or n-channel) block of audio with its own buffers.
    package static func audio(sampleCount: Int, channels: Int, sampleRate: Int) throws -> Frame {
        let frame = Frame()
        frame.pointer.pointee.nb_samples = Int32(sampleCount)
        frame.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointer.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&frame.pointer.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    /// Another reference to the same buffers (`av_frame_clone`): cheap, and
    /// safe to hand to another stage while this one keeps its own.
    package func clone() -> Frame {
        let copy = Frame()
        if av_frame_ref(copy.pointer, pointer) < 0 { fatalError("av_frame_ref: out of memory") }
        return copy
    }

    package func unref() { av_frame_unref(pointer) }

    /// Luma PSNR in dB against a picture of the same size and format, 8-bit
    /// or 10-bit 4:2:0 (infinite when identical, nil when they can't be compared).
    package func lumaPSNR(against other: Frame) -> Double? {
        let a = pointer.pointee, b = other.pointer.pointee
        let tenBit = a.format == AV_PIX_FMT_YUV420P10LE.rawValue
        guard a.width == b.width, a.height == b.height, a.format == b.format,
              a.format == AV_PIX_FMT_YUV420P.rawValue || tenBit,
              let rowsA = a.data.0, let rowsB = b.data.0 else { return nil }
        var sum = 0
        for y in 0..<Int(a.height) {
            let rowA = rowsA + y * Int(a.linesize.0), rowB = rowsB + y * Int(b.linesize.0)
            if tenBit {
                let samplesA = UnsafeRawPointer(rowA).assumingMemoryBound(to: UInt16.self)
                let samplesB = UnsafeRawPointer(rowB).assumingMemoryBound(to: UInt16.self)
                for x in 0..<Int(a.width) {
                    let difference = Int(samplesA[x]) - Int(samplesB[x])
                    sum += difference * difference
                }
            } else {
                for x in 0..<Int(a.width) {
                    let difference = Int(rowA[x]) - Int(rowB[x])
                    sum += difference * difference
                }
            }
        }
        guard sum > 0 else { return .infinity }
        let meanSquare = Double(sum) / Double(Int(a.width) * Int(a.height))
        let peak = tenBit ? 1023.0 : 255.0
        return 10 * log10(peak * peak / meanSquare)
    }

    /// Presentation time in the time base of whoever made the frame; nil for none (AV_NOPTS_VALUE).
    /// The mean quantiser the picture was coded with, when its decoder exported it.
    package var meanQuantiser: Double? {
        let value = cffmpeg_frame_mean_qp(pointer)
        return value >= 0 ? value : nil
    }

    package var pts: Int64? {
        get { Timestamp.plausible(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? cffmpeg_nopts_value() }
    }

    /// How long the picture or block lasts in its stream's time base, 0 when unknown.
    package var duration: Int64 { Timestamp.plausibleDuration(pointer.pointee.pkt_duration) }

    /// Whether an encoder must start a keyframe here (`pict_type` I), or may choose (none): a decoded
    /// picture carries its source's type, which libx264 would otherwise honour.
    package var forcesKeyframe: Bool {
        get { pointer.pointee.pict_type == AV_PICTURE_TYPE_I }
        set { pointer.pointee.pict_type = newValue ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE }
    }

    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    package var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    package var sampleRate: Int { Int(pointer.pointee.sample_rate) }

    /// A part of this picture: another reference to the same buffers, its
    /// planes starting at (`x`, `y`) (even, for whole chroma samples).
    package func cropped(x: Int, y: Int, width: Int, height: Int) -> Frame {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height,
                     "a crop inside the picture")
        let part = clone()
        part.pointer.pointee.crop_left = x
        part.pointer.pointee.crop_top = y
        part.pointer.pointee.crop_right = self.width - x - width
        part.pointer.pointee.crop_bottom = self.height - y - height
        if av_frame_apply_cropping(part.pointer, Int32(AV_FRAME_CROP_UNALIGNED)) < 0 { fatalError("av_frame_apply_cropping: bad crop") }
        return part
    }

    // MARK: Plane access for tests, fixtures and one-off reads (copies, never pointers)

    /// One plane of a planar 8-bit picture, copied out row by row.
    package func plane(_ index: Int) -> PlaneImage {
        precondition(isPlanar8Bit, "plane(_:) copies one byte per sample: the picture must be planar 8-bit")
        precondition(index >= 0 && index < planeCount, "plane \(index) of a picture with \(planeCount)")
        let (width, height) = planeSize(index)
        let stride = lineSize(index)
        var bytes = [UInt8](repeating: 0, count: width * height)
        guard let base = dataPointer(index) else { return PlaneImage(width: width, height: height, bytes: bytes) }
        bytes.withUnsafeMutableBytes { destination in
            for row in 0..<height {
                (destination.baseAddress! + row * width).copyMemory(from: UnsafeRawPointer(base + row * stride), byteCount: width)
            }
        }
        return PlaneImage(width: width, height: height, bytes: bytes)
    }

    /// Writes a plane's pixels into this (writable, planar 8-bit) picture.
    package func setPlane(_ index: Int, to image: PlaneImage) {
        precondition(isPlanar8Bit, "setPlane(_:to:) writes one byte per sample: the picture must be planar 8-bit")
        precondition(index >= 0 && index < planeCount, "plane \(index) of a picture with \(planeCount)")
        let (width, height) = planeSize(index)
        precondition(image.width == width && image.height == height, "plane size mismatch")
        precondition(image.bytes.count == width * height, "a plane image of \(image.bytes.count) bytes for \(width)x\(height)")
        let stride = lineSize(index)
        guard let base = dataPointer(index) else { return }
        image.bytes.withUnsafeBytes { source in
            for row in 0..<height {
                UnsafeMutableRawPointer(base + row * stride).copyMemory(from: source.baseAddress! + row * width, byteCount: width)
            }
        }
    }

    /// Sets a rectangle of one plane of this (writable, planar 8- or 16-bit) picture to `value`.
    package func fill(plane index: Int, x: Int, y: Int, width: Int, height: Int, with value: Int) {
        precondition(sampleBytes > 0 && index >= 0 && index < planeCount, "fill(plane:…) writes a plane of a planar picture")
        let size = planeSize(index)
        precondition(x >= 0 && y >= 0 && x + width <= size.width && y + height <= size.height, "a rectangle inside the plane")
        guard let base = dataPointer(index) else { return }
        for row in y..<y + height {
            let line = UnsafeMutableRawPointer(base + row * lineSize(index))
            for column in x..<x + width {
                if sampleBytes == 1 {
                    line.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: column, as: UInt8.self)
                } else {
                    line.storeBytes(of: UInt16(truncatingIfNeeded: value), toByteOffset: 2 * column, as: UInt16.self)
                }
            }
        }
    }

    /// The samples of one channel of a planar-float frame, copied out.
    package func samples(channel: Int) -> [Float] {
        precondition(isPlanarFloat, "samples(channel:) reads planar float samples")
        precondition(channel >= 0 && channel < channelCount, "channel \(channel) of a block with \(channelCount)")
        guard let base = pointer.pointee.extended_data?[channel] else { return [] }
        return base.withMemoryRebound(to: Float.self, capacity: sampleCount) {
            Array(UnsafeBufferPointer(start: $0, count: sampleCount))
        }
    }

    /// Appends each channel's samples of a planar-float frame to `channels`
    /// (silence for a channel the frame doesn't have).
    package func appendSamples(to channels: inout [[Float]]) {
        precondition(isPlanarFloat, "appendSamples(to:) reads planar float samples")
        let count = sampleCount
        for channel in channels.indices {
            guard channel < channelCount, let base = pointer.pointee.extended_data?[channel] else {
                channels[channel].append(contentsOf: repeatElement(0, count: count))
                continue
            }
            base.withMemoryRebound(to: Float.self, capacity: count) {
                channels[channel].append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// Fills a planar-float frame from `channels[c][start..<start+sampleCount]`.
    package func setSamples(from channels: [[Float]], start: Int) {
        precondition(isPlanarFloat, "setSamples(from:start:) writes planar float samples")
        precondition(channels.count >= channelCount, "\(channels.count) channels of samples for a block of \(channelCount)")
        let count = sampleCount
        precondition(start >= 0 && channels.prefix(channelCount).allSatisfy { $0.count >= start + count },
                     "fewer than \(start) + \(count) samples in a channel")
        for channel in 0..<channelCount {
            guard let base = pointer.pointee.extended_data?[channel] else { continue }
            base.withMemoryRebound(to: Float.self, capacity: count) { destination in
                channels[channel].withUnsafeBufferPointer { source in
                    destination.update(from: source.baseAddress! + start, count: count)
                }
            }
        }
    }

    /// A copy of a planar-float block with its samples interleaved
    /// (`AV_SAMPLE_FMT_FLT`, for libopus), its times and rate kept.
    package func interleavedFloat() throws -> Frame {
        precondition(isPlanarFloat, "interleavedFloat() reads planar float samples")
        let copy = Frame(), count = sampleCount, channels = channelCount
        copy.pointer.pointee.nb_samples = Int32(count)
        copy.pointer.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        copy.pointer.pointee.sample_rate = pointer.pointee.sample_rate
        try check(av_channel_layout_copy(&copy.pointer.pointee.ch_layout, &pointer.pointee.ch_layout), "av_channel_layout_copy")
        try check(av_frame_get_buffer(copy.pointer, 0), "av_frame_get_buffer")
        try check(av_frame_copy_props(copy.pointer, pointer), "av_frame_copy_props")
        guard let packed = copy.pointer.pointee.data.0 else { return copy }
        packed.withMemoryRebound(to: Float.self, capacity: count * channels) { destination in
            for channel in 0..<channels {
                guard let plane = pointer.pointee.extended_data?[channel] else { continue }
                plane.withMemoryRebound(to: Float.self, capacity: count) { source in
                    for index in 0..<count { destination[index * channels + channel] = source[index] }
                }
            }
        }
        return copy
    }

    /// Whether the block holds planar float samples (`AV_SAMPLE_FMT_FLTP`), one plane per channel.
    package var isPlanarFloat: Bool { pointer.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue }

    /// Whether the picture is planar with one byte per sample in every plane (yuv420p and kin).
    package var isPlanar8Bit: Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(pointer.pointee.format)) else { return false }
        let format = descriptor.pointee
        let components = [format.comp.0, format.comp.1, format.comp.2, format.comp.3].prefix(Int(format.nb_components))
        return format.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 && components.allSatisfy { $0.depth <= 8 && $0.step == 1 }
    }

    /// The picture's pixel format.
    package var pixelFormat: PixelFormat { PixelFormat(rawValue: pointer.pointee.format) }

    /// Bytes per sample of a planar picture whose planes all share one depth:
    /// 1 (8-bit), 2 (9- to 16-bit, little-endian), 0 for any other layout.
    package var sampleBytes: Int {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(pointer.pointee.format)) else { return 0 }
        let format = descriptor.pointee
        let components = [format.comp.0, format.comp.1, format.comp.2, format.comp.3].prefix(Int(format.nb_components))
        guard format.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, format.flags & UInt64(AV_PIX_FMT_FLAG_BE) == 0,
              let step = components.first?.step, components.allSatisfy({ $0.step == step }) else { return 0 }
        return step == 1 || step == 2 ? Int(step) : 0
    }

    /// How many planes the picture's format has (0 for none known).
    package var planeCount: Int { max(0, Int(av_pix_fmt_count_planes(AVPixelFormat(pointer.pointee.format)))) }

    /// Whether `other` is a picture of the same size and pixel format.
    package func isShaped(like other: Frame) -> Bool {
        width == other.width && height == other.height && pointer.pointee.format == other.pointer.pointee.format
    }

    package func planeSize(_ index: Int) -> (width: Int, height: Int) {
        // Only the two chroma planes are subsampled; an alpha plane (3) is full size, as the luma plane.
        guard index == 1 || index == 2, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(pointer.pointee.format)) else {
            return (width, height)
        }
        let shiftX = Int(descriptor.pointee.log2_chroma_w), shiftY = Int(descriptor.pointee.log2_chroma_h)
        return (-((-width) >> shiftX), -((-height) >> shiftY)) // rounded up, as AV_CEIL_RSHIFT
    }

    func dataPointer(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafePointer(to: &pointer.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[index] }
        }
    }

    func lineSize(_ index: Int) -> Int {
        withUnsafePointer(to: &pointer.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { Int($0[index]) }
        }
    }
}

/// One plane of a picture as plain bytes, `width * height`, no padding.
package struct PlaneImage: Equatable {
    package var width: Int
    package var height: Int
    package var bytes: [UInt8]

    package init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    package init(width: Int, height: Int, filledWith value: UInt8) {
        self.init(width: width, height: height, bytes: [UInt8](repeating: value, count: width * height))
    }

    package subscript(x: Int, y: Int) -> UInt8 {
        get { bytes[y * width + x] }
        set { bytes[y * width + x] = newValue }
    }

    /// The mean value over a rectangle, clipped to the plane.
    package func mean(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return 0 }
        var sum = 0
        for row in y0..<y1 { for column in x0..<x1 { sum += Int(bytes[row * width + column]) } }
        return Double(sum) / Double((x1 - x0) * (y1 - y0))
    }

    /// The smallest rectangle holding every sample above `threshold`, or nil when none is.
    package func bounds(above threshold: UInt8) -> (x: Int, y: Int, width: Int, height: Int)? {
        var left = width, top = height, right = -1, bottom = -1
        for row in 0..<height {
            let line = bytes[row * width..<(row + 1) * width]
            guard let first = line.firstIndex(where: { $0 > threshold }) else { continue }
            let last = line.lastIndex(where: { $0 > threshold })!
            left = min(left, first - row * width)
            right = max(right, last - row * width)
            top = min(top, row)
            bottom = row
        }
        return right < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
    }

    package mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with value: UInt8) {
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) { bytes[row * width + column] = value }
        }
    }
}

/// A pixel format by role; the raw value is FFmpeg's `AVPixelFormat`.
package struct PixelFormat: Equatable {
    package let rawValue: Int32
    package static let yuv420p = PixelFormat(rawValue: AV_PIX_FMT_YUV420P.rawValue)
    package static let yuv420p10 = PixelFormat(rawValue: AV_PIX_FMT_YUV420P10LE.rawValue)
    /// Packed 8-bit RGB (a decoded HEIF photo).
    package static let rgb24 = PixelFormat(rawValue: AV_PIX_FMT_RGB24.rawValue)
    /// Packed 16-bit RGB, little-endian (a photo converted by its ICC profile for a deep canvas).
    package static let rgb48 = PixelFormat(rawValue: AV_PIX_FMT_RGB48LE.rawValue)

    /// FFmpeg's name for it (`yuv420p10le`), as filter descriptions take it.
    package var name: String { av_get_pix_fmt_name(AVPixelFormat(rawValue)).map { String(cString: $0) } ?? "none" }
}
