internal import SegueMedia
import SegueModel

/// What a damaged or truncated stretch of a clip's file does: it ends the
/// clip's media there and the clip keeps its planned length (last picture
/// held, silence); with `--strict` it ends the stitch instead. Only what
/// reading and decoding say of the data is damage: a lost connection, memory,
/// or a filter graph's or encoder's failure is never concealed here.
package struct DamagePolicy {
    /// `--strict`: damage stops the stitch.
    package let strict: Bool
    /// The clip the damage is reported against.
    package let subject: String

    /// Runs one read or decode step; false when damage ended the stream there.
    package func survives(_ step: () throws -> Void) throws -> Bool {
        do {
            try step()
            return true
        } catch let error as FFmpegError where error.isDamage {
            if strict {
                throw SegueError(.damagedMedia, subject: subject,
                                 detail: "damaged media (\(error.message)); stopped because of --strict", underlying: error)
            }
            return false
        } catch let error as FFmpegError where !error.isTransport && error != .exit {
            throw SegueError(.processingFailed, subject: subject,
                             detail: "processing failed (\(error.description)); the file's data was read and decoded", underlying: error)
        }
    }
}
