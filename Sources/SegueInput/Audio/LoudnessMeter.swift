import Foundation
internal import SegueMedia
import SegueModel
import SegueRuntime

/// Measures sound with libavfilter's `ebur128` (EBU R128: integrated loudness
/// and true peak) in an audio-only pass: video packets are read past, never
/// decoded. `--loudness` turns each measurement into one static gain.
package enum LoudnessMeter {
    /// Clips quieter than this (LUFS) are near-silent and left alone.
    package static let silenceFloor = -50.0
    /// The highest true peak (dBTP) a gain may push a clip to.
    package static let peakCeiling = -1.0

    /// Measures every clip with sound, several at once; stills and clips
    /// without sound keep no measurement. A clip that can't be measured is
    /// left as it is (the stitch reports its damage, if any).
    /// A measurement that fails leaves the clip unmeasured, with a warning naming it.
    package static func measureAll(_ clips: [ClipInfo], access: InputAccess = InputAccess()) -> (clips: [ClipInfo], failures: [Warning]) {
        let results = concurrentMap(clips.count) { index -> Result<ClipInfo.Loudness?, Error> in
            let clip = clips[index]
            guard !clip.facts.isStill, clip.facts.audio != nil else { return .success(nil) }
            return Result { try measure(clip.readPath, from: clip.use.inPoint, duration: clip.sourceSeconds, access: access) }
        }
        var measured = clips
        var failures: [Warning] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let loudness): measured[index].loudness = loudness
            case .failure(let error): failures.append(.loudnessNotMeasured(path: clips[index].path, detail: describe(error)))
            }
        }
        return (measured, failures)
    }

    /// A failed measurement's reason, without the path its warning names.
    static func describe(_ error: Error) -> String {
        if let error = error as? SegueError, !error.detail.isEmpty { return error.detail }
        return "\(error)"
    }

    /// The loudness of `path`'s sound from `start` for `duration` seconds (nil:
    /// to its end), as it will play: resampled to 48 kHz stereo. Nil when it has no sound.
    static func measure(_ path: String, from start: Double = 0, duration: Double? = nil,
                        access: InputAccess = InputAccess()) throws -> ClipInfo.Loudness? {
        let demuxer = try access.openDemuxer(path)
        guard let index = demuxer.bestStream(.audio), demuxer.streams[index].kind == .audio else { return nil }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, threads: 1)
        let stream = demuxer.streams[index]
        let origin = stream.startTime ?? 0
        if start > 0 { try demuxer.seek(toSeconds: Double(origin) * stream.timeBase.value + start) }
        let end = duration.map { ":end=\(start + $0)" } ?? ""
        let filters = "atrim=start=\(start)\(end),aresample=\(OutputAudio.sampleRate),aformat=channel_layouts=\(OutputAudio.channelLayout),\(R128Reading.filter)"
        let sound = SoundReader(decoder: decoder, filters: filters, clock: .stream(timeBase: stream.timeBase, origin: origin))
        var reading = R128Reading()
        func take(_ measured: Frame) { reading.take(measured) }
        // Decoding stops a little past the end the trim keeps.
        let stop = duration.map { start + $0 + 0.5 } ?? .infinity
        let packet = Packet()
        while sound.latestStart <= stop, try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try sound.decode(packet, into: take)
        }
        try sound.flush(into: take)
        try sound.close(atPTS: Int64.max / 4, into: take)
        return reading.loudness
    }

    /// What `--loudness target` does to a clip: its gain in dB, and whether a
    /// limiter must hold its true peak under the ceiling. Nil: left alone.
    package static func adjustment(for loudness: ClipInfo.Loudness?, target: Double?) -> (gain: Double, limited: Bool)? {
        guard let target, let loudness, loudness.integrated >= silenceFloor else { return nil }
        let gain = target - loudness.integrated
        return (gain, loudness.truePeak + gain > peakCeiling)
    }

    /// The audio filters that apply the adjustment (after the clip is resampled), or nil.
    package static func filters(for clip: PlannedClip, target: Double?) -> String? {
        guard let (gain, limited) = adjustment(for: clip.info.loudness, target: target) else { return nil }
        var filters = String(format: "volume=volume=%.3fdB:precision=float", gain)
        // A sample-peak limiter 1 dB under the true-peak ceiling leaves room for inter-sample peaks;
        // it works on doubles, so the canvas format is asked for again after it.
        if limited {
            filters += String(format: ",alimiter=limit=%.4f:attack=5:release=50:level=false:latency=true", pow(10, (peakCeiling - 1) / 20))
                + ",aformat=sample_fmts=fltp"
        }
        return filters
    }
}
