import Foundation
package import SegueMedia
import SegueModel
import SegueRuntime

/// One clip decoded and normalised to the canvas: exactly `frameCount`
/// pictures in the canvas format, and exactly as many audio samples as the
/// caller asks for (48 kHz stereo float), in sync with the pictures.
///
/// A coordinator: the router reads the file and hands each stream its packets,
/// the pictures come through the video path (or a photo's still), the sound
/// through the sound path, and with `--smart` the copied runs hand on packets
/// undecoded. Normalising is done by libavfilter graphs (fps, transpose,
/// scale, pad or crop, format; aresample, aformat).
package final class ClipSource {
    package let clip: PlannedClip
    private let pictures: ClipPictures
    private let sound: ClipSound
    /// With `--smart`: the sound moved to meet its copied AAC packets.
    private let moved: (any MovedSound)?
    /// With `--smart`: the GOPs whose packets are handed on as they are (`nextFrame`).
    private let copies: (any CopiedPackets)?
    /// With `--smart`: which of the clip's frames come as their packets, undecoded.
    private let videoCopy: (any VideoCopy)?
    /// When raised, breaks off the priming.
    private let cancellation: Cancellation
    /// The clip's caption or card text (its script and font), kept while its graph may be built.
    private let text: TextLayer?
    /// What an editor's timeline places over the clip's pictures.
    private let layers: ClipLayers?

    /// Opens the clip and its decoders through `access`; the filter graphs are
    /// built on the first decoded frames, whose real format they must match.
    /// `readPath`, when given, is where the clip's bytes are (a staged copy);
    /// `copying` is what `--smart` copies of it; `cancellation`, when raised,
    /// breaks off the open and priming.
    package init(clip: PlannedClip, canvas: Canvas, settings: StitchSettings, strict: Bool, access: InputAccess, readPath: String? = nil,
         copying: ClipCopying = ClipCopying(), cancellation: Cancellation = Cancellation()) throws {
        self.clip = clip
        let videoCopy = copying.video
        self.videoCopy = videoCopy
        self.cancellation = cancellation
        layers = ClipLayers(clip: clip, canvas: canvas, settings: settings, strict: strict, access: access)
        text = try TextLayer.make(for: clip, canvas: canvas, font: settings.font, burnSubtitles: settings.subtitles == .burn,
                                  access: access)
        if let card = clip.info.use.card {
            // A text card: no file, one made picture, silence.
            let still = try StillPicture(card: card, clip: clip, canvas: canvas, text: text)
            pictures = ClipPictures(clip: clip, canvas: canvas, video: nil, router: nil, copies: nil, still: still)
            sound = ClipSound(reader: nil, router: nil, damage: DamagePolicy(strict: strict, subject: clip.info.path),
                              sampleRate: canvas.sampleRate, pictureSamples: canvas.sampleIndex(atFrame: clip.frameCount))
            moved = nil
            copies = nil
            return
        }
        if clip.info.facts.container == Prober.heifContainer {
            // A HEIC/HEIF photo: its picture from libheif, silence.
            let file = try access.openFile(readPath ?? clip.info.readPath)
            let decoded = try Prober.heifPicture(file, policy: access.policy)
            let still = try StillPicture(decoded: decoded, timeBase: canvas.frameRate.inverted, clip: clip, canvas: canvas,
                                         motion: settings.stillMotion, text: text)
            pictures = ClipPictures(clip: clip, canvas: canvas, video: nil, router: nil, copies: nil, still: still)
            sound = ClipSound(reader: nil, router: nil, damage: DamagePolicy(strict: strict, subject: clip.info.path),
                              sampleRate: canvas.sampleRate, pictureSamples: canvas.sampleIndex(atFrame: clip.frameCount))
            moved = nil
            copies = nil
            return
        }
        let demuxer = try access.openDemuxer(readPath ?? clip.info.readPath, cancellation: cancellation)
        guard let videoIndex = demuxer.bestStream(.video) else {
            throw SegueError(.readFailed, subject: clip.info.path, detail: "no video stream")
        }
        let damage = DamagePolicy(strict: strict, subject: clip.info.path)
        let stream = demuxer.streams[videoIndex]
        let video = try VideoNormaliser(demuxer: demuxer, stream: stream, clip: clip, canvas: canvas,
                                        videoCopy: videoCopy, damage: damage, text: text)
        // A trimmed clip starts at its in point: decoding resumes at the keyframe
        // before it, and the graphs drop whatever comes before time 0. A clock
        // that jumps can't be sought by time: such a clip is read from its start.
        if clip.info.use.inPoint > 0, clip.info.facts.timing.timestampJumps == 0 {
            try demuxer.seek(toSeconds: Double(video.origin) * stream.timeBase.value)
        }
        let heard = try ClipSound.reader(demuxer: demuxer, video: stream, videoOrigin: video.origin, clip: clip,
                                         canvas: canvas, settings: settings, strict: strict)
        let router = PacketRouter(demuxer: demuxer, video: stream, sound: heard?.sound, damage: damage)
        sound = ClipSound(reader: heard?.reader, router: router, damage: damage, sampleRate: canvas.sampleRate,
                          pictureSamples: canvas.sampleIndex(atFrame: clip.frameCount), stream: heard?.sound, speed: clip.info.use.speed)
        moved = copying.sound?.moving(sound)
        copies = try videoCopy?.runs(demuxer: demuxer, router: router, video: video, damage: damage)
        let still = clip.info.facts.isStill
            ? try StillPicture(demuxer: demuxer, decoder: video.decoder, clip: clip, canvas: canvas, motion: settings.stillMotion,
                               text: text)
            : nil
        pictures = ClipPictures(clip: clip, canvas: canvas, video: video, router: router, copies: copies, still: still)
    }

    /// Decodes until `count` pictures are ready (or the clip ends), so the
    /// first frames of the next clip are waiting before the join.
    package func prime(pictures count: Int) throws {
        try pictures.prime(count, cancellation: cancellation)
    }

    /// The next canvas picture. Past the clip's last picture that picture is
    /// held (a reference, not a copy), so the clip keeps its planned length.
    package func nextPicture() throws -> Frame {
        let picture = try pictures.next()
        return try layers?.draw(over: picture) ?? picture
    }

    /// One of the clip's own frames (outside its joins) with its sound, as the stitcher plays it.
    package struct OwnFrame {
        package var frame: ClipFrame
        /// Exactly the samples asked for; nil when none were (no audio).
        package var sound: [[Float]]?
        /// Samples of silence before the clip's own sound in this share (see `soundDelay`).
        package var soundDelay: Int
        /// With `--smart`: the copied AAC packets met so far, each with the
        /// output sound frame it stands as.
        package var copiedSound: [(packet: Packet, slot: Int)]
    }

    /// The clip's frame at `position` and `samples` samples of its sound (nil: none).
    package func nextOwnFrame(at position: Int, samples: Int?) throws -> OwnFrame {
        let frame = try nextFrame(at: position)
        let delay = soundDelay
        let sound = try samples.map { try nextSamples($0) }
        return OwnFrame(frame: frame, sound: sound, soundDelay: delay, copiedSound: moved?.takeCopied() ?? [])
    }

    /// The clip's frame at `position`: its packet where `--smart` copies it,
    /// otherwise the next picture.
    private func nextFrame(at position: Int) throws -> ClipFrame {
        guard videoCopy?.isCopied(position) == true else { return .picture(try nextPicture()) }
        return .copied(try copiedPackets(at: position))
    }

    /// The copied packets that belong to frame `position`, in decoding order.
    private func copiedPackets(at position: Int) throws -> [CopiedPacket] {
        do {
            guard let copies else {
                throw SegueError(.readFailed, subject: clip.info.path, detail: "a copied packet was asked for, but nothing of it is copied")
            }
            return try copies.take(at: position)
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// The picture shown last, to hold through a freeze join.
    package func heldPicture() throws -> Frame {
        try pictures.held()
    }

    /// The next picture, left in place for `nextPicture`.
    package func peekPicture() throws -> Frame {
        try pictures.peek()
    }

    /// Exactly `count` samples per channel of the clip's audio, silence where it has none.
    package func nextSamples(_ count: Int) throws -> [[Float]] {
        do {
            return try moved?.next(count) ?? sound.next(count)
        } catch {
            throw ClipSource.failure(error, reading: clip.info)
        }
    }

    /// Samples of silence before the clip's own sound in its first frame
    /// (with `--smart`, a copied clip's sound may stand up to half an AAC frame late).
    private var soundDelay: Int { moved?.delay ?? 0 }

    /// At a cut where either clip's sound was moved (`--smart`): the outgoing
    /// clip's sound runs on past its last picture until this clip's sound
    /// starts (late, by `soundDelay`), and a little longer, crossfaded into
    /// it: the cut stays a cut, only where the moved sounds meet.
    package func leadIn(from outgoing: ClipSource) throws {
        guard let moved, let other = outgoing.moved else { return }
        do {
            try moved.leadIn(from: other)
        } catch {
            throw ClipSource.failure(error, reading: outgoing.clip.info)
        }
    }

    /// Seconds of picture the clip promised but didn't deliver (damaged or
    /// truncated file); the last picture is held through them. Known at its end.
    package var missingVideoSeconds: Double { pictures.missingSeconds }

    /// Damaged packets and pictures concealed so far.
    package var damage: Int { pictures.concealed + sound.concealed }

    /// Seconds of audio that had to be made up because the clip's audio ended
    /// early (or was missing), beyond what AAC priming explains.
    package var paddedAudioSeconds: Double { sound.paddedSeconds }

    /// Pictures repeated because the clip's video ended before its stated length.
    package var picturesRepeated: Int { pictures.repeated }

    /// Samples of silence made up for sound the clip didn't have.
    var samplesPadded: Int { sound.padded }

    /// A failure reading `clip`, naming it: a lost connection is never called damage.
    package static func failure(_ error: Error, reading clip: ClipInfo) -> SegueError {
        failure(error, reading: clip.path, from: clip.readPath)
    }

    /// A failure reading the input `path` (its bytes at `readPath`), naming it.
    package static func failure(_ error: Error, reading path: String, from readPath: String? = nil) -> SegueError {
        switch error {
        case let error as SegueError:
            return error
        case let lost as ConnectionLost:
            return SegueError(.connectionLost, subject: path, detail: lost.description, underlying: lost)
        case let error as FFmpegError where error.isTransport && InputAccess.isRemote(readPath ?? path):
            return SegueError(.connectionLost, subject: path, detail: "connection failed (\(error.message))", underlying: error)
        default:
            return SegueError(.readFailed, subject: path, detail: OutputFile.describe(error), underlying: error)
        }
    }
}

/// One of a clip's own frames as the stitcher takes it (`ClipSource.nextOwnFrame`).
package enum ClipFrame {
    case picture(Frame)
    /// With `--smart`: a copied frame's packets, as they are, in decoding
    /// order, each with where it shows in the clip (one, or a variable-rate
    /// clip's pictures copied at their own times: none or several).
    case copied([CopiedPacket])
}
