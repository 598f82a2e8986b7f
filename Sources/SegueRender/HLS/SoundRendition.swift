import Foundation
internal import SegueMedia
import SegueModel
import SegueCore
import SegueRuntime

/// A ladder's sound rendition as one process writes it: the AAC encoder's
/// packets cut into one CMAF segment per video segment, each starting with
/// the AAC frame that holds its pictures' first sample (`HLSLadder.soundCut`,
/// where a segmented render cuts it too), and its playlist rewritten whole
/// (EVENT) as each segment is complete, VOD at the end.
final class SoundRendition {
    private let encoder: Encoder
    private let fragments: SoundFragments
    private let files: LadderFiles
    private let ladder: HLSLadder
    private let canvas: Canvas
    private let packet = Packet()
    /// Samples given to the encoder: where the sound ends.
    private var fed = 0
    /// The video segment whose sound comes next.
    private var nextSegment = 1
    let bitRate: Int

    init(files: LadderFiles, ladder: HLSLadder, canvas: Canvas, settings: StitchSettings) throws {
        self.files = files
        self.ladder = ladder
        self.canvas = canvas
        bitRate = settings.audioBitRate
        encoder = try Encoder.aac(sampleRate: canvas.sampleRate, channels: canvas.soundChannels, bitRate: settings.audioBitRate,
                                  globalHeader: true)
        fragments = try SoundFragments(folder: files.folder, prefix: HLSLadder.soundPrefix, encoder: encoder, sampleRate: canvas.sampleRate)
    }

    var frameSize: Int { max(encoder.frameSize, 1) }

    /// Encodes a block of planar-float sound whose pts counts output samples.
    func encode(_ block: Frame) throws {
        fed += block.sampleCount
        try encoder.send(encoder.channels == 1 && block.channelCount == 2 ? MonoDownmix.block(block) : block)
        try drain()
    }

    /// Flushes the encoder, cuts the last segment and writes the playlist as finished; the rendition measured.
    func finish() throws -> HLSPlaylists.Stream {
        try encoder.sendEndOfStream()
        try drain()
        try fragments.finish()
        try writePlaylist(ended: true)
        let folder = files.folder as NSString
        func size(_ name: String) -> Int {
            FileSize.bytes(atPath: folder.appendingPathComponent(name)) ?? 0
        }
        return HLSPlaylists.measured(HLSPlaylists.Stream(playlist: HLSLadder.soundPlaylist, codecs: "mp4a.40.2"),
                                     segments: fragments.segments.map { ($0.seconds, size($0.name)) },
                                     initBytes: size(HLSLadder.initSegment(HLSLadder.soundPrefix)),
                                     target: ladder.soundTargetSeconds(sampleRate: canvas.sampleRate))
    }

    func abandon() {
        fragments.abandon()
    }

    /// Writes the packets the encoder has ready, each where it plays (the priming packet at 0),
    /// none past the sound's end: a segment is cut before the packet that starts the next one.
    private func drain() throws {
        while try encoder.receive(into: packet) == .ready {
            let start = Int(packet.pts ?? 0)
            guard start < fed else {
                packet.unref()
                continue
            }
            // A segment starts only where pictures do: the sound goes on past its first sample.
            while start >= ladder.soundCut(beforeSegment: nextSegment, canvas: canvas),
                  canvas.sampleIndex(atFrame: nextSegment * ladder.segmentFrames) < fed {
                try fragments.cut()
                try writePlaylist(ended: false)
                nextSegment += 1
            }
            packet.pts = Int64(start + AACWindowEncoder.frameSize)
            packet.dts = packet.pts
            packet.duration = Int64(min(AACWindowEncoder.frameSize, fed - start))
            try fragments.write(packet)
        }
    }

    private func writePlaylist(ended: Bool) throws {
        guard !fragments.segments.isEmpty else { return }
        let text = HLSPlaylists.mediaPlaylist(initSegment: HLSLadder.initSegment(HLSLadder.soundPrefix),
                                              segments: fragments.segments.map { ($0.seconds, $0.name) },
                                              target: ladder.soundTargetSeconds(sampleRate: canvas.sampleRate), ended: ended)
        try files.writePlaylist(HLSLadder.soundPlaylist, text: text)
    }
}

extension HLSLadder {
    /// Where the sound's HLS segment `index` starts: the AAC block holding the output sample its
    /// pictures start at (so a sound segment ends within one AAC frame of its pictures'), on the
    /// grid one process's encoder lays.
    func soundCut(beforeSegment index: Int, canvas: Canvas) -> Int {
        canvas.sampleIndex(atFrame: index * segmentFrames) / AACWindowEncoder.frameSize * AACWindowEncoder.frameSize
    }

    /// The sound playlist's target duration: a sound segment is a video segment's length, give or
    /// take an AAC frame at either end.
    func soundTargetSeconds(sampleRate: Int) -> Int {
        max(1, Int((segmentSeconds + Double(2 * AACWindowEncoder.frameSize) / Double(sampleRate)).rounded()))
    }
}
