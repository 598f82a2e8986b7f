internal import SegueBitstream
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// What copying needs to know of a codec's bitstream: which NAL units are
/// parameter sets (and their ids), which pictures decoding can start at, and
/// how a track's sample description lists the sets.
enum CopySyntax: Sendable {
    case h264, hevc

    /// The syntax of an output codec `--smart` copies into (H.264, HEVC; AV1 is never copied into).
    init(_ codec: VideoCodecChoice) { self = codec == .hevc ? .hevc : .h264 }

    /// The codec's name as the prober gives it.
    var codecName: String { self == .hevc ? "hevc" : "h264" }

    /// A parameter set's kind (its NAL unit type) and id.
    struct SetKey: Hashable, Comparable, CustomStringConvertible {
        var type: Int
        var id: Int
        var kindName: String
        static func < (a: SetKey, b: SetKey) -> Bool { (a.type, a.id) < (b.type, b.id) }
        var description: String { "\(kindName) id \(id)" }
    }

    func unitType(header: UInt8) -> Int { self == .hevc ? HEVC.unitType(firstByte: header) : Int(header & 0x1F) }

    /// The unit's kind and id when it is a parameter set.
    func setKey(_ unit: [UInt8]) -> SetKey? {
        guard let header = unit.first else { return nil }
        let type = unitType(header: header)
        let names: [Int: String] = self == .hevc
            ? [HEVC.videoParameterSet: "VPS", HEVC.sequenceParameterSet: "SPS", HEVC.pictureParameterSet: "PPS"]
            : [H264.sequenceParameterSet: "SPS", H264.pictureParameterSet: "PPS"]
        guard let name = names[type] else { return nil }
        let id = self == .hevc ? HEVC.parameterSetID(unit) : H264.parameterSetID(unit)
        return id.map { SetKey(type: type, id: $0, kindName: name) }
    }

    func isParameterSet(_ type: Int) -> Bool {
        self == .hevc ? (HEVC.videoParameterSet...HEVC.pictureParameterSet).contains(type)
            : type == H264.sequenceParameterSet || type == H264.pictureParameterSet
    }

    /// A picture decoding can start at with nothing earlier: an IDR; for HEVC
    /// also a CRA or BLA (whose leading pictures are a GOP of their own: `ClipScan.copyPlan`).
    func isRandomAccess(_ type: Int) -> Bool { self == .hevc ? HEVC.isRandomAccess(type) : type == H264.idrSlice }

    /// A track's sample description (avcC or hvcC; or an encoder's Annex B
    /// header): its parameter sets, checked to be 8-bit 4:2:0 with 4-byte lengths.
    struct Description {
        var units: [[UInt8]]
        /// HEVC prefix SEI in the header (an encoder's HDR10 mastering display and light levels).
        var declarations: [[UInt8]] = []
        var profile: Int
        var level: Int
        fileprivate var hevcHeader: [UInt8]?
        fileprivate var avc: AVCRecord?
    }

    /// Nil when the header can't be read.
    func description(_ extradata: [UInt8]) -> Description? {
        switch self {
        case .h264:
            guard let record = AVCRecord(extradata) else { return nil }
            return Description(units: record.sequenceParameterSets + record.pictureParameterSets,
                               profile: Int(record.profile), level: Int(record.level), avc: record)
        case .hevc:
            guard let record = HEVCRecord(extradata) else { return nil }
            return Description(units: record.units.filter { isParameterSet(HEVC.unitType($0)) },
                               declarations: record.units.filter { HEVC.unitType($0) == HEVC.prefixSEI },
                               profile: Int(record.header[1] & 0x1F), level: Int(record.level), hevcHeader: record.header)
        }
    }

    /// Why samples described by `extradata` can't be copied as they are into
    /// an output of `bitDepth`, or nil if they can.
    func unfitness(_ extradata: [UInt8], bitDepth: Int) -> NotCopied? {
        // A header in Annex B form (MPEG-TS, raw streams) means samples with start codes, not lengths.
        guard extradata.first == 1 else {
            return .startCodes(hevc: self == .hevc)
        }
        switch self {
        case .h264:
            guard let record = AVCRecord(extradata), record.lengthSize == 4 else { return .noLengthRecord(hevc: false) }
            return record.chromaFormat == 1 && Int(record.lumaBitDepth) == bitDepth ? nil : .notOutputSamples(bitDepth: bitDepth)
        case .hevc:
            guard let record = HEVCRecord(extradata), record.lengthSize == 4 else { return .noLengthRecord(hevc: true) }
            return record.chromaFormat == 1 && record.lumaBitDepth == bitDepth ? nil : .notOutputSamples(bitDepth: bitDepth)
        }
    }

    /// One sample description listing `units`: the rest from `base` (the
    /// first copied clip's), but the highest H.264 profile and any level given.
    /// `complete`: no sample carries parameter sets of its own (HEVC's array_completeness).
    func record(base: Description, units: [[UInt8]], profile: Int, level: Int, complete: Bool) -> [UInt8] {
        switch self {
        case .h264:
            var record = base.avc!
            record.profile = UInt8(profile)
            record.level = UInt8(level)
            record.sequenceParameterSets = units.filter { Int($0[0] & 0x1F) == H264.sequenceParameterSet }
            record.pictureParameterSets = units.filter { Int($0[0] & 0x1F) == H264.pictureParameterSet }
            return record.bytes
        case .hevc:
            var record = HEVCRecord(header: base.hevcHeader!, units: units)
            record.level = UInt8(level)
            return record.bytes(complete: complete)
        }
    }
}
