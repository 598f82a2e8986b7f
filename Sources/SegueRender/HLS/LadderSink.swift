import Foundation
internal import SegueMedia
internal import SegueBitstream
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// Writes an HLS ladder from the composed pictures: each rung scales them
/// once and encodes them once (H.264, CRF capped by VBV, a keyframe at every
/// segment boundary), and libavformat's HLS muxer cuts them into CMAF
/// segments (an init segment and `.m4s` files, each written under a
/// temporary name and renamed when complete) with an EVENT playlist. The
/// sound is one AAC rendition all rungs share, cut where their segments
/// start (`SoundRendition`). The master playlist is written
/// once every rendition has a playlist, and again at the end with measured
/// bit rates, when the media playlists become VOD.
final class LadderSink: OutputSink {
    let files: LadderFiles
    private let ladder: HLSLadder
    private let rungs: [RungWriter]
    private let sound: SoundRendition?
    let audioFrameSize: Int
    /// Whether this sink writes the master playlist (and the subtitle rendition): a segment's render leaves them to the join.
    private let writesMaster: Bool
    private var masterWritten = false
    /// The master's lines naming data for the whole presentation (its chapters).
    private var sessionData: [String] = []

    /// The output's soft subtitle track, written as a WebVTT rendition at the end; nil for none.
    private let subtitles: SubtitleTrack?
    /// How an HDR canvas's pictures become SDR ones for the SDR rungs; nil for an SDR canvas.
    private let sdrTable: ColourTable?

    init(files: LadderFiles, ladder: HLSLadder, canvas: Canvas, settings: StitchSettings, subtitles: SubtitleTrack?,
         writesMaster: Bool = true) throws {
        self.files = files
        self.writesMaster = writesMaster
        if writesMaster { sessionData = try files.writeChapters() }
        self.ladder = ladder
        self.subtitles = subtitles
        sdrTable = ColourConversion.sdrTable(from: canvas.colour)
        rungs = try ladder.rungs.map { try RungWriter(rung: $0, ladder: ladder, files: files, canvas: canvas, settings: settings) }
        if settings.includeAudio {
            let sound = try SoundRendition(files: files, ladder: ladder, canvas: canvas, settings: settings)
            self.sound = sound
            audioFrameSize = sound.frameSize
        } else {
            sound = nil
            audioFrameSize = OutputAudio.frameSize
        }
    }

    func encode(picture: Frame, crf: Int?) throws {
        // An HDR canvas's picture is tone-mapped once for every SDR rung.
        let sdr = try sdrTable.map { table in
            let converted = try Frame.video(width: picture.width, height: picture.height)
            Frame.convert(picture, through: table, into: converted, threads: 2)
            converted.pts = picture.pts
            return converted
        }
        for rung in rungs { try rung.encode(rung.rung.range.isHDR ? picture : sdr ?? picture) }
        // A player can start once every rendition has a playlist: the master then names them all.
        if writesMaster, !masterWritten, files.mediaPlaylistsExist() {
            try files.writeMaster(HLSPlaylists.master(rungs.map(\.estimate), sound: sound.map { ($0.bitRate, nil) }, sessionData: sessionData))
            masterWritten = true
        }
    }

    func encode(sound block: Frame) throws {
        try sound?.encode(block)
    }

    /// Flushes every encoder and muxer (their playlists end), makes the media playlists VOD, and
    /// writes the master playlist with the bit rates measured from the segments.
    func finish() throws {
        for rung in rungs { try rung.finish() }
        measured = try rungs.map { try files.finalise($0.estimate) }
        soundMeasured = try sound?.finish()
        guard writesMaster else { return }
        let text = subtitles.map {
            HLSSubtitles(track: $0, segmentMilliseconds: ladder.segmentSeconds * 1000, segmentCount: measured.first?.segments ?? 0)
        }
        if let text { try files.write(text) }
        try files.writeMaster(HLSPlaylists.master(measured, sound: sound.map { ($0.bitRate, soundMeasured) }, subtitles: text?.mediaLine,
                                                  sessionData: sessionData))
    }

    /// Each rung as written (after `finish`): its playlist, size, codecs and measured rates.
    private(set) var measured: [HLSPlaylists.Stream] = []
    private(set) var soundMeasured: HLSPlaylists.Stream?
}

/// One rung: the canvas's pictures scaled to its size (a graph made on the
/// first picture), encoded with keyframes on the segment grid, muxed into its playlist.
private final class RungWriter {
    let rung: HLSLadder.Rung
    private let encoder: Encoder
    private let muxer: Muxer
    private let track: EncodedTrack
    private let canvas: Canvas
    private var scaler: FilterGraph?
    private let scaled = Frame()
    private let segmentFrames: Int

    init(rung: HLSLadder.Rung, ladder: HLSLadder, files: LadderFiles, canvas: Canvas, settings: StitchSettings) throws {
        self.rung = rung
        self.canvas = canvas
        segmentFrames = ladder.segmentFrames
        let file = try files.muxer(playlist: rung.playlist, prefix: rung.prefix,
                                   seconds: (Double(ladder.segmentFrames) - 0.5) / ladder.frameRate.value)
        muxer = file.muxer
        // A keyframe exactly every segment (no scene cuts between), closed GOPs, and a VBV cap on the CRF.
        // No B-frames: a reordered stream's first picture would start after its sound, which the
        // fragments' muxer states only in an edit list that HLS players needn't honour.
        let params = "keyint=\(ladder.segmentFrames):min-keyint=\(ladder.segmentFrames):scenecut=0:open-gop=0:bframes=0"
            + ":vbv-maxrate=\(rung.maxRate / 1000):vbv-bufsize=\(rung.bufferBits / 1000)"
        encoder = try Encoder.video(codec: rung.codec, width: rung.width, height: rung.height, frameRate: canvas.frameRate,
                                    crf: settings.crf, preset: settings.preset, colour: rung.range.isHDR ? canvas.colour : .sdr,
                                    metadata: rung.range.isHDR ? canvas.hdrMetadata : nil, codecParams: params,
                                    globalHeader: muxer.needsGlobalHeader)
        track = try EncodedTrack(muxer: muxer, encoder: encoder, displayMatrix: nil)
        try file.writeHeader()
    }

    /// What the master says of the rung before its segments are measured: the VBV cap.
    var estimate: HLSPlaylists.Stream {
        let codecs = rung.codec == .hevc ? HEVCRecord(encoder.extradata)?.codecs ?? "hvc1" : HLSPlaylists.avcCodecs(encoder.extradata)
        return HLSPlaylists.Stream(playlist: rung.playlist, width: rung.width, height: rung.height, frameRate: canvas.frameRate,
                                   codecs: codecs, range: rung.range, peakBitRate: rung.maxRate)
    }

    func encode(_ picture: Frame) throws {
        // Keyframes where segments start, and only there (not where a clip's own keyframes fell).
        picture.forcesKeyframe = (picture.pts ?? 0) % Int64(segmentFrames) == 0
        guard rung.width != canvas.width || rung.height != canvas.height else { return try track.encode(picture, crf: nil) }
        if scaler == nil {
            scaler = try FilterGraph(videoLike: picture, timeBase: canvas.frameRate.inverted,
                                     description: "scale=\(rung.width):\(rung.height):flags=bicubic,setsar=1")
        }
        // The graph takes the frame's references: give it one of its own, the other rungs still need the picture.
        try scaler!.push(picture.clone())
        while try scaler!.pull(into: scaled) == .ready {
            try track.encode(scaled, crf: nil)
        }
    }

    func finish() throws {
        try track.finish()
        try muxer.finish()
    }
}
