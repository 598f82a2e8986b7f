import SegueCore

/// An editor's timeline's own sound, resolved for the plan: each sound
/// clip's medium, where in the file its sound starts, and where on the record
/// timeline it plays, with its fades and level. When a timeline has sound
/// tracks this is the output's sound under its clips (their own sound is not
/// played). Codable, so a plan's segments carry it.
public struct TimelineSound: Sendable, Equatable, Codable {
    /// The timeline's rate: the pieces' record frames count at it.
    package var rate: Rational
    package var tracks: [Track]
    /// The mix's measured loudness (EBU R128), when `--loudness` or `--music` need it.
    package var loudness: ClipInfo.Loudness?

    package init(rate: Rational, tracks: [Track]) {
        self.rate = rate
        self.tracks = tracks
    }

    package struct Track: Sendable, Equatable, Codable {
        package var name: String?
        package var pieces: [Piece]

        package init(name: String?, pieces: [Piece]) {
            self.name = name
            self.pieces = pieces
        }
    }

    /// One sound clip, resolved.
    package struct Piece: Sendable, Equatable, Codable {
        /// The clip's name in the timeline, for messages and the export.
        package var name: String
        /// The medium, as found (a path or URL).
        package var path: String
        /// Where its sound starts and how long it plays, in record frames (its crossfades included).
        package var recordStart: Int64
        package var recordFrames: Int64
        /// Seconds into the file (from its time 0) of its first sample; before 0 or past the
        /// file's sound, silence.
        package var fileStart: Double
        /// Record frames it fades in over from its start and out over to its end.
        package var fadeIn: Int64
        package var fadeOut: Int64
        /// Constant level, dB.
        package var level: Double
        /// Record frames played beyond its source range, before and after it (the crossfades' handles).
        package var before: Int64
        package var after: Int64
        /// Seconds of the medium's start timecode (0 without one): source times count from it.
        package var mediaStart: Double
        /// Its file has no sound: it plays silence (with a note).
        package var silent: Bool
        /// Seconds of its file heard per second of output, time-stretched with its pitch kept; nil is 1.
        package var tempo: Double?
        /// The one channel of its file it plays, and where; nil plays them all.
        package var channel: EditAudioChannel?

        package init(name: String, path: String, placed: PlacedAudioClip, fileStart: Double, mediaStart: Double, silent: Bool,
                     tempo: Double? = nil) {
            self.name = name
            self.path = path
            recordStart = placed.recordStart
            recordFrames = placed.recordFrames
            self.fileStart = fileStart
            fadeIn = placed.fadeIn
            fadeOut = placed.fadeOut
            level = placed.item.level
            before = placed.before
            after = placed.after
            self.mediaStart = mediaStart
            self.silent = silent
            self.tempo = tempo
            channel = placed.item.channel
        }
    }

    /// The output sample at which record frame `frame` starts, with the
    /// timeline starting at output sample `origin`: from the frame number, so it never drifts.
    package func sample(atRecordFrame frame: Int64, origin: Int, sampleRate: Int) -> Int {
        let (scaled, overflow) = frame.multipliedReportingOverflow(by: Int64(sampleRate) * Int64(rate.denominator))
        // Beyond Int64 (a rate with a huge denominator): by Double, a sample or so off at worst.
        guard !overflow else { return origin + Int((Double(frame) * Double(sampleRate) / rate.value).rounded()) }
        let numerator = Int64(rate.numerator)
        let half = numerator / 2
        return origin + Int(scaled >= 0 ? (scaled + half) / numerator : -((-scaled + half) / numerator))
    }
}

extension TimelineSound {
    /// What in a sound read back from a plan file lies outside what the
    /// resolver makes (a plan can be edited or damaged); nil when every value is in range.
    package var problem: String? {
        guard rate.isValid, rate.numerator > 0, rate.denominator > 0, rate.value <= 1000,
              tracks.count <= EditAudioTrack.mostTracks, tracks.reduce(0, { $0 + $1.pieces.count }) <= EditReading.maxItems else {
            return "its rate or tracks"
        }
        let longest = Int64(EditReading.maxSeconds * 1000)
        for (number, piece) in tracks.flatMap(\.pieces).enumerated() {
            let frames = [piece.recordStart, piece.recordFrames, piece.fadeIn, piece.fadeOut, piece.before, piece.after]
            let seconds = [piece.fileStart, piece.mediaStart]
            guard frames.allSatisfy({ (0...longest).contains($0) }), piece.fadeIn <= piece.recordFrames, piece.fadeOut <= piece.recordFrames,
                  seconds.allSatisfy({ $0.isFinite && abs($0) <= EditReading.maxSeconds }), piece.level.isFinite,
                  abs(piece.level) <= AudioLevel.limit, piece.tempo.map(PlaybackSpeed.audibleRange.contains) ?? true,
                  piece.channel.map({ (1...EditAudioChannel.mostChannels).contains($0.source) }) ?? true else { return "piece \(number + 1)" }
        }
        if let loudness, !loudness.integrated.isFinite || !loudness.truePeak.isFinite || abs(loudness.integrated) > 200
            || abs(loudness.truePeak) > 200 { return "its loudness" }
        return nil
    }
}
