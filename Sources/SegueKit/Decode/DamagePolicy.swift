import SegueMedia

/// What a damaged or truncated stretch of a clip's file does: it ends the
/// clip's media there and the clip keeps its planned length (last picture
/// held, silence); with `--strict` it ends the stitch instead. A lost
/// connection is not damage: it is never concealed here.
struct DamagePolicy {
    /// `--strict`: damage stops the stitch.
    let strict: Bool
    /// The clip the damage is reported against.
    let subject: String

    /// Runs one read or decode step; false when damage ended the stream there.
    func survives(_ step: () throws -> Void) throws -> Bool {
        do {
            try step()
            return true
        } catch let error as FFmpegError where !error.isTransport && error != .exit {
            if strict {
                throw SegueError(.damagedMedia, subject: subject,
                                 detail: "damaged media (\(error.message)); stopped because of --strict", underlying: error)
            }
            return false
        }
    }
}
