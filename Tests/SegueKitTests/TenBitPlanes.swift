import Foundation
import XCTest
@testable import SegueMedia

/// 10-bit 4:2:0 pictures as raw little-endian planes, made into Frames and read back:
/// the shapes' and the gl_ effects' 10-bit checks share them.
protocol TenBitPlanes {}

extension TenBitPlanes {
    func frame(_ bytes: [UInt8], size: (width: Int, height: Int)) throws -> Frame {
        let frame = try Frame.video(width: size.width, height: size.height, pixelFormat: .yuv420p10)
        var offset = 0
        for plane in 0..<3 {
            let (width, height) = frame.planeSize(plane)
            let base = try XCTUnwrap(frame.dataPointer(plane))
            for row in 0..<height {
                bytes.withUnsafeBytes { source in
                    (base + row * frame.lineSize(plane)).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset,
                                                                count: width * 2)
                }
                offset += width * 2
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
                bytes += UnsafeBufferPointer(start: base + row * frame.lineSize(plane), count: width * 2)
            }
        }
        return bytes
    }
}
