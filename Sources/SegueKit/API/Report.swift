import Foundation
internal import SegueMedia
import SegueRender
import SegueInput
import SegueModel
import SegueCore
import SegueRuntime

/// The report as JSON: a clip's probed facts, and the whole report as `--report` writes it.
extension ClipInfo {
    /// The probed facts as JSON values, shared by `segue probe --json` and the report.
    package var jsonFacts: [String: Any] {
        let facts = self.facts, use = self.use
        var json: [String: Any] = [
            "path": path, "container": facts.container, "videoCodec": facts.videoCodec,
            "codedWidth": facts.codedWidth, "codedHeight": facts.codedHeight,
            "displayWidth": facts.displayWidth, "displayHeight": facts.displayHeight, "rotation": facts.orientation.rotation,
            "variableFrameRate": facts.variableFrameRate, "pixelFormat": facts.pixelFormat, "duration": use.duration,
            "still": facts.isStill,
        ]
        if facts.isStill { json["orientation"] = facts.orientation.exif }
        if let caption = use.caption { json["caption"] = caption }
        if let card = use.card { json["card"] = ["text": card.text, "background": card.background] }
        json["audio"] = facts.audio.map { ["codec": $0.codec, "sampleRate": $0.sampleRate, "channels": $0.channels] } ?? NSNull()
        json.merge(facts.colourJSON) { _, colour in colour }
        json["pictureDuration"] = facts.timing.pictureDuration
        json["dolbyVisionProfile"] = facts.dolbyVisionProfile ?? NSNull()
        json["hdrMetadata"] = facts.hdrMetadata?.json ?? NSNull()
        json["subtitleStreams"] = facts.subtitleStreams.map { stream in
            ["index": stream.index, "codec": stream.codec, "language": stream.language ?? NSNull(), "default": stream.isDefault,
             "bitmap": stream.isBitmap] as [String: Any]
        }
        json["sidecars"] = facts.sidecars
        if let edited = use.edited {
            json["timelineClip"] = ["name": edited.name, "before": edited.before, "after": edited.after,
                                    "heldBefore": edited.heldBefore, "heldAfter": edited.heldAfter,
                                    "speed": use.speed.map { $0.rate.value } ?? 1] as [String: Any]
        }
        json["startTimecode"] = facts.startTimecode.map { ["timecode": $0.text, "seconds": $0.seconds, "rate": $0.rate.description] }
            ?? NSNull()
        if let subtitles {
            json["subtitles"] = ["source": subtitles.source, "language": subtitles.language ?? NSNull(), "cues": subtitles.cues.count]
                as [String: Any]
        }
        return json
    }
}

extension ClipFacts {
    /// Colour as converted (stated or assumed), and what the file itself states.
    var colourJSON: [String: Any] {
        [
            "dynamicRange": dynamicRange.rawValue, "colourMatrix": colourMatrix.rawValue,
            "colourRange": fullRange ? "full" : "limited", "bitDepth": colour.bitDepth, "interlaced": interlaced,
            "fieldOrder": fieldOrder.rawValue,
            "colour": [
                "matrix": colour.matrix ?? NSNull(), "primaries": colour.primaries ?? NSNull(),
                "transfer": colour.transfer ?? NSNull(),
                "range": colour.fullRange.map { $0 ? "full" : "limited" } ?? NSNull(),
            ] as [String: Any],
        ]
    }
}

extension HDRMetadata {
    /// The metadata as probe and the report give it: chromaticities as [x, y], luminances in cd/m².
    var json: [String: Any] {
        ["red": red, "green": green, "blue": blue, "whitePoint": whitePoint, "minLuminance": minLuminance,
         "maxLuminance": maxLuminance, "maxCLL": maxCLL ?? NSNull(), "maxFALL": maxFALL ?? NSNull()]
    }

    /// A short form for probe's table: "1000 cd/m², CLL 1000/400".
    var summary: String {
        Plan.decimal(maxLuminance) + " cd/m²" + (maxCLL.map { ", CLL \($0)/\(maxFALL ?? 0)" } ?? "")
    }
}

