import Foundation
internal import SegueMedia
import SegueModel
import SegueCore
import SegueRuntime

/// Opens clips to learn what planning needs, and says plainly why a clip
/// can't be used.
package enum Prober {
    /// Probes one input: opens it, checks that a picture decodes, and measures it.
    package static func probe(_ path: String, access: InputAccess = InputAccess()) -> Result<ClipInfo, BadInput> {
        do {
            return .success(try facts(of: path, access: access))
        } catch let reason as BadInputReason {
            return .failure(BadInput(path: path, cause: reason))
        } catch let lost as ConnectionLost {
            return .failure(BadInput(path: path, cause: .unreachable(lost.description)))
        } catch let failure as RemoteError {
            return .failure(BadInput(path: path, cause: .unreachable(failure.description)))
        } catch let failure as FFmpegError where failure.isTransport {
            return .failure(BadInput(path: path, cause: .unreachable("\(failure.message) while measuring it")))
        } catch {
            return .failure(BadInput(path: path, cause: .cantOpen("\(error)")))
        }
    }

    /// What planning needs to know of `path`; throws the `BadInputReason` it can't be used for.
    private static func facts(of path: String, access: InputAccess) throws -> ClipInfo {
        // URLs are checked by opening them; a file first by its name and header.
        var multiPicture: MultiPictureJPEG?
        if case .file(let local) = try access.location(of: path) {
            if let reason = unusableFile(local) { throw reason }
            let file = try access.openFile(local)
            if HEIFLayout.isHEIF(file.prefix(12)) { return try heifInfo(path: path, file: file, policy: access.policy) }
            multiPicture = try checkHeader(of: file, policy: access.policy)
        }
        let opened = try open(path, access: access)
        let demuxer = opened.demuxer
        guard let videoIndex = demuxer.bestStream(.video), demuxer.streams[videoIndex].kind == .video else {
            throw BadInputReason.noVideoStream
        }
        let video = demuxer.streams[videoIndex]
        let decoder = try Decoder.opened(demuxer, streamIndex: videoIndex, codec: video.codecName)
        guard video.width > 0, video.height > 0 else { throw BadInputReason.noPictureSize }
        // A header can promise what the file no longer holds: one picture must decode.
        let firstPicture = Frame()
        do {
            guard try decodesAPicture(demuxer, decoder, into: firstPicture) else { throw BadInputReason.nothingDecodes }
        } catch let reason as BadInputReason {
            throw reason
        } catch {
            throw BadInputReason.decodeFailed("\(error)")
        }
        let audioIndex = demuxer.bestStream(.audio).flatMap { demuxer.streams[$0].kind == .audio ? $0 : nil }
        let audio = audioIndex.map { demuxer.streams[$0] }
        // A photo (or a one-frame video) is a still clip; one picture under
        // sound that runs on past a second (a cover image, a DVD still) is held
        // for as long as the sound instead.
        let soundRunsOn = audio.map { $0.duration.map { $0 > 1 } ?? true } ?? false
        var info: ClipInfo
        if !soundRunsOn, isPhotoOfFirstPicture(demuxer, multiPicture: multiPicture) || !decodesAnotherPicture(demuxer, decoder) {
            info = stillInfo(path: path, readPath: opened.readPath, demuxer: demuxer, video: video, picture: firstPicture)
        } else {
            info = try movingClipInfo(path: path, opened: opened, video: video, audio: audio, access: access)
        }
        if !info.facts.isStill {
            info.facts.hdrMetadata = video.hdrMetadata ?? firstPicture.hdrMetadata
            info.facts.startTimecode = startTimecode(of: demuxer, video: video, rate: info.facts.frameRate)
        }
        info.facts.subtitleStreams = ClipSubtitleReader.streams(in: demuxer)
        if case .file(let local) = try access.location(of: path) { info.facts.sidecars = ClipSubtitleReader.sidecars(of: local) }
        return info
    }

    /// The facts of a clip that moves (or holds one picture under its sound), measured.
    private static func movingClipInfo(path: String, opened: (demuxer: Demuxer, readPath: String, deeperProbe: Bool),
                                       video: StreamInfo, audio: StreamInfo?, access: InputAccess) throws -> ClipInfo {
        let demuxer = opened.demuxer
        let reopen = { try access.openDemuxer(opened.readPath, deeperProbe: opened.deeperProbe) }
        guard var length = try measureLength(demuxer, video: video, audio: audio, local: !InputAccess.isRemote(opened.readPath),
                                             reopen: reopen) else {
            throw BadInputReason.unknownDuration
        }
        guard length.clip <= longestClip else { throw BadInputReason.implausiblyLong(seconds: length.clip, limit: longestClip) }
        var rate = frameRate(of: video)
        // The timestamps are read from a file (a remote clip through the cache), not over the
        // network again, whose round trips the preloader can't hide while probing.
        // An edit list (MP4, MOV) can end inside its last picture: the tail is read for where that picture starts.
        let headerStart = Double(video.startTime ?? 0) * video.timeBase.value
        let edited = demuxer.formatName == Demuxer.movFamily && length.videoStart == nil
        let timing = InputAccess.isRemote(opened.readPath) ? PictureTiming()
            : try PictureTiming.read(video: video, tailFrom: edited ? headerStart + length.picture : nil, reopen: reopen)
        if let timed = timing.rate(near: rate.rate, timeBase: video.timeBase) { rate.rate = timed }
        if let end = timing.lastPictureEnd(rate: rate.rate, timeBase: video.timeBase) {
            length.extendPicture(to: end - headerStart, frame: 1 / rate.rate.value)
        }
        return clipInfo(path: path, readPath: opened.readPath, demuxer: demuxer, video: video, audio: audio, length: length, rate: rate)
    }

    /// The start timecode the file states: the container's tag (MXF), the
    /// video stream's, or a timecode track's (MOV/MP4 `tmcd`) at its own rate;
    /// counted at the picture's `rate` when no track gives one.
    static func startTimecode(of demuxer: Demuxer, video: StreamInfo, rate: Rational) -> StartTimecode? {
        let track = demuxer.streams.first { $0.kind == .other && $0.timecode != nil }
        let trackRate = track.map(\.averageFrameRate).flatMap { $0.isValid && $0.value > 0 ? $0.reduced.snappedToStandard : nil }
        guard let text = demuxer.timecode ?? video.timecode ?? track?.timecode else { return nil }
        return StartTimecode(text: text, rate: trackRate ?? rate)
    }

    /// Refuses, by its first bytes, a photo that declares more pixels than
    /// the policy allows, or a JPEG whose multi-picture index is broken; returns
    /// what a multi-picture JPEG's header says follows its first picture.
    private static func checkHeader(of file: LocalFile, policy: InputPolicy) throws -> MultiPictureJPEG? {
        let head = file.prefix(1 << 20) // a JPEG's EXIF segment may come before its frame header
        if let size = PictureHeader.declaredSize(head), size.width * size.height > policy.maxPictureArea {
            throw BadInputReason.pictureTooLarge(width: size.width, height: size.height, limit: policy.maxPictureArea)
        }
        return try MultiPictureJPEG.read(head, fileSize: Int(file.size))
    }

    /// Why a local `path` can't be opened as a file at all, or nil.
    private static func unusableFile(_ path: String) -> BadInputReason? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .noSuchFile }
        if isFolder.boolValue { return .isAFolder }
        guard Glibc.access(path, R_OK) == 0 else { return .permissionDenied }
        var status = stat() // follows symlinks, as opening does
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .notRegularFile } // a FIFO, a device
        return status.st_size == 0 ? .emptyFile : nil
    }

    /// Opens `path` (through the cache, for a remote clip), probing deeper
    /// when the quick look found no picture size (a DVD still menu's single
    /// picture comes with nothing after it to decode it by).
    private static func open(_ path: String, access: InputAccess) throws -> (demuxer: Demuxer, readPath: String, deeperProbe: Bool) {
        do {
            let readPath = try access.readablePath(for: path)
            let demuxer = try access.openDemuxer(readPath)
            if let video = demuxer.bestStream(.video), demuxer.streams[video].width == 0 {
                return (try access.openDemuxer(readPath, deeperProbe: true), readPath, true)
            }
            return (demuxer, readPath, false)
        } catch let error as RemoteError {
            throw BadInputReason.unreachable(error.description)
        } catch let lost as ConnectionLost {
            throw BadInputReason.unreachable(lost.description)
        } catch let error as FFmpegError {
            if error == .invalidData { throw BadInputReason.notMedia }
            if error == .endOfFile { throw BadInputReason.truncatedHeader }
            if error.posixCode == ENOENT { throw BadInputReason.noSuchFile }
            throw BadInputReason.cantOpen(error.message)
        }
    }

    /// The facts of a moving clip, from its streams and measured length.
    private static func clipInfo(path: String, readPath: String, demuxer: Demuxer, video: StreamInfo, audio: StreamInfo?,
                                 length: Length, rate: (rate: Rational, variable: Bool)) -> ClipInfo {
        let (rate, variable) = rate
        var info = ClipInfo(
            path: path, container: demuxer.formatName, videoCodec: video.codecName,
            codedWidth: video.width, codedHeight: video.height,
            orientation: ClipOrientation(matrix: video.displayMatrix, rotation: video.rotation),
            sampleAspectRatio: video.sampleAspectRatio, frameRate: rate, pixelFormat: video.pixelFormatName,
            duration: length.clip,
            audio: audio.map { ClipFacts.AudioInfo(codec: $0.codecName, sampleRate: $0.sampleRate, channels: $0.channels,
                                                  timeBase: $0.timeBase) })
        info.readPath = readPath
        info.facts.timing.pictureDuration = length.picture
        info.facts.timing.soundDuration = length.sound
        info.facts.timing.videoStart = length.videoStart
        info.facts.timing.timestampJumps = length.timestampJumps
        info.facts.timing.headerDuration = demuxer.duration
        info.facts.colour = video.colour
        info.facts.fieldOrder = video.fieldOrder
        info.facts.dolbyVisionProfile = video.dolbyVisionProfile
        info.facts.variableFrameRate = variable
        return info
    }

    /// The rate a clip is played at, and whether its frames come at uneven
    /// intervals (its average and base rates differ).
    static func frameRate(of video: StreamInfo) -> (rate: Rational, variable: Bool) {
        let base = video.realFrameRate
        let variable = base.isValid && video.averageFrameRate.isValid
            && abs(base.value - video.averageFrameRate.value) > 0.01 * base.value
        // A variable rate's average can be anything (a screen recording that
        // pauses averages 2 fps); its base rate is the one it was recorded at.
        // (An interlaced stream's base rate can be its field rate: not that.)
        var rate = variable && base.value <= 120 && !video.fieldOrder.isInterlaced ? base : video.averageFrameRate
        if !rate.isValid || rate.value > 1000 { rate = video.realFrameRate }
        if !rate.isValid || rate.value > 1000 { rate = Rational(30, 1) }
        return (rate.reduced.snappedToStandard, variable)
    }
}

