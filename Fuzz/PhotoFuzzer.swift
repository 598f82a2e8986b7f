// libFuzzer entry point over phone photos: Segue's own readers of a HEIF
// file's boxes (HEIFLayout) and a JPEG's multi-picture index
// (MultiPictureJPEG), then the whole probe (libheif's read and decode for
// HEIF, libavformat's for JPEG). Built by `Scripts/fuzz photos`, seeded with
// HEIC files from heif-enc and an Ultra HDR-shaped JPEG; not part of the package.
import Foundation
import SegueMedia
@testable import SegueModel
@testable import SegueInput

private let scratchPath = "/dev/shm/segue-fuzz-\(getpid()).heic"

@_cdecl("LLVMFuzzerTestOneInput")
public func segueFuzzPhoto(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    _ = HEIFLayout.read(bytes)
    _ = try? MultiPictureJPEG.read(bytes, fileSize: size)
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes)) else { return 0 }
    _ = Prober.probe(ClipEntry(path: scratchPath))
    return 0
}
