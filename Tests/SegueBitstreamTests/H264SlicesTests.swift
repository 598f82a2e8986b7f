import Foundation
import XCTest
@testable import SegueBitstream

/// H.264 slice headers read, an open GOP's I picture rewritten as an IDR
/// picture and the slices after it renumbered, on streams libx264 writes at
/// test time (the ffmpeg CLI, open-gop=1: a non-IDR I picture every 30).
/// The proof is FFmpeg's decoder: a stream cut at that I picture decodes
/// without a word to the very pictures the whole stream shows from it on.
final class H264SlicesTests: XCTestCase {
    func testARecoveryPointSaysHowManyPicturesDecodingFromItTakes() {
        // recovery_frame_cnt ue(v), exact_match_flag, broken_link_flag, changing_slice_group_idc u(2), then the stop bit.
        XCTAssertEqual(H264.recoveryFrameCount([0x06, 0x06, 0x01, 0b1100_0100, 0x80]), 0, "x264's: from it on")
        XCTAssertEqual(H264.recoveryFrameCount([0x06, 0x06, 0x01, 0b0111_0001, 0x80]), 2)
        // After another message (a user-data one, type 5, of 2 bytes).
        XCTAssertEqual(H264.recoveryFrameCount([0x06, 0x05, 0x02, 0xAA, 0xBB, 0x06, 0x01, 0b1100_0100, 0x80]), 0)
        XCTAssertNil(H264.recoveryFrameCount([0x06, 0x05, 0x01, 0xAA, 0x80]), "no recovery point")
        XCTAssertNil(H264.recoveryFrameCount([0x01, 0x06, 0x01, 0b1100_0100, 0x80]), "not an SEI unit")
    }

    /// x264's open GOPs: keyframes at 0, 30 and 60, the last two non-IDR I
    /// pictures that the two B pictures before each refer across. b-adapt=0
    /// keeps two B pictures before every P or I picture: x264's own choice on
    /// testsrc2 puts a P picture at 29, and the I picture has no leading pictures.
    static let openGOP = "keyint=30:min-keyint=30:open-gop=1:bframes=2:b-adapt=0:b-pyramid=none:scenecut=0"

    func testEveryCABACSliceIsReadAndItsNumbersCountAsTheSpecificationSays() throws {
        try checkHeaders(try encode(x264: Self.openGOP))
    }

    func testEveryCAVLCSliceIsReadAndItsNumbersCountAsTheSpecificationSays() throws {
        try checkHeaders(try encode(x264: Self.openGOP + ":cabac=0"))
    }

    func testAMainProfileStreamCutAtItsOpenGOPKeyframeDecodesToTheSamePictures() throws {
        try checkCut(try encode(x264: Self.openGOP, profile: "main"))
    }

    func testACABACStreamCutAtItsOpenGOPKeyframeDecodesToTheSamePictures() throws {
        try checkCut(try encode(x264: Self.openGOP))
    }

    func testACAVLCStreamCutAtItsOpenGOPKeyframeDecodesToTheSamePictures() throws {
        try checkCut(try encode(x264: Self.openGOP + ":cabac=0"))
    }

    func testAStreamOfFourSlicesAPictureIsCutAtItsKeyframeToTheSamePictures() throws {
        let stream = try encode(x264: Self.openGOP + ":cabac=0:slices=4")
        XCTAssertEqual(stream.slices.count, 4 * 90)
        try checkCut(stream)
    }

    func testAnMBAFFStreamsFieldFlagAndBottomFieldOrderAreReadAndKept() throws {
        // interlaced=1 codes frame pictures of field pairs (frame_mbs_only_flag 0, field_pic_flag 0)
        // with delta_pic_order_cnt_bottom in every slice header.
        let stream = try encode(x264: Self.openGOP + ":interlaced=1")
        XCTAssertFalse(stream.syntax.sequences.values.contains { $0.frameMbsOnly })
        XCTAssertTrue(stream.syntax.pictures.values.allSatisfy(\.bottomFieldPicOrderPresent))
        try checkHeaders(stream)
        try checkCut(stream)
    }

