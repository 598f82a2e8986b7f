// libFuzzer entry point over a whole stitch: the mutated input and a small
// good clip, a tiny canvas, a fade between them, ultrafast. Built by
// Scripts/fuzz stitch with the tiers' modules; not part of the package.
import Foundation
@testable import SegueModel
@testable import SegueInput
@testable import SegueRender
@testable import SegueKit

private let scratchPath = "/dev/shm/segue-fuzz-\(getpid()).mp4"
private let outputPath = "/dev/shm/segue-fuzz-out-\(getpid()).mp4"
/// The good clip the mutated one is stitched with (made by Scripts/fuzz).
private let partnerPath = ProcessInfo.processInfo.environment["SEGUE_FUZZ_PARTNER"] ?? ".fuzz/partner.mp4"
private let quiet: Void = ProcessPolicy.applyCommandLineDefaults()

@_cdecl("LLVMFuzzerTestOneInput")
public func segueFuzzStitch(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = quiet
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes: data, count: size)) else { return 0 }
    var request = StitchRequest(inputs: [scratchPath, partnerPath], output: outputPath)
    request.options.size = Size(width: 64, height: 36)
    request.options.frameRate = Rational(15, 1)
    request.options.preset = "ultrafast"
    request.options.transition = .fade
    request.options.transitionDuration = 0.2
    request.overwrite = true
    request.preload = size % 2 == 0 // both paths: the lookahead's thread, and opening in place
    _ = try? StitchJob(request).run()
    return 0
}