extension Prober {
    /// A clip's length as its packets show it.
    struct Length {
        /// How long the clip plays (its picture, or its sound when that runs on past the picture).
        var clip: Double
        var picture: Double
        var sound: Double?
        /// The clip's time 0 in the video stream's time base, when its packets
        /// were measured from the start (nil: the stream's start time).
        var videoStart: Int64?
        /// Discontinuities in the clock (not wraps) met while measuring.
        var timestampJumps = 0
    }

    /// How long a clip lasts: as long as its picture, or as long as its sound
    /// when that runs on more than `holdThreshold` past the last picture (the
    /// picture is then held). Subtitle, data and timecode streams and the
    /// container's claimed duration play no part, except as the last resort
    /// for a file whose picture can't be measured at all.
    /// Durations the streams don't state (Matroska, WebM) are measured by
    /// reading packets, without decoding; so are those of containers whose
    /// clock may wrap or jump (MPEG-TS/PS), which store none: for a local file
    /// every packet is read, laid on a `TimestampLine`, so a clip is never
    /// longer than its packets hold, and starts at its earliest picture
    /// (leading pictures of an open GOP included, decodable or not).
    /// `reopen` opens the clip afresh, for measuring.
    /// A lost connection is thrown: it says nothing about the clip's length.
    static func measureLength(_ demuxer: Demuxer, video: StreamInfo, audio: StreamInfo?, local: Bool,
                              reopen: () throws -> Demuxer) throws -> Length? {
        let headerStart = Double(video.startTime ?? 0) * video.timeBase.value
        var videoStart = headerStart
        var videoEnd = video.duration.map { headerStart + $0 }
        var audioEnd = audio.flatMap { stream in stream.duration.map { Double(stream.startTime ?? 0) * stream.timeBase.value + $0 } }
        var startTicks: Int64?
        var jumps = 0
        let jumpy = demuxer.timestampsMayJump
        if videoEnd == nil || (audio != nil && audioEnd == nil) || jumpy {
            let streams = [video] + (audio.map { [$0] } ?? [])
            let measured = try packetSpans(streams: streams, onALine: jumpy, wholeFile: jumpy && local,
                                       until: demuxer.duration.map { headerStart + $0 }, reopen: reopen)
            jumps = measured.jumps
            if let span = measured.spans[video.index] {
                if jumpy || videoEnd == nil { videoEnd = span.end }
                if jumpy, let start = span.start {
                    startTicks = video.timeBase.ticks(seconds: start)
                    videoStart = start
                }
            }
            if let audio, let span = measured.spans[audio.index], jumpy || audioEnd == nil { audioEnd = span.end }
        }
        var picture = (videoEnd ?? 0) - videoStart
        if picture <= 0, let total = demuxer.duration {
            picture = total - max(0, headerStart) // a file whose packets say nothing: trust its header
        }
        guard picture > 0 else { return nil }
        let sound = audioEnd.map { $0 - videoStart }
        let clip = sound.map { $0 > picture + holdThreshold ? $0 : picture } ?? picture
        return Length(clip: clip, picture: picture, sound: sound, videoStart: startTicks, timestampJumps: jumps)
    }