    func testABaselineStreamsSlicesHaveNoPOCLsbAndAreRenumberedByFrameNumAlone() throws {
        // Without B pictures x264 writes closed GOPs and pic_order_cnt_type 2: POC follows frame_num.
        let stream = try encode(x264: "keyint=30:min-keyint=30:open-gop=1:scenecut=0", profile: "baseline")
        let headers = try stream.headers()
        XCTAssertEqual(headers.count, 90)
        XCTAssertTrue(headers.allSatisfy { $0.pocLsb == nil })
        XCTAssertEqual(headers.indices.filter { headers[$0].isIDR }, [0, 30, 60])
        XCTAssertTrue(headers.allSatisfy { $0.isIDR == ($0.sliceType == 2) && $0.sliceType != 1 })
        let maxFrameNum = try stream.maxFrameNum()
        for index in 1..<headers.count where !headers[index].isIDR {
            XCTAssertEqual(headers[index].frameNum, (headers[index - 1].frameNum + 1) % maxFrameNum, "every picture is a reference")
        }
        try checkRenumberingRoundTrip(stream)
        XCTAssertNil(stream.syntax.idrSlice(stream.slices[0]), "already an IDR slice")
        XCTAssertNil(stream.syntax.idrSlice(stream.slices[1]), "a P slice")
    }

    func testAnIDRSliceFromAnISliceReadsAsAnIDRPictureNumberedFromZero() throws {
        let stream = try encode(x264: Self.openGOP)
        let headers = try stream.headers()
        let key = try XCTUnwrap(headers.indices.first { !headers[$0].isIDR && headers[$0].sliceType == 2 })
        for idrPicID in [0, 1, 7, 300] {
            let idr = try XCTUnwrap(stream.syntax.idrSlice(stream.slices[key], idrPicID: idrPicID))
            XCTAssertEqual(stream.syntax.header(idr),
                           H264SliceHeader(nalRefIdc: headers[key].nalRefIdc, isIDR: true, sliceType: 2, ppsID: headers[key].ppsID,
                                           frameNum: 0, pocLsb: 0, fieldPic: false))
        }
        XCTAssertNil(stream.syntax.idrSlice(stream.slices[key], idrPicID: -1))
        XCTAssertNil(stream.syntax.idrSlice(stream.slices[key], idrPicID: 65536), "idr_pic_id is at most 65535")
    }

    func testSlicesRenumberedBackAndForthComeBackByteForByte() throws {
        try checkRenumberingRoundTrip(try encode(x264: Self.openGOP))
        try checkRenumberingRoundTrip(try encode(x264: Self.openGOP + ":cabac=0"))
    }

    func testOnlyNonIDRISlicesBecomeIDRSlicesAndIDRSlicesAreNotRenumbered() throws {
        let stream = try encode(x264: Self.openGOP)
        let headers = try stream.headers()
        for (slice, header) in zip(stream.slices, headers) {
            if header.isIDR || header.sliceType != 2 {
                XCTAssertNil(stream.syntax.idrSlice(slice), "\(header)")
            }
            if header.isIDR {
                XCTAssertNil(stream.syntax.renumberedSlice(slice, frameNumBack: 1, pocLsbBack: 2))
            }
        }
        XCTAssertTrue(headers.contains { $0.sliceType == 0 } && headers.contains { $0.sliceType == 1 })
        XCTAssertNil(stream.syntax.header(stream.parameterSets[0]), "an SPS is no slice")
        XCTAssertNil(stream.syntax.header([0x65]), "a slice without a header")
        XCTAssertNil(H264SliceSyntax(parameterSets: []).flatMap { $0.header(stream.slices[0]) }, "a slice of an unknown PPS")
    }

    func testParameterSetsThatCantBeReadAreRefused() throws {
        let stream = try encode(x264: Self.openGOP)
        let sps = try XCTUnwrap(stream.parameterSets.first { $0[0] & 0x1F == 7 })
        XCTAssertNil(H264SliceSyntax(parameterSets: [Array(sps.prefix(6))]), "an SPS cut short")
        XCTAssertNil(H264SliceSyntax(parameterSets: [[0x68]]), "an empty PPS")
        XCTAssertNotNil(H264SliceSyntax(parameterSets: stream.parameterSets + [[0x06, 0x05]]), "other units are passed over")
    }

