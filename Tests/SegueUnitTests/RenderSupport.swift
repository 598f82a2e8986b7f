import Foundation
import XCTest
@testable import SegueRender
@testable import SegueInput
@testable import SegueModel
@testable import SegueMedia
import SegueCore
import SegueRuntime

// The render tests' shared helpers: sinks and sound outputs that record what
// reaches them, pictures and sound made in memory, clips and WAV files written
// in process, and an output read back with Segue's own demuxer and decoders.

/// What reached a recording sink, in order.
enum SinkEvent: Equatable {
    case picture(pts: Int64?, crf: Int?, luma: UInt8)
    case sound(pts: Int64?, samples: Int)
    case copied(frame: Int, until: Int?)
    case copiedSound(slot: Int)
    case finish
}

/// Why a recording sink failed when told to.
struct SinkFailure: Error, Equatable {}

/// An output sink that records what reaches it instead of writing it; it fails
/// (with `SinkFailure`) at event `failAt` (0: the first) when told to, and with a
/// `gate`, signals its `entered` and waits for its `release` before encoding its first picture.
class RecordingSink: OutputSink, @unchecked Sendable {
    // SAFETY: `recorded` and `count` are read and written under `lock`; the
    // writer's thread records, the test's reads.
    private let lock = NSLock()
    private var recorded: [SinkEvent] = []
    private var lumaPlanes: [PlaneImage] = []
    private var count = 0
    let audioFrameSize: Int
    let failAt: Int?
    let gate: (entered: DispatchSemaphore, release: DispatchSemaphore)?
    private var gated = false

    init(audioFrameSize: Int = 1024, failAt: Int? = nil, gate: (entered: DispatchSemaphore, release: DispatchSemaphore)? = nil) {
        self.audioFrameSize = audioFrameSize
        self.failAt = failAt
        self.gate = gate
    }

    var events: [SinkEvent] { lock.withLock { recorded } }
    /// The luma plane of each picture encoded.
    var pictures: [PlaneImage] { lock.withLock { lumaPlanes } }

    func record(_ event: SinkEvent) throws {
        try lock.withLock {
            defer { count += 1 }
            if count == failAt { throw SinkFailure() }
            recorded.append(event)
        }
    }

    func encode(picture: Frame, crf: Int?) throws {
        if let gate, !gated {
            gated = true
            gate.entered.signal()
            gate.release.wait()
        }
        let luma = picture.plane(0)
        try record(.picture(pts: picture.pts, crf: crf, luma: luma.bytes[0]))
        lock.withLock { lumaPlanes.append(luma) }
    }

    func encode(sound block: Frame) throws { try record(.sound(pts: block.pts, samples: block.sampleCount)) }

    func finish() throws { try record(.finish) }
}

/// A recording sink that also takes copied packets, as an MP4's does.
final class RecordingCopyingSink: RecordingSink, CopyingSink, @unchecked Sendable {
    func copy(_ packet: Packet, at time: FrameTime, until end: FrameTime?) throws {
        try record(.copied(frame: time.frame, until: end?.frame))
    }

    func copy(sound packet: Packet, slot: Int) throws { try record(.copiedSound(slot: slot)) }
}

/// A sound output that records each block (its start and first channel) and its finish.
final class RecordingSoundOutput: SoundOutput {
    var blocks: [(start: Int, samples: [Float])] = []
    var finished = 0

    func write(_ block: [[Float]], at start: Int) throws { blocks.append((start, block[0])) }
    func finish() throws { finished += 1 }
}

/// Pictures and sound made in memory.
enum Made {
    /// A yuv420p picture of one flat luma (neutral chroma).
    static func picture(luma: UInt8, width: Int = 64, height: Int = 36, pts: Int64? = nil) throws -> Frame {
        let picture = try Frame.video(width: width, height: height)
        picture.fill(plane: 0, x: 0, y: 0, width: width, height: height, with: Int(luma))
        let chroma = picture.planeSize(1)
        for plane in 1...2 { picture.fill(plane: plane, x: 0, y: 0, width: chroma.width, height: chroma.height, with: 128) }
        picture.pts = pts
        return picture
    }

    /// A planar-float stereo block of `samples` copies of `value`.
    static func sound(samples: Int, value: Float = 0, sampleRate: Int = 48_000, pts: Int64? = nil) throws -> Frame {
        let block = try Frame.audio(sampleCount: samples, channels: 2, sampleRate: sampleRate)
        block.setSamples(from: [[Float]](repeating: [Float](repeating: value, count: samples), count: 2), start: 0)
        block.pts = pts
        return block
    }

    /// `count` samples of a sine at `frequency`, from sample `start` on.
    static func tone(_ frequency: Double, amplitude: Double = 0.5, from start: Int = 0, count: Int, sampleRate: Int = 48_000) -> [Float] {
        (0..<count).map { Float(amplitude * sin(2 * .pi * frequency * Double(start + $0) / Double(sampleRate))) }
    }

    /// A stereo block of `count` copies of `value` per channel.
    static func block(_ count: Int, _ value: Float = 0) -> [[Float]] {
        [[Float]](repeating: [Float](repeating: value, count: count), count: 2)
    }

    /// The power of `frequency` in `samples` (Goertzel), for telling tones apart.
    static func power(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Int = 48_000) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / Double(sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            (previous, beforePrevious) = (Double(sample) + coefficient * previous - beforePrevious, previous)
        }
        return (previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious)
            / Double(max(1, samples.count * samples.count))
    }

    static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}

/// A clip written in process with Segue's own encoders: every picture one flat
/// luma (which says the clip), and a tone of `toneHz` (none when nil).
struct TestClip {
    var luma: UInt8
    var frames = 12
    var width = 160
    var height = 90
    var frameRate = Rational(24, 1)
    var toneHz: Double? = 440
    var sampleRate = 48_000
    var container = OutputContainer.mp4