    /// No clip plays longer than a week: a length beyond it is damage, and
    /// frame and sample counts of any clip within it fit in 64 bits many times over.
    package static let longestClip = 7 * 24 * 3600.0

    /// Sound running on for more than this many seconds past the last picture holds the picture under it.
    static let holdThreshold = 1.0

    /// Where a stream's packets begin and end, in seconds on its own clock.
    struct PacketSpan {
        /// The earliest presentation time; nil when only the file's tail was read.
        var start: Double?
        /// The latest presentation time plus that packet's duration.
        var end: Double
    }

    /// The span of each stream in `streams`, from its packets' pts and
    /// durations. Reads the whole file when `wholeFile` is set or the
    /// container doesn't say roughly where it ends (`until`, same clock) or
    /// can't seek; else only the last half minute. With `onALine`, packets
    /// read from the start are laid on a `TimestampLine` (wraps unfolded,
    /// jumps closed up); the tail's ends are counted from each stream's start
    /// time, an end before it being a wrap.
    static func packetSpans(streams: [StreamInfo], onALine: Bool, wholeFile: Bool, until end: Double?,
                            reopen: () throws -> Demuxer) throws -> (spans: [Int: PacketSpan], jumps: Int) {
        func scan(fromSeconds seconds: Double?) throws -> (spans: [Int: PacketSpan], jumps: Int) {
            let demuxer: Demuxer
            do { demuxer = try reopen() } catch where isTransport(error) { throw error } catch { return ([:], 0) }
            if let seconds { guard (try? demuxer.seek(toSeconds: seconds)) != nil else { return ([:], 0) } }
            var line = onALine && seconds == nil ? TimestampLine(streams: streams) : nil
            var tallies: [Int: SpanTally] = [:]
            let packet = Packet()
            while try readUnlessDamaged(demuxer, into: packet) {
                guard let stream = streams.first(where: { $0.index == packet.streamIndex }) else { continue }
                TimestampLine.repairReorder(packet, in: stream)
                line?.place(packet)
                var unwrap: Int64 = 0
                if seconds != nil, let origin = stream.startTime, stream.timestampBits < 63,
                   let time = packet.pts ?? packet.dts, time < origin {
                    unwrap = Int64(1) << stream.timestampBits // past the tail's start, an earlier time is a wrap
                }
                tallies[stream.index, default: SpanTally()].count(packet, unwrap: unwrap)
            }
            var spans: [Int: PacketSpan] = [:]
            for stream in streams {
                guard let (start, end) = tallies[stream.index]?.span(of: stream) else { continue }
                spans[stream.index] = PacketSpan(start: seconds == nil ? Double(start) * stream.timeBase.value : nil,
                                                 end: Double(end) * stream.timeBase.value)
            }
            return (spans, line?.jumps ?? 0)
        }
        let start = streams.map { Double($0.startTime ?? 0) * $0.timeBase.value }.min() ?? 0
        if !wholeFile, let end, end - start > 60 {
            let tail = try scan(fromSeconds: end - 30)
            if streams.allSatisfy({ tail.spans[$0.index] != nil }) { return tail }
        }
        return try scan(fromSeconds: nil)
    }

