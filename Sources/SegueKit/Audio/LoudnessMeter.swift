import Foundation
import SegueMedia

/// Measures sound with libavfilter's `ebur128` (EBU R128: integrated loudness
/// and true peak) in an audio-only pass: video packets are read past, never
/// decoded. `--loudness` turns each measurement into one static gain.
public enum LoudnessMeter {
    /// Clips quieter than this (LUFS) are near-silent and left alone.
    public static let silenceFloor = -50.0
    /// The highest true peak (dBTP) a gain may push a clip to.
    public static let peakCeiling = -1.0

    /// Measures every clip with sound, several at once; stills and clips
    /// without sound keep no measurement. A clip that can't be measured is
    /// left as it is (the stitch reports its damage, if any).
    public static func measureAll(_ clips: [ClipInfo], access: InputAccess = InputAccess()) -> [ClipInfo] {
        let results = ResultSlots<ClipInfo.Loudness>(count: clips.count)
        DispatchQueue.concurrentPerform(iterations: clips.count) { index in
            let clip = clips[index]
            guard !clip.isStill, clip.audio != nil else { return }
            results[index] = try? measure(clip.readPath, from: clip.inPoint, duration: clip.duration, access: access)
        }
        var measured = clips
        for (index, loudness) in results.values.enumerated() { measured[index].loudness = loudness }
        return measured
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
        let description = "atrim=start=\(start)\(end),aresample=48000,aformat=channel_layouts=stereo,ebur128=peak=true:metadata=1"
        var graph: FilterGraph?
        let packet = Packet(), decoded = Frame(), measured = Frame()
        var integrated: Double?, peak: Double?
        // Decoding stops a little past the end the trim keeps.
        let stop = duration.map { start + $0 + 0.5 }
        var pastStop = false
        func drain(_ graph: FilterGraph) throws {
            while try graph.pull(into: measured) == .ready {
                if let value = measured.metadata("lavfi.r128.I").flatMap(Double.init) { integrated = value }
                if let value = measured.metadata("lavfi.r128.true_peak").flatMap(Double.init) { peak = max(peak ?? 0, value) }
            }
        }
        func decode() throws {
            while try decoder.receive(into: decoded) == .ready {
                if graph == nil { graph = try FilterGraph(audioLike: decoded, description: description) }
                if let pts = decoded.pts {
                    let start = stream.timeBase.rescale(pts - origin, to: Rational(1, decoded.sampleRate))
                    decoded.pts = start
                    if let stop, Double(start) / Double(decoded.sampleRate) > stop { pastStop = true }
                }
                try graph!.push(decoded)
                try drain(graph!)
            }
        }
        while !pastStop, try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            try decoder.send(packet)
            try decode()
        }
        try decoder.sendEndOfStream()
        try decode()
        if let graph {
            try graph.close(atPTS: Int64.max / 4)
            try drain(graph)
        }
        guard let integrated else { return nil }
        let truePeak = (peak ?? 0) > 0 ? 20 * log10(peak!) : -120
        return ClipInfo.Loudness(integrated: integrated, truePeak: truePeak)
    }

    /// What `--loudness target` does to a clip: its gain in dB, and whether a
    /// limiter must hold its true peak under the ceiling. Nil: left alone.
    public static func adjustment(for loudness: ClipInfo.Loudness?, target: Double?) -> (gain: Double, limited: Bool)? {
        guard let target, let loudness, loudness.integrated >= silenceFloor else { return nil }
        let gain = target - loudness.integrated
        return (gain, loudness.truePeak + gain > peakCeiling)
    }

    /// The audio filters that apply the adjustment (after the clip is resampled), or nil.
    static func filters(for clip: PlannedClip, target: Double?) -> String? {
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
