import Foundation

/// One MP4 chapter: a clip's stretch of the output, in output frames.
package struct Chapter: Sendable, Equatable {
    package var title: String
    package var startFrame: Int
    package var endFrame: Int
}

extension Plan {
    /// One chapter per clip, starting where the clip first appears (the start
    /// of the transition into it), titled by its list entry or its file name.
    package var chapters: [Chapter] {
        let starts = clips.map(firstSeen)
        return clips.indices.map { index in
            Chapter(title: Plan.chapterTitle(clips[index].info), startFrame: starts[index],
                    endFrame: index + 1 < clips.count ? starts[index + 1] : totalFrames)
        }
    }

    /// The list's title, else the file name without its extension.
    static func chapterTitle(_ info: ClipInfo) -> String {
        if let title = info.use.title { return title }
        if let card = info.use.card { return card.text.split(whereSeparator: \.isNewline).joined(separator: " ") }
        let name: String
        switch InputLocation(info.path) {
        case .remote(let url): name = URL(string: url)?.lastPathComponent ?? url
        case .file(let file): name = (file as NSString).lastPathComponent
        case .refusedProtocol: name = (info.path as NSString).lastPathComponent
        }
        let stem = (name as NSString).deletingPathExtension
        return stem.isEmpty ? name : stem
    }
}
