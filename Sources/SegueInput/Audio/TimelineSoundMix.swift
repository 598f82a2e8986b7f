import Foundation
internal import SegueMedia
import SegueModel

/// An editor's timeline's own sound as the output hears it: every sound
/// clip of every track (`TimelineSound`) decoded from its file a block at a
/// time, only while it plays (memory stays flat), at its level, faded over
/// its crossfades, and summed. Asked for stretches of output samples in
/// order; a segment starts wherever its warm-up does and each clip is opened
/// there at the exact sample, so segments hear what one process hears.
package final class TimelineSoundMix {
    /// One clip's place in the output, in samples: where it starts and ends (its fades count from
    /// there), and the stretch of that it is heard over (all of it, unless a clip left out cut it).
    private struct Scheduled {
        var piece: TimelineSound.Piece
        var start: Int
        var end: Int
        var heard: Range<Int>
        var fadeIn: Int
        var fadeOut: Int
        /// Its level and its timeline's loudness gain, linear.
        var gain: Float
    }

    /// The timelines' own sounds, each under the output frames of its stretches.
    private let tracks: [PlannedSound]
    private let schedule: [Scheduled]
    private let sampleRate: Int
    private let access: InputAccess
    private var next = 0
    private var playing: [(scheduled: Scheduled, voice: Voice)] = []
    /// Where the last stretch asked for ended: stretches come in order.
    private var position = Int.min

    /// `loudness`: the `--loudness` target each timeline's mix is given one static gain to.
    package init(plan: Plan, access: InputAccess, loudness target: Double? = nil) {
        sampleRate = plan.canvas.sampleRate
        self.access = access
        tracks = plan.soundTracks
        schedule = tracks.flatMap { track in
            let sound = track.sound, mixGain = Self.gain(sound.loudness, target: target)
            return track.stretches.flatMap { stretch in
                let heard = plan.sampleIndex(atFrame: stretch.frames.lowerBound)..<plan.sampleIndex(atFrame: stretch.frames.upperBound)
                return sound.tracks.flatMap(\.pieces).filter { !$0.silent && $0.recordFrames > 0 }.compactMap { piece -> Scheduled? in
                    func at(_ frame: Int64) -> Int { sound.sample(atRecordFrame: frame, origin: stretch.origin, sampleRate: plan.canvas.sampleRate) }
                    let start = at(piece.recordStart), end = at(piece.recordStart + piece.recordFrames)
                    let from = max(start, heard.lowerBound), to = min(end, heard.upperBound)
                    guard from < to else { return nil }
                    return Scheduled(piece: piece, start: start, end: end, heard: from..<to, fadeIn: at(piece.recordStart + piece.fadeIn) - start,
                                     fadeOut: end - at(piece.recordStart + piece.recordFrames - piece.fadeOut),
                                     gain: Float(pow(10, (piece.level + mixGain) / 20)))
                }
            }
        }.sorted { $0.heard.lowerBound < $1.heard.lowerBound }
    }

    /// Nil when no clip of the plan plays under a timeline's sound.
    package static func make(plan: Plan, access: InputAccess, loudness target: Double?) -> TimelineSoundMix? {
        plan.soundTracks.contains { !$0.stretches.isEmpty } ? TimelineSoundMix(plan: plan, access: access, loudness: target) : nil
    }

    /// `--loudness`'s one static gain (dB) for a mix measured at `loudness`: to the target, held so its
    /// true peak stays at the ceiling (no limiter runs on a mix); 0 without a target or for a near-silent mix.
    static func gain(_ loudness: ClipInfo.Loudness?, target: Double?) -> Double {
        guard let (gain, limited) = LoudnessMeter.adjustment(for: loudness, target: target), let loudness else { return 0 }
        return limited ? min(gain, LoudnessMeter.peakCeiling - loudness.truePeak) : gain
    }

    /// Whether output frame `frame` hears a timeline's sound instead of its clip's own.
    package func covers(frame: Int) -> Bool { tracks.contains { $0.covers(frame: frame) } }

    /// The `count` samples per channel (stereo) from output sample `start` on.
    package func sound(from start: Int, count: Int) throws -> [[Float]] {
        precondition(start >= position, "timeline sound asked for out of order (\(start) after \(position))")
        precondition(count >= 0, "a negative number of samples")
        position = start + count
        let end = start + count
        playing.removeAll { $0.scheduled.heard.upperBound <= start }
        while next < schedule.count, schedule[next].heard.lowerBound < end {
            let scheduled = schedule[next]
            next += 1
            guard scheduled.heard.upperBound > start else { continue }
            let from = max(start, scheduled.heard.lowerBound)
            do {
                playing.append((scheduled, try Voice(scheduled.piece, skipping: from - scheduled.start, sampleRate: sampleRate, access: access)))
            } catch {
                throw ClipSource.failure(error, reading: scheduled.piece.path)
            }
        }
        var mixed = [[Float]](repeating: [Float](repeating: 0, count: count), count: OutputAudio.channels)
        for (scheduled, voice) in playing {
            let first = max(start, scheduled.heard.lowerBound), last = min(end, scheduled.heard.upperBound)
            guard first < last else { continue }
            let samples: [[Float]]
            do { samples = try voice.take(last - first) } catch { throw ClipSource.failure(error, reading: scheduled.piece.path) }
            let sides = Self.sides(scheduled.piece.channel?.side)
            for index in 0..<(last - first) {
                let weight = scheduled.gain * Self.weight(at: first + index, of: scheduled)
                for channel in mixed.indices { mixed[channel][first - start + index] += samples[channel][index] * weight * sides[channel] }
            }
        }
        return mixed
    }

    /// Each output channel's share of a routed clip's one channel: all of it on its side.
    private static func sides(_ side: EditAudioChannel.Side?) -> [Float] {
        switch side {
        case .left: return [1, 0]
        case .right: return [0, 1]
        case .both, nil: return [1, 1]
        }
    }

    /// A clip's linear fade weight at output sample `sample`: rising over its fade in, falling over its fade out
    /// (an incoming and an outgoing clip's weights sum to 1 across a crossfade).
    private static func weight(at sample: Int, of scheduled: Scheduled) -> Float {
        var weight = 1.0
        if scheduled.fadeIn > 0 { weight = min(weight, (Double(sample - scheduled.start) + 0.5) / Double(scheduled.fadeIn)) }
        if scheduled.fadeOut > 0 { weight = min(weight, (Double(scheduled.end - sample) - 0.5) / Double(scheduled.fadeOut)) }
        return Float(max(0, weight))
    }

    /// One clip's sound from its file: 48 kHz planar-float stereo from its
    /// first sample on (silence before the file's start and after its end).
    private final class Voice {
        private let demuxer: Demuxer
        private let sound: SoundReader
        private let packet = Packet()
        private var queue = SampleQueue(channels: OutputAudio.channels)
        private var silenceFirst: Int
        private var ended = false

        init(_ piece: TimelineSound.Piece, skipping: Int, sampleRate: Int, access: InputAccess) throws {
            let tempo = piece.tempo ?? 1
            let first = piece.fileStart + Double(skipping) / Double(sampleRate) * tempo
            silenceFirst = first < 0 ? Int((-first / tempo * Double(sampleRate)).rounded()) : 0
            demuxer = try access.openDemuxer(try access.readablePath(for: piece.path))
            let (index, channel) = try Self.stream(of: demuxer, channel: piece.channel?.source)
            let stream = demuxer.streams[index]
            let origin = stream.startTime ?? 0
            let start = max(0, first)
            // A little before the first sample, so the decoder is warm where the trim starts.
            if start > 0.2 { try demuxer.seek(toSeconds: Double(origin) * stream.timeBase.value + start - 0.2) }
            let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1)
            // One channel routed: on both sides here, the mix keeps its side.
            let routed = channel.map { "pan=stereo|c0=c\($0)|c1=c\($0)," } ?? ""
            let filters = String(format: "atrim=start=%.9f,", start) + routed + Self.tempoFilters(tempo) + "aresample=\(sampleRate),"
                + "aformat=sample_fmts=fltp:channel_layouts=\(OutputAudio.channelLayout)"
            sound = SoundReader(decoder: decoder, filters: filters, clock: .stream(timeBase: stream.timeBase, origin: origin))
        }

        /// The stream to read and, for a routed clip, its channel (from 0): the best sound stream's
        /// channel when it has that many, else the first channel of the file's sound stream of that number.
        private static func stream(of demuxer: Demuxer, channel: Int?) throws -> (index: Int, channel: Int?) {
            guard let best = demuxer.bestStream(.audio), demuxer.streams[best].kind == .audio else { throw BadInputReason.noSound }
            guard let channel else { return (best, nil) }
            if channel <= max(demuxer.streams[best].channels, 1) { return (best, channel - 1) }
            let sounds = demuxer.streams.indices.filter { demuxer.streams[$0].kind == .audio }
            return channel <= sounds.count ? (sounds[channel - 1], 0) : (best, (channel - 1) % max(demuxer.streams[best].channels, 1))
        }

        /// Time-stretched, its pitch kept: atempo takes 0.5x to 100x a stage, so slower speeds take two.
        private static func tempoFilters(_ tempo: Double) -> String {
            guard tempo != 1 else { return "" }
            let stages = tempo < 0.5 ? [tempo.squareRoot(), tempo.squareRoot()] : [tempo]
            return stages.map { String(format: "atempo=%.9f,", $0) }.joined()
        }

        /// The next `count` samples per channel.
        func take(_ count: Int) throws -> [[Float]] {
            var chunk: [[Float]] = Array(repeating: [], count: OutputAudio.channels)
            let silent = min(count, silenceFirst)
            if silent > 0 {
                chunk = chunk.map { _ in [Float](repeating: 0, count: silent) }
                silenceFirst -= silent
            }
            let wanted = count - silent
            while queue.count < wanted, !ended { try read() }
            let taken = queue.take(wanted).samples
            for channel in chunk.indices { chunk[channel] += taken[channel] }
            return chunk
        }

        private func read() throws {
            ended = try !sound.readNext(from: demuxer, into: packet) { queue.append($0) }
        }
    }
}