    /// A Baseline SPS and PPS and an I slice of a non-IDR picture, built bit by bit to 7.3.2.1.1,
    /// 7.3.2.2 and 7.3.3, with the syntax `idrSlice` refuses switched on one at a time.
    struct MadeUp {
        var pocType = 0
        var frameMbsOnly = true
        var fieldPic = false
        var sliceGroups = 0
        var operations = false

        static func unit(_ header: UInt8, _ bits: String) -> [UInt8] {
            var writer = BitWriter()
            for bit in bits + "1" where bit != " " { writer.write(bit == "1" ? 1 : 0, bits: 1) } // then rbsp_stop_one_bit
            return [header] + EmulationPrevention.added(writer.bytes)
        }

        var parameterSets: [[UInt8]] {
            // profile 66, constraints, level 30, sps id 0, log2_max_frame_num_minus4 0, the POC type and its fields,
            // 1 reference frame, no gaps, 1x1 macroblocks, frame_mbs_only_flag (+ mb_adaptive 0), direct_8x8 1, no crop, no VUI.
            let poc = ["1 1", "010 0 1 1 1", "011"][pocType] // type 0: lsb width 4; type 1: flag 0, offsets 0, cycle 0
            let sequence = "01000010 00000000 00011110 1 1 " + poc + " 010 0 1 1 " + (frameMbsOnly ? "1" : "0 0") + " 1 0 0"
            // pps 0, sps 0, CAVLC, no bottom-field POC, slice groups, defaults 1 reference, no weights, qp/qs/chroma 0,
            // deblocking filter control, no constrained intra, no redundant_pic_cnt.
            let groups = sliceGroups == 0 ? "1" : "010"
            let picture = "1 1 0 0 " + groups + " 1 1 0 00 1 1 1 1 0 0"
            return [Self.unit(0x67, sequence), Self.unit(0x68, picture)]
        }

        /// first_mb 0, slice_type 7, pps 0, frame_num 3, the POC fields (lsb 6), marking, qp delta 0,
        /// disable_deblocking_filter_idc 1, then "1011" of slice data.
        var slice: [UInt8] {
            let field = frameMbsOnly ? "" : (fieldPic ? "1 0 " : "0 ")
            let poc = ["0110 ", "1 ", ""][pocType]
            let marking = operations ? "1 010 1 1" : "0" // one operation 1 (difference_of_pic_nums_minus1 0), then 0
            return Self.unit(0x61, "1 0001000 1 0011 " + field + poc + marking + " 1 010 1011")
        }
    }

    func testAMadeUpISliceBecomesAnIDRSliceBitForBit() throws {
        let made = MadeUp()
        let syntax = try XCTUnwrap(H264SliceSyntax(parameterSets: made.parameterSets))
        XCTAssertEqual(syntax.header(made.slice), H264SliceHeader(nalRefIdc: 3, isIDR: false, sliceType: 2, ppsID: 0,
                                                                  frameNum: 3, pocLsb: 6, fieldPic: false))
        // idr_pic_id 0 after frame_num 0, lsb 0, the IDR's two marking flags; the header's rest and the data shifted by 1 bit.
        XCTAssertEqual(syntax.idrSlice(made.slice), MadeUp.unit(0x65, "1 0001000 1 0000 1 0000 00 1 010 1011"))
        XCTAssertEqual(syntax.idrSlice(made.slice, idrPicID: 2), MadeUp.unit(0x65, "1 0001000 1 0000 011 0000 00 1 010 1011"))
        XCTAssertEqual(syntax.renumberedSlice(made.slice, frameNumBack: 5, pocLsbBack: 7),
                       MadeUp.unit(0x61, "1 0001000 1 1110 1111 0 1 010 1011"), "3 - 5 and 6 - 7, modulo 16")
    }

