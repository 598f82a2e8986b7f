import ArgumentParser
import Foundation
import SegueKit

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what Segue sees in each clip, and whether it can use it.",
        discussion: "Exit codes: 0 all usable; 2 some input is not usable."
    )

    @Argument(help: "Media files and clip lists.")
    var inputs: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let (paths, badLists) = ClipList.expand(inputs)
        let results = paths.map { Prober.probe($0) }
        if json {
            var rows: [[String: Any]] = badLists.map { ["path": $0.path, "usable": false, "reason": $0.reason] }
            for result in results {
                switch result {
                case .success(let info):
                    var row: [String: Any] = [
                        "path": info.path, "usable": true, "container": info.container, "videoCodec": info.videoCodec,
                        "codedWidth": info.codedWidth, "codedHeight": info.codedHeight,
                        "displayWidth": info.displayWidth, "displayHeight": info.displayHeight,
                        "rotation": info.rotation, "frameRate": info.frameRate.value, "pixelFormat": info.pixelFormat,
                        "duration": info.duration,
                    ]
                    if let audio = info.audio {
                        row["audio"] = ["codec": audio.codec, "sampleRate": audio.sampleRate, "channels": audio.channels]
                    }
                    rows.append(row)
                case .failure(let bad):
                    rows.append(["path": bad.path, "usable": false, "reason": bad.reason])
                }
            }
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for bad in badLists { print("\(bad.path)  unusable: \(bad.reason)") }
            for result in results {
                switch result {
                case .success(let info):
                    let audio = info.audio.map { "\($0.codec) \($0.sampleRate) Hz \($0.channels) ch" } ?? "no audio"
                    print("\(info.path)  \(info.videoCodec) \(info.codedWidth)x\(info.codedHeight)"
                          + " → \(info.displayWidth)x\(info.displayHeight) rot \(info.rotation)"
                          + String(format: " %.3f fps %.2f s", info.frameRate.value, info.duration)
                          + "  \(audio)  usable")
                case .failure(let bad):
                    print("\(bad.path)  unusable: \(bad.reason)")
                }
            }
        }
        let allUsable = badLists.isEmpty && results.allSatisfy { if case .success = $0 { true } else { false } }
        if !allUsable { throw ExitCode(2) }
    }
}
