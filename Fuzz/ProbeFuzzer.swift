// libFuzzer entry point over Segue's probe path (open, find streams, decode a
// first picture). Built by `Scripts/fuzz probe` with the tiers' modules;
// not part of the package.
import Foundation
@testable import SegueModel
@testable import SegueInput
@testable import SegueRender
@testable import SegueKit

private let scratchPath = "/dev/shm/segue-fuzz-\(getpid()).mp4"

@_cdecl("LLVMFuzzerTestOneInput")
public func segueFuzzProbe(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // Prober works on paths, as libavformat's probing does; shared memory keeps it cheap.
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: scratchPath, contents: bytes) else { return 0 }
    _ = Prober.probe(ClipEntry(path: scratchPath, inPoint: 0.1, outPoint: 0.5))
    return 0
}
