/// A clip drawn over another's pictures for some of its frames, where an
/// editor's timeline placed it (a picture-in-picture, a cropped or
/// translucent picture on an upper track): fitted to the canvas as any clip,
/// then scaled, moved, turned, cropped and faded by its layout.
package struct ClipLayer: Sendable, Equatable, Codable {
    /// Its media as placed: in point, duration, speed (no sound is taken from it).
    package var info: ClipInfo
    package var layout: EditLayout
    /// The host clip's frame (from its first) where the layer's first shows.
    package var firstFrame: Int
    package var frameCount: Int

    package init(info: ClipInfo, layout: EditLayout, firstFrame: Int, frameCount: Int) {
        self.info = info
        self.layout = layout
        self.firstFrame = firstFrame
        self.frameCount = frameCount
    }

    /// `entry`'s layer, its media probed and placed as `info`.
    package init(_ entry: LayerEntry, _ info: ClipInfo) {
        self.init(info: info, layout: entry.layout, firstFrame: entry.firstFrame, frameCount: entry.frameCount)
    }

    /// The host's frames it shows over.
    package var frames: Range<Int> { firstFrame..<(firstFrame + frameCount) }
}

/// A layer as the timeline names it, before its media is probed.
package struct LayerEntry: Sendable, Equatable {
    /// Its media and which of its frames (`edit`), as an entry of its own.
    package var entry: ClipEntry
    package var layout: EditLayout
    /// The host entry's frame where it starts, and how many frames it lasts.
    package var firstFrame: Int
    package var frameCount: Int

    package init(entry: ClipEntry, layout: EditLayout, firstFrame: Int, frameCount: Int) {
        self.entry = entry
        self.layout = layout
        self.firstFrame = firstFrame
        self.frameCount = frameCount
    }
}

extension PlannedClip {
    /// `layer` as a clip of its own: fitted to the canvas as this clip's fit
    /// says (its own, when it has one), as long as it shows over this clip.
    package func planned(_ layer: ClipLayer, canvas: Canvas) -> PlannedClip {
        let fit = layer.info.use.fit ?? self.fit
        let placement = Placement.fit(displayWidth: layer.info.facts.displayWidth, displayHeight: layer.info.facts.displayHeight,
                                      into: canvas, mode: fit)
        return PlannedClip(index: index, info: layer.info, frameCount: layer.frameCount, startFrame: startFrame + layer.firstFrame,
                           placement: placement, fit: fit)
    }
}