    /// Reads the next packet: false at the end, or where damage stops the
    /// read (what was read still counts); a lost connection is thrown.
    static func readUnlessDamaged(_ demuxer: Demuxer, into packet: Packet) throws -> Bool {
        do {
            return try demuxer.read(into: packet)
        } catch where isTransport(error) {
            throw error
        } catch {
            return false
        }
    }

    /// Whether `error` is the connection's or the disk's, not the file's: it says nothing of the clip.
    static func isTransport(_ error: Error) -> Bool {
        error is ConnectionLost || error is RemoteError || (error as? FFmpegError)?.isTransport == true
    }

    /// One stream's packets, counted for where they begin and end.
    struct SpanTally {
        private var earliestShown: Int64?
        private var latestShownEnd: Int64?
        private var earliestDecoded: Int64?
        private var latestDecodedEnd: Int64?
        /// The latest stated packet duration.
        private var typical: Int64?
        /// Whether the first packet carried a decoding time only: a stream
        /// timed by decoding order (AVI, whose reordered and packed B-frames
        /// come without presentation times). Elsewhere (MPEG-PS) a packet
        /// may lack one now and then, and the others' times are the truth.
        private var unstamped: Bool?

        mutating func count(_ packet: Packet, unwrap: Int64) {
            if packet.duration > 0 { typical = packet.duration }
            let length = packet.duration > 0 ? packet.duration : typical ?? 0
            if unstamped == nil, packet.pts != nil || packet.dts != nil { unstamped = packet.pts == nil }
            if let pts = packet.pts.map({ $0 + unwrap }) {
                earliestShown = min(earliestShown ?? .max, pts)
                latestShownEnd = max(latestShownEnd ?? .min, pts + length)
            }
            if let dts = packet.dts.map({ $0 + unwrap }) {
                earliestDecoded = min(earliestDecoded ?? .max, dts)
                latestDecodedEnd = max(latestDecodedEnd ?? .min, dts + length)
            }
        }

