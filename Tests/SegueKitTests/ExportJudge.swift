import Foundation
import XCTest
@testable import SegueKit
@testable import SegueModel
import SegueCore

/// What the export tests share: the scene stitched once per rate and format,
/// its cut as the scene's own arithmetic says it, the formats' own readers
/// (Tests/Support/timeline_export_judge.py) and a frame-by-frame comparison.
final class ExportedScenes: @unchecked Sendable {
    static let shared = ExportedScenes()
    static let judge = OTIOScript("timeline_export_judge.py", folder: "segue-export-judge")

    struct Stitched {
        let scene: ExportScene
        let output: String
        let exported: String
        let warnings: [String]
    }

    private let lock = NSLock()
    private var made: [String: Stitched] = [:]

    /// The scene at `rate`, stitched with `--export-timeline cut.EXT`.
    func stitched(rate: Rational, format ext: String) throws -> Stitched {
        try lock.withLock {
            let key = "\(rate)-\(ext)"
            if let found = made[key] { return found }
            let scene = try ExportScene.make(rate: rate)
            let exported = scene.folder + "/cut." + ext
            let (output, warnings) = try scene.stitch { $0.exportTimeline = exported }
            let stitched = Stitched(scene: scene, output: output, exported: exported, warnings: warnings)
            made[key] = stitched
            return stitched
        }
    }

    /// What the format's own reader reads from `path`: `xmeml PATH` or `edl PATH NUM DEN`.
    static func judged(_ arguments: [String]) throws -> JudgedTimeline {
        try JSONDecoder().decode(JudgedTimeline.self, from: judge.run(arguments))
    }
}

/// A timeline as the judge script prints it.
struct JudgedTimeline: Decodable {
    struct Item: Decodable {
        var kind: String
        var name: String?
        var url: String?
        var start: Double?
        var duration: Double?
        var reel: String?
        var `in`: Double?
        var out: Double?
        var cmx: String?
        var generator: String?
        var effects: [String]?
    }
    struct Track: Decodable {
        var name: String
        var kind: String
        var items: [Item]
    }
    struct Marker: Decodable {
        var name: String
        var at: Double
    }
    var name: String?
    var rate: Double
    var start: Double?
    var tracks: [Track]
    var markers: [Marker]
}

/// The scene's cut, from its own arithmetic: clip lengths are their
/// durations at the output rate (rounded), each 0.4 s fade is split in half
/// (the first half before its cut), a clip shows its frames between its cuts
/// and its source counts from its file's start timecode (A's 01:00:00:00).
struct SceneCut: Equatable {
    struct Clip: Equatable {
        var name: String
        var path: String
        var start: Int64
        var length: Int64
    }
    /// A transition centred on a cut: frames before it and after it.
    struct Fade: Equatable {
        var before: Int64
        var after: Int64
    }
    var clips: [Clip]
    /// The fade after each clip, nil for a cut.
    var fades: [Fade?]

    init(_ scene: ExportScene) {
        let rate = scene.rate.value, other = ExportScene.otherRate(of: scene.rate).value
        let counts: [Int64] = [48, Int64((40 / other * rate).rounded()), 24, Int64(rate.rounded()), 13]
        let fade = Int64((ExportScene.fade * rate).rounded())
        let fades = [fade, 0, fade, 0].map { $0 > 0 ? Fade(before: $0 / 2, after: $0 - $0 / 2) : nil }
        self.fades = fades
        let hour = Self.hour(scene.rate)
        let origins: [Int64] = [hour, 0, 0, 0, hour], ins: [Int64] = [0, 0, 6, 0, 12]
        let paths = [scene.a, scene.b, scene.c, scene.photo, scene.a]
        let names = ["A & <first>", Self.stem(scene.b), Self.stem(scene.c), Self.stem(scene.photo), "A again"]
        clips = (0..<5).map { index in
            let before = index > 0 ? fades[index - 1]?.before ?? 0 : 0
            let after = index < 4 ? fades[index]?.after ?? 0 : 0
            return Clip(name: names[index], path: paths[index], start: origins[index] + ins[index] + before,
                        length: counts[index] - before - after)
        }
    }

    /// 01:00:00:00 as a frame number at `rate`; drop-frame at 29.97 skips 108 frame numbers in the hour.
    static func hour(_ rate: Rational) -> Int64 {
        let nominal = Int64(rate.value.rounded())
        return nominal * 3600 - (rate.denominator == 1001 && nominal == 30 ? 108 : 0)
    }

    static func stem(_ path: String) -> String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// The cut as CMX counts it: each dissolve starts at its cut, so a clip
    /// before one ends its `before` frames early and the clip after starts
    /// there, that many source frames earlier; a dissolve lasts both halves.
    var edl: SceneCut {
        var cut = self
        for index in clips.indices {
            let before = index > 0 ? fades[index - 1]?.before ?? 0 : 0
            let next = index < fades.count ? fades[index]?.before ?? 0 : 0
            cut.clips[index].start -= before
            cut.clips[index].length += before - next
        }
        cut.fades = fades.map { $0.map { Fade(before: 0, after: $0.before + $0.after) } }
        return cut
    }

    /// The judged track as this cut's shape: clips (name, path, start, length) and fades (in, out), in order.
    static func read(_ track: JudgedTimeline.Track, file: StaticString = #filePath, line: UInt = #line) -> SceneCut? {
        var clips: [Clip] = [], fades: [Fade?] = []
        for item in track.items {
            switch item.kind {
            case "clip":
                if clips.count > fades.count { fades.append(nil) }
                let path = item.url.flatMap { URL(string: $0)?.path } ?? item.url ?? ""
                clips.append(Clip(name: item.name ?? "", path: path, start: Int64((item.start ?? -1).rounded()),
                                  length: Int64((item.duration ?? -1).rounded())))
            case "transition":
                fades.append(Fade(before: Int64((item.in ?? -1).rounded()), after: Int64((item.out ?? -1).rounded())))
            default:
                XCTFail("unexpected \(item.kind) in \(track.name)", file: file, line: line)
                return nil
            }
        }
        while fades.count < clips.count - 1 { fades.append(nil) }
        return SceneCut(clips: clips, fades: fades)
    }

