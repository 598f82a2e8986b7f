import Foundation
import XCTest
@testable import SegueMedia

/// 4:2:0 pictures as raw planes (one byte a sample, or two little-endian
/// bytes for 10-bit), made into Frames and read back: the shapes' and the gl_
/// effects' checks share them.
protocol RawPlanes {}

extension RawPlanes {
    func frame(_ bytes: [UInt8], size: (width: Int, height: Int), bits: Int = 10) throws -> Frame {
        let frame = try Frame.video(width: size.width, height: size.height, pixelFormat: bits == 8 ? .yuv420p : .yuv420p10)
        let sampleBytes = bits == 8 ? 1 : 2
        var offset = 0
        for plane in 0..<3 {
            let (width, height) = frame.planeSize(plane)
            let base = try XCTUnwrap(frame.dataPointer(plane))
            for row in 0..<height {
                bytes.withUnsafeBytes { source in
                    (base + row * frame.lineSize(plane)).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset,
                                                                count: width * sampleBytes)
                }
                offset += width * sampleBytes
            }
        }
        return frame
    }

    func bytes(_ frame: Frame) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for plane in 0..<3 {
            let (width, height) = frame.planeSize(plane)
            let base = try XCTUnwrap(frame.dataPointer(plane))
            for row in 0..<height {
                bytes += UnsafeBufferPointer(start: base + row * frame.lineSize(plane), count: width * frame.sampleBytes)
            }
        }
        return bytes
    }
}
