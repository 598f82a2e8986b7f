import Foundation
import SegueMedia
import Synchronization

/// Opens clips to learn what planning needs, and says plainly why a clip
/// can't be used.
public enum Prober {
    /// Probes every clip (several at once); returns the usable clips in order,
    /// trimmed to their in and out points, and every bad one with its reason.
    public static func probeAll(_ entries: [ClipEntry], access: InputAccess = InputAccess(),
                                stillDuration: Double = StitchSettings.defaultStillDuration) -> (clips: [ClipInfo], bad: [BadInput]) {
        var clips: [ClipInfo] = []
        var bad: [BadInput] = []
        for result in probeEach(entries, access: access, stillDuration: stillDuration) {
            switch result {
            case .success(let info): clips.append(info)
            case .failure(let input): bad.append(input)
            }
        }
        return (clips, bad)
    }

    /// One result per entry, in order, probed several at once: one per core
    /// for files, more for URLs, whose probing is mostly waiting.
    public static func probeEach(_ entries: [ClipEntry], access: InputAccess = InputAccess(),
                                 stillDuration: Double = StitchSettings.defaultStillDuration) -> [Result<ClipInfo, BadInput>] {
        let results = ResultSlots<Result<ClipInfo, BadInput>>(count: entries.count)
        let width = entries.contains { InputAccess.isRemote($0.path) } ? 8 : ProcessInfo.processInfo.activeProcessorCount
        let slots = DispatchSemaphore(value: max(1, width))
        let group = DispatchGroup()
        for index in entries.indices {
            slots.wait()
            DispatchQueue.global().async(group: group) {
                results[index] = probe(entries[index], access: access, stillDuration: stillDuration)
                slots.signal()
            }
        }
        group.wait()
        return results.values.map { $0! }
    }

    /// Probes one clip and applies its trim.
    public static func probe(_ entry: ClipEntry, access: InputAccess = InputAccess(),
                             stillDuration: Double = StitchSettings.defaultStillDuration) -> Result<ClipInfo, BadInput> {
        probe(entry.path, access: access).flatMap { info in
            var info = info
            info.title = entry.title
            if info.isStill { return still(info, entry: entry, defaultDuration: stillDuration) } // photos
            if let inPoint = entry.inPoint, inPoint >= info.sourceDuration {
                return .failure(BadInput(path: entry.path, reason: String(
                    format: "in point %.3f s is at or past the clip's end (%.3f s)", inPoint, info.sourceDuration)))
            }
            info.trim(inPoint: entry.inPoint, outPoint: entry.outPoint)
            guard info.duration * info.frameRate.value >= 0.5 else {
                return .failure(BadInput(path: entry.path, reason: "in and out points leave less than one frame"))
            }
            return .success(info)
        }
    }

    public static func probe(_ path: String, access: InputAccess = InputAccess()) -> Result<ClipInfo, BadInput> {
        func bad(_ reason: String) -> Result<ClipInfo, BadInput> { .failure(BadInput(path: path, reason: reason)) }
        if let reason = unreadablePhoto(path) { return bad(reason) } // HEIC and friends
        if !path.contains("://") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return bad("no such file") }
            if isFolder.boolValue { return bad("is a folder, not a media file") }
            guard Glibc.access(path, R_OK) == 0 else { return bad("can't read it (permission denied)") }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size == 0 { return bad("file is empty") }
        }
        let demuxer: Demuxer
        let readPath: String
        do {
            readPath = try access.readablePath(for: path)
            demuxer = try access.openDemuxer(readPath)
        } catch let error as RemoteError {
            return bad(error.reason)
        } catch let lost as ConnectionLost {
            return bad(lost.description)
        } catch let error as FFmpegError {
            if error == .invalidData { return bad("not a media file (no known container format)") }
            if error == .endOfFile { return bad("file is truncated: it ends inside its header") }
            if error.posixCode == ENOENT { return bad("no such file") }
            return bad("can't open it (\(error.message))")
        } catch {
            return bad("can't open it (\(error))")
        }
        guard let videoIndex = demuxer.bestStream(.video), demuxer.streams[videoIndex].kind == .video else {
            return bad("no video stream")
        }
        let video = demuxer.streams[videoIndex]
        let decoder: Decoder
        do {
            decoder = try Decoder(demuxer: demuxer, streamIndex: videoIndex, threads: 1)
        } catch {
            return bad("no decoder for its \(video.codecName) video")
        }
        guard video.width > 0, video.height > 0 else { return bad("video has no picture size (damaged header?)") }
        // A header can promise what the file no longer holds: one picture must decode.
        let firstPicture = Frame()
        do {
            if try !decodesAPicture(demuxer, decoder, into: firstPicture) {
                return bad("no picture could be decoded (file damaged or truncated?)")
            }
        } catch {
            return bad("\(error)")
        }
        // A photo (or a one-frame video) is a still clip.
        if !decodesAnotherPicture(demuxer, decoder) {
            return .success(stillInfo(path: path, readPath: readPath, demuxer: demuxer, video: video, picture: firstPicture))
        }

        var duration = video.duration ?? 0
        if duration <= 0, let total = demuxer.duration {
            let start = video.startTime.map { Double($0) * video.timeBase.value } ?? 0
            duration = total - max(0, start)
        }
        guard duration > 0 else { return bad("video duration unknown (damaged or still image?)") }

        var rate = video.averageFrameRate
        if !rate.isValid || rate.value > 1000 { rate = video.realFrameRate }
        if !rate.isValid || rate.value > 1000 { rate = Rational(30, 1) }

        var audio: ClipInfo.AudioInfo?
        if let audioIndex = demuxer.bestStream(.audio), demuxer.streams[audioIndex].kind == .audio {
            let stream = demuxer.streams[audioIndex]
            audio = ClipInfo.AudioInfo(codec: stream.codecName, sampleRate: stream.sampleRate, channels: stream.channels)
        }
        var info = ClipInfo(
            path: path, container: demuxer.formatName, videoCodec: video.codecName,
            codedWidth: video.width, codedHeight: video.height, rotation: video.rotation,
            sampleAspectRatio: video.sampleAspectRatio, frameRate: rate.reduced, pixelFormat: video.pixelFormatName,
            duration: duration, audio: audio)
        info.readPath = readPath
        let base = video.realFrameRate
        info.variableFrameRate = base.isValid && video.averageFrameRate.isValid
            && abs(base.value - video.averageFrameRate.value) > 0.01 * base.value
        return .success(info)
    }
}

extension Prober {
    /// Whether the first picture of the stream decodes, reading a bounded amount.
    /// A lost connection is thrown: it says nothing about the file.
    static func decodesAPicture(_ demuxer: Demuxer, _ decoder: Decoder, into frame: Frame = Frame()) throws -> Bool {
        let packet = Packet()
        do {
            for _ in 0..<2_000 {
                guard try demuxer.read(into: packet) else { break }
                guard packet.streamIndex == decoder.streamIndex else { continue }
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

/// Fixed slots written by concurrent workers, one slot each.
final class ResultSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    subscript(index: Int) -> Value? {
        get { slots.withLock { $0[index] } }
        set { slots.withLock { $0[index] = newValue } }
    }

    var values: [Value?] { slots.withLock { $0 } }
}