    func testAMadeUpISliceIsNotMadeIDRWhereItCantBeDoneExactly() throws {
        var variants: [(String, MadeUp)] = []
        var made = MadeUp()
        made.operations = true
        variants.append(("a memory management operation", made))
        made = MadeUp()
        made.pocType = 1
        variants.append(("POC type 1", made))
        made = MadeUp()
        made.frameMbsOnly = false
        made.fieldPic = true
        variants.append(("a field picture", made))
        made = MadeUp()
        made.sliceGroups = 1
        variants.append(("slice groups", made))
        for (reason, made) in variants {
            let syntax = try XCTUnwrap(H264SliceSyntax(parameterSets: made.parameterSets), reason)
            XCTAssertNotNil(syntax.header(made.slice), reason)
            XCTAssertNil(syntax.idrSlice(made.slice), reason)
        }
        made = MadeUp()
        made.pocType = 2
        let syntax = try XCTUnwrap(H264SliceSyntax(parameterSets: made.parameterSets))
        XCTAssertEqual(syntax.header(made.slice)?.pocLsb, nil)
        XCTAssertEqual(syntax.idrSlice(made.slice), MadeUp.unit(0x65, "1 0001000 1 0000 1 00 1 010 1011"), "POC type 2 has no lsb")
        made = MadeUp()
        made.frameMbsOnly = false
        XCTAssertEqual(try XCTUnwrap(H264SliceSyntax(parameterSets: made.parameterSets)).idrSlice(made.slice),
                       MadeUp.unit(0x65, "1 0001000 1 0000 0 1 0000 00 1 010 1011"), "field_pic_flag 0 kept")
    }

    // MARK: Checks

    /// A stream from `OpenGOPStream.encode`, its folder removed when the test ends.
    func encode(x264: String, profile: String = "high") throws -> OpenGOPStream {
        let stream = try OpenGOPStream.encode(x264: x264, profile: profile)
        addTeardownBlock { try? FileManager.default.removeItem(at: stream.folder) }
        return stream
    }

    /// Every slice is read; the I picture at 30 is a non-IDR reference picture and the two B
    /// pictures after it in decode order are non-reference pictures shown before it; frame_num
    /// counts reference pictures, and the POC the lsb values give (8.2.1.1) shows the pictures
    /// 0 to 89 in order.
    func checkHeaders(_ stream: OpenGOPStream, file: StaticString = #filePath, line: UInt = #line) throws {
        let pictures = try stream.pictures()
        XCTAssertEqual(pictures.count, 90, file: file, line: line)
        let headers = pictures.map(\.header)
        XCTAssertEqual(headers.first?.isIDR, true, file: file, line: line)
        let maxFrameNum = try stream.maxFrameNum(), maxPocLsb = try stream.maxPocLsb()
        var previous = headers[0], previousMsb = 0, previousLsb = 0
        var orders: [Int] = []
        for header in headers {
            if header.isIDR {
                XCTAssertEqual(header.frameNum, 0, file: file, line: line)
                previousMsb = 0
                previousLsb = 0
            } else {
                let expected = previous.nalRefIdc != 0 ? (previous.frameNum + 1) % maxFrameNum : previous.frameNum
                XCTAssertEqual(header.frameNum, expected, "frame_num after \(previous)", file: file, line: line)
            }
            let lsb = try XCTUnwrap(header.pocLsb, file: file, line: line)
            var msb = previousMsb
            if lsb < previousLsb && previousLsb - lsb >= maxPocLsb / 2 { msb += maxPocLsb }
            if lsb > previousLsb && lsb - previousLsb > maxPocLsb / 2 { msb -= maxPocLsb }
            orders.append(msb + lsb)
            if header.nalRefIdc != 0 { (previousMsb, previousLsb) = (msb, lsb) }
            previous = header
        }
        // Each IDR starts POC again: order within each run of pictures from an IDR.
        let idrs = headers.indices.filter { headers[$0].isIDR }
        XCTAssertEqual(idrs, [0], "x264's open GOPs have one IDR picture", file: file, line: line)
        let first = orders.min() ?? 0
        XCTAssertEqual(orders.sorted(), Array(stride(from: first, to: first + 180, by: 2)), "POC 2 a frame", file: file, line: line)

        let keys = headers.indices.filter { !headers[$0].isIDR && headers[$0].sliceType == 2 }
        XCTAssertEqual(keys.map { (orders[$0] - first) / 2 }, [30, 60], "non-IDR I pictures at the keyframes", file: file, line: line)
        for key in keys {
            XCTAssertNotEqual(headers[key].nalRefIdc, 0, file: file, line: line)
            let leading = headers[(key + 1)...].prefix { $0.sliceType != 0 }
            XCTAssertEqual(leading.count, 2, file: file, line: line)
            XCTAssertTrue(leading.allSatisfy { $0.sliceType == 1 && $0.nalRefIdc == 0 }, "\(leading)", file: file, line: line)
            XCTAssertTrue((key + 1...key + 2).allSatisfy { orders[$0] < orders[key] }, "shown before it", file: file, line: line)
        }
    }

