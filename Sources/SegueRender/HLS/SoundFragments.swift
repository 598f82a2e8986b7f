import Foundation
internal import SegueMedia
internal import SegueBitstream
import SegueModel
import SegueRuntime

/// An HLS sound rendition's CMAF files, cut where Segue says rather than where
/// libavformat's HLS muxer would (its cuts drift from the pictures' by half
/// an AAC frame a segment): AAC packets go into one fragmented MP4, each
/// `cut()` ends a fragment, and the bytes the muxer added become a segment
/// file (`prefix_00000.m4s`, written whole under its name) after the init
/// segment (`prefix_init.mp4`). Packets come stamped from 0 in samples.
final class SoundFragments {
    private let folder: String
    private let prefix: String
    private let sampleRate: Int
    private let muxer: Muxer
    private let stream: Int
    /// The hidden file the muxer writes; its bytes are handed out as they come.
    private let staging: String
    private var readUpTo: UInt64 = 0
    private var samplesInFragment = 0
    /// Each segment written: its file name and seconds.
    private(set) var segments: [(name: String, seconds: Double)] = []

    /// The `styp` box each CMAF media segment starts with (brands `msdh`, `msix`), as libavformat's HLS muxer writes it.
    private static let segmentType: [UInt8] = [0, 0, 0, 24] + Array("styp".utf8) + Array("msdh".utf8) + [0, 0, 0, 0]
        + Array("msdh".utf8) + Array("msix".utf8)

    /// Writes in `folder`; `encoder` is an AAC encoder like the packets' (its parameters make the track).
    init(folder: String, prefix: String, encoder: Encoder, sampleRate: Int) throws {
        self.folder = folder
        self.prefix = prefix
        self.sampleRate = sampleRate
        staging = (folder as NSString).appendingPathComponent(Self.stagingName(prefix))
        muxer = try Muxer(path: staging, format: "mp4")
        stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader(options: ["movflags": "+frag_custom+dash+delay_moov"])
        // A flush before any packet writes the header with no samples (as libavformat's HLS muxer has it): the init segment.
        try muxer.flushFragment()
        let header = try readAdded()
        guard FragmentBoxes.topLevelEnd(of: ["ftyp", "moov"], in: header) == header.count else {
            throw SegueError(.writeFailed, subject: staging, detail: "the sound's header came out as something else than an init segment")
        }
        try OutputFile.writeAtomically(Data(header), to: path(HLSLadder.initSegment(prefix)))
    }

    /// The hidden file the fragments are made in.
    static func stagingName(_ prefix: String) -> String { ".\(prefix)_fragments.mp4" }

    /// Adds a packet (pts and duration in samples) to the fragment being made.
    func write(_ packet: Packet) throws {
        samplesInFragment += Int(packet.duration)
        try muxer.write(packet, stream: stream)
    }

    /// Ends the fragment being made as the next segment file.
    func cut() throws {
        guard samplesInFragment > 0 else { return }
        try muxer.flushFragment()
        let media = try readAdded()
        guard FragmentBoxes.baseDecodeTime(of: media) != nil else {
            throw SegueError(.writeFailed, subject: staging, detail: "the sound's fragment \(segments.count) came out without its times")
        }
        let name = HLSLadder.mediaSegment(prefix, segments.count)
        try OutputFile.writeAtomically(Data(Self.segmentType + media), to: path(name))
        segments.append((name, Double(samplesInFragment) / Double(sampleRate)))
        samplesInFragment = 0
    }

    /// Cuts the last fragment and removes the staging file (the trailer's index isn't wanted).
    func finish() throws {
        try cut()
        defer { unlink(staging) }
        try muxer.finish()
    }

    /// Removes the staging file of a render that failed.
    func abandon() {
        unlink(staging)
    }

    /// The bytes the muxer added to the staging file since the last call.
    private func readAdded() throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: staging))
        defer { try? handle.close() }
        try handle.seek(toOffset: readUpTo)
        let added = [UInt8](try handle.readToEnd() ?? Data())
        readUpTo += UInt64(added.count)
        return added
    }

    private func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
}
