internal import SegueMedia
import SegueModel

extension Decoder {
    /// A decoder for a probed video stream, or why there is none as a bad
    /// input: no decoder for its codec, or one that won't open on this stream
    /// (its parameters, memory), said as it is.
    static func opened(_ demuxer: Demuxer, streamIndex: Int, codec: String) throws -> Decoder {
        do {
            return try Decoder(demuxer: demuxer, streamIndex: streamIndex, threads: 1)
        } catch let error as FFmpegError where error.call == "avcodec_find_decoder" {
            throw BadInputReason.noVideoDecoder(codec: codec)
        } catch {
            throw BadInputReason.decodeFailed("its \(codec) decoder can't be opened (\(error))")
        }
    }
}