    /// A new stream: the parameter sets, the first non-IDR I picture as an IDR picture, then every
    /// later picture but its leading B pictures, renumbered from it. FFmpeg decodes it without an
    /// error to the whole stream's pictures from that I picture on.
    func checkCut(_ stream: OpenGOPStream, file: StaticString = #filePath, line: UInt = #line) throws {
        let pictures = try stream.pictures()
        let key = try XCTUnwrap(pictures.indices.first { !pictures[$0].header.isIDR && pictures[$0].header.sliceType == 2 },
                                file: file, line: line)
        let leading = pictures[(key + 1)...].prefix { $0.header.sliceType != 0 }.count
        XCTAssertEqual(leading, 2, file: file, line: line)
        let frameNumBack = pictures[key].header.frameNum, pocLsbBack = pictures[key].header.pocLsb ?? 0

        var units = stream.parameterSets
        for slice in pictures[key].slices {
            units.append(try XCTUnwrap(stream.syntax.idrSlice(slice), "the I picture as an IDR picture", file: file, line: line))
        }
        var references = 1, forgotten = 0 // the IDR picture
        for picture in pictures[(key + 1 + leading)...] {
            for slice in picture.slices {
                let renumbered = try XCTUnwrap(stream.syntax.renumberedSlice(slice, frameNumBack: frameNumBack, pocLsbBack: pocLsbBack),
                                               file: file, line: line)
                let marked = try XCTUnwrap(stream.syntax.withoutMarkingBeforeIDR(renumbered, referencesSinceIDR: references),
                                           file: file, line: line)
                if marked != renumbered {
                    forgotten += 1
                    XCTAssertEqual(stream.syntax.header(marked), stream.syntax.header(renumbered), file: file, line: line)
                }
                units.append(marked)
            }
            if picture.header.nalRefIdc != 0 { references += 1 }
        }
        // x264's first P picture after the I picture marks the references before it unused.
        XCTAssertEqual(forgotten, pictures[key + 1 + leading].slices.count, file: file, line: line)
        let cut = stream.folder.appendingPathComponent("cut.h264")
        try Data(units.flatMap { [0, 0, 0, 1] + $0 }).write(to: cut)

        let whole = try FFmpeg.frameHashes(stream.file), cutHashes = try FFmpeg.frameHashes(cut)
        XCTAssertEqual(whole.errors, "", file: file, line: line)
        XCTAssertEqual(cutHashes.errors, "", "FFmpeg's decoder says nothing of the cut stream", file: file, line: line)
        XCTAssertEqual(whole.hashes.count, 90, file: file, line: line)
        XCTAssertEqual(cutHashes.hashes.count, 60, "pictures 30 to 89", file: file, line: line)
        XCTAssertEqual(cutHashes.hashes, Array(whole.hashes.suffix(60)), "the same pictures, in the same order", file: file, line: line)
    }

    /// Every non-IDR slice renumbered reads back with its numbers lowered (modulo their ranges)
    /// and everything else as it was, and renumbered back is the slice it was, byte for byte.
    func checkRenumberingRoundTrip(_ stream: OpenGOPStream, file: StaticString = #filePath, line: UInt = #line) throws {
        let maxFrameNum = try stream.maxFrameNum(), maxPocLsb = try stream.maxPocLsb()
        var renumbered = 0
        for slice in stream.slices {
            let header = try XCTUnwrap(stream.syntax.header(slice), file: file, line: line)
            guard !header.isIDR else { continue }
            for (frameBack, pocBack) in [(0, 0), (5, 7), (header.frameNum + 1, (header.pocLsb ?? 0) + 1), (-3, -9)] {
                let moved = try XCTUnwrap(stream.syntax.renumberedSlice(slice, frameNumBack: frameBack, pocLsbBack: pocBack),
                                          file: file, line: line)
                var expected = header
                expected.frameNum = ((header.frameNum - frameBack) % maxFrameNum + maxFrameNum) % maxFrameNum
                expected.pocLsb = header.pocLsb.map { (($0 - pocBack) % maxPocLsb + maxPocLsb) % maxPocLsb }
                XCTAssertEqual(stream.syntax.header(moved), expected, file: file, line: line)
                XCTAssertEqual(stream.syntax.renumberedSlice(moved, frameNumBack: -frameBack, pocLsbBack: -pocBack), slice,
                               file: file, line: line)
            }
            renumbered += 1
        }
        XCTAssertGreaterThan(renumbered, 80, file: file, line: line)
    }

