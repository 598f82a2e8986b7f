import Foundation

/// Encodes and muxes on its own thread, fed through a bounded queue so the
/// stitcher can prepare the next pictures while the encoder works, and memory
/// stays flat however long the output is.
final class OutputWriter: @unchecked Sendable {
    // SAFETY: the muxer, encoders and packet are created on the caller's thread
    // and from then on touched only by the writer thread (`run`); `failure` is
    // guarded by `lock`; frames arrive through the queue, handed over whole.
    private let muxer: Muxer
    private let videoEncoder: Encoder
    private let audioEncoder: Encoder?
    private let videoStream: Int
    private let audioStream: Int
    private let packet = Packet()
    private let queue = BoundedQueue<Handoff<Item>>(capacity: 8)
    private let lock = NSLock()
    private var failure: Error?
    private let done = DispatchSemaphore(value: 0)
    /// Whether the caller has waited for the thread already (caller's thread only).
    private var joined = false

    private enum Item {
        case picture(Frame)
        case sound(Frame)
        case end
    }

    /// Samples per audio frame the encoder takes.
    let audioFrameSize: Int

    init(path: String, canvas: Canvas, settings: StitchSettings) throws {
        muxer = try Muxer(path: path, format: "mp4")
        videoEncoder = try Encoder.video(
            codec: settings.codec == .hevc ? .hevc : .h264, width: canvas.width, height: canvas.height,
            frameRate: canvas.frameRate, crf: settings.crf, preset: settings.preset,
            globalHeader: muxer.needsGlobalHeader)
        videoStream = try muxer.addStream(for: videoEncoder)
        if settings.includeAudio {
            let encoder = try Encoder.aac(sampleRate: canvas.sampleRate, bitRate: settings.audioBitRate,
                                          globalHeader: muxer.needsGlobalHeader)
            audioEncoder = encoder
            audioStream = try muxer.addStream(for: encoder)
            audioFrameSize = max(encoder.frameSize, 1)
        } else {
            audioEncoder = nil
            audioStream = -1
            audioFrameSize = 1024
        }
        try muxer.writeHeader(options: ["movflags": "+faststart"])
        let thread = Thread { [self] in run() }
        thread.name = "segue-encoder"
        thread.start()
    }

    /// Queues a picture whose pts counts output frames; the writer takes it over.
    func submit(picture: Frame) throws {
        try submit(.picture(picture))
    }

    /// Queues planar-float stereo audio whose pts counts output samples.
    func submit(sound: Frame) throws {
        try submit(.sound(sound))
    }

    /// Flushes the encoders, writes the trailer and closes the file.
    func finish() throws {
        try submit(.end)
        join()
        if let failure = currentFailure { throw failure }
    }

    /// Stops without finishing the file (the caller removes it).
    func abandon() {
        queue.close()
        join()
    }

    private func join() {
        if !joined { done.wait() }
        joined = true
    }

    private var currentFailure: Error? { lock.withLock { failure } }

    private func submit(_ item: Item) throws {
        if let failure = currentFailure { throw failure }
        if !queue.push(Handoff(value: item)) {
            throw currentFailure ?? SegueError.stitchFailed("the encoder stopped")
        }
    }

    private func run() {
        defer { done.signal() }
        do {
            while let item = queue.pop()?.value {
                switch item {
                case .picture(let frame):
                    try videoEncoder.send(frame)
                    try drain(videoEncoder, to: videoStream)
                case .sound(let frame):
                    guard let audioEncoder else { continue }
                    try audioEncoder.send(frame)
                    try drain(audioEncoder, to: audioStream)
                case .end:
                    try videoEncoder.sendEndOfStream()
                    try drain(videoEncoder, to: videoStream)
                    if let audioEncoder {
                        try audioEncoder.sendEndOfStream()
                        try drain(audioEncoder, to: audioStream)
                    }
                    try muxer.finish()
                    queue.close()
                }
            }
        } catch {
            lock.withLock { failure = error }
            queue.close()
            while queue.pop() != nil {} // release queued frames
        }
    }

    private func drain(_ encoder: Encoder, to stream: Int) throws {
        while try encoder.receive(into: packet) == .ready {
            // A picture lasts one tick of 1/fps; libx264 leaves it unset, and
            // the muxer needs it for the last frame's duration.
            if stream == videoStream && packet.duration == 0 { packet.duration = 1 }
            try muxer.write(packet, stream: stream)
        }
    }
}
