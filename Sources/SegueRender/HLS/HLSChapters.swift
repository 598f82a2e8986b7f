import Foundation
import SegueModel
import SegueCore

/// The output's chapters as an HLS ladder carries them: a JSON file in
/// Apple's chapter format for HLS (an array of entries with `chapter`,
/// `start-time`, `duration` and `titles`), named by the master playlist's
/// `EXT-X-SESSION-DATA` with the `com.apple.hls.chapters` data id.
struct HLSChapters {
    let chapters: [Chapter]
    let frameRate: Rational

    static let file = "chapters.json"
    static let dataID = "com.apple.hls.chapters"

    /// The master's line naming the file.
    static var sessionDataLine: String { "#EXT-X-SESSION-DATA:DATA-ID=\"\(dataID)\",URI=\"\(file)\"" }

    /// The file's bytes: seconds to the microsecond; titles in an undetermined language (`und`, BCP 47),
    /// since a clip's title says nothing of its language.
    func json() throws -> Data {
        func seconds(_ frames: Int) -> Double { (Double(frames) / frameRate.value * 1e6).rounded() / 1e6 }
        let entries: [[String: Any]] = chapters.enumerated().map { index, chapter in
            ["chapter": index + 1, "start-time": seconds(chapter.startFrame), "duration": seconds(chapter.endFrame - chapter.startFrame),
             "titles": [["language": "und", "title": chapter.title]]]
        }
        return try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}
