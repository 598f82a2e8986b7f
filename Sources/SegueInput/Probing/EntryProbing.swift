import Foundation
import SegueModel
import SegueCore
import SegueRuntime

extension Prober {
    /// One result per entry, in order, probed several at once: one per core
    /// for files, more for URLs, whose probing is mostly waiting.
    package static func probeEach(_ entries: [ClipEntry], access: InputAccess = InputAccess(),
                                 photoSeconds: Double? = nil) -> [Result<ClipInfo, BadInput>] {
        let width = entries.contains { InputAccess.isRemote($0.path) } ? 8 : ProcessInfo.processInfo.activeProcessorCount
        return concurrentMap(entries.count, width: width) { index in
            probe(entries[index], access: access, photoSeconds: photoSeconds, number: index + 1)
        }
    }

    /// Probes one clip and applies its trim. A photo without a duration of
    /// its own lasts `photoSeconds` (nil: the default), and so does a text
    /// card, which opens no file; `number` (from 1) names a card in messages.
    package static func probe(_ entry: ClipEntry, access: InputAccess = InputAccess(),
                             photoSeconds: Double? = nil, number: Int? = nil) -> Result<ClipInfo, BadInput> {
        probeClip(entry, access: access, photoSeconds: photoSeconds, number: number).flatMap { info in
            // The clips an editor's timeline places over it: probed and placed as clips of their own.
            var layered = info
            for layer in entry.layers {
                switch probeClip(layer.entry, access: access, photoSeconds: nil, number: nil) {
                case .success(let drawn): layered.use.layers.append(ClipLayer(layer, drawn))
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(layered)
        }
    }

    private static func probeClip(_ entry: ClipEntry, access: InputAccess, photoSeconds: Double?, number: Int?) -> Result<ClipInfo, BadInput> {
        if let card = entry.card { return cardInfo(card, entry: entry, number: number, defaultDuration: photoSeconds) }
        return probe(entry.path, access: access).flatMap { info in
            var info = info
            info.use.title = entry.title
            info.use.fit = entry.fit
            info.use.caption = entry.caption
            info.use.subtitleFile = entry.subtitles
            if info.facts.isStill { return still(info, entry: entry, defaultDuration: photoSeconds ?? info.use.duration) } // photos
            if let placement = entry.edit {
                do { try info.place(placement) } catch let reason as BadInputReason {
                    return .failure(BadInput(path: entry.path, cause: reason))
                } catch { return .failure(BadInput(path: entry.path, cause: .cantOpen("\(error)"))) }
                return .success(info)
            }
            let end = info.facts.timing.sourceDuration
            if let inPoint = entry.inPoint, inPoint >= end {
                return .failure(BadInput(path: entry.path, cause: .inPointPastEnd(inPoint: inPoint, end: end)))
            }
            info.trim(inPoint: entry.inPoint, outPoint: entry.outPoint)
            guard info.use.duration * info.facts.frameRate.value >= 0.5 else {
                let trimmed = entry.inPoint != nil || entry.outPoint != nil
                return .failure(BadInput(path: entry.path, cause: .lessThanOneFrame(seconds: info.use.duration, trimmed: trimmed)))
            }
            return .success(info)
        }
    }
}