    func write(to path: String) throws {
        var format = EncodingSink.Format(width: width, height: height, frameRate: frameRate, codec: container.defaultCodec, crf: 10,
                                         preset: "ultrafast")
        format.container = container
        format.audio = toneHz == nil ? nil : .init(sampleRate: sampleRate, channels: 2, bitRate: 96_000)
        let sink = try EncodingSink(path: path, format: format)
        for index in 0..<frames { try sink.encode(picture: try Made.picture(luma: luma, width: width, height: height, pts: Int64(index))) }
        if let toneHz {
            let total = Int((Double(frames) / frameRate.value * Double(sampleRate)).rounded())
            var position = 0
            while position < total {
                let count = min(sink.audioFrameSize, total - position)
                let block = try Frame.audio(sampleCount: count, channels: 2, sampleRate: sampleRate)
                let tone = Made.tone(toneHz, from: position, count: count, sampleRate: sampleRate)
                block.setSamples(from: [tone, tone], start: 0)
                block.pts = Int64(position)
                try sink.encode(sound: block)
                position += count
            }
        }
        try sink.finish()
    }
}

/// A 16-bit PCM WAV file of `channels` (stereo: two lists of samples), written byte by byte.
enum TestWAV {
    static func write(_ channels: [[Float]], sampleRate: Int = 48_000, to path: String) throws {
        let count = channels[0].count, channelCount = channels.count
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + count * channelCount * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(channelCount)); append(UInt32(sampleRate))
        append(UInt32(sampleRate * channelCount * 2)); append(UInt16(channelCount * 2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(count * channelCount * 2))
        for index in 0..<count {
            for channel in channels { append(Int16((max(-1, min(1, channel[index])) * 32767).rounded())) }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A stereo WAV of a sine at `frequency` lasting `seconds`.
    static func tone(_ frequency: Double, seconds: Double, amplitude: Double = 0.5, to path: String) throws {
        let tone = Made.tone(frequency, amplitude: amplitude, count: Int(seconds * 48_000))
        try write([tone, tone], to: path)
    }
}

/// A file read back with Segue's demuxer and decoders: each picture's mean luma and time, the first channel's sound.
struct ReadBack {
    var formatName = ""
    var videoCodec: String?
    var audioCodec: String?
    var width = 0
    var height = 0
    var lumas: [Double] = []
    var times: [Double] = []
    var audio: [Float] = []
    var sampleRate = 0

    init(_ path: String) throws {
        let demuxer = try InputAccess().openDemuxer(path)
        formatName = demuxer.formatName
        let videoIndex = demuxer.bestStream(.video), audioIndex = demuxer.bestStream(.audio)
        videoCodec = videoIndex.map { demuxer.streams[$0].codecName }
        audioCodec = audioIndex.map { demuxer.streams[$0].codecName }
        let timeBase = videoIndex.map { demuxer.streams[$0].timeBase.value } ?? 0
        let video = try videoIndex.map { try Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) }
        let sound = try audioIndex.map { try Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) }
        let packet = Packet(), frame = Frame()
        func drain(_ decoder: Decoder) throws {
            while try decoder.receive(into: frame) == .ready {
                if decoder === video {
                    (width, height) = (frame.width, frame.height)
                    let luma = frame.plane(0)
                    lumas.append(luma.mean(x: 0, y: 0, width: luma.width, height: luma.height))
                    times.append(Double(frame.pts ?? 0) * timeBase)
                } else {
                    sampleRate = frame.sampleRate
                    audio += frame.samples(channel: 0)
                }
            }
        }
        while try demuxer.read(into: packet) {
            if let video, packet.streamIndex == video.streamIndex { try video.send(packet); try drain(video) }
            if let sound, packet.streamIndex == sound.streamIndex { try sound.send(packet); try drain(sound) }
        }
        for decoder in [video, sound].compactMap({ $0 }) {
            try decoder.sendEndOfStream()
            try drain(decoder)
        }
    }

    /// Each picture's luma rounded, so a flat clip's pictures read as its value.
    var roundedLumas: [Int] { lumas.map { Int($0.rounded()) } }
}

/// A fresh folder for one test's files, removed with it.
final class TestFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("segue-unit-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The names of the files in the folder, sorted (hidden ones too).
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// A planned clip of `seconds` at `rate`, with or without sound, that no test opens.
func plannedInfo(_ name: String = "a.mp4", seconds: Double, rate: Rational = Rational(24, 1), audio: Bool = false) -> ClipInfo {
    ClipInfo(path: name, container: "mp4", videoCodec: "h264", codedWidth: 160, codedHeight: 90,
             sampleAspectRatio: Rational(1, 1), frameRate: rate, pixelFormat: "yuv420p", duration: seconds,
             audio: audio ? ClipFacts.AudioInfo(codec: "aac", sampleRate: 48_000, channels: 2, timeBase: Rational(1, 48_000)) : nil)
}

/// Asserts that `body` throws a `SegueError` whose reason is `reason`.
func assertSegueError<T>(_ reason: SegueError.Reason, _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual((error as? SegueError)?.reason, reason, "\(error)", file: file, line: line)
    }
}

extension StitchReport {
    /// A report of nothing yet, for an output to complete into.
    static var empty: StitchReport {
        StitchReport(output: "", container: .mp4, canvas: Canvas(width: 2, height: 2, frameRate: Rational(24, 1), sampleRate: 48_000),
                     clipCount: 0, frames: 0, audioSamples: 0, plannedDuration: 0, joins: [], startupSeconds: 0, warnings: [],
                     wallSeconds: 0, peakMemoryBytes: 0)
    }
}
