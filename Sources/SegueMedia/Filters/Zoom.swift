internal import CFFmpeg

// Per-pixel code for stills, beside Blend.swift.
extension Frame {
    /// `source` magnified by `scale` (at least 1) about its centre into
    /// `output`, a picture of the same size and format (planar, 8 or 16 bits a sample).
    /// Positions are kept to 1/256 of a pixel and sampled bilinearly, so a slow
    /// zoom moves smoothly instead of stepping a whole pixel at a time.
    package static func zoom(_ source: Frame, scale: Double, into output: Frame) {
        precondition(source.isShaped(like: output), "zoom(_:scale:into:) needs pictures of one size and format")
        precondition(output.sampleBytes > 0 && output.planeCount >= 3, "zoom(_:scale:into:) works on three planar 8- or 16-bit planes")
        precondition(scale >= 1, "zoom(_:scale:into:) magnifies: a scale of \(scale)")
        // Two 1/256 weights on a sample: 8-bit sums fit 32 bits, deeper ones take 64.
        if output.sampleBytes == 1 {
            zoomPlanes(source, scale: scale, into: output, as: UInt8.self, summing: UInt32.self)
        } else {
            zoomPlanes(source, scale: scale, into: output, as: UInt16.self, summing: UInt64.self)
        }
    }

    private static func zoomPlanes<Sample: FixedWidthInteger & UnsignedInteger, Sum: FixedWidthInteger & UnsignedInteger>(
        _ source: Frame, scale: Double, into output: Frame, as _: Sample.Type, summing _: Sum.Type
    ) {
        for plane in 0..<3 {
            let (width, height) = output.planeSize(plane)
            guard let from = source.dataPointer(plane), let to = output.dataPointer(plane), width > 0, height > 0 else { continue }
            let strideIn = source.lineSize(plane), strideOut = output.lineSize(plane)
            let columns = ZoomTaps(count: width, scale: scale), rows = ZoomTaps(count: height, scale: scale)
            columns.first.withUnsafeBufferPointer { x0 in
                columns.second.withUnsafeBufferPointer { x1 in
                    columns.weight.withUnsafeBufferPointer { wx in
                        for y in 0..<height {
                            let top = UnsafeRawPointer(from + rows.first[y] * strideIn).assumingMemoryBound(to: Sample.self)
                            let bottom = UnsafeRawPointer(from + rows.second[y] * strideIn).assumingMemoryBound(to: Sample.self)
                            let wy = Sum(rows.weight[y])
                            let row = UnsafeMutableRawPointer(to + y * strideOut).assumingMemoryBound(to: Sample.self)
                            for x in 0..<width {
                                let w = Sum(wx[x]), i0 = x0[x], i1 = x1[x]
                                let upper = Sum(top[i0]) &* (256 &- w) &+ Sum(top[i1]) &* w
                                let lower = Sum(bottom[i0]) &* (256 &- w) &+ Sum(bottom[i1]) &* w
                                row[x] = Sample(truncatingIfNeeded: (upper &* (256 &- wy) &+ lower &* wy &+ 32768) >> 16)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The metadata entry `key` of a decoded picture (e.g. EXIF "Orientation"), or nil.
    package func metadata(_ key: String) -> String? {
        guard let entry = av_dict_get(pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }
}

/// For each output sample along one axis: the two source samples around where
/// it comes from, and the weight of the second in 1/256.
private struct ZoomTaps {
    var first: [Int]
    var second: [Int]
    var weight: [Int]

    init(count: Int, scale: Double) {
        first = [Int](repeating: 0, count: count)
        second = first
        weight = first
        let centre = Double(count) / 2
        for index in 0..<count {
            // Sample centres map through the centre of the picture.
            let position = centre + (Double(index) + 0.5 - centre) / scale - 0.5
            let fixed = max(0, Int((position * 256).rounded()))
            first[index] = min(fixed >> 8, count - 1)
            second[index] = min(first[index] + 1, count - 1)
            weight[index] = fixed & 255
        }
    }
}
