// libFuzzer entry point over SegueBitstream's AVC and HEVC record parsers and
// writers, and the parameter-set readers --smart uses on a clip's samples.
// Built by Scripts/fuzz records; not part of the package.
import Foundation
import SegueBitstream
@testable import SegueModel
@testable import SegueInput
@testable import SegueRender
@testable import SegueKit

@_cdecl("LLVMFuzzerTestOneInput")
public func segueFuzzRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let record = AVCRecord(bytes) {
        let written = record.bytes
        if record.isWritable, let again = AVCRecord(written) { precondition(again.bytes == written, "an AVC record round trip") }
        (record.sequenceParameterSets + record.pictureParameterSets).forEach { _ = H264.parameterSetID($0) }
    }
    if let record = HEVCRecord(bytes) {
        let written = record.bytes
        if record.isWritable, let again = HEVCRecord(written) { precondition(again.bytes == written, "an HEVC record round trip") }
        for unit in record.units {
            _ = HEVC.parameterSetID(unit)
            _ = HEVC.reorderDepth(unit)
            _ = HEVC.seiPayloadTypes(unit)
            _ = HEVCRenumbering(videoSet: (0, 1), sequenceSet: (0, 1), pictureSet: (0, 1)).apply(unit)
        }
    }
    for unit in AVCRecord.annexBUnits(bytes) { _ = H264.parameterSetID(unit) }
    bytes.withUnsafeBufferPointer { sample in
        for lengthSize in [1, 2, 4] { H264.forEachUnit(in: sample, lengthSize: lengthSize) { _, _ in } }
    }
    return 0
}