    private init(clips: [Clip], fades: [Fade?]) {
        self.clips = clips
        self.fades = fades
    }
}

/// Asserts that `again` shows what `original` shows, frame for frame: the
/// same marker (clip and frame) where one reads, the same blend elsewhere.
func assertSameFrames(_ original: DecodedOutput, _ again: DecodedOutput, _ what: String,
                      file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(again.pictures.count, original.pictures.count, "\(what): frames", file: file, line: line)
    for (index, (first, second)) in zip(original.pictures, again.pictures).enumerated() {
        let read = [first, second].map { Marker.read($0).map { "clip \($0.clip) frame \($0.frame)" } }
        let dominant = [first, second].map { "\(Marker.readDominant($0))" }
        let greys = [first, second].map(Marker.grey)
        guard read[0] == read[1], dominant[0] == dominant[1], abs(greys[0] - greys[1]) < 6 else {
            return XCTFail("\(what): output frame \(index) shows \(read[1] ?? "a blend of \(dominant[1])") (grey \(Int(greys[1]))), "
                           + "the original \(read[0] ?? "a blend of \(dominant[0])") (grey \(Int(greys[0])))", file: file, line: line)
        }
    }
}


/// A timeline with what the scene lacks, at 25 fps: a clip at half speed
/// (from 01:00:00:10 of a file starting at 01:00:00:00) dissolving into a
/// 29.97 clip without sound, a text card on a colour, a clip; a placed
/// picture on V2; a caption; a chapter; the music bed.
enum FullTimeline {
    static let rate = Rational(25, 1)

    static func time(_ frames: Double) -> EditTime { EditTime(value: frames, rate: 25) }

    static func clip(_ name: String, _ path: String, start: Double, frames: Double, facts: EditMediaFacts?, speed: PlaybackSpeed? = nil) -> EditClip {
        EditClip(name: name, media: EditMedia(location: path, facts: facts), source: EditRange(start: time(start), duration: time(frames)), speed: speed)
    }

    /// Half size, right of and above the centre, 80 % opaque, a tenth cropped on the left.
    static var pipLayout: EditLayout {
        var layout = EditLayout()
        (layout.scaleX, layout.scaleY, layout.centreX, layout.centreY) = (0.5, 0.5, 0.25, -0.25)
        (layout.opacity, layout.cropLeft) = (0.8, 0.1)
        return layout
    }

    static func make(transition: String = "wiperight") -> EditTimeline {
        var withSound = EditMediaFacts(rate: rate, width: 320, height: 180, seconds: 10)
        (withSound.timecodeFrames, withSound.soundChannels, withSound.sampleRate) = (90_000, 2, 48_000)
        let silent = EditMediaFacts(rate: Rational(30000, 1001), width: 320, height: 180, seconds: 10)
        var pip = clip("pip", "/media/pip.mov", start: 0, frames: 10, facts: silent)
        pip.layout = pipLayout
        let items: [EditItem] = [
            .clip(clip("slow", "/media/a.mov", start: 90_010, frames: 20, facts: withSound, speed: PlaybackSpeed(0.5))),
            .transition(EditTransition(kind: .dissolve, name: transition, before: time(4), after: time(4))),
            .clip(clip("silent", "/media/b.mov", start: 5, frames: 30, facts: silent)),
            .gap(time(10)),
            .clip(clip("last", "/media/a.mov", start: 90_100, frames: 15, facts: withSound)),
        ]
        var timeline = EditTimeline(name: "Full & <all>", rate: rate, items: items, markers: [EditMarker(name: "Two", time: time(20))])
        timeline.videoTracks = [EditVideoTrack(name: "V1", items: items), EditVideoTrack(name: "V2", items: [.gap(time(5)), .clip(pip)])]
        timeline.format = EditOutputFormat(width: 320, height: 180, sampleRate: 48_000)
        timeline.titles = [EditTitle(kind: .caption, text: "Hello & <you>", start: 0, frames: 20),
                           EditTitle(kind: .card, text: "Card", background: "#336699", start: 50, frames: 10)]
        timeline.clipSound = true
        let bed = EditAudioClip(clip: clip("bed", "/media/bed.wav", start: 0, frames: 75, facts: nil), level: -12)
        timeline.music = EditMusicBed(track: EditAudioTrack(name: "Music", items: [.clip(bed)]), fadeIn: 1, fadeOut: 2, duck: 12)
        return timeline
    }
}

extension EditItem {
    /// As the export tests compare items: kind, name, source start and length (frames), speed.
    var described: String {
        switch self {
        case .clip(let clip):
            return "clip \(clip.name ?? "") \(EditReading.number(clip.source.start.value)) \(EditReading.number(clip.source.duration.value))"
                + (clip.speed.map { " x\($0.rate.value)" } ?? "")
        case .transition(let transition):
            let kind = transition.kind == .dissolve ? "dissolve" : "\(transition.kind)"
            return "\(kind) \(EditReading.number(transition.before.value)) \(EditReading.number(transition.after.value))"
        case .gap(let duration): return "gap \(EditReading.number(duration.value))"
        case .fill(let fill): return "fill \(fill.look) \(EditReading.number(fill.duration.value))"
        case .nested: return "nested"
        }
    }
}
