internal import CFFmpeg
import Foundation
import SegueCore

/// Pictures laid side by side and written as PNG files: transition previews.
extension Frame {
    /// `pictures` (yuv420p, one size) side by side, `gap` pixels apart on a
    /// dark grey ground: a new yuv420p picture.
    package static func strip(_ pictures: [Frame], gap: Int) throws -> Frame {
        precondition(!pictures.isEmpty, "strip(_:gap:) needs at least one picture")
        let first = pictures[0]
        precondition(pictures.allSatisfy { $0.isShaped(like: first) } && first.isPlanar8Bit && first.planeCount == 3,
                     "strip(_:gap:) lays out yuv420p pictures of one size")
        precondition(first.width % 2 == 0 && gap % 2 == 0 && gap >= 0, "strip(_:gap:) keeps 4:2:0 chroma aligned: even widths and gap")
        let width = pictures.count * first.width + (pictures.count - 1) * gap
        let strip = try Frame.video(width: width, height: first.height)
        for plane in 0..<3 {
            let (planeWidth, planeHeight) = strip.planeSize(plane)
            strip.setPlane(plane, to: PlaneImage(width: planeWidth, height: planeHeight, filledWith: plane == 0 ? 40 : 128))
        }
        for (index, picture) in pictures.enumerated() {
            let x = index * (first.width + gap)
            for plane in 0..<3 {
                let (planeWidth, planeHeight) = picture.planeSize(plane)
                let planeX = plane == 0 ? x : x / 2
                guard let source = picture.dataPointer(plane), let destination = strip.dataPointer(plane) else { continue }
                for row in 0..<planeHeight {
                    (destination + row * strip.lineSize(plane) + planeX)
                        .update(from: source + row * picture.lineSize(plane), count: planeWidth)
                }
            }
        }
        return strip
    }

    /// This yuv420p (limited range) picture as a JPEG file's bytes (full-range 4:2:0, high quality).
    package func jpegData() throws -> Data {
        try stillFile(through: "scale=in_range=tv:out_range=pc,format=yuvj420p", encoder: Encoder.jpeg(width: width, height: height))
    }

    /// Luma samples on a `columns` x `rows` grid across the picture (its top-left sample of each cell), for a cheap comparison.
    package func lumaGrid(columns: Int, rows: Int) -> [UInt8] {
        guard let data = dataPointer(0), width > 0, height > 0 else { return [] }
        let stride = lineSize(0), wide = sampleBytes > 1
        var grid: [UInt8] = []
        grid.reserveCapacity(columns * rows)
        for row in 0..<rows {
            let y = row * height / rows
            for column in 0..<columns {
                let x = column * width / columns
                // 10-bit samples read by their top 8 bits.
                grid.append(wide ? UInt8(truncatingIfNeeded: Int(UnsafeRawPointer(data + y * stride).load(fromByteOffset: 2 * x, as: UInt16.self)) >> 2)
                                 : data[y * stride + x])
            }
        }
        return grid
    }

    /// Writes this yuv420p (BT.709, limited range) picture to `path` as an RGB PNG file.
    package func writePNG(to path: String) throws {
        precondition(pointer.pointee.format == AV_PIX_FMT_YUV420P.rawValue, "writePNG(to:) takes a yuv420p picture")
        let png = try stillFile(through: "scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24",
                                encoder: Encoder.png(width: width, height: height))
        guard FileManager.default.createFile(atPath: path, contents: png) else {
            throw FFmpegError(code: cffmpeg_averror(errno == 0 ? EIO : errno), call: "write \(path)")
        }
    }

    /// This picture through `filters` (to the encoder's pixel format), encoded as one whole still file by `encoder`.
    private func stillFile(through filters: String, encoder: Encoder) throws -> Data {
        let graph = try FilterGraph(videoLike: self, timeBase: Rational(1, 1), description: filters)
        let input = clone()
        input.pts = 0
        try graph.push(input)
        try graph.close(atPTS: 1)
        let converted = Frame()
        guard try graph.pull(into: converted) == .ready else {
            throw FFmpegError(code: cffmpeg_averror(EAGAIN), call: "av_buffersink_get_frame(\(filters)): no picture")
        }
        try encoder.send(converted)
        try encoder.sendEndOfStream()
        let packet = Packet()
        guard try encoder.receive(into: packet) == .ready else {
            throw FFmpegError(code: cffmpeg_averror(EAGAIN), call: "avcodec_receive_packet: no packet")
        }
        return Data(packet.bytes)
    }
}
