import Foundation

/// Encodes and muxes on its own thread, fed through a bounded queue so the
/// stitcher can prepare the next pictures while the encoder works, and memory
/// stays flat however long the output is.
final class OutputWriter: @unchecked Sendable {
    // SAFETY: `sink` is created on the caller's thread and from then on touched
    // only by the writer thread (`run`); `failure` is guarded by `lock`; frames
    // arrive through the queue, handed over whole.
    private let sink: EncodingSink
    /// Room for a few frames: enough to keep the encoder busy while the next
    /// picture is made, few enough that decoder buffers are not held long.
    private let queue = BoundedQueue<Handoff<Item>>(capacity: 4)
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
    var audioFrameSize: Int { sink.audioFrameSize }

    init(path: String, canvas: Canvas, settings: StitchSettings, chapters: [Chapter] = []) throws {
        var format = EncodingSink.Format(width: canvas.width, height: canvas.height, frameRate: canvas.frameRate,
                                         codec: settings.codec, crf: settings.crf, preset: settings.preset)
        format.audio = settings.includeAudio
            ? .init(sampleRate: canvas.sampleRate, channels: 2, bitRate: settings.audioBitRate) : nil
        format.chapters = chapters
        sink = try EncodingSink(path: path, format: format)
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
                case .picture(let frame): try sink.encode(picture: frame)
                case .sound(let frame): try sink.encode(sound: frame)
                case .end:
                    try sink.finish()
                    queue.close()
                }
            }
        } catch {
            lock.withLock { failure = error }
            queue.close()
            while queue.pop() != nil {} // release queued frames
        }
    }
}
