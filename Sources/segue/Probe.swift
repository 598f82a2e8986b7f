import ArgumentParser
import Foundation
import SegueKit

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what Segue sees in each clip, and whether it can use it.",
        discussion: """
        One row per clip: container, video codec, coded size, display size (after
        rotation and pixel aspect), rotation, frame rate (VFR when variable),
        duration, audio, dynamic range (SDR, HLG, PQ), colour matrix, range,
        scan (progressive or interlaced), and a verdict.

        Examples:
          segue probe clips.txt
          segue probe a.mp4 b.mov --json

        Exit codes: 0 all usable; 2 some input is not usable.
        """
    )

    @Argument(help: "Media files and clip lists.")
    var inputs: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let results = ProbeJob.run(inputs)
        if json {
            let rows = results.map(Self.jsonRow)
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Self.table(results))
        }
        if results.contains(where: { if case .failure = $0 { true } else { false } }) { throw ExitCode(2) }
    }

    static func jsonRow(_ result: Result<ClipInfo, BadInput>) -> [String: Any] {
        switch result {
        case .failure(let bad):
            return ["path": bad.path, "usable": false, "reason": bad.reason]
        case .success(let info):
            return info.jsonFacts.merging(["usable": true, "frameRate": info.frameRate.value]) { _, probed in probed }
        }
    }

    static func table(_ results: [Result<ClipInfo, BadInput>]) -> String {
        var rows = [["CLIP", "CONTAINER", "VIDEO", "CODED", "DISPLAY", "ROT", "FPS", "DURATION", "AUDIO",
                     "DR", "MATRIX", "RANGE", "SCAN", "VERDICT"]]
        for result in results {
            switch result {
            case .failure(let bad):
                rows.append([bad.path, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "unusable: \(bad.reason)"])
            case .success(let info):
                let audio = info.audio.map { "\($0.codec) \($0.sampleRate) Hz \(channels($0.channels))" } ?? "none"
                rows.append([
                    info.path, info.container.split(separator: ",").first.map(String.init) ?? info.container, info.videoCodec,
                    "\(info.codedWidth)x\(info.codedHeight)", "\(info.displayWidth)x\(info.displayHeight)", "\(info.rotation)",
                    String(format: "%.3g", info.frameRate.value) + (info.variableFrameRate ? " VFR" : ""),
                    String(format: "%.2f s", info.duration), audio,
                    info.dynamicRange.rawValue + (info.dolbyVisionProfile.map { " (DV \($0))" } ?? ""),
                    info.colourMatrix.rawValue + (info.colour.bitDepth > 8 ? " \(info.colour.bitDepth)-bit" : ""),
                    info.fullRange ? "full" : "limited",
                    info.interlaced ? "interlaced \(info.fieldOrder.rawValue)" : "progressive", "usable",
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

    static func channels(_ count: Int) -> String {
        switch count {
        case 1: return "mono"
        case 2: return "stereo"
        case 6: return "5.1"
        default: return "\(count) ch"
        }
    }
}
