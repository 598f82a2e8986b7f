import SegueCore

extension StitchSettings {
    /// These settings for an output written as `container` (`output` names
    /// it): the container's own codec when none was chosen (VP9 in WebM), a
    /// `.usage` error for a codec it can't hold (H.264 or HEVC in WebM, VP9 or AV1 in an HLS ladder), and
    /// `--smart` turned off in WebM, with a note: nothing can be copied there.
    package func fitted(to container: OutputContainer, codecChosen: Bool, output: String) throws -> (StitchSettings, [Warning]) {
        var settings = self
        if !codecChosen { settings.codec = container.defaultCodec }
        guard container.holds(settings.codec) else {
            let holds = VideoCodecChoice.allCases.filter(container.holds).map(\.rawValue).joined(separator: " or ")
            let others = container == .hls ? ".mp4 or .webm" : ".mp4"
            let name = container.displayName.prefix(1).uppercased() + container.displayName.dropFirst()
            throw SegueError.usage("\(output): \(name) holds \(container.heldVideo) video, not \(settings.codec.displayName) "
                                   + "(--codec \(holds), or name the output \(others))")
        }
        guard container == .webm, settings.smart else { return (settings, []) }
        settings.smart = false
        return (settings, [.smartOffInWebM(output: output)])
    }
}