    func testEverySlicesWholeHeaderIsReadWhereItsMarkingIsLookedAt() throws {
        for x264 in [Self.openGOP, Self.openGOP + ":cabac=0", Self.openGOP + ":weightp=2:ref=4:interlaced=1"] {
            let stream = try encode(x264: x264)
            for slice in stream.slices {
                // The header read to its end, whatever the marking: CABAC's alignment bits are all ones there.
                let kept = stream.syntax.withoutMarkingBeforeIDR(slice, referencesSinceIDR: 16)
                XCTAssertEqual(kept, slice, "\(x264): \(String(describing: stream.syntax.header(slice)))")
            }
        }
    }
}

/// One stream libx264 wrote: its parameter sets and slices in decode order.
struct OpenGOPStream {
    var folder: URL
    var file: URL
    var parameterSets: [[UInt8]]
    var slices: [[UInt8]]
    var syntax: H264SliceSyntax

    /// 90 pictures of testsrc2 at 320x180, 30 fps, as an Annex B stream in a folder of its own.
    static func encode(x264: String, profile: String = "high") throws -> OpenGOPStream {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("whole.h264")
        let result = try FFmpeg.run(["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-frames:v", "90",
                                     "-c:v", "libx264", "-profile:v", profile, "-x264-params", x264,
                                     "-bsf:v", "h264_mp4toannexb", "-f", "h264", file.path])
        guard result.status == 0 else { throw FFmpeg.Failure(message: result.errors) }
        let units = AVCRecord.annexBUnits(Array(try Data(contentsOf: file)))
        let parameterSets = units.filter { [7, 8].contains($0[0] & 0x1F) }
        let slices = units.filter { [1, 5].contains($0[0] & 0x1F) }
        guard let syntax = H264SliceSyntax(parameterSets: parameterSets) else {
            throw FFmpeg.Failure(message: "x264's parameter sets weren't read")
        }
        return OpenGOPStream(folder: folder, file: file, parameterSets: parameterSets, slices: slices, syntax: syntax)
    }

    func headers() throws -> [H264SliceHeader] { try slices.map { try XCTUnwrap(syntax.header($0)) } }

    /// Slices grouped into pictures: a picture's slices share their numbers (x264 writes no
    /// two pictures in a row with the same ones).
    func pictures() throws -> [(header: H264SliceHeader, slices: [[UInt8]])] {
        var pictures: [(header: H264SliceHeader, slices: [[UInt8]])] = []
        for slice in slices {
            let header = try XCTUnwrap(syntax.header(slice))
            if let last = pictures.last, last.header == header {
                pictures[pictures.count - 1].slices.append(slice)
            } else {
                pictures.append((header, [slice]))
            }
        }
        return pictures
    }

    func maxFrameNum() throws -> Int { 1 << (try XCTUnwrap(syntax.sequences.values.first).frameNumBits) }
    func maxPocLsb() throws -> Int { 1 << (try XCTUnwrap(syntax.sequences.values.first).pocLsbBits) }
}

/// The ffmpeg CLI, from PATH.
enum FFmpeg {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "ffmpeg: \(message)" }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-hide_banner"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting so a full pipe can't block ffmpeg.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 127 { throw XCTSkip("the ffmpeg CLI isn't on PATH") }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// The MD5 of each decoded picture, in output order, and what the decoder said at level error.
    static func frameHashes(_ file: URL) throws -> (hashes: [String], errors: String) {
        let result = try run(["-v", "error", "-i", file.path, "-fps_mode", "passthrough", "-f", "framemd5", "-"])
        guard result.status == 0 else { throw Failure(message: result.errors) }
        let hashes = result.output.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
        return (hashes, result.errors)
    }
}
