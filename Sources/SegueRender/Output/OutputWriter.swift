import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueRuntime
import SegueCore

/// Encodes and muxes on its own thread, fed through a bounded queue so the
/// stitcher can prepare the next pictures while the encoder works, and memory
/// stays flat however long the output is.
final class OutputWriter {
    /// Room for two pictures and some sound (as when the room was four items,
    /// every other one a sound block): enough to keep the encoder busy while
    /// the next picture is made, few enough that decoder buffers are not held
    /// long. Sound blocks and copied packets are small, and with `--smart` a
    /// copied stretch's encoder work is all AAC: so each weighs 1 (a large
    /// packet, its bytes in a 96th of a picture's), a picture 96, and with no
    /// picture queued the stitcher can run some 100 frames (3 s at 30 fps) ahead,
    /// over its waits for the core it shares, so the encoder seldom stands idle.
    private let queue = BoundedQueue<Handoff<Item>>(capacity: 256)
    private static let pictureWeight = 96
    /// The bytes of one canvas picture (4:2:0, one or two bytes a sample).
    private let pictureBytes: Int
    /// The encoder's thread; its value is the failure that stopped it, if any.
    private var worker: BackgroundTask<Void>!
    let audioFrameSize: Int

    private enum Item {
        case picture(Frame, crf: Int?)
        case copied(Packet, at: FrameTime, until: FrameTime?)
        case sound(Frame)
        case copiedSound(Packet, slot: Int)
        case end
    }

    /// Draws `--overlay` on each picture before it is queued; nil without one.
    private let overlay: PictureOverlay?
    /// Scores each picture as it is queued, for where a cover is taken (`--cover`, `--poster`); nil without one.
    var scout: CoverScout?

    /// `videoLayout` and `soundLayout`, when given, lay their tracks out
    /// (`--smart`: copied packets between re-encoded stretches and windows).
    /// `container`: what the file is (the output's name says; a segment's is MP4).
    convenience init(path: String, container: OutputContainer = .mp4, canvas: Canvas, settings: StitchSettings, chapters: [Chapter] = [],
                     subtitles: SubtitleTrack? = nil, videoLayout: (any VideoTrackLayout)? = nil,
                     soundLayout: (any SoundTrackLayout)? = nil, overlay: PictureOverlay? = nil) throws {
        var format = EncodingSink.Format(canvas: canvas, settings: settings)
        format.container = container
        format.videoLayout = videoLayout
        format.soundLayout = settings.includeAudio ? soundLayout : nil
        format.chapters = chapters
        format.subtitles = subtitles
        try self.init(sink: try EncodingSink(path: path, format: format), canvas: canvas, overlay: overlay)
    }

    /// Feeds `sink` (an MP4's, or an HLS ladder's), which from then on only the encoder thread touches.
    /// Copied packets reach only a sink that can copy (`CopyingSink`).
    init(sink made: any OutputSink, canvas: Canvas, overlay: PictureOverlay? = nil) throws {
        self.overlay = overlay
        pictureBytes = max(1, canvas.width * canvas.height * 3 / 2 * (canvas.colour.bitDepth > 8 ? 2 : 1))
        let sink = Handoff(value: made)
        audioFrameSize = made.audioFrameSize
        worker = BackgroundTask(name: "segue-encoder") { [queue] cancellation in
            try OutputWriter.encode(from: queue, into: sink.value)
        }
    }

    /// Queues a picture whose pts counts output frames; the writer takes it over.
    /// `crf` (with `--smart`) says at what quality.
    func submit(picture: Frame, crf: Int? = nil) throws {
        let picture = try overlay?.draw(picture) ?? picture
        scout?.observe(picture)
        try submit(.picture(picture, crf: crf), weight: OutputWriter.pictureWeight)
    }

    /// Queues a copied packet to show at `time` (for a frame, or until `end`); the writer takes it over.
    func submit(copied packet: Packet, at time: FrameTime, until end: FrameTime?) throws {
        let weight = max(1, (packet.size * OutputWriter.pictureWeight + pictureBytes - 1) / pictureBytes)
        try submit(.copied(packet, at: time, until: end), weight: weight)
    }

    /// Queues planar-float stereo audio whose pts counts output samples.
    func submit(sound: Frame) throws {
        try submit(.sound(sound))
    }

    /// Queues a copied AAC packet to stand as output sound frame `slot`; the writer takes it over.
    func submit(copiedSound packet: Packet, slot: Int) throws {
        try submit(.copiedSound(packet, slot: slot))
    }

    /// Flushes the encoders, writes the trailer and closes the file.
    func finish() throws {
        try submit(.end)
        try worker.value()
    }

    /// Stops at once without finishing the file (the caller removes it):
    /// queued frames are dropped, nothing more is encoded.
    func abandon() {
        queue.discard()
        worker.join()
    }

    private func submit(_ item: Item, weight: Int = 1) throws {
        if !queue.push(Handoff(value: item), weight: weight) {
            // The encoder stopped: its failure says why.
            try worker.value()
            throw SegueError(.writeFailed, detail: "the encoder stopped")
        }
    }

    /// The encoder thread's loop: encodes what arrives until the end item (or
    /// the queue is discarded); on a failure, drops what is queued and stops.
    private static func encode(from queue: BoundedQueue<Handoff<Item>>, into sink: any OutputSink) throws {
        // Copied packets reach only a sink that copies: asked once, not per packet.
        let copier = sink as? any CopyingSink
        do {
            while let item = queue.pop()?.value {
                switch item {
                case .picture(let frame, let crf): try sink.encode(picture: frame, crf: crf)
                case .copied(let packet, let time, let end): try copying(copier).copy(packet, at: time, until: end)
                case .sound(let frame): try sink.encode(sound: frame)
                case .copiedSound(let packet, let slot): try copying(copier).copy(sound: packet, slot: slot)
                case .end:
                    try sink.finish()
                    queue.close()
                }
            }
        } catch {
            queue.discard() // releases queued frames, and the stitcher's next push fails
            throw error
        }
    }

    /// The sink as one that copies packets; a failure for one that only encodes (an HLS ladder).
    private static func copying(_ copier: (any CopyingSink)?) throws -> any CopyingSink {
        guard let copier else {
            throw SegueError(.writeFailed, detail: "a copied packet reached an output that encodes everything it writes")
        }
        return copier
    }
}