extension StitchReport {
    /// The report as `--report` writes it: inputs with their probed facts, the
    /// output's settings and facts, planned against actual duration, each join
    /// with its stall, warnings, wall time and peak memory.
    package func json(plan: Plan, settings: StitchSettings) throws -> Data {
        let rounded = Self.rounded
        let stalls = joins.map(\.stallSeconds).sorted()
        var object: [String: Any] = [
            "inputs": inputsJSON(plan: plan, settings: settings),
            "output": outputJSON(plan: plan, settings: settings),
            "mode": plan.mode.rawValue,
            "joins": joinsJSON(plan: plan),
            "stall": [
                "totalSeconds": rounded(totalStallSeconds, 1e6), "worstSeconds": rounded(worstStallSeconds, 1e6),
                "medianSeconds": stalls.isEmpty ? 0 : rounded(stalls[stalls.count / 2], 1e6),
            ],
            "music": music.map { music in
                ["path": music.path, "gain": rounded(music.gain, 1000), "volume": music.volume, "duck": music.ducking,
                 "loudness": Self.loudnessJSON(music.loudness, target: nil)] as [String: Any]
            } ?? NSNull(),
            "chapters": settings.chapters ? plan.chapters.map { chapter in
                ["title": chapter.title, "start": rounded(Double(chapter.startFrame) / canvas.frameRate.value, 1e6),
                 "startFrame": chapter.startFrame] as [String: Any]
            } : NSNull(),
            "subtitles": plan.subtitleTrack(settings).map { track in
                ["language": track.language, "cues": track.cues.count] as [String: Any]
            } ?? NSNull(),
            "startupSeconds": rounded(startupSeconds, 1e6),
            "warnings": warnings,
            "wallSeconds": rounded(wallSeconds, 1000),
            "peakMemoryBytes": peakMemoryBytes,
        ]
        if let smart { object["smart"] = smartJSON(smart, plan: plan) }
        if let cover {
            // The cover and poster: the output frame they start at (the poster's), by number and time.
            object["cover"] = cover.json(frameRate: canvas.frameRate)
        }
        if let renditions {
            // An HLS output: each file written with its size, bit rates and codecs.
            object["renditions"] = renditions.map(\.json)
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private static func rounded(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }

    /// Each input with its probed facts and its place in the output.
    private func inputsJSON(plan: Plan, settings: StitchSettings) -> [[String: Any]] {
        plan.clips.map { clip in
            let info = clip.info
            return info.jsonFacts.merging([
                "frameRate": info.facts.frameRate.description, "duration": Self.rounded(info.use.duration, 1e6),
                "sourceDuration": Self.rounded(info.facts.timing.sourceDuration, 1e6), "inPoint": Self.rounded(info.use.inPoint, 1e6),
                "startFrame": clip.startFrame, "frames": clip.frameCount,
                "loudness": Self.loudnessJSON(info.loudness, target: settings.loudness),
            ]) { _, reported in reported }
        }
    }

    /// The output's settings and facts.
    private func outputJSON(plan: Plan, settings: StitchSettings) -> [String: Any] {
        // The file as written: its size, its mean bit rate over its picture's length, its codecs as a web page names them.
        // An HLS ladder's: every rendition's files, its sharpest rung's codecs, a playlist's type.
        var bytes = FileSize.bytes(atPath: output)
        let codecs = container == .hls ? nil : CodecStrings.read(output)
        var codecString: Any = codecs?.video ?? NSNull(), mimeType: Any = codecs.map { $0.mimeType(container) } ?? NSNull()
        if container == .hls, let renditions {
            bytes = renditions.reduce(0) { $0 + $1.bytes }
            codecString = renditions.first?.codecs ?? NSNull()
            mimeType = "application/vnd.apple.mpegurl"
        }
        return [
            "path": output, "container": container.rawValue, "bytes": bytes ?? NSNull(), "files": files ?? [output],
            "codecString": codecString, "mimeType": mimeType,
            "bitRate": bytes.map { duration > 0 ? Int((Double($0 * 8) / duration).rounded()) : 0 } ?? NSNull(),
            "codec": settings.codec.rawValue, "crf": settings.crf, "preset": settings.preset,
            "dynamicRange": canvas.colour.dynamicRange.rawValue, "bitDepth": canvas.colour.bitDepth,
            "pixelFormat": canvas.colour.pixelFormatName, "dynamicRangeReason": plan.colourReason,
            "hdrMetadata": canvas.hdrMetadata?.json ?? NSNull(),
            "width": canvas.width, "height": canvas.height, "frameRate": canvas.frameRate.description,
            "frames": frames, "duration": Self.rounded(duration, 1e6), "plannedDuration": Self.rounded(plannedDuration, 1e6),
            "audio": settings.includeAudio ? [
                "codec": container.soundCodec, "codecString": codecs?.audio ?? NSNull(), "sampleRate": canvas.sampleRate, "channels": canvas.soundChannels, "bitRate": settings.audioBitRate,
                "samples": audioSamples, "duration": Self.rounded(Double(audioSamples) / Double(canvas.sampleRate), 1e6),
            ] as [String: Any] : NSNull(),
        ]
    }

    private func joinsJSON(plan: Plan) -> [[String: Any]] {
        joins.map { join in
            [
                "index": join.index, "from": plan.clips[join.index].info.path, "to": plan.clips[join.index + 1].info.path,
                "transition": join.transition.rawValue, "frames": join.frames, "duration": Self.rounded(join.seconds, 1e6),
                "stallSeconds": Self.rounded(join.stallSeconds, 1e6),
            ]
        }
    }

    /// What `--smart` copied and re-encoded, in all and per clip, and why a clip was not copied.
    private func smartJSON(_ smart: [SmartClip], plan: Plan) -> [String: Any] {
        let track: Any = smartTrack.map { track in
            [
                "storedWidth": track.storedWidth, "storedHeight": track.storedHeight,
                "rotation": track.orientation.rotation, "mirrored": track.orientation.mirrored, "fullRange": track.fullRange,
            ] as [String: Any]
        } ?? NSNull()
        return [
            "track": track,
            "framesCopied": framesCopied, "framesReencoded": frames - framesCopied,
            "audioFramesCopied": audioFramesCopied, "audioFramesReencoded": audioFramesReencoded,
            "clips": smart.map { clip in
                [
                    "index": clip.index, "path": plan.clips[clip.index].info.path,
                    "framesCopied": clip.framesCopied, "framesReencoded": clip.framesReencoded,
                    "picturesCopied": clip.picturesCopied,
                    "reason": clip.reason ?? NSNull(),
                    "sound": clip.sound.map { sound in
                        [
                            "offsetSamples": sound.shiftSamples, "framesCopied": sound.framesCopied,
                            "framesReencoded": sound.framesReencoded, "reason": sound.reason ?? NSNull(),
                        ] as [String: Any]
                    } ?? NSNull(),
                ] as [String: Any]
            },
        ]
    }

    /// A clip's measured loudness and, with a target, the gain it got (null when not measured).
    static func loudnessJSON(_ loudness: ClipInfo.Loudness?, target: Double?) -> Any {
        guard let loudness else { return NSNull() }
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        var facts: [String: Any] = ["integrated": rounded(loudness.integrated), "truePeak": rounded(loudness.truePeak)]
        if target != nil {
            let adjustment = LoudnessMeter.adjustment(for: loudness, target: target)
            facts["gain"] = rounded(adjustment?.gain ?? 0)
            facts["limited"] = adjustment?.limited ?? false
        }
        return facts
    }
}

extension StitchReport.Rendition {
    /// A rendition in a report (a stitch's or a join's): its playlist, size, bit rates and codecs.
    var json: [String: Any] {
        ["playlist": playlist, "codecs": codecs, "width": width, "height": height, "segments": segments, "bytes": bytes,
         "peakBitRate": peakBitRate, "averageBitRate": averageBitRate,
         "longestSegmentSeconds": (longestSegmentSeconds * 1e6).rounded() / 1e6]
    }
}

extension StitchReport.Cover {
    /// The cover and poster in a report: the output frame they start at (the poster's), by number and time.
    func json(frameRate: Rational) -> [String: Any] {
        ["path": path ?? NSNull(), "poster": poster ?? NSNull(), "firstFrame": firstFrame,
         "start": (Double(firstFrame) / frameRate.value * 1e6).rounded() / 1e6, "frames": frames, "bytes": bytes, "codec": "h264"]
    }
}
