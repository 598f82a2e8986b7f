internal import SegueMedia
import SegueInput
import SegueModel

/// One read of a clip for `--smart`: its video packets' GOP facts
/// (`ClipScan`) and its AAC packets (`SoundCopyPlanner.Scan`), both
/// collected in a single pass over the file. Each side that is asked for
/// ends as its scan or the error that stopped it; one side's failure doesn't
/// stop the other's.
struct ClipRead {
    /// Nil when the video was not asked for.
    private(set) var video: Result<ClipScan, Error>?
    /// Nil when the sound was not asked for.
    private(set) var sound: Result<[SoundCopyPlanner.Scanned], Error>?

    /// Reads `clip` once: its video when `videoSyntax` is given, its sound when `readsSound`.
    init(clip: PlannedClip, canvas: Canvas, videoSyntax: CopySyntax?, readsSound: Bool, access: InputAccess) {
        guard videoSyntax != nil || readsSound else { return }
        let demuxer: Demuxer
        do {
            demuxer = try access.openDemuxer(clip.info.readPath)
        } catch {
            if videoSyntax != nil { video = .failure(error) }
            if readsSound { sound = .failure(error) }
            return
        }
        var videoScan: ClipScan?, soundScan: SoundCopyPlanner.Scan?
        if let videoSyntax {
            do { videoScan = try ClipScan(clip: clip, demuxer: demuxer, canvas: canvas, syntax: videoSyntax) } catch { video = .failure(error) }
        }
        if readsSound {
            do { soundScan = try SoundCopyPlanner.Scan(clip: clip, demuxer: demuxer, canvas: canvas) } catch { sound = .failure(error) }
        }
        let packet = Packet()
        do {
            while videoScan != nil || soundScan != nil, try demuxer.read(into: packet) {
                if packet.streamIndex == videoScan?.streamIndex {
                    do { try videoScan?.take(packet) } catch {
                        video = .failure(error)
                        videoScan = nil
                    }
                } else if packet.streamIndex == soundScan?.streamIndex {
                    soundScan?.take(packet)
                }
            }
        } catch {
            if videoScan != nil { video = .failure(error) }
            if soundScan != nil { sound = .failure(error) }
            return
        }
        if let videoScan { video = Result { try videoScan.finish(); return videoScan } }
        if let soundScan { sound = .success(soundScan.packets) }
    }
}
