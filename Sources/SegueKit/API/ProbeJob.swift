import Foundation
internal import SegueMedia
import SegueRender
import SegueInput
import SegueModel

/// Does what `segue probe` does: expands clip lists and probes every input,
/// several at once. One result per clip, unusable list files first.
public enum ProbeJob {
    public static func run(_ inputs: [String], network: NetworkSettings = NetworkSettings(),
                           policy: InputPolicy = InputPolicy(), mediaRoots: [String] = []) -> [Result<ClipInfo, BadInput>] {
        let access = InputAccess(network: network, policy: policy)
        let list = ClipList.expand(inputs, access: access, mediaRoots: mediaRoots)
        return list.bad.map { .failure($0) } + Prober.probeEach(list.entries, access: access)
    }

    /// The results as `segue probe --json` prints them: an array of each clip's facts.
    public static func json(_ results: [Result<ClipInfo, BadInput>]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: results.map(jsonRow),
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func jsonRow(_ result: Result<ClipInfo, BadInput>) -> [String: Any] {
        switch result {
        case .failure(let bad):
            return ["path": bad.path, "usable": false, "reason": bad.reason]
        case .success(let info):
            return info.jsonFacts.merging(["usable": true, "frameRate": info.facts.frameRate.value]) { _, probed in probed }
        }
    }

    /// The results as `segue probe` prints them: one aligned row per clip.
    public static func table(_ results: [Result<ClipInfo, BadInput>]) -> String {
        var rows = [["CLIP", "CONTAINER", "VIDEO", "CODED", "DISPLAY", "ROT", "FPS", "DURATION", "TIMECODE", "AUDIO",
                     "DR", "MATRIX", "RANGE", "SCAN", "SUBTITLES", "VERDICT"]]
        for result in results {
            switch result {
            case .failure(let bad):
                rows.append([bad.path, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "unusable: \(bad.reason)"])
            case .success(let info):
                let facts = info.facts
                let audio = facts.audio.map { "\($0.codec) \($0.sampleRate) Hz \(channels($0.channels))" } ?? "none"
                rows.append([
                    info.path, facts.container.split(separator: ",").first.map(String.init) ?? facts.container, facts.videoCodec,
                    "\(facts.codedWidth)x\(facts.codedHeight)", "\(facts.displayWidth)x\(facts.displayHeight)",
                    "\(facts.orientation.rotation)",
                    String(format: "%.3g", facts.frameRate.value) + (facts.variableFrameRate ? " VFR" : ""),
                    String(format: "%.2f s", info.use.duration), facts.startTimecode?.text ?? "-", audio,
                    dynamicRange(info),
                    facts.colourMatrix.rawValue + (facts.colour.bitDepth > 8 ? " \(facts.colour.bitDepth)-bit" : ""),
                    facts.fullRange ? "full" : "limited",
                    facts.interlaced ? "interlaced \(facts.fieldOrder.rawValue)" : "progressive", subtitles(info), "usable",
                ])
            }
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// "SDR"; "HLG (DV 8)"; "PQ (1000 cd/m², CLL 1000/400)": the range, Dolby Vision and HDR10 metadata.
    static func dynamicRange(_ info: ClipInfo) -> String {
        let notes = (info.facts.dolbyVisionProfile.map { ["DV \($0)"] } ?? []) + (info.facts.hdrMetadata.map { [$0.summary] } ?? [])
        return info.facts.dynamicRange.rawValue + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
    }

    /// A clip's subtitle streams ("subrip eng", "dvd_subtitle bitmap") and sidecar files by name; "none".
    static func subtitles(_ info: ClipInfo) -> String {
        let streams = info.facts.subtitleStreams.map { stream in
            ([stream.codec] + (stream.language.map { [$0] } ?? []) + (stream.isBitmap ? ["bitmap"] : [])).joined(separator: " ")
        }
        let sidecars = info.facts.sidecars.map { ($0 as NSString).lastPathComponent }
        return streams.isEmpty && sidecars.isEmpty ? "none" : (streams + sidecars).joined(separator: ", ")
    }

    static func channels(_ count: Int) -> String {
        switch count {
        case 1: return "mono"
        case 2: return "stereo"
        case 6: return "5.1"
        default: return "\(count) ch"
        }
    }
}