        /// Where the stream's pictures or sound begin and end, in its time base.
        /// Where packets lack presentation times, each packet is one picture,
        /// shown as the decoder stamps it: its reorder delay after it is
        /// decoded; so every picture the decoder gives is in the clip.
        func span(of stream: StreamInfo) -> (start: Int64, end: Int64)? {
            let frame = stream.kind == .video && stream.realFrameRate.isValid
                ? Int64((stream.realFrameRate.inverted.value / stream.timeBase.value).rounded()) : 0
            if unstamped == true, stream.kind == .video, var start = earliestDecoded, var end = latestDecodedEnd {
                let delay = Int64(stream.reorderDelay) * (typical ?? frame)
                start += delay
                end += delay
                if typical == nil { end += frame }
                return (start, end)
            }
            guard let start = earliestShown, var end = latestShownEnd else { return nil }
            // No packet said how long it lasts: one frame at the stream's rate.
            if typical == nil { end += frame }
            return (start, end)
        }
    }

    /// Whether the first picture of the stream decodes, reading a bounded amount.
    /// A lost connection is thrown: it says nothing about the file.
    static func decodesAPicture(_ demuxer: Demuxer, _ decoder: Decoder, into frame: Frame = Frame()) throws -> Bool {
        let packet = Packet()
        do {
            // Bounded in video packets, and loosely in all: sound can come a minute ahead of the first picture.
            var videoPackets = 0
            for _ in 0..<200_000 where videoPackets < 2_000 {
                guard try demuxer.read(into: packet) else { break }
                guard packet.streamIndex == decoder.streamIndex else { continue }
                videoPackets += 1
                try decoder.send(packet)
                if try decoder.receive(into: frame) == .ready { return true }
            }
            try decoder.sendEndOfStream()
            return try decoder.receive(into: frame) == .ready
        } catch let lost as ConnectionLost {
            throw lost
        } catch {
            return false
        }
    }
}
