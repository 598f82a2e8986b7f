import Foundation
internal import SegueMedia
import SegueModel
import SegueCore

/// A music bed under the whole output (`--music`): decoded a block at a time
/// (memory stays flat however long the file), looped or cut to the output's
/// length, faded in over 1 s and out over the last 2 s, set `musicVolume` dB
/// under the clips' sound and ducked by `duck` dB while a clip's own sound plays.
package final class MusicBed {
    package let path: String
    /// dB applied to the music before fades and ducking.
    package let gain: Double
    /// The music's own measured loudness, when it could be measured.
    package let loudness: ClipInfo.Loudness?
    /// dB the settings set the music at, relative to the clips' sound or the loudness target.
    package let volume: Double
    private let access: InputAccess
    /// Where the music is read from, every pass: the access's local copy of a
    /// remote bed (fetched once, with a cache), or the path itself.
    private let readPath: String
    private let sampleRate: Int
    private let totalSamples: Int
    /// dB the music is lowered by while a clip's own sound is present.
    package let duck: Double
    private var reader: Reader?
    private var buffer = SampleQueue()
    /// Output samples mixed so far.
    private var position = 0
    /// dB the music is ducked by right now, moving towards 0 or `duck`.
    private var ducked = 0.0
    private var decodedAny = false

    /// A clip's sound counts as present above this level (RMS over one video frame), about -50 dBFS.
    static let presenceThreshold: Float = 0.003
    static let attackSeconds = 0.3
    static let releaseSeconds = 1.0
    static let fadeInSeconds = 1.0
    static let fadeOutSeconds = 2.0

    /// The bed at `path` as it plays under `plan`, for an editor's timeline: looped (or cut) to the output's
    /// length from its probed length, at `musicVolume`, with its fades and ducking; media named by `location`.
    package static func asPlayed(_ path: String, plan: Plan, settings: StitchSettings, access: InputAccess,
                                 location: (String) -> String) -> EditMusicBed {
        let rate = plan.canvas.frameRate, total = Int64(plan.totalFrames)
        let seconds = (try? SoundMedium.probe(path, access: access, recordRate: rate))?.seconds ?? plan.duration
        let loop = max(Int64((seconds * rate.value).rounded(.down)), 1)
        var items: [EditAudioItem] = []
        var played: Int64 = 0
        while played < total {
            let frames = min(loop, total - played)
            let source = EditRange(start: EditTime(value: 0, rate: rate.value), duration: EditTime(value: Double(frames), rate: rate.value))
            let clip = EditClip(name: (path as NSString).lastPathComponent, media: EditMedia(location: location(path)), source: source)
            items.append(.clip(EditAudioClip(clip: clip, level: settings.musicVolume)))
            played += frames
        }
        return EditMusicBed(track: EditAudioTrack(name: "Music", items: items), fadeIn: fadeInSeconds, fadeOut: fadeOutSeconds,
                            duck: settings.duck)
    }

    /// Seconds of output before a segment's start that make its ducking the
    /// whole stitch's: the ducking settles within its attack and release.
    package static func settleSeconds(_ settings: StitchSettings) -> Double {
        settings.music != nil && settings.duck > 0 ? attackSeconds + releaseSeconds + 0.2 : 0
    }

    /// Why `path` can't be a music bed, or nil when its sound decodes.
    package static func check(_ path: String, access: InputAccess = InputAccess()) -> BadInput? {
        func bad(_ reason: BadInputReason) -> BadInput { BadInput(path: path, cause: .music(reason)) }
        do {
            if case .file(let local) = try access.location(of: path), !FileManager.default.fileExists(atPath: local) {
                return bad(.noSuchFile)
            }
            let reader = try Reader(path: access.readablePath(for: path), access: access)
            var block = SampleQueue()
            guard try reader.read(into: &block) else { return bad(.noSoundDecodes) }
            return nil
        } catch let error as Reader.Failure {
            return bad(error.reason)
        } catch let reason as BadInputReason {
            return bad(reason)
        } catch let error as RemoteError {
            return bad(.unreachable(error.description))
        } catch let error as FFmpegError {
            return bad(error == .invalidData ? .notMedia : .cantOpen(error.message))
        } catch {
            return bad(.cantOpen("\(error)"))
        }
    }

    package init(path: String, plan: Plan, settings: StitchSettings, access: InputAccess) throws {
        self.path = path
        self.access = access
        sampleRate = plan.canvas.sampleRate
        totalSamples = plan.sampleIndex(atFrame: plan.totalFrames)
        duck = settings.duck
        volume = settings.musicVolume
        readPath = try access.readablePath(for: path)
        loudness = try LoudnessMeter.measure(readPath, duration: plan.duration, access: access)
        gain = MusicBed.gain(music: loudness, clips: plan.clips.map(\.info), settings: settings)
        reader = try Reader(path: readPath, access: access)
    }

    /// The music's gain in dB: `musicVolume` under the reference, which is the
    /// loudness target, else the clips' mean loudness, else -16 LUFS (no clip has sound).
    static func gain(music: ClipInfo.Loudness?, clips: [ClipInfo], settings: StitchSettings) -> Double {
        guard let music, music.integrated >= LoudnessMeter.silenceFloor else { return settings.musicVolume }
        let heard = clips.compactMap(\.loudness).map(\.integrated).filter { $0 >= LoudnessMeter.silenceFloor }
        // The energy mean, as loudness adds up.
        let mean = heard.isEmpty ? nil : 10 * log10(heard.map { pow(10, $0 / 10) }.reduce(0, +) / Double(heard.count))
        let reference = settings.loudness ?? mean ?? -16
        return reference + settings.musicVolume - music.integrated
    }

    /// Mixes the next stretch of music under `sound` (one video frame of the
    /// output's audio), ducking it while `sound` is heard.
    package func mix(under sound: [[Float]]) throws -> [[Float]] {
        precondition(sound.count == buffer.channels.count, "\(sound.count) channels of sound under a bed of \(buffer.channels.count)")
        let count = sound[0].count
        precondition(sound.hasEqualChannels, "channels of different lengths")
        let music = try next(count)
        let present = MusicBed.isHeard(sound)
        let target = present ? duck : 0
        let attackStep = duck / (MusicBed.attackSeconds * Double(sampleRate))
        let releaseStep = duck / (MusicBed.releaseSeconds * Double(sampleRate))
        let fadeIn = MusicBed.fadeInSeconds * Double(sampleRate), fadeOut = MusicBed.fadeOutSeconds * Double(sampleRate)
        var mixed = sound
        var level = ducked
        var gains = [Float](repeating: 0, count: count)
        for index in 0..<count {
            level = level < target ? min(target, level + attackStep) : max(target, level - releaseStep)
            let sample = Double(position + index)
            let fade = min(1, (sample + 0.5) / fadeIn, max(0, Double(totalSamples) - sample - 0.5) / fadeOut)
            gains[index] = Float(pow(10, (gain - level) / 20) * fade)
        }
        ducked = level
        position += count
        for channel in mixed.indices {
            for index in 0..<count { mixed[channel][index] += music[channel][index] * gains[index] }
        }
        return mixed
    }

    /// Moves the bed `count` samples on without mixing them: a segment that
    /// starts later in the output. The ducking starts from its rest (not ducked)
    /// and settles over the segment's warm-up.
    package func skip(_ count: Int) throws {
        var left = count
        while left > 0 {
            let step = min(left, sampleRate)
            _ = try next(step)
            position += step
            left -= step
        }
    }

    /// Samples over which one pass of the music crossfades into the next: 50 ms.
    static let seamSamples = 2_400

    /// Starts the music again (from the same copy: a remote bed is not fetched
    /// again), its first samples crossfaded over the last ones still waiting.
    private func loop() throws {
        let next = try Reader(path: readPath, access: access)
        var fresh = SampleQueue(channels: buffer.channels.count)
        while fresh.count < MusicBed.seamSamples, try next.read(into: &fresh) {}
        guard fresh.count > 0 else {
            reader = nil
            return
        }
        let overlap = min(MusicBed.seamSamples, buffer.count, fresh.count)
        let end = buffer.channels[0].count
        for channel in buffer.channels.indices {
            for index in 0..<overlap {
                let weight = (Float(index) + 0.5) / Float(overlap)
                let slot = end - overlap + index
                buffer.channels[channel][slot] = buffer.channels[channel][slot] * (1 - weight) + fresh.channels[channel][index] * weight
            }
            buffer.channels[channel] += fresh.channels[channel][overlap...]
        }
        reader = next
    }

    static func isHeard(_ sound: [[Float]]) -> Bool {
        let count = sound[0].count
        guard count > 0 else { return false }
        let energy = sound.reduce(Float(0)) { total, channel in channel.reduce(total) { $0 + $1 * $1 } }
        return (energy / Float(count * sound.count)).squareRoot() > presenceThreshold
    }

    /// The next `count` samples of music per channel, looping at its end.
    /// A seam's worth more is kept decoded, so the end of one pass can be
    /// crossfaded into the start of the next instead of cut (no click).
    private func next(_ count: Int) throws -> [[Float]] {
        while buffer.count < count + MusicBed.seamSamples {
            guard let reader else { break }
            if try reader.read(into: &buffer) {
                decodedAny = true
            } else if decodedAny {
                try loop()
            } else {
                self.reader = nil // nothing decodes: silence from here
            }
        }
        return buffer.take(count).samples
    }

    /// The music file's sound as 48 kHz planar-float stereo, one decoded block at a time.
    final class Reader {
        struct Failure: Error { var reason: BadInputReason }

        private let demuxer: Demuxer
        private let sound: SoundReader
        private let packet = Packet()
        private var ended = false

        init(path: String, access: InputAccess, sampleRate: Int = OutputAudio.sampleRate) throws {
            demuxer = try access.openDemuxer(path)
            guard let index = demuxer.bestStream(.audio), demuxer.streams[index].kind == .audio else {
                throw Failure(reason: .noSound)
            }
            let decoder: Decoder
            do {
                decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1)
            } catch {
                throw Failure(reason: .noSoundDecoder(codec: demuxer.streams[index].codecName))
            }
            // Counted, not taken from the file: the bed only needs its samples in order.
            sound = SoundReader(decoder: decoder, filters: "aresample=\(sampleRate),aformat=sample_fmts=fltp:channel_layouts=\(OutputAudio.channelLayout)",
                                clock: .counted)
        }

        /// Appends the next decoded samples to `queue`; false at the end.
        func read(into queue: inout SampleQueue) throws -> Bool {
            var got = false
            func take(_ block: Frame) {
                queue.append(block)
                got = true
            }
            while !got, !ended {
                ended = try !sound.readNext(from: demuxer, into: packet, take: take)
            }
            return got
        }
    }
}
