import Foundation
import SegueCore

/// An HLS output's renditions (`-o DIR/master.m3u8`): each rung's size,
/// its capped quality and its files' names, and the segment grid every
/// rung's keyframes fall on, so players switch rungs cleanly.
package struct HLSLadder: Sendable, Equatable {
    package struct Rung: Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// The VBV cap on the rung's CRF encoding, bits a second, and its buffer.
        package var maxRate: Int
        package var bufferBits: Int
        /// SDR (H.264), or the HDR canvas's HLG or PQ (HEVC Main 10).
        package var range: DynamicRange = .sdr

        package var codec: VideoCodecChoice { range.isHDR ? .hevc : .h264 }
        /// The rung's name in its files: `720p` (its short side), `720p_hlg` for an HDR one.
        package var name: String { "\(min(width, height))p" + (range.isHDR ? "_" + range.rawValue.lowercased() : "") }
        /// Its media playlist, beside the master playlist.
        package var playlist: String { "video_\(name).m3u8" }
        /// The prefix of its segments' files.
        package var prefix: String { "video_\(name)" }
    }

    package var rungs: [Rung]
    /// Frames in each segment (the last may be shorter): a keyframe starts each.
    package var segmentFrames: Int
    package var frameRate: Rational

    /// The short sides a default ladder takes below the canvas's own.
    package static let standardShortSides = [2160, 1440, 1080, 720, 360]
    /// Bits a pixel the VBV cap allows at most (6.2 Mb/s for 1080p at 30).
    static let bitsPerPixel = 0.1
    /// The sound rendition's playlist, and the prefix of its segments' files.
    package static let soundPlaylist = "audio.m3u8"
    package static let soundPrefix = "audio"

    /// A rendition's init segment, by the prefix of its files: `video_720p_init.mp4`.
    package static func initSegment(_ prefix: String) -> String { prefix + "_init.mp4" }
    /// Its media segment `index`: `video_720p_00012.m4s`.
    package static func mediaSegment(_ prefix: String, _ index: Int) -> String { prefix + String(format: "_%05d.m4s", index) }

    /// The rungs `settings.ladder` names, or the canvas's short side and the standard ones below it.
    /// Throws the reason a rung can't be made (sharper than the canvas).
    package init(canvas: Canvas, settings: StitchSettings) throws {
        let short = min(canvas.width, canvas.height)
        let sides = settings.ladder ?? [short] + Self.standardShortSides.filter { $0 < short }
        if let sharpest = sides.max(), sharpest > short {
            throw LadderError("--ladder \(sharpest) is sharper than the canvas's \(canvas.width)x\(canvas.height) "
                              + "(its short side is \(short); --size sets the canvas)")
        }
        frameRate = canvas.frameRate
        let sdr = sides.sorted(by: >).map { side in
            let scale = Double(side) / Double(short)
            func even(_ value: Int) -> Int { max(2, Int((Double(value) * scale / 2).rounded()) * 2) }
            let (width, height) = canvas.width <= canvas.height ? (side, even(canvas.height)) : (even(canvas.width), side)
            let maxRate = max(200_000, Int(Double(width * height) * canvas.frameRate.value * Self.bitsPerPixel))
            return Rung(width: width, height: height, maxRate: maxRate, bufferBits: 2 * maxRate)
        }
        // An HDR canvas: its HLG or PQ rungs, then an SDR ladder beside them, as Apple's authoring specification asks.
        let range = canvas.colour.dynamicRange
        rungs = (range.isHDR ? sdr.map { rung in var hdr = rung; hdr.range = range; return hdr } : []) + sdr
        // Whole frames, at least the seconds asked for, so every segment lasts its target.
        segmentFrames = max(1, Int((settings.hlsSeconds * canvas.frameRate.value - 1e-6).rounded(.up)))
    }

    /// Seconds of one whole segment.
    package var segmentSeconds: Double { Double(segmentFrames) / frameRate.value }
}

/// Why a ladder can't be made as asked.
package struct LadderError: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

extension OptionReader where Value == [Int] {
    /// An HLS ladder: short sides in pixels, comma-separated (`1080,720,360`) or a JSON list; each even,
    /// 64 to 4320, none twice, at most `OptionLimits.mostRungs`.
    static var ladder: OptionReader {
        let limit = OptionLimits.rungPixels
        let fits: @Sendable ([Int]) -> Bool = { rungs in
            !rungs.isEmpty && rungs.count <= OptionLimits.mostRungs && Set(rungs).count == rungs.count
                && rungs.allSatisfy { limit.contains($0) && $0 % 2 == 0 }
        }
        let sorted: @Sendable ([Int]) -> [Int]? = { fits($0) ? $0.sorted(by: >) : nil }
        return OptionReader(expects: "short sides in pixels like 1080,720,360 (even, \(Int(limit.lower)) to \(Int(limit.upper)), "
                            + "at most \(OptionLimits.mostRungs), none twice)",
                            text: { text in
                                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                                let numbers = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                                return numbers.count == parts.count ? sorted(numbers) : nil
                            },
                            json: { value, _ in
                                guard let list = value as? [Any], list.allSatisfy(JSONValue.isNumber) else { return nil }
                                let numbers = list.compactMap { $0 as? Int }
                                return numbers.count == list.count ? sorted(numbers) : nil
                            },
                            accepts: fits, describe: { $0.map(String.init).joined(separator: ",") })
    }
}
